package trace

import (
	"fmt"
	"io"
	"strings"

	"github.com/raidsim/raidsim/sim"
)

// Writer writes records to a trace file. Close writes whatever the
// format needs at the end and flushes, but does not close the underlying
// io.Writer.
type Writer interface {
	// Write writes one record.
	Write(Record) error
	// Flush writes buffered data to the underlying writer.
	Flush() error
	// Close finishes the trace and flushes.
	Close() error
}

// WriteFormats lists the formats NewWriter accepts.
var WriteFormats = []string{"csv", "fio", "fio3", "fio2"}

// NewWriter returns a Writer of the named format to w: "csv" (raidsim's
// CSV, see CSVReader), "fio" or "fio3" (fio iolog version 3), "fio2" (fio
// iolog version 2). See CSVWriter and FioWriter.
func NewWriter(w io.Writer, format string) (Writer, error) {
	switch strings.ToLower(strings.TrimSpace(format)) {
	case "csv":
		return NewCSVWriter(w), nil
	case "fio", "fio3":
		return NewFioWriter(w, 3)
	case "fio2":
		return NewFioWriter(w, 2)
	}
	return nil, fmt.Errorf("trace: cannot write format %q (want one of %s)", format, strings.Join(WriteFormats, ", "))
}

// Copy writes every record of src to dst and returns how many it wrote.
// It stops at the first error (io.EOF from src is the normal end) and
// does not Close dst.
func Copy(dst Writer, src Reader) (int64, error) {
	var n int64
	for {
		rec, err := src.Next()
		if err == io.EOF {
			return n, nil
		}
		if err != nil {
			return n, err
		}
		if err := dst.Write(rec); err != nil {
			return n, err
		}
		n++
	}
}

// checkWritable rejects records no format can represent.
func checkWritable(r Record) error {
	switch {
	case !r.Op.Valid():
		return fmt.Errorf("trace: write: unknown op %d", uint8(r.Op))
	case r.Offset < 0 || r.Length < 0 || r.Offset > 1<<62 || r.Length > 1<<62:
		return fmt.Errorf("trace: write: %v %d bytes at %d: negative or huge offset or length", r.Op, r.Length, r.Offset)
	case r.Op != sim.Flush && r.Length == 0:
		return fmt.Errorf("trace: write: %v of zero bytes at %d", r.Op, r.Offset)
	case r.Device < 0:
		return fmt.Errorf("trace: write: negative device %d", r.Device)
	case r.Measured < 0:
		return fmt.Errorf("trace: write: negative measured time %v", r.Measured)
	}
	return nil
}
