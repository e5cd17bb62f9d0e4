package trace

import (
	"bytes"
	"io"
	"math"
	"strconv"

	"github.com/raidsim/raidsim/sim"
)

// DiskSimReader reads DiskSim's ASCII trace format: one request a line,
//
//	time_ms devno blkno bcount flags
//
// with the arrival time in milliseconds (decimals allowed) from the start
// of the trace, the device number, the first block and the block count in
// 512-byte blocks, and flags in hexadecimal (with or without 0x) whose
// bit 0 is set for a read and clear for a write. Other flag bits are
// ignored.
//
// The traces shipped with the MQSim simulator use the same layout with
// the time in whole nanoseconds and a type word that is 1 for a read and
// 0 for a write: NewMQSimReader reads them.
type DiskSimReader struct {
	lr      *lineReader
	field   [8][]byte
	ns      bool  // times are whole nanoseconds (MQSim)
	recLine int64 // line of the last record returned
}

// NewDiskSimReader reads a DiskSim ASCII trace from r; name is used in
// errors.
func NewDiskSimReader(r io.Reader, name string) *DiskSimReader {
	return &DiskSimReader{lr: newLineReader(r, name)}
}

// NewMQSimReader reads a trace in MQSim's ASCII format from r: DiskSim's
// layout, "time_ns devno lba size_sectors type", with the arrival time in
// whole nanoseconds and type 1 for a read, 0 for a write. name is used in
// errors.
func NewMQSimReader(r io.Reader, name string) *DiskSimReader {
	return &DiskSimReader{lr: newLineReader(r, name), ns: true}
}

// Next returns the next record, io.EOF after the last, or a *ParseError.
// Blank lines and lines starting with '#' are skipped.
func (d *DiskSimReader) Next() (Record, error) {
	for {
		line, err := d.lr.next()
		if err != nil {
			return Record{}, err
		}
		line = bytes.TrimSpace(line)
		if len(line) == 0 || line[0] == '#' {
			continue
		}
		rec, err := d.parse(line)
		if err == nil {
			d.recLine = d.lr.line
		}
		return rec, err
	}
}

// Position returns the base name of the file and the line of the last
// record returned (zero before the first).
func (d *DiskSimReader) Position() (string, int64) { return d.lr.name, d.recLine }

func (d *DiskSimReader) parse(line []byte) (Record, error) {
	n := 0
	for _, f := range bytes.Fields(line) {
		if n == len(d.field) {
			break
		}
		d.field[n] = f
		n++
	}
	if n != 5 {
		if d.ns {
			return Record{}, d.lr.errorf("", "want 5 fields (time_ns devno lba size_sectors type), got %d", n)
		}
		return Record{}, d.lr.errorf("", "want 5 fields (time_ms devno blkno bcount flags), got %d", n)
	}
	var at sim.Time
	if d.ns {
		ns, err := strconv.ParseUint(string(d.field[0]), 10, 63)
		if err != nil || ns > uint64(sim.Never)/2 {
			return Record{}, d.lr.errorf("time", "%q is not a time in whole nanoseconds", d.field[0])
		}
		at = sim.Time(ns)
	} else {
		ms, err := strconv.ParseFloat(string(d.field[0]), 64)
		if err != nil || !(ms >= 0 && ms <= float64(sim.Never)/1e6/2) {
			return Record{}, d.lr.errorf("time", "%q is not a time in milliseconds", d.field[0])
		}
		at = sim.Time(math.Round(ms * 1e6))
	}
	dev, err := strconv.ParseInt(string(d.field[1]), 10, 32)
	if err != nil || dev < 0 {
		return Record{}, d.lr.errorf("device", "%q is not a device number", d.field[1])
	}
	blk, err := strconv.ParseInt(string(d.field[2]), 10, 64)
	if err != nil || blk < 0 || blk > math.MaxInt64/1024 {
		return Record{}, d.lr.errorf("blkno", "%q is not a block number", d.field[2])
	}
	cnt, err := strconv.ParseInt(string(d.field[3]), 10, 64)
	if err != nil || cnt <= 0 || cnt > 1<<31 {
		return Record{}, d.lr.errorf("bcount", "%q is not a positive block count", d.field[3])
	}
	fs := d.field[4]
	if len(fs) > 2 && fs[0] == '0' && (fs[1] == 'x' || fs[1] == 'X') {
		fs = fs[2:]
	}
	flags, err := strconv.ParseUint(string(fs), 16, 64)
	if err != nil {
		return Record{}, d.lr.errorf("flags", "%q is not a hexadecimal number", d.field[4])
	}
	if d.ns && flags > 1 {
		return Record{}, d.lr.errorf("type", "%q is neither 1 (read) nor 0 (write)", d.field[4])
	}
	rec := Record{
		Time:   at,
		Device: int(dev),
		Offset: blk * 512,
		Length: cnt * 512,
		Op:     sim.Write,
	}
	if flags&1 != 0 {
		rec.Op = sim.Read
	}
	return rec, nil
}

// sniffDiskSim reports whether line (the first that is neither blank nor
// a '#' comment) looks like a DiskSim ASCII record: five blank-separated
// fields, a decimal time, three non-negative integers and a hexadecimal
// flags word. MQSim's nanosecond variant has the same shape: Sniff tells
// them apart with mqsimTimes.
func sniffDiskSim(line []byte) bool {
	f := bytes.Fields(line)
	if len(f) != 5 {
		return false
	}
	if _, err := strconv.ParseFloat(string(f[0]), 64); err != nil {
		return false
	}
	for _, b := range f[1:4] {
		if _, err := strconv.ParseUint(string(b), 10, 63); err != nil {
			return false
		}
	}
	h := bytes.TrimPrefix(bytes.TrimPrefix(f[4], []byte("0x")), []byte("0X"))
	_, err := strconv.ParseUint(string(h), 16, 64)
	return err == nil
}

// mqsimTimes reports whether the DiskSim-shaped lines of head carry
// MQSim's whole-nanosecond times rather than DiskSim's milliseconds:
// every time is a whole number, every type 0 or 1, and the times reach
// at least 1e6 (1 ms in nanoseconds, 1,000 s in milliseconds: DiskSim
// traces write decimals and rarely start that late). A last line cut by
// the end of head is ignored.
func mqsimTimes(head []byte) bool {
	var maxT uint64
	seen := false
	for len(head) > 0 {
		i := bytes.IndexByte(head, '\n')
		if i < 0 {
			break
		}
		line := bytes.TrimSpace(head[:i])
		head = head[i+1:]
		if len(line) == 0 || line[0] == '#' {
			continue
		}
		f := bytes.Fields(line)
		if len(f) != 5 {
			return false
		}
		t, err := strconv.ParseUint(string(f[0]), 10, 63)
		if err != nil || !(string(f[4]) == "0" || string(f[4]) == "1") {
			return false
		}
		maxT, seen = max(maxT, t), true
	}
	return seen && maxT >= 1e6
}
