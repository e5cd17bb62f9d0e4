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
//	sweep    grids of configurations run on all cores, and shards of them
//	plot     latency CDFs, metric lines and heat maps as SVG or PNG
//
// This package ties them together for the common job: build a stack, run a
// workload on it, and read a report. Experiment is one workload on one
// stack, built in Go. Config is the declarative form: a stack and a list
// of phases run in order on it (the same devices, so caches keep their
// contents between phases), loaded from YAML or JSON with LoadConfig or
// ParseConfig, checked by Validate with every problem's key path, and run
// by Config.Run into a ConfigReport (each phase, and the whole run). The
// schema is documented in examples/configs/README.md. Experiment.BuildStack
// builds just the devices, for code that drives them itself.
//
// For teaching, a Timeline records each request's life phase by phase,
// and Experiment.PowerLossAt (config power_loss_at) reports what a power
// failure at that instant would lose in each layer: the volume cache's
// dirty data, each drive's write cache, and the RAID updates in flight
// (the write hole).
package raidsim
