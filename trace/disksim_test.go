package trace

import (
	"errors"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/raidsim/raidsim/sim"
)

func TestDiskSimReader(t *testing.T) {
	src := "0.000000 0 1000 8 1\n" +
		"# comment\n\n" +
		"12.5 3 64 16 0x0\r\n" +
		"   1533000.25   30  7  1  3  \n" +
		"20 1 0 2 a\n"
	recs, err := dsDrain(t, NewDiskSimReader(strings.NewReader(src), "a.trace"))
	if err != nil {
		t.Fatal(err)
	}
	want := []Record{
		{Time: 0, Device: 0, Op: sim.Read, Offset: 1000 * 512, Length: 4096},
		{Time: 12500000, Device: 3, Op: sim.Write, Offset: 64 * 512, Length: 8192},
		{Time: 1533000250000, Device: 30, Op: sim.Read, Offset: 7 * 512, Length: 512},
		{Time: 20000000, Device: 1, Op: sim.Write, Offset: 0, Length: 1024},
	}
	if len(recs) != len(want) {
		t.Fatalf("got %+v", recs)
	}
	for i := range want {
		if recs[i] != want[i] {
			t.Errorf("record %d = %+v, want %+v", i, recs[i], want[i])
		}
	}
}

func TestDiskSimReaderMalformed(t *testing.T) {
	for _, tc := range []struct{ line, field string }{
		{"1 0 1 1", ""},
		{"1 0 1 1 1 1", ""},
		{"x 0 1 1 1", "time"},
		{"-1 0 1 1 1", "time"},
		{"1 -2 1 1 1", "device"},
		{"1 0 -1 1 1", "blkno"},
		{"1 0 1 0 1", "bcount"},
		{"1 0 1 1 g", "flags"},
		{"1 0 1 1 0x", "flags"},
	} {
		r := NewDiskSimReader(strings.NewReader("0 0 0 1 1\n"+tc.line+"\n"), "a.trace")
		r.Next()
		_, err := r.Next()
		var pe *ParseError
		if !errors.As(err, &pe) || pe.Line != 2 || pe.Field != tc.field {
			t.Errorf("%q: error %v, want a ParseError at line 2 field %q", tc.line, err, tc.field)
		}
	}
}

// TestDiskSimSample reads DiskSim 4.0's ascii.trace excerpt shared beside
// the repository: 100,000 requests on devices 0-30, 80% reads.
func TestDiskSimSample(t *testing.T) {
	f, err := os.Open(sample(t, "disksim-ascii.trace"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := dsDrain(t, NewDiskSimReader(f, "disksim-ascii.trace"))
	if err != nil {
		t.Fatal(err)
	}
	reads, maxDev := 0, 0
	for i, r := range recs {
		if r.Op == sim.Read {
			reads++
		}
		maxDev = max(maxDev, r.Device)
		if i > 0 && r.Time < recs[i-1].Time {
			t.Fatalf("record %d goes back in time", i+1)
		}
	}
	last := recs[len(recs)-1].Time.Seconds()
	if len(recs) != 100000 || maxDev != 30 || reads < 79000 || reads > 81000 || last < 1500 || last > 1540 {
		t.Errorf("%d records, %d reads, devices up to %d, last at %.0f s", len(recs), reads, maxDev, last)
	}
}

func FuzzDiskSimReader(f *testing.F) {
	f.Add("0.000000 0 1000 8 1\n12.5 3 64 16 0x0\n")
	f.Add("1 0 1 1 g\n#\n")
	f.Fuzz(func(t *testing.T, src string) {
		r := NewDiskSimReader(strings.NewReader(src), "f")
		for i := 0; i < 1000; i++ {
			rec, err := r.Next()
			if err == io.EOF {
				return
			}
			if err != nil {
				var pe *ParseError
				if !errors.As(err, &pe) {
					t.Fatalf("error %v is not a ParseError", err)
				}
				return
			}
			if rec.Length <= 0 || rec.Offset < 0 || rec.Time < 0 || rec.Device < 0 || (rec.Op != sim.Read && rec.Op != sim.Write) {
				t.Fatalf("bad record %+v", rec)
			}
		}
	})
}

func TestSniffDiskSimFormats(t *testing.T) {
	for _, tc := range []struct {
		line           string
		ascii, validat bool
	}{
		{"0.000000 0 1000 8 1", true, false},
		{"12.5 3 64 16 0x1c", true, false},
		{"R Hit 265552 2 14901.000000 4757.708232", false, true},
		{"W Miss 1 2 3 4", false, true},
		{"R Doub 1 2 3 4", false, true}, // DiskSim's validated traces have
		{"W Trip 1 2 3 4", false, true}, // these hit types too
		{"W Quad 1 2 3 4", false, false},
		{"R Hit 1 2 3", false, false},
		{"1,2,3,4,5", false, false},
		{"x 0 1 1 1", false, false},
		{"1 0 1 1 zz", false, false},
	} {
		if got := sniffDiskSim([]byte(tc.line)); got != tc.ascii {
			t.Errorf("sniffDiskSim(%q) = %v", tc.line, got)
		}
		if got := sniffValidate([]byte(tc.line)); got != tc.validat {
			t.Errorf("sniffValidate(%q) = %v", tc.line, got)
		}
	}
}
