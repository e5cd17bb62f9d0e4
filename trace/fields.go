package trace

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"time"
)

// maxFields is the most fields a reader looks at on one line; the rest
// are counted but not kept.
const maxFields = 16

// splitFields cuts line into fields at sep, trimming spaces and tabs
// around each, and stores them in out without allocating. With sep ' '
// any run of spaces and tabs separates fields and leading or trailing
// blanks make no empty field. It returns the number of fields on the
// line, which may exceed len(out): fields past len(out) are not stored.
func splitFields(line []byte, sep byte, out [][]byte) int {
	n := 0
	if sep == ' ' {
		i := 0
		for {
			for i < len(line) && isBlank(line[i]) {
				i++
			}
			if i >= len(line) {
				return n
			}
			j := i
			for j < len(line) && !isBlank(line[j]) {
				j++
			}
			if n < len(out) {
				out[n] = line[i:j]
			}
			n++
			i = j
		}
	}
	for {
		j := bytes.IndexByte(line, sep)
		f := line
		if j >= 0 {
			f = line[:j]
		}
		if n < len(out) {
			out[n] = trimBlanks(f)
		}
		n++
		if j < 0 {
			return n
		}
		line = line[j+1:]
	}
}

func isBlank(c byte) bool { return c == ' ' || c == '\t' }

// trimBlanks removes spaces and tabs around b.
func trimBlanks(b []byte) []byte {
	for len(b) > 0 && isBlank(b[0]) {
		b = b[1:]
	}
	for len(b) > 0 && isBlank(b[len(b)-1]) {
		b = b[:len(b)-1]
	}
	return b
}

// blankLine reports a line with nothing but spaces and tabs.
func blankLine(b []byte) bool { return len(trimBlanks(b)) == 0 }

// parseUint parses a non-negative decimal integer that fits an int64.
func parseUint(b []byte) (int64, bool) {
	if len(b) == 0 || len(b) > 19 {
		return 0, false
	}
	// Nineteen digits stay below 10^19 < 2^64, so v cannot wrap: one
	// range check at the end replaces one per digit.
	var v uint64
	for _, c := range b {
		d := c - '0'
		if d > 9 {
			return 0, false
		}
		v = v*10 + uint64(d)
	}
	if v > math.MaxInt64 {
		return 0, false
	}
	return int64(v), true
}

// parseInt parses a decimal integer with an optional leading minus.
func parseInt(b []byte) (int64, bool) {
	if len(b) > 0 && b[0] == '-' {
		v, ok := parseUint(b[1:])
		return -v, ok
	}
	return parseUint(b)
}

// parseDecimal parses a non-negative decimal number of units ("12.5",
// "7", ".25") into a count of units/scale, where scale is a power of ten
// (1e9 turns seconds into nanoseconds). Fraction digits beyond the
// scale's precision are checked and dropped: the result is truncated.
// Signs and exponents are not accepted.
func parseDecimal(b []byte, scale int64) (int64, bool) {
	intPart, frac, hasDot := bytes.Cut(b, []byte{'.'})
	if len(intPart) == 0 && (!hasDot || len(frac) == 0) {
		return 0, false
	}
	var whole int64
	if len(intPart) > 0 {
		var ok bool
		if whole, ok = parseUint(intPart); !ok {
			return 0, false
		}
	}
	if whole > (math.MaxInt64-scale)/scale {
		return 0, false
	}
	v := whole * scale
	place := scale
	for _, c := range frac {
		if c < '0' || c > '9' {
			return 0, false
		}
		if place > 1 {
			place /= 10
			v += int64(c-'0') * place
		}
	}
	return v, true
}

// textReader holds what every text-format reader shares: the line
// reader, the fields of the current line, and counters.
type textReader struct {
	lr      *lineReader
	f       [maxFields][]byte
	skipped int64
	recLine int64 // line of the last record returned
}

func newTextReader(r io.Reader, name string) textReader {
	return textReader{lr: newLineReader(r, name)}
}

// next returns the record parse makes of the next non-blank line, and
// notes that line for Position. Readers whose lines map one to one onto
// records implement Next with it.
func (t *textReader) next(parse func(line []byte) (Record, error)) (Record, error) {
	for {
		line, err := t.lr.next()
		if err != nil {
			return Record{}, err
		}
		if blankLine(line) {
			continue
		}
		rec, err := parse(line)
		if err == nil {
			t.recLine = t.lr.line
		}
		return rec, err
	}
}

