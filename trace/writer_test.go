package trace

import (
	"bytes"
	"io"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/raidsim/raidsim/sim"
)

// roundTrip writes recs in format and reads them back with the reader
// of the same format.
func roundTrip(t testing.TB, recs []Record, format string) ([]Record, string) {
	t.Helper()
	var buf bytes.Buffer
	w, err := NewWriter(&buf, format)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		if err := w.Write(r); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	r, f, err := NewReader(bytes.NewReader(buf.Bytes()), "rt."+format, "auto")
	if err != nil {
		t.Fatal(err)
	}
	want := FormatCSV
	if strings.HasPrefix(format, "fio") {
		want = FormatFio
	}
	if f != want {
		t.Fatalf("written %s sniffed as %q", format, f)
	}
	got, err := readAll(r)
	if err != nil {
		t.Fatalf("%v\n%s", err, buf.String())
	}
	return got, buf.String()
}

func TestRoundTrip(t *testing.T) {
	cases := []struct{ file, format string }{
		{"raidsim.csv", "csv"},
		{"msr.csv", "csv"},
		{"systor17.csv", "csv"},
		{"blkparse.txt", "csv"},
		{"fio2.log", "fio2"},
		{"fio3.log", "fio3"},
		{"fio2.log", "fio3"},
		{"fio3.log", "fio2"},
	}
	for _, c := range cases {
		t.Run(c.file+"->"+c.format, func(t *testing.T) {
			r, _, closer, err := Open("testdata/"+c.file, "auto")
			if err != nil {
				t.Fatal(err)
			}
			defer closer.Close()
			recs, err := readAll(r)
			if err != nil {
				t.Fatal(err)
			}
			got, text := roundTrip(t, recs, c.format)
			if !reflect.DeepEqual(got, recs) {
				t.Errorf("round trip differs\n got %+v\nwant %+v\n%s", got, recs, text)
			}
			// Writing what was read back gives the same bytes.
			if _, text2 := roundTrip(t, got, c.format); text2 != text {
				t.Errorf("second write differs:\n%s\n%s", text, text2)
			}
		})
	}
}

func TestFioWriterText(t *testing.T) {
	recs := []Record{
		{Time: 1000 * sim.Time(time.Millisecond), Op: sim.Write, Offset: 0, Length: 4096},
		{Time: 1002 * sim.Time(time.Millisecond), Op: sim.Read, Offset: 8192, Length: 512, Device: 2},
		{Time: 1001 * sim.Time(time.Millisecond), Op: sim.Flush}, // earlier: written at the previous time
	}
	var b3, b2 bytes.Buffer
	for v, b := range map[int]*bytes.Buffer{3: &b3, 2: &b2} {
		w, err := NewFioWriter(b, v)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range recs {
			if err := w.Write(r); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
	}
	want3 := `fio version 3 iolog
0 raidsim-dev0 add
0 raidsim-dev0 open
0 raidsim-dev0 write 0 4096
2000 raidsim-dev2 add
2000 raidsim-dev2 open
2000 raidsim-dev2 read 8192 512
2000 raidsim-dev0 sync 0 0
2000 raidsim-dev0 close
2000 raidsim-dev2 close
`
	want2 := `fio version 2 iolog
raidsim-dev0 add
raidsim-dev0 open
raidsim-dev0 write 0 4096
raidsim-dev0 wait 2000 0
raidsim-dev2 add
raidsim-dev2 open
raidsim-dev2 read 8192 512
raidsim-dev0 sync 0 0
raidsim-dev0 close
raidsim-dev2 close
`
	if b3.String() != want3 {
		t.Errorf("v3:\n%s\nwant\n%s", b3.String(), want3)
	}
	if b2.String() != want2 {
		t.Errorf("v2:\n%s\nwant\n%s", b2.String(), want2)
	}
	if FioFileName(7) != "raidsim-dev7" {
		t.Error(FioFileName(7))
	}
}

func TestWriterErrors(t *testing.T) {
	if _, err := NewWriter(io.Discard, "msr"); err == nil {
		t.Error("msr writer accepted")
	}
	if _, err := NewFioWriter(io.Discard, 1); err == nil {
		t.Error("fio v1 accepted")
	}
	for _, f := range WriteFormats {
		w, _ := NewWriter(io.Discard, f)
		for _, bad := range []Record{
			{Op: sim.Op(9), Length: 1},
			{Op: sim.Read, Length: 0},
			{Op: sim.Read, Length: 512, Offset: -1},
			{Op: sim.Read, Length: 512, Device: -1},
			{Op: sim.Read, Length: 512, Measured: -1},
		} {
			if err := w.Write(bad); err == nil {
				t.Errorf("%s accepted %+v", f, bad)
			}
		}
	}
	var buf bytes.Buffer
	w, _ := NewWriter(&buf, "csv")
	if err := w.Close(); err != nil || buf.String() != CSVHeader+"\n" {
		t.Errorf("empty CSV %q %v", buf.String(), err)
	}
}

func TestCopy(t *testing.T) {
	recs := []Record{{Op: sim.Read, Length: 512}, {Time: 5, Op: sim.Write, Offset: 512, Length: 1024, FUA: true, Measured: 7}}
	var buf bytes.Buffer
	w := NewCSVWriter(&buf)
	n, err := Copy(w, NewSliceReader(recs))
	if err != nil || n != 2 {
		t.Fatal(n, err)
	}
	w.Close()
	got, _ := readAll(NewCSVReader(&buf, "x"))
	if !reflect.DeepEqual(got, recs) {
		t.Errorf("%+v", got)
	}
}
