package trace

import (
	"bytes"
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
	if rec, ok := parseMSRPlain(line); ok {
		return rec, nil
	}
	return m.parseFields(line)
}

// parseFields reads line field by field, saying which one is wrong.
func (m *MSRReader) parseFields(line []byte) (Record, error) {
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

// parseMSRPlain parses in one pass the line every published MSR record
// is, digits and commas with no blanks, and reports false for any other,
// valid or not: parse then reads it field by field, with the checks and
// errors of the format. Where it reports true it returns what that
// reading would. Numbers of at most 18 digits cannot overflow an int64,
// and their sums below stay under 2*10^18.
func parseMSRPlain(line []byte) (Record, bool) {
	var rec Record
	ts, i, ok := plainDigits(line, 0, false)
	if !ok || ts-filetimeUnixEpoch > math.MaxInt64/100 || ts-filetimeUnixEpoch < math.MinInt64/100 {
		return rec, false
	}
	rec.Time = sim.Time((ts - filetimeUnixEpoch) * 100)
	host := bytes.IndexByte(line[i:], ',') // the host name, not kept
	if host < 0 {
		return rec, false
	}
	dev, i, ok := plainDigits(line, i+host+1, false)
	if !ok || dev > math.MaxInt32 {
		return rec, false
	}
	rec.Device = int(dev)
	typ := bytes.IndexByte(line[i:], ',')
	switch {
	case typ < 0:
		return rec, false
	case equalFold(line[i:i+typ], "read"):
		rec.Op = sim.Read
	case equalFold(line[i:i+typ], "write"):
		rec.Op = sim.Write
	default:
		return rec, false
	}
	if rec.Offset, i, ok = plainDigits(line, i+typ+1, false); !ok {
		return rec, false
	}
	if rec.Length, i, ok = plainDigits(line, i, false); !ok || rec.Length == 0 {
		return rec, false
	}
	resp, _, ok := plainDigits(line, i, true)
	if !ok || resp > math.MaxInt64/int64(tick) {
		return rec, false
	}
	rec.Measured = time.Duration(resp) * tick
	return rec, true
}

// plainDigits parses the 1 to 18 digits of line from i up to a comma
// (the end of the line if last), returning the value and the index after
// the comma. It reports false for anything else.
func plainDigits(line []byte, i int, last bool) (int64, int, bool) {
	start := i
	var v int64
	for ; i < len(line); i++ {
		d := line[i] - '0'
		if d > 9 {
			break
		}
		v = v*10 + int64(d)
	}
	if n := i - start; n == 0 || n > 18 || last != (i == len(line)) || !last && line[i] != ',' {
		return 0, 0, false
	}
	return v, i + 1, true
}
