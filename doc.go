// Package raidsim simulates storage stacks in virtual time: hard disks,
// RAID arrays and volume write-back caches, driven by block I/O traces or
// synthetic workloads.
//
// The layers live in their own packages, each usable alone:
//
//	sim      virtual time, the event engine, requests and the Device interface
//	disk     the hard-disk model: zones, seek, rotation, buffer, write cache, NCQ
//	raid     RAID 0, 1, 5 and 10 arrays over any devices: parity, degraded mode, rebuild
//	cache    the volume write-back cache: coalescing, destage policies, read-ahead
//	trace    workload records, trace readers and writers, synthetic fio-style workloads, replay
//	metrics  latency histograms, per-op statistics, report tables
//	simtest  an in-memory device and the conformance suite every layer passes
//	spec     the one description of an experiment: stack and phases, decoding, Set by key path, Validate
//	sweep    grids of configurations run on all cores, and shards of them
//	plot     latency CDFs, metric lines and heat maps as SVG or PNG
//
// This package runs what spec describes. A spec.Experiment is plain
// data: Go code fills it, spec.Load decodes a YAML or JSON file into it,
// and every `raidsim run` flag sets one of its key paths. Run checks it
// once (spec's Plan: every problem with its key path, the stack's
// capacity computed without building a device), builds each device
// once, runs the phases in order on the same stack (caches keep their
// contents from one phase to the next) and returns one Report: each
// phase, the whole run, the drives, the array and the cache, with
// WriteText for people and WriteJSON (with a schema_version) for
// programs. NewStack builds just the devices of a spec.Stack, for code
// that drives them itself (two stacks on one engine); package program
// issues a single-threaded program's requests to them one at a time.
//
// spec.Experiment.PowerLossAt reports what a power failure at that
// instant would lose in each layer: the volume cache's dirty data, each
// drive's write cache, and the RAID updates in flight (the write hole).
// Package teach tells a run's requests for people (Explain, Timeline,
// PhaseSummary), and package benchmark emulates benchmarks as runs
// (IOzone, RebuildUnderLoad).
package raidsim