// Position returns the base name of the file and the line of the last
// record returned (zero before the first).
func (t *textReader) Position() (string, int64) { return t.lr.name, t.recLine }

// Skipped returns the number of non-blank lines passed over without
// making a record: headers, comments and events the reader does not
// replay.
func (t *textReader) Skipped() int64 { return t.skipped }

// split cuts line into t.f and checks the number of fields is within
// [lo, hi] (hi < 0: no upper bound).
func (t *textReader) split(line []byte, sep byte, lo, hi int) (int, error) {
	n := splitFields(line, sep, t.f[:])
	if n < lo || (hi >= 0 && n > hi) {
		want := fmt.Sprintf("%d", lo)
		switch {
		case hi < 0:
			want = fmt.Sprintf("at least %d", lo)
		case hi != lo:
			want = fmt.Sprintf("%d to %d", lo, hi)
		}
		return n, t.lr.errorf("", "want %s fields, got %d", want, n)
	}
	return n, nil
}

// num parses a non-negative integer field.
func (t *textReader) num(field string, b []byte) (int64, error) {
	v, ok := parseUint(b)
	if !ok {
		switch {
		case len(b) > 0 && b[0] == '-' && allDigits(b[1:]):
			return 0, t.lr.errorf(field, "%q is negative: want a whole number from 0", b)
		case allDigits(b):
			return 0, t.lr.errorf(field, "%q is too large: want a whole number up to %d", b, int64(math.MaxInt64))
		}
		return 0, t.lr.errorf(field, "%q is not a number", b)
	}
	return v, nil
}

// allDigits reports whether b is one or more decimal digits.
func allDigits(b []byte) bool {
	for _, c := range b {
		if c < '0' || c > '9' {
			return false
		}
	}
	return len(b) > 0
}

// scaled parses a non-negative integer field and multiplies it by mult
// (512 for sectors), checking for overflow.
func (t *textReader) scaled(field string, b []byte, mult int64) (int64, error) {
	v, err := t.num(field, b)
	if err != nil {
		return 0, err
	}
	if v > math.MaxInt64/mult {
		return 0, t.lr.errorf(field, "%q is too large", b)
	}
	return v * mult, nil
}

// decimal parses a non-negative decimal field into units of 1/scale.
func (t *textReader) decimal(field string, b []byte, scale int64) (int64, error) {
	v, ok := parseDecimal(b, scale)
	if !ok {
		return 0, t.lr.errorf(field, "%q is not a non-negative number", b)
	}
	return v, nil
}

// device parses a device or volume number field.
func (t *textReader) device(field string, b []byte) (int, error) {
	v, ok := parseUint(b)
	if !ok || v > math.MaxInt32 {
		return 0, t.lr.errorf(field, "%q is not a device number", b)
	}
	return int(v), nil
}

// length checks a request length: positive for reads and writes.
func (t *textReader) length(field string, b []byte, mult int64) (int64, error) {
	v, err := t.scaled(field, b, mult)
	if err != nil {
		return 0, err
	}
	if v == 0 {
		return 0, t.lr.errorf(field, "zero-length request")
	}
	return v, nil
}

// extent checks that offset+length fits an int64.
func (t *textReader) extent(field string, off, length int64) error {
	if off > math.MaxInt64-length {
		return t.lr.errorf(field, "request %d+%d bytes ends past the largest representable offset", off, length)
	}
	return nil
}

// ticks converts a count of units of unit each to a Duration, or
// reports overflow.
func (t *textReader) ticks(field string, b []byte, unit time.Duration) (time.Duration, error) {
	v, err := t.num(field, b)
	if err != nil {
		return 0, err
	}
	if v > math.MaxInt64/int64(unit) {
		return 0, t.lr.errorf(field, "%q is too large", b)
	}
	return time.Duration(v) * unit, nil
}

// equalFold reports whether b equals s ignoring ASCII case.
func equalFold(b []byte, s string) bool {
	if len(b) != len(s) {
		return false
	}
	for i := range len(b) {
		c, d := b[i], s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if 'A' <= d && d <= 'Z' {
			d += 'a' - 'A'
		}
		if c != d {
			return false
		}
	}
	return true
}
