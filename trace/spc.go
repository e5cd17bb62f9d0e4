package trace

import (
	"io"
	"time"

	"github.com/raidsim/raidsim/sim"
)

// SPCReader reads the UMass Trace Repository's SPC format (the Financial
// and WebSearch traces): CSV lines, no header,
//
//	ASU,LBA,Size,Opcode,Timestamp[,...]
//
// with ASU the application specific unit, LBA in 512-byte blocks, Size in
// bytes, Opcode r or w (any case) and Timestamp in seconds from the start
// of the trace (a decimal fraction). Further fields are ignored. Record
// Device is the ASU and Time the timestamp in nanoseconds; the format
// carries no response time. Blank lines are skipped.
type SPCReader struct{ textReader }

// NewSPCReader reads an SPC trace from r; name is used in errors.
func NewSPCReader(r io.Reader, name string) *SPCReader {
	return &SPCReader{newTextReader(r, name)}
}

// Next returns the next record, io.EOF at the end, or a *ParseError.
func (s *SPCReader) Next() (Record, error) { return s.next(s.parse) }

func (s *SPCReader) parse(line []byte) (Record, error) {
	var rec Record
	if _, err := s.split(line, ',', 5, -1); err != nil {
		return rec, err
	}
	f := &s.f
	var err error
	if rec.Device, err = s.device("asu", f[0]); err != nil {
		return rec, err
	}
	if rec.Offset, err = s.scaled("lba", f[1], 512); err != nil {
		return rec, err
	}
	if rec.Length, err = s.length("size", f[2], 1); err != nil {
		return rec, err
	}
	if err = s.extent("size", rec.Offset, rec.Length); err != nil {
		return rec, err
	}
	switch {
	case equalFold(f[3], "r"):
		rec.Op = sim.Read
	case equalFold(f[3], "w"):
		rec.Op = sim.Write
	default:
		return rec, s.lr.errorf("opcode", "%q is not r or w", f[3])
	}
	ns, err := s.decimal("timestamp", f[4], int64(time.Second))
	rec.Time = sim.Time(ns)
	return rec, err
}
