// Package metrics measures what a simulated storage stack delivers and
// renders it as reports: latency histograms, per-operation counters, the
// run summary, and tables as text or CSV.
//
// # What is measured
//
// A [Recorder] observes completed requests ([sim.Request]) and keeps, for
// reads, for writes, and for both together ("all"), the number of requests
// (IOs), the bytes they moved, and a [Histogram] of their latencies from
// Issued to Completed. Flushes move no data, so they are counted apart and
// left out of "all". [Recorder.Summarize] turns the counts into a
// [Summary] over a span of simulated time: IOPS, throughput and latency
// figures.
//
// # Units
//
// Latencies are [time.Duration] (nanoseconds of virtual time) inside the
// package and float64 milliseconds in a Summary. Sizes are bytes.
// Throughput is in megabytes of 10^6 bytes per second (MB/s, as drive
// data sheets and fio quote it), and rates are per second of simulated
// time, never of wall-clock time.
//
// # Histogram accuracy
//
// Latencies in a storage stack span six orders of magnitude: a hit in a
// controller cache takes microseconds, a seek milliseconds, a write that
// waits for a full cache to destage can take seconds. Buckets of equal
// width would either blur the fast requests or need millions of counters
// for the slow ones. Buckets whose width grows in proportion to their
// value keep the same relative precision at every scale with a fixed,
// small number of counters.
//
// [Histogram] splits every power of two of nanoseconds into 64 buckets of
// equal width (the log-linear layout of HdrHistogram), from 128 ns up to
// [MaxTracked], 2^42 ns or about 73 minutes; below 128 ns every value has
// its own bucket. That is 2368 counters, about 19 KiB, whatever the
// number of samples. Finding a sample's bucket takes a
// count-leading-zeros instruction and two shifts, no logarithm, so
// recording costs a few nanoseconds and never allocates.
//
// [Histogram.Quantile] returns the midpoint of the bucket that holds the
// nearest-rank sample quantile, so its error relative to that exact sample
// is at most half a bucket width over the bucket's lower bound:
// [QuantileError] = 1/128, under 0.8%, for every sample between 0 and
// MaxTracked (and none below 128 ns). Count, sum, minimum, maximum and mean
// are kept exactly. Histograms merge exactly: merging the histograms of
// parallel runs gives the histogram of all their samples.
//
// # Over time
//
// A [Series] counts completions per fixed interval of virtual time
// (throughput and latency through warm-up, a filling cache, a rebuild),
// and a [Level] follows a quantity that steps up and down (queue length,
// dirty bytes, a busy flag) to give its peak and time-weighted mean, such
// as a drive's utilization.
//
// # Reports
//
// A [Summary] encodes to JSON with stable names (read, write, all, each
// with ios, bytes, iops, mb_per_s and latency_ms{mean, p50, p95, p99,
// max}; flushes; sim_s) and is meant to be embedded in larger
// reports. [Table] renders any report as aligned text or as CSV;
// [FormatFixed] and [FormatSig] format numbers for its cells.
package metrics
