package trace

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"path/filepath"
)

// ParseError reports a malformed record of a trace file: where it is and
// which field is wrong. Readers of every format return it (wrapped or
// not), so callers can find the line with errors.As.
type ParseError struct {
	// File is the base name of the trace file ("hm_0.csv"), or a name
	// given by the caller for other readers.
	File string
	// Line is the 1-based line number.
	Line int64
	// Field names the bad field ("offset"); empty when the line as a
	// whole is wrong (too few fields, too long).
	Field string
	// Err is the underlying problem.
	Err error
}

// Error formats the error as `trace: hm_0.csv:17: offset: "x" is not a
// number`.
func (e *ParseError) Error() string {
	if e.Field == "" {
		return fmt.Sprintf("trace: %s:%d: %v", e.File, e.Line, e.Err)
	}
	return fmt.Sprintf("trace: %s:%d: %s: %v", e.File, e.Line, e.Field, e.Err)
}

// Unwrap returns the underlying error.
func (e *ParseError) Unwrap() error { return e.Err }

// MaxLineBytes is the longest line a trace reader accepts. Longer lines
// are a ParseError, not an allocation: no record of any supported format
// comes near it.
const MaxLineBytes = 64 << 10

// ErrLineTooLong is the Err of a ParseError for a line over MaxLineBytes.
var ErrLineTooLong = fmt.Errorf("line longer than %d bytes", MaxLineBytes)

// lineReader yields the lines of a text trace with their numbers, in
// constant memory: one buffer of at most MaxLineBytes, reused.
type lineReader struct {
	sc   *bufio.Scanner
	name string
	line int64
	// open is set when the scanner's last token ended without a
	// newline: the tail of a stream, or of one cut short.
	open bool
}

// newLineReader reads lines from r; name (reduced to its base name) is
// used in errors.
func newLineReader(r io.Reader, name string) *lineReader {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), MaxLineBytes)
	l := &lineReader{sc: sc, name: filepath.Base(name)}
	sc.Split(l.split)
	return l
}

// split is bufio.ScanLines, noting whether the token it returns lacks
// its newline.
func (l *lineReader) split(data []byte, atEOF bool) (int, []byte, error) {
	adv, tok, err := bufio.ScanLines(data, atEOF)
	l.open = tok != nil && atEOF && adv == len(data) && (len(data) == 0 || data[len(data)-1] != '\n')
	return adv, tok, err
}

// next returns the next line (without its newline or a trailing '\r'),
// io.EOF at the end, or a ParseError for a line that is too long. The
// returned slice is valid until the following call.
func (l *lineReader) next() ([]byte, error) {
	if !l.sc.Scan() {
		if err := l.sc.Err(); err != nil {
			l.line++
			if errors.Is(err, bufio.ErrTooLong) {
				return nil, l.errorf("", "%w", ErrLineTooLong)
			}
			return nil, fmt.Errorf("trace: %s: %w", l.name, err)
		}
		return nil, io.EOF
	}
	l.line++
	if err := l.sc.Err(); l.open && errors.Is(err, ErrTruncated) {
		// The unfinished last line of a stream cut short: say so rather
		// than parse half a record.
		return nil, fmt.Errorf("trace: %s:%d: %w", l.name, l.line, err)
	}
	b := l.sc.Bytes()
	if n := len(b); n > 0 && b[n-1] == '\r' {
		b = b[:n-1]
	}
	return b, nil
}

// errorf returns a ParseError for the current line.
func (l *lineReader) errorf(field, format string, args ...any) *ParseError {
	return &ParseError{File: l.name, Line: l.line, Field: field, Err: fmt.Errorf(format, args...)}
}
