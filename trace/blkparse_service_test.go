package trace

import (
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/raidsim/raidsim/sim"
)

// readAllDC reads text as blkparse:DC through Open's table.
func readAllDC(t *testing.T, text string) ([]Record, []int64, Reader, error) {
	t.Helper()
	r, f, err := NewReader(strings.NewReader(text), "dc.txt", "BLKPARSE:dc")
	if err != nil || f != FormatBlkparseDC {
		t.Fatalf("NewReader: %v, %q", err, f)
	}
	var recs []Record
	var lines []int64
	for {
		rec, err := r.Next()
		if errors.Is(err, io.EOF) {
			return recs, lines, r, nil
		}
		if err != nil {
			return recs, lines, r, err
		}
		recs = append(recs, rec)
		_, l := Position(r)
		lines = append(lines, l)
	}
}

// TestBlkparseServiceFixture: of the fixture's three D events only the
// first has its C.
func TestBlkparseServiceFixture(t *testing.T) {
	recs, err := readFile(t, "testdata/blkparse.txt", FormatBlkparseDC)
	if err != nil {
		t.Fatal(err)
	}
	want := []Record{{Time: 11049, Op: sim.Write, Offset: 223490 * 512, Length: 4096, Device: 8 << 8, Measured: 226497 - 11049}}
	if !reflect.DeepEqual(recs, want) {
		t.Errorf("got %+v\nwant %+v", recs, want)
	}
}

func readFile(t *testing.T, path string, f Format) ([]Record, error) {
	t.Helper()
	r, _, c, err := Open(path, string(f))
	if err != nil {
		return nil, err
	}
	defer c.Close()
	var recs []Record
	for {
		rec, err := r.Next()
		if errors.Is(err, io.EOF) {
			return recs, nil
		}
		if err != nil {
			return recs, err
		}
		recs = append(recs, rec)
	}
}

// TestBlkparseServicePairs: two requests outstanding complete out of
// order, and come out in issue order with their own service times; a
// completion with no issue, a flush and a request never completed are
// skipped.
func TestBlkparseServicePairs(t *testing.T) {
	text := `  8,0 0 1 0.000100 1 C R 5 + 8 [0]
  8,0 0 2 0.001000 1 D R 100 + 8 [fio]
  8,0 0 3 0.001500 1 D W 200 + 16 [fio]
  8,16 0 4 0.001600 1 D R 100 + 8 [fio]
  8,0 0 5 0.002000 1 C W 200 + 16 [0]
  8,0 0 6 0.002100 1 D FN [fio]
  8,0 0 7 0.004000 1 C R 100 + 8 [0]
  8,0 0 8 0.005000 1 D R 300 + 8 [fio]
`
	recs, lines, r, err := readAllDC(t, text)
	if err != nil {
		t.Fatal(err)
	}
	us := func(n int64) time.Duration { return time.Duration(n) * time.Microsecond }
	want := []Record{
		{Time: sim.Time(us(1000)), Op: sim.Read, Offset: 100 * 512, Length: 4096, Device: 8 << 8, Measured: us(3000)},
		{Time: sim.Time(us(1500)), Op: sim.Write, Offset: 200 * 512, Length: 8192, Device: 8 << 8, Measured: us(500)},
	}
	if !reflect.DeepEqual(recs, want) || !reflect.DeepEqual(lines, []int64{2, 3}) {
		t.Errorf("got %+v lines %v\nwant %+v lines 2, 3", recs, lines, want)
	}
	// Skipped: the unmatched C, the flush, and the two never completed
	// (one on another device).
	if n := Skipped(r); n != 4 {
		t.Errorf("skipped %d, want 4", n)
	}
}

func TestBlkparseServiceErrors(t *testing.T) {
	var many strings.Builder
	for i := range MaxBlkparsePending + 1 {
		fmt.Fprintf(&many, "8,0 0 %d 0.%06d 1 D R %d + 8 [x]\n", i+1, i, 8*i)
	}
	for _, tc := range []struct{ text, want string }{
		{"8,0 0 1 0.002 1 D R 8 + 8 [x]\n8,0 0 2 0.001 1 C R 8 + 8 [0]\n", "trace: dc.txt:2: time: completion at 1ms before its issue at 2ms (line 1)"},
		{many.String(), fmt.Sprintf("trace: dc.txt:%d: more than %d requests issued (D) and not completed (C)", MaxBlkparsePending+1, MaxBlkparsePending)},
		{"8,0 0 1 x 1 C R 8 + 8 [0]\n", `trace: dc.txt:1: time: "x" is not a non-negative number`},
	} {
		_, _, _, err := readAllDC(t, tc.text)
		var pe *ParseError
		if err == nil || !strings.Contains(err.Error(), tc.want) || !errors.As(err, &pe) {
			t.Errorf("%.60q: %v, want %q", tc.text, err, tc.want)
		}
	}
}
