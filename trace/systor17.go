package trace

import (
	"bytes"
	"io"
	"time"

	"github.com/raidsim/raidsim/sim"
)

// systor17Header is the first line of a SYSTOR '17 trace.
const systor17Header = "Timestamp,Response,IOType,LUN,Offset,Size"

// Systor17Reader reads the SYSTOR '17 enterprise VDI traces: CSV with
// the header line
//
//	Timestamp,Response,IOType,LUN,Offset,Size
//
// then one request a line: Timestamp in Unix seconds with a decimal
// fraction, Response (the measured response time) in seconds, IOType R
// or W, LUN, Offset and Size in bytes. Record.Time is the timestamp in
// nanoseconds since the Unix epoch, Device the LUN and Measured the
// response time. The header is optional; blank lines are skipped. The
// published traces are not strictly time-sorted: wrap the reader in
// Reorder to replay them in order.
type Systor17Reader struct{ textReader }

// NewSystor17Reader reads a SYSTOR '17 trace from r; name is used in
// errors.
func NewSystor17Reader(r io.Reader, name string) *Systor17Reader {
	return &Systor17Reader{newTextReader(r, name)}
}

// Next returns the next record, io.EOF at the end, or a *ParseError.
func (s *Systor17Reader) Next() (Record, error) {
	for {
		line, err := s.lr.next()
		if err != nil {
			return Record{}, err
		}
		if blankLine(line) {
			continue
		}
		if s.lr.line == 1 && bytes.HasPrefix(line, []byte("Timestamp,")) {
			s.skipped++
			continue
		}
		rec, err := s.parse(line)
		if err == nil {
			s.recLine = s.lr.line
		}
		return rec, err
	}
}

func (s *Systor17Reader) parse(line []byte) (Record, error) {
	var rec Record
	if _, err := s.split(line, ',', 6, 6); err != nil {
		return rec, err
	}
	f := &s.f
	ns, err := s.decimal("timestamp", f[0], int64(time.Second))
	if err != nil {
		return rec, err
	}
	rec.Time = sim.Time(ns)
	resp, err := s.decimal("response", f[1], int64(time.Second))
	if err != nil {
		return rec, err
	}
	rec.Measured = time.Duration(resp)
	switch {
	case equalFold(f[2], "r"):
		rec.Op = sim.Read
	case equalFold(f[2], "w"):
		rec.Op = sim.Write
	default:
		return rec, s.lr.errorf("iotype", "%q is not R or W", f[2])
	}
	if rec.Device, err = s.device("lun", f[3]); err != nil {
		return rec, err
	}
	if rec.Offset, err = s.num("offset", f[4]); err != nil {
		return rec, err
	}
	if rec.Length, err = s.length("size", f[5], 1); err != nil {
		return rec, err
	}
	err = s.extent("size", rec.Offset, rec.Length)
	return rec, err
}
