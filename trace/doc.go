// Package trace supplies the workloads of raidsim: block I/O records,
// readers that stream them, synthetic workloads described with fio's
// vocabulary, and Replay, which drives a sim.Device with them.
//
// # Records and readers
//
// A [Record] is one request of a workload: when it was issued, read or
// write, byte offset and length, which device of a multi-device trace, and
// the response time the trace measured, if any. A [Reader] streams records
// one at a time and returns io.EOF after the last, so a trace of any size
// is replayed in constant memory. [SliceReader] serves records from memory
// for tests.
//
// # Synthetic workloads
//
// A [Workload] is plain data named after fio's job options: rw (read,
// write, randread, randwrite, rw, randrw), rwmixread, bs and bssplit,
// iodepth, offset and size of the region, number_ios and
// random_distribution (uniform, zipf:theta, pareto:h, normal:percent).
// [Workload.Validate] reports every problem at once. [NewSynthetic] turns
// a workload into a Reader that draws from a random stream the caller
// passes in, normally one of the engine's named streams, so a run seed
// fixes the sequence. [ParseSize], [ParseRW], [ParseBSSplit] and
// [ParseDistribution] read the option values as a command line or config
// file writes them ("4KiB", "randrw", "4k/50:64k/50", "zipf:1.2").
//
// Sequential patterns advance through the region and wrap at its end;
// random ones place requests on block-aligned slots of the region. Zipf
// uses rejection-inversion, exact for every theta > 0 and constant in cost
// and memory however large the region; Pareto follows fio's power law;
// Normal is gonum's normal distribution truncated to the region. The hot
// blocks of Zipf and Pareto are scattered over the region by a seeded
// permutation (fio scatters them with a hash) unless Workload.NoScatter
// keeps them at its start.
//
// # Replay
//
// [Replay] submits records to a device on an engine and runs the engine
// until every request has completed. A closed loop keeps a fixed number
// of requests outstanding and ignores record times, as a benchmark with
// an iodepth does; an open loop issues each record at its recorded time
// (optionally sped up or slowed down) whatever is outstanding, as the
// original system's users did. A callback sees every completion, so a
// metrics recorder can be fed without this package knowing it. Requests
// are recycled, so a long replay allocates nothing per record.
package trace
