package trace

import (
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

func TestLineReader(t *testing.T) {
	in := "a,b\r\n\nlast"
	l := newLineReader(iotest.OneByteReader(strings.NewReader(in)), "/some/dir/x.csv")
	var got []string
	for {
		b, err := l.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, string(b))
	}
	if strings.Join(got, "|") != "a,b||last" || l.line != 3 {
		t.Errorf("lines %q, count %d", got, l.line)
	}
	e := l.errorf("offset", "%q is not a number", "x")
	if e.Error() != `trace: x.csv:3: offset: "x" is not a number` {
		t.Errorf("error text %q", e.Error())
	}
}

func TestLineReaderTooLong(t *testing.T) {
	in := "ok\n" + strings.Repeat("x", MaxLineBytes+10) + "\n"
	l := newLineReader(strings.NewReader(in), "big.csv")
	if _, err := l.next(); err != nil {
		t.Fatal(err)
	}
	_, err := l.next()
	var pe *ParseError
	if !errors.As(err, &pe) || pe.Line != 2 || !errors.Is(err, ErrLineTooLong) {
		t.Fatalf("got %v, want a ParseError at line 2 wrapping ErrLineTooLong", err)
	}
}
