package trace

import (
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/raidsim/raidsim/internal/shareddata"
	"github.com/raidsim/raidsim/sim"
)

// TestMain names, in go test's output, the tests that skipped because the
// trace samples beside the repository (../shared/traces) are absent.
func TestMain(m *testing.M) { shareddata.Main(m) }

// sample returns the path of an excerpt of a published trace in
// ../shared/traces, outside the project (see its README), or skips t when
// it is absent.
func sample(t *testing.T, name string) string {
	t.Helper()
	return shareddata.Dir(t, "traces", name)
}

func TestRealSamples(t *testing.T) {
	cases := []struct {
		file        string
		format      Format
		count       int
		first, last Record
	}{
		{"msr-hm0-sample.csv", FormatMSR, 1000,
			Record{Time: (128166385295514663 - filetimeUnixEpoch) * 100, Op: sim.Write, Offset: 9056014336, Length: 2048, Measured: 283300 * time.Nanosecond},
			Record{Time: (128166386567849604 - filetimeUnixEpoch) * 100, Op: sim.Read, Offset: 11946549248, Length: 4096, Measured: 349900 * time.Nanosecond}},
		{"tencent-cbs-sample.csv.bz2", FormatTencent, 50000,
			Record{Time: sim.Time(1538323200 * s), Op: sim.Write, Offset: 4247200 * 512, Length: 128 * 512, Device: 1058},
			Record{Time: sim.Time(1538323200 * s), Op: sim.Write, Offset: 8526920 * 512, Length: 128 * 512, Device: 10799}},
		// The README counts 1,000 lines: the header and 999 records.
		{"systor17-sample.csv.gz", FormatSystor17, 999,
			Record{Time: sim.Time(1456095145133076000), Op: sim.Read, Offset: 899056122368, Length: 131072, Measured: 806 * time.Microsecond},
			Record{Time: sim.Time(1456095147574052000), Op: sim.Read, Offset: 4238867714048, Length: 4096, Measured: 245 * time.Microsecond}},
	}
	for _, c := range cases {
		t.Run(string(c.format), func(t *testing.T) {
			r, f, closer, err := Open(sample(t, c.file), "auto")
			if err != nil {
				t.Fatal(err)
			}
			defer closer.Close()
			if f != c.format {
				t.Errorf("auto chose %q, want %q", f, c.format)
			}
			recs, err := readAll(r)
			if err != nil {
				t.Fatal(err)
			}
			if len(recs) != c.count {
				t.Fatalf("%d records, want %d", len(recs), c.count)
			}
			if recs[0] != c.first || recs[len(recs)-1] != c.last {
				t.Errorf("first %+v\n want %+v\nlast %+v\n want %+v", recs[0], c.first, recs[len(recs)-1], c.last)
			}
		})
	}
	// The repository of samples has none of these formats; their readers
	// are tested on hand-written fixtures and by fuzzing.
	for _, f := range []Format{FormatSPC, FormatBlkparse, FormatFio, FormatAlibaba, FormatCSV} {
		t.Run(string(f), func(t *testing.T) {
			t.Skipf("no real %s sample in ../shared/traces (its README lists none)", f)
		})
	}
}

// TestReorderSamples sorts the two samples that are not time-sorted and
// checks a window too small for them fails naming the line.
func TestReorderSamples(t *testing.T) {
	cases := []struct {
		file  string
		small int
		big   int
		count int
	}{
		{"tencent-cbs-sample.csv.bz2", 4, 32768, 50000},
		{"systor17-sample.csv.gz", 4, 256, 999},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			path := sample(t, c.file)
			src, _, closer, err := Open(path, "auto")
			if err != nil {
				t.Fatal(err)
			}
			defer closer.Close()
			r, err := Reorder(src, c.big)
			if err != nil {
				t.Fatal(err)
			}
			recs, err := readAll(r)
			if err != nil {
				t.Fatal(err)
			}
			if len(recs) != c.count {
				t.Errorf("%d records, want %d", len(recs), c.count)
			}
			for i := 1; i < len(recs); i++ {
				if recs[i].Time < recs[i-1].Time {
					t.Fatalf("record %d at %d before record %d at %d", i, recs[i].Time, i-1, recs[i-1].Time)
				}
			}

			src2, _, closer2, err := Open(path, "auto")
			if err != nil {
				t.Fatal(err)
			}
			defer closer2.Close()
			r2, _ := Reorder(src2, c.small)
			_, err = readAll(r2)
			var pe *ParseError
			if !errors.As(err, &pe) || pe.File != filepath.Base(path) || pe.Line < 2 {
				t.Errorf("window %d: got %v, want a ParseError naming a line", c.small, err)
			}
		})
	}
}
