package trace

import (
	"fmt"
	"io"
	"math"
	"time"

	"github.com/raidsim/raidsim/sim"
)

// BlkparseReader reads the default text output of blkparse (blktrace's
// formatter), one event a line:
//
//	8,0    3        1     0.000000000   697  Q   W 223490 + 8 [kjournald]
//
// that is device (major,minor), CPU, sequence number, time in seconds
// from the start of the trace, PID, action, RWBS, then for events that
// carry one the start sector, "+" and the number of sectors (512 bytes
// each), then the process name. Lines that are not events (the per-CPU
// and total summaries blkparse prints at the end, blank lines) are
// skipped, and so are events of other actions than the one replayed:
// Q (queued, the requests the file system or application asked for) by
// default, or D (issued to the driver, after merging and scheduling).
//
// RWBS: R is a Read, W a Write; a leading F (pre-flush) with no data
// (N, or a write of zero sectors) is a Flush, and with data the write is
// kept without its flush; an F after W sets FUA; a discard (D) is a Trim;
// other events without data are skipped. Record.Device is the device
// number as Linux's makedev builds it (major<<8 | minor for minor < 256:
// 8,16 is 2064), Time the event time in nanoseconds. blkparse's text
// output does not pair events, so Measured is zero; BlkparseServiceReader
// pairs each D event with its completion.
type BlkparseReader struct {
	textReader
	action byte
	// withC also returns C events (for BlkparseServiceReader), and
	// lastAction says which action the last record came from.
	withC      bool
	lastAction byte
}

// NewBlkparseReader reads blkparse output from r, replaying the events
// of action 'Q' or 'D'; name is used in errors.
func NewBlkparseReader(r io.Reader, name string, action byte) (*BlkparseReader, error) {
	if action != 'Q' && action != 'D' {
		return nil, fmt.Errorf("trace: blkparse: replay action %q: want Q (queued) or D (issued)", action)
	}
	return &BlkparseReader{textReader: newTextReader(r, name), action: action}, nil
}

// Next returns the next record, io.EOF at the end, or a *ParseError.
func (b *BlkparseReader) Next() (Record, error) {
	for {
		line, err := b.lr.next()
		if err != nil {
			return Record{}, err
		}
		if blankLine(line) {
			continue
		}
		rec, ok, err := b.parse(line)
		if err != nil {
			return Record{}, err
		}
		if !ok {
			b.skipped++
			continue
		}
		b.recLine = b.lr.line
		return rec, nil
	}
}

// parseDevice parses "major,minor".
func parseDevice(f []byte) (major, minor int64, ok bool) {
	for i, c := range f {
		if c == ',' {
			major, ok1 := parseUint(f[:i])
			minor, ok2 := parseUint(f[i+1:])
			return major, minor, ok1 && ok2
		}
	}
	return 0, 0, false
}

// makedev combines a major and minor number as glibc's makedev does.
func makedev(major, minor int64) int64 {
	return (major&0xfff)<<8 | (major&^0xfff)<<32 | minor&0xff | (minor&^0xff)<<12
}

func (b *BlkparseReader) parse(line []byte) (Record, bool, error) {
	var rec Record
	n := splitFields(line, ' ', b.f[:])
	if n == 0 {
		return rec, false, nil
	}
	major, minor, ok := parseDevice(b.f[0])
	if !ok {
		return rec, false, nil // a summary line, not an event
	}
	if n < 7 {
		return rec, false, b.lr.errorf("", "want at least 7 fields in an event, got %d", n)
	}
	f := &b.f
	if major > 1<<20 || minor > 1<<20 {
		return rec, false, b.lr.errorf("device", "%q is out of range", f[0])
	}
	if len(f[5]) != 1 || (f[5][0] != b.action && !(b.withC && f[5][0] == 'C')) {
		return rec, false, nil
	}
	b.lastAction = f[5][0]
	ns, err := b.decimal("time", f[3], int64(time.Second))
	if err != nil {
		return rec, false, err
	}
	rec.Time = sim.Time(ns)
	rec.Device = int(makedev(major, minor))
	rwbs := f[6]
	preflush := len(rwbs) > 0 && rwbs[0] == 'F'
	if preflush {
		rwbs = rwbs[1:]
	}
	if len(rwbs) == 0 {
		return rec, false, b.lr.errorf("rwbs", "%q has no direction", f[6])
	}
	switch rwbs[0] {
	case 'R':
		rec.Op = sim.Read
	case 'W':
		rec.Op = sim.Write
	case 'N':
		if preflush {
			rec.Op = sim.Flush
			return rec, true, nil
		}
		return rec, false, nil
	case 'D':
		rec.Op = sim.Trim // a discard
	default:
		return rec, false, b.lr.errorf("rwbs", "%q is not a direction (R, W, D or N)", f[6])
	}
	rec.FUA = rec.Op == sim.Write && len(rwbs) > 1 && rwbs[1] == 'F'
	if n < 10 || string(f[8]) != "+" {
		return rec, false, b.lr.errorf("", "want sector + count after %q", f[6])
	}
	if rec.Offset, err = b.scaled("sector", f[7], 512); err != nil {
		return rec, false, err
	}
	if rec.Length, err = b.scaled("count", f[9], 512); err != nil {
		return rec, false, err
	}
	if rec.Offset > math.MaxInt64-rec.Length {
		return rec, false, b.lr.errorf("count", "request ends past the largest representable offset")
	}
	if rec.Length == 0 {
		if preflush && rec.Op == sim.Write {
			return Record{Time: rec.Time, Op: sim.Flush, Device: rec.Device}, true, nil
		}
		return rec, false, nil
	}
	return rec, true, nil
}
