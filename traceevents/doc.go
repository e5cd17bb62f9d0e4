// Package traceevents writes the request lives of a lifelog.Log as a
// Chrome trace-event JSON file, which Perfetto (ui.perfetto.dev) and
// chrome://tracing open: a timeline of every request and drive command
// of a run, to scroll and zoom through.
//
// # Layout
//
// One process per layer: "workload" holds the host requests, one
// process per intermediate layer ("cache", "array") holds what that
// layer received that no host waits for directly (a destage), and
// "drives" holds one thread per drive. Requests that overlap in time
// go to separate threads ("lanes") of their process, so the spans of
// each thread nest properly. Under each request span are its
// critical-path segments (lifelog.Breakdown: "disk2 seek", "disk2
// rotate", "array queue"), so the time it waited for each drive phase
// is visible where it waited. A drive's span covers its service, from
// dispatch to completion, with its overhead, seek, rotation, media and
// bus transfers nested (its queue wait is in the args and in the
// request above).
//
// Flow arrows (flow events "s" and "f", the finish bound to its
// enclosing slice) run from a request to each request it caused: a host
// request to its member I/Os, a host write to the destage that carried
// its data, the destage to its member I/Os. Counters ("C") give each
// drive's queue depth and write-cache fill and each cache's dirty
// bytes.
//
// Times ("ts", "dur") are microseconds of virtual time, with nanosecond
// precision. The file is deterministic: the same run gives the same
// bytes.
package traceevents
