package trace

import (
	"io"

	"github.com/raidsim/raidsim/sim"
)

// FormatBlkparseDC is blkparse text output read by
// BlkparseServiceReader: D events, each with its C event's time less its
// own as Measured.
const FormatBlkparseDC Format = "blkparse:DC"

// MaxBlkparsePending is the most requests a BlkparseServiceReader holds
// issued but not yet completed: far more than any drive queues (NCQ
// holds 32), so a trace that reaches it has lost its C events.
const MaxBlkparsePending = 4096

// BlkparseServiceReader reads blkparse text output (see BlkparseReader)
// and pairs each request issued to the driver, a D event, with its
// completion, the first later C event of the same device, direction,
// sector and size. It returns the D events in trace order, each with
// Measured set to its completion time less its issue time: the device's
// service time when it had one request at a time, its response time
// otherwise. This is the format "blkparse:DC", for traces that record
// completions (blktrace does by default): what raidsim validate and
// calibrate compare a model with.
//
// A D event still waiting for its completion at the end of the trace, and
// a C event with no D before it (a trace started mid-request), are
// skipped and counted by Skipped; so are flushes, discards and the other
// actions. A C event earlier than its D, or more than MaxBlkparsePending
// requests outstanding at once, is a *ParseError.
type BlkparseServiceReader struct {
	b       BlkparseReader
	pending []pendingIO // issued requests, in D order, from head
	head    int
	eof     bool
	skipped int64
	line    int64 // line of the last record returned
}

// pendingIO is a D event and, once seen, its completion.
type pendingIO struct {
	rec  Record
	line int64
	done bool
}

// NewBlkparseServiceReader reads blkparse output from r, pairing D and C
// events; name is used in errors.
func NewBlkparseServiceReader(r io.Reader, name string) *BlkparseServiceReader {
	return &BlkparseServiceReader{b: BlkparseReader{textReader: newTextReader(r, name), action: 'D', withC: true}}
}

// Next returns the next completed request in D order, io.EOF after the
// last, or a *ParseError.
func (s *BlkparseServiceReader) Next() (Record, error) {
	for {
		if s.head < len(s.pending) && s.pending[s.head].done {
			p := s.pending[s.head]
			s.pop()
			s.line = p.line
			return p.rec, nil
		}
		if s.eof {
			if s.head < len(s.pending) {
				s.pop() // never completed
				s.skipped++
				continue
			}
			return Record{}, io.EOF
		}
		if err := s.read(); err != nil {
			return Record{}, err
		}
	}
}

// pop drops the head request, compacting the queue when half of it is
// spent.
func (s *BlkparseServiceReader) pop() {
	s.head++
	if s.head == len(s.pending) {
		s.pending, s.head = s.pending[:0], 0
	} else if s.head > len(s.pending)/2 {
		n := copy(s.pending, s.pending[s.head:])
		s.pending, s.head = s.pending[:n], 0
	}
}

// read takes in the next D or C event.
func (s *BlkparseServiceReader) read() error {
	rec, err := s.b.Next()
	if err == io.EOF {
		s.eof = true
		return nil
	}
	if err != nil {
		return err
	}
	if rec.Op == sim.Flush {
		s.skipped++
		return nil
	}
	if s.b.lastAction == 'D' {
		if len(s.pending)-s.head >= MaxBlkparsePending {
			return s.b.lr.errorf("", "more than %d requests issued (D) and not completed (C): the trace lost its completions", MaxBlkparsePending)
		}
		s.pending = append(s.pending, pendingIO{rec: rec, line: s.b.recLine})
		return nil
	}
	for i := s.head; i < len(s.pending); i++ {
		p := &s.pending[i]
		if p.done || p.rec.Device != rec.Device || p.rec.Op != rec.Op || p.rec.Offset != rec.Offset || p.rec.Length != rec.Length {
			continue
		}
		if rec.Time < p.rec.Time {
			return s.b.lr.errorf("time", "completion at %v before its issue at %v (line %d)", rec.Time, p.rec.Time, p.line)
		}
		p.rec.Measured = rec.Time.Sub(p.rec.Time)
		p.done = true
		return nil
	}
	s.skipped++ // a completion of a request issued before the trace began
	return nil
}

// Position returns the trace's name and the line of the D event of the
// last record returned.
func (s *BlkparseServiceReader) Position() (string, int64) { return s.b.lr.name, s.line }

// Skipped returns the number of lines and events skipped: those
// BlkparseReader skips, plus flushes, unmatched completions and requests
// never completed.
func (s *BlkparseServiceReader) Skipped() int64 { return s.b.Skipped() + s.skipped }
