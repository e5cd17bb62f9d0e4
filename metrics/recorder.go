package metrics

import (
	"fmt"
	"time"

	"github.com/raidsim/raidsim/sim"
)

// OpStats counts the requests of one kind: how many, how many bytes they
// moved, and the distribution of their latencies. The zero value is empty
// and ready to use. Like Histogram it has constant size (about 19 KiB),
// copies as a snapshot, and is not safe for concurrent use.
type OpStats struct {
	bytes   int64
	latency Histogram
}

// Add counts one request of bytes bytes that took latency from submission
// to completion. It never allocates.
func (s *OpStats) Add(bytes int64, latency time.Duration) {
	s.bytes += bytes
	s.latency.Record(latency)
}

// IOs returns the number of requests counted.
func (s *OpStats) IOs() int64 { return s.latency.Count() }

// Bytes returns the total bytes of the requests counted.
func (s *OpStats) Bytes() int64 { return s.bytes }

// Latency returns the latency histogram. It points into s: read it, and
// record through s.Add so that bytes and latencies stay in step.
func (s *OpStats) Latency() *Histogram { return &s.latency }

// Merge adds the counts of other to s. A nil other is ignored.
func (s *OpStats) Merge(other *OpStats) {
	if other == nil {
		return
	}
	s.bytes += other.bytes
	s.latency.Merge(&other.latency)
}

// Reset empties s.
func (s *OpStats) Reset() { *s = OpStats{} }

// Recorder collects completed requests per operation: reads, writes, all
// (reads and writes together) and, separately, flushes. Flushes move no
// data and their latency says little about throughput, so they are not
// part of All.
//
// The zero value is an empty recorder ready to use. A Recorder holds four
// OpStats, about 76 KiB, and never grows. It is not safe for concurrent
// use: parallel runs keep one Recorder each and Merge them.
type Recorder struct {
	read, write, flush, all, trim OpStats
}

// Observe counts a completed request: its Op, its Length in bytes and its
// Latency (Completed - Issued). It never allocates. It panics if r.Op is
// not Read, Write, Flush or Trim.
func (rec *Recorder) Observe(r *sim.Request) {
	rec.Add(r.Op, r.Length, r.Latency())
}

// Add counts one request of the given op that moved bytes bytes in
// latency. It never allocates. It panics if op is not Read, Write, Flush
// or Trim. Flushes and trims are kept apart from All.
func (rec *Recorder) Add(op sim.Op, bytes int64, latency time.Duration) {
	switch op {
	case sim.Read:
		rec.read.Add(bytes, latency)
	case sim.Write:
		rec.write.Add(bytes, latency)
	case sim.Flush:
		rec.flush.Add(bytes, latency)
		return
	case sim.Trim:
		rec.trim.Add(bytes, latency)
		return
	default:
		panic(fmt.Sprintf("metrics: unknown op %d", uint8(op)))
	}
	rec.all.Add(bytes, latency)
}

// Read returns the statistics of reads. The pointer aliases rec: use it
// to read, and record through Add or Observe so that All stays consistent.
func (rec *Recorder) Read() *OpStats { return &rec.read }

// Write returns the statistics of writes, aliasing rec like Read.
func (rec *Recorder) Write() *OpStats { return &rec.write }

// All returns the statistics of reads and writes together, aliasing rec
// like Read.
func (rec *Recorder) All() *OpStats { return &rec.all }

// Flush returns the statistics of flushes, aliasing rec like Read.
func (rec *Recorder) Flush() *OpStats { return &rec.flush }

// Trim returns the statistics of trims, aliasing rec like Read.
func (rec *Recorder) Trim() *OpStats { return &rec.trim }

// Stats returns the statistics of op (Read, Write, Flush or Trim), or
// nil for any other op.
func (rec *Recorder) Stats(op sim.Op) *OpStats {
	switch op {
	case sim.Read:
		return &rec.read
	case sim.Write:
		return &rec.write
	case sim.Flush:
		return &rec.flush
	case sim.Trim:
		return &rec.trim
	}
	return nil
}

// Merge adds everything other counted to rec, as if rec had observed
// other's requests too. A nil other is ignored.
func (rec *Recorder) Merge(other *Recorder) {
	if other == nil {
		return
	}
	rec.read.Merge(&other.read)
	rec.write.Merge(&other.write)
	rec.flush.Merge(&other.flush)
	rec.all.Merge(&other.all)
	rec.trim.Merge(&other.trim)
}

// Reset empties rec.
func (rec *Recorder) Reset() { *rec = Recorder{} }
