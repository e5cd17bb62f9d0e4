package trace

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/raidsim/raidsim/sim"
)

// at makes records at the given times in milliseconds, numbered by
// Offset in reading order.
func at(ms ...int64) []Record {
	recs := make([]Record, len(ms))
	for i, m := range ms {
		recs[i] = Record{Time: sim.Time(m * int64(time.Millisecond)), Op: sim.Read, Offset: int64(i), Length: 512}
	}
	return recs
}

// readOrder reads r to its end, returning the Offsets (reading numbers) in
// the order returned.
func readOrder(t *testing.T, r Reader) ([]int64, error) {
	t.Helper()
	var order []int64
	for {
		rec, err := r.Next()
		if err == io.EOF {
			return order, nil
		}
		if err != nil {
			return order, err
		}
		order = append(order, rec.Offset)
	}
}

// TestReorderWithin: records late by at most the window come out in
// time order (equal times in reading order), with the count of late
// records and the worst lateness worked by hand; a record later than
// the window is refused with an *OrderError naming the window.
func TestReorderWithin(t *testing.T) {
	// times (ms): 0 10 5 20 20 12 30 29 ; late: 5 (by 5), 12 (by 8), 29 (by 1)
	r, err := ReorderWithin(NewSliceReader(at(0, 10, 5, 20, 20, 12, 30, 29)), 10*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	order, err := readOrder(t, r)
	if err != nil {
		t.Fatal(err)
	}
	want := []int64{0, 2, 1, 5, 3, 4, 7, 6}
	if len(order) != len(want) {
		t.Fatalf("order %v, want %v", order, want)
	}
	for i := range want {
		if order[i] != want[i] {
			t.Fatalf("order %v, want %v", order, want)
		}
	}
	if st := r.Stats(); st != (ReorderStats{Late: 3, MaxLate: 8 * time.Millisecond}) {
		t.Errorf("stats %+v, want 3 late, at most 8ms", st)
	}

	// 22 ms late with a 10 ms window: 30 is returned once 40 is read,
	// before 18 arrives.
	r, _ = ReorderWithin(NewSliceReader(at(0, 10, 30, 40, 18)), 10*time.Millisecond)
	_, err = readOrder(t, r)
	var oe *OrderError
	if !errors.As(err, &oe) || oe.WindowTime != 10*time.Millisecond {
		t.Fatalf("error %v, want an *OrderError with the 10ms window", err)
	}

	for _, w := range []time.Duration{0, -time.Second, MaxReorderTime + 1} {
		if _, err := ReorderWithin(NewSliceReader(nil), w); err == nil {
			t.Errorf("window %v accepted", w)
		}
	}
}

// TestReorderCountsLate: the record-count window reports the same
// statistics.
func TestReorderCountsLate(t *testing.T) {
	r, err := Reorder(NewSliceReader(at(0, 10, 5, 20, 20, 12, 30, 29)), 4)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := readOrder(t, r); err != nil {
		t.Fatal(err)
	}
	if st := r.Stats(); st != (ReorderStats{Late: 3, MaxLate: 8 * time.Millisecond}) {
		t.Errorf("stats %+v, want 3 late, at most 8ms", st)
	}
}

// TestPublishedSamplesReorder: the SYSTOR '17 and Tencent CBS samples
// come out in time order within their formats' default windows, with
// the lateness measured on them.
func TestPublishedSamplesReorder(t *testing.T) {
	for _, c := range []struct {
		file    string
		format  Format
		late    int64
		maxLate time.Duration
	}{
		{"systor17-sample.csv.gz", FormatSystor17, 287, 67603 * time.Microsecond},
		{"tencent-cbs-sample.csv.bz2", FormatTencent, 1297, time.Second},
	} {
		path := sample(t, c.file)
		src, f, closer, err := Open(path, "auto")
		if err != nil {
			t.Fatal(err)
		}
		defer closer.Close()
		if f != c.format || DefaultReorderWindow(f) <= c.maxLate {
			t.Fatalf("%s: format %s, window %v: want %s with a window over %v", c.file, f, DefaultReorderWindow(f), c.format, c.maxLate)
		}
		r, err := ReorderWithin(src, DefaultReorderWindow(f))
		if err != nil {
			t.Fatal(err)
		}
		var last sim.Time
		for n := 0; ; n++ {
			rec, err := r.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("%s: %v", c.file, err)
			}
			if n > 0 && rec.Time < last {
				t.Fatalf("%s: record %d at %v after %v", c.file, n, rec.Time, last)
			}
			last = rec.Time
		}
		if st := r.Stats(); st.Late != c.late || st.MaxLate.Round(time.Microsecond) != c.maxLate {
			t.Errorf("%s: %+v, want %d late by at most %v", c.file, st, c.late, c.maxLate)
		}
	}
}

// TestReorderPosition: a reorder reader names the line of the record it
// returned, not the line its source has read ahead to.
func TestReorderPosition(t *testing.T) {
	const csv = "time_ns,op,offset,length,device,fua,measured_ns\n0,read,0,512,0,0,0\n3000000,read,512,512,0,0,0\n1000000,read,1024,512,0,0,0\n9000000,read,1536,512,0,0,0\n"
	byTime, _ := ReorderWithin(NewCSVReader(strings.NewReader(csv), "p.csv"), 5*time.Millisecond)
	byCount, _ := Reorder(NewCSVReader(strings.NewReader(csv), "p.csv"), 3)
	for _, r := range []Reader{byTime, byCount} {
		var lines []int64
		for {
			if _, err := r.Next(); err == io.EOF {
				break
			} else if err != nil {
				t.Fatal(err)
			}
			f, l := Position(r)
			if f != "p.csv" {
				t.Fatalf("file %q", f)
			}
			lines = append(lines, l)
		}
		if fmt.Sprint(lines) != "[2 4 3 5]" {
			t.Errorf("%T: lines %v, want [2 4 3 5]", r, lines)
		}
	}
}
