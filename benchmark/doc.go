// Package benchmark emulates storage benchmarks and measurement
// procedures on simulated stacks: what a benchmark tool or an
// administrator would run on real hardware, reproduced as a sequence of
// raidsim runs.
//
//   - [IOzone] is iozone's file test (-i 0 -i 1): write, rewrite, read
//     and reread of each file size and record size on a fresh stack,
//     reported in MB/s with the host's CPU utilization
//     (`raidsim iozone`).
//   - [RebuildUnderLoad] measures a RAID rebuild's progress under a
//     foreground load over a window of virtual time and extrapolates the
//     whole rebuild's time (`raidsim reliability --load`).
//
// Each builds on the root package's Run, Build and RunPhase and reads
// their reports; a stack is described by package spec. A new benchmark
// emulation goes here.
package benchmark
