package trace

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strconv"
	"time"

	"github.com/raidsim/raidsim/sim"
)

// fio iolog headers.
const (
	fioHeader2 = "fio version 2 iolog"
	fioHeader3 = "fio version 3 iolog"
)

// MaxFioFiles is the most distinct files a fio iolog may name (add) or
// a FioWriter may write (distinct devices). It bounds the reader's and
// writer's file tables.
const MaxFioFiles = 4096

// FioReader reads fio's iolog, versions 2 and 3 (see fio's HOWTO, "Trace
// file format"). The first line is "fio version 2 iolog" or "fio version
// 3 iolog"; then each line is either a file action
//
//	[timestamp] filename add|open|close
//
// or an I/O action
//
//	[timestamp] filename read|write|sync|datasync|trim|wait offset length
//
// with offset and length in bytes and, in version 3 only, a leading
// timestamp in microseconds from the start of the run. Version 2 has no
// timestamps: a wait line (version 2 only) advances the clock by offset
// microseconds.
//
// Records: read and write become Read and Write, sync and datasync a
// Flush, trim to Trim; the file actions are skipped (counted by Skipped).
// Record.Device numbers the files in the order of their first I/O (0 for
// the first file read or written, whatever its name); an I/O on a file
// never added is an error.
// Record.Time is in nanoseconds from the first record, so the first
// record has Time 0 in both versions. fio logs carry no response time.
type FioReader struct {
	textReader
	version int
	files   map[string]int // file name -> device number, -1 until its first I/O
	used    int            // files numbered so far
	clock   time.Duration  // v2: sum of waits
	first   bool           // base taken
	base    time.Duration
}

// NewFioReader reads a fio iolog from r; name is used in errors.
func NewFioReader(r io.Reader, name string) *FioReader {
	return &FioReader{textReader: newTextReader(r, name), files: make(map[string]int)}
}

// Version returns the iolog version (2 or 3) once the header is read,
// and 0 before.
func (f *FioReader) Version() int { return f.version }

// Next returns the next record, io.EOF at the end, or a *ParseError.
func (f *FioReader) Next() (Record, error) {
	for {
		line, err := f.lr.next()
		if err != nil {
			return Record{}, err
		}
		if blankLine(line) {
			continue
		}
		if f.version == 0 {
			switch string(trimBlanks(line)) {
			case fioHeader2:
				f.version = 2
			case fioHeader3:
				f.version = 3
			default:
				return Record{}, f.lr.errorf("", "want %q or %q, got %.80q", fioHeader2, fioHeader3, line)
			}
			f.skipped++
			continue
		}
		rec, ok, err := f.parse(line)
		if err != nil {
			return Record{}, err
		}
		if !ok {
			f.skipped++
			continue
		}
		f.recLine = f.lr.line
		return rec, nil
	}
}

// parse reads one line: a file action (add, open, close) or an I/O
// action, which it returns with true.
func (f *FioReader) parse(line []byte) (Record, bool, error) {
	fs, at, err := f.fields(line)
	if err != nil {
		return Record{}, false, err
	}
	name, act := fs[0], fs[1]
	if len(fs) == 2 {
		if done, err := f.fileAction(name, act); done || err != nil {
			return Record{}, false, err
		}
	} else if len(fs) != 4 {
		return Record{}, false, f.lr.errorf("", "want filename action offset length, got %d fields", len(fs))
	}
	rec, ok, err := f.ioAction(act, fs[2:])
	if !ok || err != nil {
		return rec, false, err
	}
	return f.place(rec, name, at)
}

// fields splits line into its fields after the timestamp of a version 3
// log, which it returns (zero in version 2).
func (f *FioReader) fields(line []byte) ([][]byte, time.Duration, error) {
	lo, hi := 2, 4
	if f.version == 3 {
		lo, hi = 3, 5
	}
	n, err := f.split(line, ' ', lo, hi)
	if err != nil {
		return nil, 0, err
	}
	fs := f.f[:n]
	var at time.Duration
	if f.version == 3 {
		if at, err = f.ticks("timestamp", fs[0], time.Microsecond); err != nil {
			return nil, 0, err
		}
		fs = fs[1:]
	}
	return fs, at, nil
}

