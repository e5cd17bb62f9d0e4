package trace

import (
	"io"
	"time"

	"github.com/raidsim/raidsim/sim"
)

// Record is one block I/O request of a workload: a line of a trace file or
// one draw of a synthetic generator.
type Record struct {
	// Time is when the request was issued, in virtual nanoseconds from the
	// start of the trace. Open-loop replay honours it; closed-loop replay
	// ignores it. Synthetic workloads leave it zero.
	Time sim.Time
	// Op is sim.Read, sim.Write or sim.Flush.
	Op sim.Op
	// Offset is the first byte addressed, from the start of the device.
	Offset int64
	// Length is the number of bytes transferred; zero for a flush.
	Length int64
	// Device is the trace's device or volume number (disk number in
	// multi-disk traces); zero when the trace has one device.
	Device int
	// FUA reports a write that asked for force unit access.
	FUA bool
	// Measured is the response or service time the trace recorded for the
	// request on the real system, or zero when the trace has none. It lets
	// a report compare simulated latency with measured latency.
	Measured time.Duration
}

// End returns the offset one past the last byte addressed.
func (r Record) End() int64 { return r.Offset + r.Length }

// Reader streams records one at a time.
type Reader interface {
	// Next returns the next record, or io.EOF (unwrapped) when there are no
	// more. Any other error describes a problem with the source; callers
	// stop at the first error.
	Next() (Record, error)
}

// SliceReader is a Reader over records held in memory, mostly for tests
// and examples. The zero value is empty.
type SliceReader struct {
	// Records are returned in order.
	Records []Record
	pos     int
}

// NewSliceReader returns a Reader that returns recs in order. It does not
// copy recs.
func NewSliceReader(recs []Record) *SliceReader { return &SliceReader{Records: recs} }

// Next returns the next record, or io.EOF after the last.
func (s *SliceReader) Next() (Record, error) {
	if s.pos >= len(s.Records) {
		return Record{}, io.EOF
	}
	r := s.Records[s.pos]
	s.pos++
	return r, nil
}

// Reset rewinds the reader to the first record.
func (s *SliceReader) Reset() { s.pos = 0 }
