package trace

import (
	"io"
	"math"
	"time"

	"github.com/raidsim/raidsim/sim"
)

// TencentReader reads the Tencent Cloud Block Storage traces: CSV lines,
// no header,
//
//	Timestamp,Offset,Size,IOType,VolumeID
//
// with Timestamp in Unix seconds, Offset and Size in 512-byte sectors,
// IOType 0 for a read and 1 for a write. Record.Device is the volume and
// Time the timestamp in nanoseconds since the Unix epoch; the format
// carries no response time. The published traces are not sorted by time
// within a second: wrap the reader in Reorder to replay them in order.
// Blank lines are skipped.
type TencentReader struct{ textReader }

// NewTencentReader reads a Tencent CBS trace from r; name is used in
// errors.
func NewTencentReader(r io.Reader, name string) *TencentReader {
	return &TencentReader{newTextReader(r, name)}
}

// Next returns the next record, io.EOF at the end, or a *ParseError.
func (t *TencentReader) Next() (Record, error) { return t.next(t.parse) }

func (t *TencentReader) parse(line []byte) (Record, error) {
	var rec Record
	if _, err := t.split(line, ',', 5, 5); err != nil {
		return rec, err
	}
	f := &t.f
	s, err := t.num("timestamp", f[0])
	if err != nil {
		return rec, err
	}
	if s > math.MaxInt64/int64(time.Second) {
		return rec, t.lr.errorf("timestamp", "%q is too large", f[0])
	}
	rec.Time = sim.Time(s * int64(time.Second))
	if rec.Offset, err = t.scaled("offset", f[1], 512); err != nil {
		return rec, err
	}
	if rec.Length, err = t.length("size", f[2], 512); err != nil {
		return rec, err
	}
	if err = t.extent("size", rec.Offset, rec.Length); err != nil {
		return rec, err
	}
	switch string(f[3]) {
	case "0":
		rec.Op = sim.Read
	case "1":
		rec.Op = sim.Write
	default:
		return rec, t.lr.errorf("iotype", "%q is not 0 (read) or 1 (write)", f[3])
	}
	rec.Device, err = t.device("volume", f[4])
	return rec, err
}
