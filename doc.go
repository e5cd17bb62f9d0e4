// Package raidsim simulates storage stacks in virtual time: hard disks
// and SSDs, RAID 0, 1, 5, 6 and 10 arrays, volume write-back caches and
// the host in front of them (CPU cost, page cache, network), driven by
// block I/O traces or synthetic workloads.
//
// This package does one job: it builds the stack a spec.Experiment
// describes, runs the experiment's phases on it and returns the Report.
// Everything else lives in a package of its own, each usable alone:
//
//	sim             virtual time, the event engine, requests, the Device interface, Observer hooks
//	drive           the one interface every kind of drive meets (model, device, report section, presets)
//	disk            the hard-disk model: zones, seek, rotation, buffer, write cache, NCQ, presets
//	disk/disksim    DiskSim 4.0 parameter files as disk models
//	ssd             the SSD model: link, write buffer, dies and channels, FTL, garbage collection, presets
//	raid            RAID 0, 1, 5, 6 and 10 arrays over any devices: parity, degraded mode, rebuild
//	raid/crashcheck what a power loss did to an array's bytes: lost and torn writes, the write hole
//	cache           the volume write-back cache: coalescing, destage and eviction policies, read-ahead
//	host            the host: CPU cost per request, the OS page cache, a network link
//	faults          a fault-injecting wrapper for any device: UREs, timeouts, failures, a volatile cache
//	trace           workload records, trace readers and writers, synthetic fio-style workloads, replay
//	program         a single-threaded program's requests, one at a time (a copy, an installer)
//	metrics         latency histograms, per-op statistics, report tables
//	lifelog         a request's life from the Observer hooks; traceevents writes it for Perfetto
//	simtest         an in-memory device and the conformance suite every layer passes
//	spec            the one description of an experiment: stack and phases, decoding, Set by key path, Validate
//	teach           the teaching views of a run: Explain, Timeline, PhaseSummary
//	benchmark       benchmark emulations as runs: IOzone, RebuildUnderLoad
//	sweep, plot     grids of configurations run on all cores; figures as SVG or PNG
//	calibrate       fits a drive model to a measured trace
//	reliability     MTTDL and the odds of a loss per year
//	mrc             miss-ratio curves of a trace: exact LRU, SHARDS, the cache's policies simulated
//
// # Build, run, report
//
// A spec.Experiment is plain data: Go code fills it, spec.Load decodes
// a YAML or JSON file into it, and every `raidsim run` flag sets one of
// its key paths. [Run] checks it once (spec's Plan: every problem with
// its key path, the stack's capacity computed without building a
// device), builds each device once ([Build]), runs the phases in order
// on the same stack (caches keep their contents from one phase to the
// next) and returns one [Report]: each phase, the whole run, the drives,
// the array, the cache and the host, with WriteText for people and
// WriteJSON (with a schema_version) for programs. A planned power loss
// (spec.Experiment.PowerLossAt) adds what each layer would lose at that
// instant: the page cache's and the volume cache's dirty data, each
// drive's write cache, and the RAID updates in flight (the write hole).
// A planned rebuild adds its time and the foreground's slowdown against
// the same run on a healthy array.
//
// [NewStack] builds just the devices of a spec.Stack, for code that
// drives them itself (two stacks on one engine, package program's
// copies), and [RunPhase] runs one phase on such a stack. [Generate]
// writes the synthetic workload a run would replay as a trace.
package raidsim
