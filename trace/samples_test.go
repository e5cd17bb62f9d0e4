package trace

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
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
}

// otherFormats renders records in the formats that have no real sample
// beside the repository, and says what each reads back: times from the
// first record at the format's resolution, no recorded latency but in
// raidsim's CSV, the device as the format numbers it.
var otherFormats = []struct {
	format Format
	render func(io.Writer, []Record) error
	want   func(Record) Record
}{
	{FormatSPC, func(w io.Writer, recs []Record) error {
		for _, r := range recs {
			fmt.Fprintf(w, "%d,%d,%d,%s,%d.%09d\n", r.Device, r.Offset/512, r.Length, opLetter(r.Op, "r", "w"), r.Time/1e9, r.Time%1e9)
		}
		return nil
	}, func(r Record) Record { r.Measured = 0; return r }},
	{FormatBlkparse, func(w io.Writer, recs []Record) error {
		for i, r := range recs {
			fmt.Fprintf(w, "  8,0    1 %8d %5d.%09d  4242  Q   %s %d + %d [app]\n", i+1, r.Time/1e9, r.Time%1e9, opLetter(r.Op, "R", "W"), r.Offset/512, r.Length/512)
		}
		return nil
	}, func(r Record) Record { r.Measured, r.Device = 0, 8<<8; return r }},
	{FormatAlibaba, func(w io.Writer, recs []Record) error {
		for _, r := range recs {
			fmt.Fprintf(w, "%d,%s,%d,%d,%d\n", r.Device, opLetter(r.Op, "R", "W"), r.Offset, r.Length, alibabaEpochUS+int64(r.Time)/1e3)
		}
		return nil
	}, func(r Record) Record {
		r.Measured, r.Time = 0, sim.Time(alibabaEpochUS*1e3)+r.Time/1e3*1e3
		return r
	}},
	{FormatFio, func(w io.Writer, recs []Record) error { return writeAll(w, "fio3", recs) },
		func(r Record) Record { r.Measured, r.Time = 0, r.Time/1e3*1e3; return r }},
	{FormatCSV, func(w io.Writer, recs []Record) error { return writeAll(w, "csv", recs) },
		func(r Record) Record { return r }},
}

// alibabaEpochUS is 2020-01-01 in microseconds since the Unix epoch,
// about when the Alibaba traces were taken.
const alibabaEpochUS = 1577836800_000000

func opLetter(op sim.Op, read, write string) string {
	if op == sim.Read {
		return read
	}
	return write
}

// writeAll writes recs with the trace package's own writer of format.
func writeAll(w io.Writer, format string, recs []Record) error {
	tw, err := NewWriter(w, format)
	if err != nil {
		return err
	}
	for _, r := range recs {
		if err := tw.Write(r); err != nil {
			return err
		}
	}
	return tw.Close()
}

// TestRealSampleInOtherFormats: no real SPC, blkparse, fio, Alibaba or
// raidsim CSV sample lies beside the repository, so the real MSR sample's
// 1,000 records are rendered in each (times from the first record) and
// read back: "auto" recognizes the format and every record is the MSR
// one at the format's resolution. The hand-written fixtures of
// readers_test.go and the fuzzers cover the formats' corners.
func TestRealSampleInOtherFormats(t *testing.T) {
	r, _, closer, err := Open(sample(t, "msr-hm0-sample.csv"), string(FormatMSR))
	if err != nil {
		t.Fatal(err)
	}
	defer closer.Close()
	recs, err := readAll(r)
	if err != nil {
		t.Fatal(err)
	}
	t0 := recs[0].Time
	for i := range recs {
		recs[i].Time -= t0
		if recs[i].Time < 0 || recs[i].Offset%512 != 0 || recs[i].Length%512 != 0 {
			t.Fatalf("record %d: %+v is not time-sorted and in whole sectors", i, recs[i])
		}
	}
	for _, c := range otherFormats {
		t.Run(string(c.format), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "sample")
			var b bytes.Buffer
			if err := c.render(&b, recs); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			r, f, closer, err := Open(path, "auto")
			if err != nil {
				t.Fatal(err)
			}
			defer closer.Close()
			if f != c.format {
				t.Errorf("auto chose %q, want %q", f, c.format)
			}
			got, err := readAll(r)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(recs) {
				t.Fatalf("%d records, want %d", len(got), len(recs))
			}
			for i := range recs {
				if want := c.want(recs[i]); got[i] != want {
					t.Fatalf("record %d: got %+v\nwant %+v", i, got[i], want)
				}
			}
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
