package trace

import (
	"bufio"
	"bytes"
	"io"
	"math"
	"strconv"
	"time"

	"github.com/raidsim/raidsim/sim"
)

// CSVHeader is the first line of raidsim's own trace format.
const CSVHeader = "time_ns,op,offset,length,device,fua,measured_ns"

// CSVReader reads raidsim's own trace format: CSV with the header line
// CSVHeader, then one record a line with the fields of a Record:
//
//	time_ns      Record.Time, integer nanoseconds (may be negative)
//	op           read, write, flush or trim
//	offset       byte offset, >= 0
//	length       bytes, > 0 for read and write
//	device       device or volume number, >= 0
//	fua          0 or 1
//	measured_ns  measured response time in nanoseconds, 0 if unknown
//
// for example
//
//	time_ns,op,offset,length,device,fua,measured_ns
//	0,write,1048576,65536,0,1,0
//	250000,read,0,4096,0,0,1820000
//
// Lines starting with '#' and blank lines are skipped; the header must
// come before the first record. Times keep whatever epoch the writer used:
// CSVWriter writes Record.Time unchanged, so conversions to CSV keep the
// source's clock.
type CSVReader struct {
	textReader
	header bool
}

// NewCSVReader reads a raidsim CSV trace from r; name is used in errors.
func NewCSVReader(r io.Reader, name string) *CSVReader {
	return &CSVReader{textReader: newTextReader(r, name)}
}

// Next returns the next record, io.EOF at the end, or a *ParseError.
func (c *CSVReader) Next() (Record, error) {
	for {
		line, err := c.lr.next()
		if err != nil {
			return Record{}, err
		}
		t := trimBlanks(line)
		if len(t) == 0 {
			continue
		}
		if t[0] == '#' {
			c.skipped++
			continue
		}
		if !c.header {
			if string(t) != CSVHeader {
				return Record{}, c.lr.errorf("", "want the header %q, got %q", CSVHeader, t)
			}
			c.header = true // the format's own line: not input skipped
			continue
		}
		rec, err := c.parse(line)
		if err == nil {
			c.recLine = c.lr.line
		}
		return rec, err
	}
}

func (c *CSVReader) parse(line []byte) (Record, error) {
	var rec Record
	if _, err := c.split(line, ',', 7, 7); err != nil {
		return rec, err
	}
	f := &c.f
	ns, ok := parseInt(f[0])
	if !ok {
		if b := f[0]; len(b) > 0 && allDigits(bytes.TrimPrefix(b, []byte("-"))) {
			return rec, c.lr.errorf("time_ns", "%q is out of range: want nanoseconds within ±%d", b, int64(math.MaxInt64))
		}
		return rec, c.lr.errorf("time_ns", "%q is not a number", f[0])
	}
	rec.Time = sim.Time(ns)
	switch string(f[1]) {
	case "read":
		rec.Op = sim.Read
	case "write":
		rec.Op = sim.Write
	case "flush":
		rec.Op = sim.Flush
	case "trim":
		rec.Op = sim.Trim
	default:
		return rec, c.lr.errorf("op", "%q is not read, write, flush or trim", f[1])
	}
	var err error
	if rec.Offset, err = c.num("offset", f[2]); err != nil {
		return rec, err
	}
	if rec.Op == sim.Flush {
		rec.Length, err = c.num("length", f[3])
	} else {
		rec.Length, err = c.length("length", f[3], 1)
	}
	if err != nil {
		return rec, err
	}
	if err = c.extent("length", rec.Offset, rec.Length); err != nil {
		return rec, err
	}
	if rec.Device, err = c.device("device", f[4]); err != nil {
		return rec, err
	}
	switch string(f[5]) {
	case "0":
	case "1":
		rec.FUA = true
	default:
		return rec, c.lr.errorf("fua", "%q is not 0 or 1", f[5])
	}
	m, err := c.num("measured_ns", f[6])
	rec.Measured = time.Duration(m)
	return rec, err
}

// CSVWriter writes records in raidsim's CSV format (see CSVReader),
// buffered: call Close (or Flush) at the end. It writes the header with
// the first record, or at Close if there was none.
type CSVWriter struct {
	w      *bufio.Writer
	buf    []byte
	header bool
}

// NewCSVWriter returns a writer of raidsim CSV to w.
func NewCSVWriter(w io.Writer) *CSVWriter {
	return &CSVWriter{w: bufio.NewWriterSize(w, 64<<10), buf: make([]byte, 0, 128)}
}

func (c *CSVWriter) writeHeader() error {
	if c.header {
		return nil
	}
	c.header = true
	_, err := c.w.WriteString(CSVHeader + "\n")
	return err
}

// Write writes one record. It does not allocate.
func (c *CSVWriter) Write(r Record) error {
	if err := checkWritable(r); err != nil {
		return err
	}
	if err := c.writeHeader(); err != nil {
		return err
	}
	b := c.buf[:0]
	b = strconv.AppendInt(b, int64(r.Time), 10)
	b = append(b, ',')
	b = append(b, r.Op.String()...)
	b = append(b, ',')
	b = strconv.AppendInt(b, r.Offset, 10)
	b = append(b, ',')
	b = strconv.AppendInt(b, r.Length, 10)
	b = append(b, ',')
	b = strconv.AppendInt(b, int64(r.Device), 10)
	if r.FUA {
		b = append(b, ",1,"...)
	} else {
		b = append(b, ",0,"...)
	}
	b = strconv.AppendInt(b, int64(r.Measured), 10)
	b = append(b, '\n')
	c.buf = b
	_, err := c.w.Write(b)
	return err
}

// Flush writes buffered data to the underlying writer.
func (c *CSVWriter) Flush() error { return c.w.Flush() }

// Close writes the header if no record was written and flushes. It does
// not close the underlying writer.
func (c *CSVWriter) Close() error {
	if err := c.writeHeader(); err != nil {
		return err
	}
	return c.w.Flush()
}

// isCSVHeader reports whether line is CSVHeader.
func isCSVHeader(line []byte) bool { return bytes.Equal(trimBlanks(line), []byte(CSVHeader)) }
