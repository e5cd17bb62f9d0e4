package trace

import (
	"io"
	"math"
	"time"

	"github.com/raidsim/raidsim/sim"
)

// AlibabaReader reads the Alibaba Cloud block traces (2020): CSV lines,
// no header,
//
//	device_id,opcode,offset,length,timestamp
//
// with opcode R or W, offset and length in bytes and timestamp in
// microseconds since the Unix epoch. Record.Device is device_id and Time
// the timestamp in nanoseconds; the format carries no response time.
// Blank lines are skipped.
type AlibabaReader struct{ textReader }

// NewAlibabaReader reads an Alibaba block trace from r; name is used in
// errors.
func NewAlibabaReader(r io.Reader, name string) *AlibabaReader {
	return &AlibabaReader{newTextReader(r, name)}
}

// Next returns the next record, io.EOF at the end, or a *ParseError.
func (a *AlibabaReader) Next() (Record, error) { return a.next(a.parse) }

func (a *AlibabaReader) parse(line []byte) (Record, error) {
	var rec Record
	if _, err := a.split(line, ',', 5, 5); err != nil {
		return rec, err
	}
	f := &a.f
	var err error
	if rec.Device, err = a.device("device_id", f[0]); err != nil {
		return rec, err
	}
	switch {
	case equalFold(f[1], "r"):
		rec.Op = sim.Read
	case equalFold(f[1], "w"):
		rec.Op = sim.Write
	default:
		return rec, a.lr.errorf("opcode", "%q is not R or W", f[1])
	}
	if rec.Offset, err = a.num("offset", f[2]); err != nil {
		return rec, err
	}
	if rec.Length, err = a.length("length", f[3], 1); err != nil {
		return rec, err
	}
	if err = a.extent("length", rec.Offset, rec.Length); err != nil {
		return rec, err
	}
	us, err := a.num("timestamp", f[4])
	if err != nil {
		return rec, err
	}
	if us > math.MaxInt64/int64(time.Microsecond) {
		return rec, a.lr.errorf("timestamp", "%q is too large", f[4])
	}
	rec.Time = sim.Time(us * int64(time.Microsecond))
	return rec, nil
}
