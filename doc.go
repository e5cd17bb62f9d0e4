// Package raidsim simulates storage stacks in virtual time: hard disks,
// RAID arrays and volume write-back caches, driven by block I/O traces or
// synthetic workloads.
//
// The layers live in their own packages, each usable alone:
//
//	sim      virtual time, the event engine, requests and the Device interface
//	disk     the hard-disk model: zones, seek, rotation, buffer, write cache, NCQ
//	trace    workload records, synthetic fio-style workloads, replay
//	metrics  latency histograms, per-op statistics, report tables
//	simtest  an in-memory device and the conformance suite every layer passes
//
// This package ties them together for the common job: build a stack, run a
// workload on it, and read a report. Experiment is one workload on one
// stack, built in Go. Config is the declarative form: a stack and a list
// of phases run in order on it (the same devices, so caches keep their
// contents between phases), loaded from YAML or JSON with LoadConfig or
// ParseConfig, checked by Validate with every problem's key path, and run
// by Config.Run into a ConfigReport (each phase, and the whole run). The
// schema is documented in examples/configs/README.md.
package raidsim