// fileAction serves an action without offset and length: add, open or
// close of a file (done), or sync and datasync, I/O actions written
// without them (not done).
func (f *FioReader) fileAction(name, act []byte) (done bool, err error) {
	switch string(act) {
	case "add":
		if _, ok := f.files[string(name)]; !ok {
			if len(f.files) >= MaxFioFiles {
				return true, f.lr.errorf("filename", "more than %d files", MaxFioFiles)
			}
			f.files[string(name)] = -1 // numbered at its first I/O
		}
		return true, nil
	case "open", "close":
		if _, ok := f.files[string(name)]; !ok {
			return true, f.lr.errorf("filename", "%q was not added", name)
		}
		return true, nil
	case "sync", "datasync":
		return false, nil
	}
	if isFioIOAction(act) {
		return true, f.lr.errorf("", "%s needs an offset and a length", act)
	}
	return true, f.lr.errorf("action", "%q is not add, open or close", act)
}

// fioOp returns the operation of an I/O action.
func (f *FioReader) fioOp(act []byte) (sim.Op, error) {
	switch string(act) {
	case "read":
		return sim.Read, nil
	case "write":
		return sim.Write, nil
	case "sync", "datasync":
		return sim.Flush, nil
	case "trim":
		return sim.Trim, nil
	case "wait":
		if f.version == 3 {
			return 0, f.lr.errorf("action", "wait is not allowed in version 3")
		}
		return 0, nil
	}
	return 0, f.lr.errorf("action", "%q is not read, write, sync, datasync, trim or wait", act)
}

// ioAction reads an I/O action with its offset and length, if given. It
// returns a record and true for a request; a wait (which advances the
// version 2 clock) is not one.
func (f *FioReader) ioAction(act []byte, operands [][]byte) (Record, bool, error) {
	var rec Record
	var err error
	if rec.Op, err = f.fioOp(act); err != nil {
		return rec, false, err
	}
	if len(operands) == 2 {
		if rec.Offset, err = f.num("offset", operands[0]); err != nil {
			return rec, false, err
		}
		if rec.Length, err = f.num("length", operands[1]); err != nil {
			return rec, false, err
		}
		if err = f.extent("length", rec.Offset, rec.Length); err != nil {
			return rec, false, err
		}
	}
	switch string(act) {
	case "wait":
		if rec.Offset > int64(math.MaxInt64-f.clock)/int64(time.Microsecond) {
			return rec, false, f.lr.errorf("offset", "wait of %d µs overflows the clock", rec.Offset)
		}
		f.clock += time.Duration(rec.Offset) * time.Microsecond
		return rec, false, nil
	case "sync", "datasync":
		rec.Offset, rec.Length = 0, 0
	default:
		if rec.Length == 0 {
			return rec, false, f.lr.errorf("length", "zero-length request")
		}
	}
	return rec, true, nil
}

// place gives rec the device number of file name (numbered in order of
// first I/O) and its time: at (version 3) or the wait clock (version 2),
// from the first request's.
func (f *FioReader) place(rec Record, name []byte, at time.Duration) (Record, bool, error) {
	dev, ok := f.files[string(name)]
	if !ok {
		return rec, false, f.lr.errorf("filename", "%q was not added", name)
	}
	if dev < 0 {
		dev = f.used
		f.used++
		f.files[string(name)] = dev
	}
	rec.Device = dev
	if f.version == 2 {
		at = f.clock
	}
	if !f.first {
		f.first, f.base = true, at
	}
	rec.Time = sim.Time(at - f.base)
	return rec, true, nil
}

func isFioIOAction(act []byte) bool {
	switch string(act) {
	case "read", "write", "trim", "wait":
		return true
	}
	return false
}

// FioFileName returns the file name FioWriter writes for device dev:
// "raidsim-dev0" for device 0. It is a relative name, so a log replayed
// without --replay_redirect touches a file in fio's working directory and
// never a real disk; with --replay_redirect=PATH fio sends every file's
// I/O to PATH.
func FioFileName(dev int) string { return "raidsim-dev" + strconv.Itoa(dev) }

