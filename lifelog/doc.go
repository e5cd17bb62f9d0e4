// Package lifelog records the lives of requests as they cross a storage
// stack, from sim.Observer hooks: a tree per host request (the layers it
// entered, the member I/Os an array split it into, each drive's phases,
// seek and rotation), the RAID plan of each stripe written, what a
// write-back cache absorbed, and the destages that later carried a
// host write's data. It feeds teaching views: `raidsim explain`, the
// request timeline, per-phase averages and trace-event files.
//
// # Breakdown
//
// A drive overlaps some of its phases (the bus carries a read's data
// while the platter still delivers it) and an array runs member I/Os in
// parallel, so raw phase spans need not add up to a request's latency.
// Life.Breakdown walks the critical path instead: from the completion
// backwards, the child that finished last, then what it waited for, down
// to the drive's phases; time no phase claims is "other". Its segments
// tile [Submitted, Completed] exactly, so they add up to the latency.
//
// # Cost
//
// A Log allocates a record per request it keeps; devices pay only a nil
// check when no Log is attached. Bound it with Log.MaxRoots or
// Log.Until; Log.Cut counts what was left out.
package lifelog
