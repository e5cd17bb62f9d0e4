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
// iodepth, offset and size of the region, number_ios,
// random_distribution (uniform, zipf:theta, pareto:h, normal:percent),
// percentage_random (a share of a sequential pattern's requests sent to
// random offsets) and fsync (a flush record after every N writes).
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
// # Jobs, rates and think time
//
// [RunJobs] runs several jobs at once on one device, as an fio job
// file's sections run together: each [Job] keeps up to its iodepth
// requests outstanding and paces them with a [Pacing] in fio's terms:
// rate and rate_iops (per direction, linear or Poisson gaps, fio's
// catch-up and, in its default inline submit mode, its wait for the
// requests in flight before sleeping), thinktime with thinktime_spin
// and thinktime_blocks, a start delay, a wait for earlier jobs
// (wait_for) and a runtime. An unpaced job is a closed loop that
// issues exactly what Replay's ClosedLoop issues; a Poisson-paced job
// in offload mode with room in its iodepth is an open loop, the load
// behind a latency against offered load curve. Workload.Pacing carries
// a synthetic job's pacing.
//
// # Trace files
//
// [Open] reads a trace file of a named format, or sniffs it ("auto"),
// decompressing gzip and bzip2 files (.gz, .bz2) on the fly, and says
// which format it chose. Every reader streams: one line buffer of at most
// [MaxLineBytes], fields cut from it without allocating, nothing sized
// from a field of the input, so a trace of any length is read in constant
// memory. A malformed line stops the reader with a [ParseError] naming the
// file, line and field: `trace: hm_0.csv:17: offset: "x" is not a number`.
//
//	format     reader            fields (units)                                    Time             Measured
//	msr        [MSRReader]       FILETIME,host,disk,Read|Write,offset B,size B,    Unix epoch ns    response
//	                             response (100 ns ticks)
//	spc        [SPCReader]       ASU,LBA (512 B),size B,r|w,seconds[,...]           trace start      -
//	blkparse   [BlkparseReader]  dev cpu seq seconds pid action RWBS sector + count trace start      -
//	fio        [FioReader]       iolog v2 (wait lines) or v3 (µs timestamps)       first record = 0 -
//	alibaba    [AlibabaReader]   device,R|W,offset B,length B,µs                   Unix epoch ns    -
//	tencent    [TencentReader]   seconds,offset (512 B),size (512 B),0|1,volume    Unix epoch ns    -
//	systor17   [Systor17Reader]  seconds,response s,R|W,LUN,offset B,size B        Unix epoch ns    response
//	csv        [CSVReader]       time_ns,op,offset,length,device,fua,measured_ns   as written       measured_ns
//
// Record.Time keeps each format's own clock in nanoseconds, as the table
// says; Replay measures open-loop times from the first record it issues,
// so the epoch does not matter. blkparse replays Q events by default and
// D events with the format "blkparse:D"; "blkparse:DC" pairs each D event
// with its completion (C) and sets Measured to the time between
// ([BlkparseServiceReader]). DiskSim's formats have their own
// readers: "disksim" ([DiskSimReader], time in milliseconds), "mqsim"
// (the same layout with whole-nanosecond times, as MQSim's traces have
// it; [NewMQSimReader]) and "validate" ([ValidateReader]). Sniffing tells
// mqsim from disksim by its whole-number times reaching 1e6 (see
// [Sniff]); give the format when in doubt.
//
// [NewWriter] writes raidsim CSV and fio iologs (version 3, or 2 with
// wait lines) for replay on real hardware with fio's --read_iolog and
// --replay_redirect; see [FioWriter].
//
// # Shaping a trace
//
// Replay options that change which records are replayed, or where, are
// Readers wrapping a Reader, so they stack in front of Replay: [Filter],
// [FilterDevice] and [FilterOps] drop records; [Window] keeps a time
// window; [MapOffsets] fits offsets onto the target device (reject, wrap
// or scale) and aligns them to its sectors; [Reorder] sorts a trace that
// is only roughly in time order within a window of records, and
// [ReorderWithin] within a window of time, the bound published traces
// have: [DefaultReorderWindow] gives each format's (2 s for Tencent
// CBS's one-second stamps that step back, 1 s for SYSTOR '17's
// collectors' jitter, 0 for formats written in order), and both say
// how many records they moved and by how much ([ReorderStats]). Each
// forwards [Position] (a reorder names the line of the record it
// returned) and adds its drops to [Skipped], so a report can say how
// many records were skipped.
//
// # Replay
//
// [Replay] submits records to a device on an engine and runs the engine
// until every request has completed. A closed loop keeps a fixed number
// of requests outstanding and ignores record times, as a benchmark with
// an iodepth does; an open loop issues each record at its recorded time
// (optionally sped up or slowed down) whatever is outstanding, as the
// original system's users did; it needs the records in time order, and
// stops at a record earlier than the one before it with an [OrderError]
// naming its line and suggesting a [Reorder] window. A callback sees
// every completion, so a metrics recorder can be fed without this package
// knowing it. Requests are recycled, so a long replay allocates nothing
// per record.
package trace
