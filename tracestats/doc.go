// Package tracestats describes a block I/O trace before it is replayed:
// how many requests, of which kinds and sizes, how sequential, how they
// arrive over time and in bursts, how much of the device they touch and
// how soon they come back to the same blocks.
//
// [Collect] reads a trace twice, streaming, in memory that does not
// grow with the trace: once for everything but reuse, once for the LRU
// miss-ratio curve of package mrc. Every figure is exact except, on big
// traces, the footprint and the curve, whose estimators are bounded:
//
//   - Footprint (distinct 4 KiB blocks, as mrc counts them: per device
//     of a multi-device trace) is exact when the curve is exact, else a
//     HyperLogLog estimate over 16 KiB of registers (standard error
//     0.81%, [HLLError]).
//   - The curve is exact (Mattson's stack distances, memory about 64
//     bytes a distinct block) while the HyperLogLog footprint is at most
//     Options.SampleBlocks (2^17 by default); past it, SHARDS samples
//     the blocks at SampleBlocks/footprint, so the sample holds about
//     SampleBlocks blocks whatever the trace (Waldspurger et al., FAST
//     2015; mrc.SHARDS).
//
// Everything else is kept in fixed-size state: counters, a log-bucketed
// histogram of inter-arrival times (metrics.Histogram), rings of a few
// windows for burstiness, a time line and an offset-by-time grid whose
// bins double in width as the trace outgrows them, and the last end
// offset of at most [MaxDevices] devices (sequentiality).
//
// # Definitions
//
// A request is sequential when it starts where the previous request of
// its device ended, whatever either's kind. Inter-arrival times are the
// gaps between a record's time and the latest time read before it (0
// for a record that is late or simultaneous), in reading order.
// Burstiness over a window W is the most requests in any window of W
// (windows aligned on the first record) divided by the mean per window
// over the trace's span. Size buckets are powers of two from 512 bytes,
// each counting the sizes above the previous bound up to its own.
//
// [Stats.WriteText] prints the figures for people, Stats as JSON for
// programs, and [Stats.Figure] draws them on one page (SVG or PNG).
package tracestats
