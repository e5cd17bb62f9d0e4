package trace

import (
	"io"
	"math"
	"time"

	"github.com/raidsim/raidsim/sim"
)

// filetimeUnixEpoch is 1970-01-01 in Windows FILETIME ticks (100 ns since
// 1601-01-01).
const filetimeUnixEpoch = 116444736000000000

// tick is one Windows FILETIME tick.
const tick = 100 * time.Nanosecond

// MSRReader reads the SNIA MSR Cambridge traces: CSV lines, no header,
//
//	Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime
//
// with Timestamp a Windows FILETIME (100 ns ticks since 1601), Type Read
// or Write (any case), Offset and Size in bytes and ResponseTime in
// 100 ns ticks. Record.Time is the timestamp as nanoseconds since the
// Unix epoch, Device the disk number, Measured the response time; the
// host name is not kept. Blank lines are skipped.
type MSRReader struct{ textReader }

// NewMSRReader reads an MSR Cambridge trace from r; name (its base name)
// is used in errors.
func NewMSRReader(r io.Reader, name string) *MSRReader {
	return &MSRReader{newTextReader(r, name)}
}

// Next returns the next record, io.EOF at the end, or a *ParseError.
func (m *MSRReader) Next() (Record, error) { return m.next(m.parse) }

func (m *MSRReader) parse(line []byte) (Record, error) {
	var rec Record
	if _, err := m.split(line, ',', 7, 7); err != nil {
		return rec, err
	}
	f := &m.f
	ts, err := m.num("timestamp", f[0])
	if err != nil {
		return rec, err
	}
	if d := ts - filetimeUnixEpoch; d > math.MaxInt64/100 || d < math.MinInt64/100 {
		return rec, m.lr.errorf("timestamp", "%q is out of range", f[0])
	}
	rec.Time = sim.Time((ts - filetimeUnixEpoch) * 100)
	if rec.Device, err = m.device("disk", f[2]); err != nil {
		return rec, err
	}
	switch {
	case equalFold(f[3], "read"):
		rec.Op = sim.Read
	case equalFold(f[3], "write"):
		rec.Op = sim.Write
	default:
		return rec, m.lr.errorf("type", "%q is not Read or Write", f[3])
	}
	if rec.Offset, err = m.num("offset", f[4]); err != nil {
		return rec, err
	}
	if rec.Length, err = m.length("size", f[5], 1); err != nil {
		return rec, err
	}
	if err = m.extent("size", rec.Offset, rec.Length); err != nil {
		return rec, err
	}
	rec.Measured, err = m.ticks("response", f[6], tick)
	return rec, err
}