// FioWriter writes records as a fio iolog, version 3 (timestamps in
// microseconds) or version 2 (wait lines for the gaps). Each device
// becomes a file named by FioFileName, added and opened before its first
// I/O and closed by Close. Read and Write become read and write lines,
// Flush a sync. Times are written relative to the first record, rounded
// down to the microsecond; a record earlier than the one before it is
// written at the same time as that one (fio replays in file order).
// FioReader numbers files in order of first I/O, so a log read back gives
// devices 0, 1, ... in the order they first appear: the same numbers when
// they were already numbered that way, as a FioReader's records are.
//
// Replay on a scratch file or device with
//
//	fio --name=replay --read_iolog=trace.log --replay_redirect=/path/to/scratch \
//	    --ioengine=psync --direct=1
//
// (version 3 logs need fio 3.31 or later; fio skips waits shorter than
// 100 µs in version 2 logs).
type FioWriter struct {
	w        *bufio.Writer
	version  int
	buf      []byte
	open     map[int]bool
	order    []int
	started  bool
	haveBase bool
	base     sim.Time
	last     int64 // last timestamp written, µs
	lastDev  int
}

// NewFioWriter returns a writer of a fio iolog of version 2 or 3 to w.
func NewFioWriter(w io.Writer, version int) (*FioWriter, error) {
	if version != 2 && version != 3 {
		return nil, fmt.Errorf("trace: fio iolog version %d: want 2 or 3", version)
	}
	return &FioWriter{w: bufio.NewWriterSize(w, 64<<10), version: version, buf: make([]byte, 0, 128), open: make(map[int]bool)}, nil
}

func (f *FioWriter) header() error {
	if f.started {
		return nil
	}
	f.started = true
	h := fioHeader3
	if f.version == 2 {
		h = fioHeader2
	}
	_, err := f.w.WriteString(h + "\n")
	return err
}

// line writes "[ts] file action[ offset length]".
func (f *FioWriter) line(dev int, act string, withIO bool, off, length int64) error {
	b := f.buf[:0]
	if f.version == 3 {
		b = strconv.AppendInt(b, f.last, 10)
		b = append(b, ' ')
	}
	b = append(b, "raidsim-dev"...)
	b = strconv.AppendInt(b, int64(dev), 10)
	b = append(b, ' ')
	b = append(b, act...)
	if withIO {
		b = append(b, ' ')
		b = strconv.AppendInt(b, off, 10)
		b = append(b, ' ')
		b = strconv.AppendInt(b, length, 10)
	}
	b = append(b, '\n')
	f.buf = b
	_, err := f.w.Write(b)
	return err
}

// Write writes one record, preceded by the file's add and open lines on
// its first use and, in version 2, by a wait for the gap since the
// previous record. It does not allocate after a device's first record.
func (f *FioWriter) Write(r Record) error {
	if err := checkWritable(r); err != nil {
		return err
	}
	if err := f.header(); err != nil {
		return err
	}
	if !f.haveBase {
		f.haveBase, f.base = true, r.Time
	}
	us := f.last
	if r.Time >= f.base {
		us = max(us, int64((uint64(r.Time)-uint64(f.base))/1000))
	}
	if f.version == 2 && us > f.last {
		// The wait names a file already added: the previous record's.
		if err := f.line(f.lastDev, "wait", true, us-f.last, 0); err != nil {
			return err
		}
	}
	f.last, f.lastDev = us, r.Device
	if !f.open[r.Device] {
		if len(f.open) >= MaxFioFiles {
			return fmt.Errorf("trace: fio iolog: more than %d devices", MaxFioFiles)
		}
		f.open[r.Device] = true
		f.order = append(f.order, r.Device)
		if err := f.line(r.Device, "add", false, 0, 0); err != nil {
			return err
		}
		if err := f.line(r.Device, "open", false, 0, 0); err != nil {
			return err
		}
	}
	switch r.Op {
	case sim.Read:
		return f.line(r.Device, "read", true, r.Offset, r.Length)
	case sim.Write:
		return f.line(r.Device, "write", true, r.Offset, r.Length)
	case sim.Trim:
		return f.line(r.Device, "trim", true, r.Offset, r.Length)
	default:
		return f.line(r.Device, "sync", true, 0, 0)
	}
}

// Flush writes buffered data to the underlying writer.
func (f *FioWriter) Flush() error { return f.w.Flush() }

// Close writes a close line for every file opened (and the header if
// nothing was written) and flushes. It does not close the underlying
// writer.
func (f *FioWriter) Close() error {
	if err := f.header(); err != nil {
		return err
	}
	for _, d := range f.order {
		if err := f.line(d, "close", false, 0, 0); err != nil {
			return err
		}
	}
	f.order = f.order[:0]
	return f.w.Flush()
}

// isFioHeader reports whether line is a fio iolog v2 or v3 header.
func isFioHeader(line []byte) bool {
	t := string(trimBlanks(line))
	return t == fioHeader2 || t == fioHeader3
}
