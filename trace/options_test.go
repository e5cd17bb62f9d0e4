package trace

import (
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/raidsim/raidsim/sim"
)

func TestFilter(t *testing.T) {
	recs := []Record{
		{Time: 0, Op: sim.Read, Length: 512, Device: 0},
		{Time: 1, Op: sim.Write, Length: 512, Device: 1},
		{Time: 2, Op: sim.Flush, Device: 0},
		{Time: 3, Op: sim.Write, Length: 512, Device: 0},
	}
	r := FilterDevice(NewSliceReader(recs), 0)
	got, err := readAll(r)
	if err != nil || len(got) != 3 || Skipped(r) != 1 {
		t.Errorf("FilterDevice: %v, %v, skipped %d", got, err, Skipped(r))
	}
	r = FilterOps(NewSliceReader(recs), sim.Write)
	got, _ = readAll(r)
	if len(got) != 2 || got[0].Time != 1 || got[1].Time != 3 || Skipped(r) != 2 {
		t.Errorf("FilterOps: %v, skipped %d", got, Skipped(r))
	}
}

func TestWindow(t *testing.T) {
	var recs []Record
	for i := range 10 {
		recs = append(recs, Record{Time: sim.Time(1000 + int64(i)*s), Op: sim.Read, Length: 512})
	}
	r := Window(NewSliceReader(recs), 2*time.Second, 5*time.Second)
	got, err := readAll(r)
	if err != nil || len(got) != 3 || got[0].Time != recs[2].Time || got[2].Time != recs[4].Time || Skipped(r) != 2 {
		t.Errorf("Window: %v, %v, skipped %d", got, err, Skipped(r))
	}
	got, _ = readAll(Window(NewSliceReader(recs), 8*time.Second, 0))
	if len(got) != 2 {
		t.Errorf("open-ended window: %d records", len(got))
	}
}

func TestMapOffsets(t *testing.T) {
	const capacity = 1 << 20
	in := []Record{
		{Op: sim.Read, Offset: 4096, Length: 4096},
		{Op: sim.Write, Offset: 3<<20 + 8192, Length: 4096},
		{Op: sim.Read, Offset: 100, Length: 1000}, // unaligned
		{Op: sim.Write, Offset: capacity - 512, Length: 4096},
		{Op: sim.Flush, Offset: 1 << 40},
	}
	cases := []struct {
		m    OffsetMap
		want []int64 // offset, length pairs
		err  string
	}{
		{OffsetMap{Mode: MapWrap, Capacity: capacity, SectorSize: 512},
			[]int64{4096, 4096, 8192, 4096, 0, 1536, capacity - 4096, 4096, 1 << 40, 0}, ""},
		{OffsetMap{Mode: MapScale, Capacity: capacity, SectorSize: 4096, SourceCapacity: 4 << 20},
			[]int64{0, 4096, (3<<20 + 8192) / 4 / 4096 * 4096, 4096, 0, 4096, capacity/4 - 4096, 8192, 1 << 40, 0}, ""},
		// A sector size that is not a power of two aligns by division.
		{OffsetMap{Mode: MapWrap, Capacity: capacity, SectorSize: 520},
			[]int64{4160 - 520, 4680, (3<<20 + 8192) % (capacity / 520 * 520) / 520 * 520, 4680, 0, 1560,
				capacity/520*520 - 4680, 4680, 1 << 40, 0}, ""},
		{OffsetMap{Mode: MapReject, Capacity: capacity}, []int64{4096, 4096},
			"trace: record 2: write 4096 bytes at 3153920 ends past the 1048576-byte device (map offsets with wrap or scale)"},
	}
	for _, c := range cases {
		r, err := MapOffsets(NewSliceReader(in), c.m)
		if err != nil {
			t.Fatal(err)
		}
		got, err := readAll(r)
		var pairs []int64
		for _, g := range got {
			pairs = append(pairs, g.Offset, g.Length)
		}
		if !reflect.DeepEqual(pairs, c.want) {
			t.Errorf("%v: got %v, want %v", c.m.Mode, pairs, c.want)
		}
		if (err == nil) != (c.err == "") || (err != nil && err.Error() != c.err) {
			t.Errorf("%v: error %v, want %q", c.m.Mode, err, c.err)
		}
	}
	if _, err := MapOffsets(NewSliceReader(nil), OffsetMap{Mode: MapScale}); err == nil ||
		!strings.Contains(err.Error(), "Capacity") || !strings.Contains(err.Error(), "SourceCapacity") {
		t.Errorf("bad OffsetMap: %v", err)
	}
	big, err := MapOffsets(NewSliceReader([]Record{{Op: sim.Read, Length: 2 << 20}}), OffsetMap{Mode: MapWrap, Capacity: capacity})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := big.Next(); err == nil || err.Error() != "trace: record 1: read of 2097152 bytes is larger than the 1048576-byte device" {
		t.Errorf("oversized request: %v", err)
	}
	// Errors name the file and line when the source knows them.
	src := NewMSRReader(strings.NewReader("128166372003061629,hm,0,Write,3154152960,4096,1802\n"), "hm_0.csv")
	r, _ := MapOffsets(src, OffsetMap{Capacity: capacity})
	if _, err := r.Next(); err == nil || !strings.HasPrefix(err.Error(), "trace: hm_0.csv:1: write 4096 bytes at 3154152960 ends past") {
		t.Errorf("reject error %v", err)
	}
	if m, err := ParseMapMode(" Scale"); err != nil || m != MapScale || m.String() != "scale" {
		t.Errorf("ParseMapMode: %v %v", m, err)
	}
}

func TestReorder(t *testing.T) {
	times := []sim.Time{5, 3, 4, 1, 9, 8, 8, 7, 20, 15}
	var in []Record
	for i, tm := range times {
		in = append(in, Record{Time: tm, Op: sim.Read, Length: 512, Offset: int64(i)})
	}
	r, err := Reorder(NewSliceReader(in), 4)
	if err != nil {
		t.Fatal(err)
	}
	got, err := readAll(r)
	if err != nil {
		t.Fatal(err)
	}
	var gt []sim.Time
	for _, g := range got {
		gt = append(gt, g.Time)
	}
	if !reflect.DeepEqual(gt, []sim.Time{1, 3, 4, 5, 7, 8, 8, 9, 15, 20}) || got[5].Offset != 5 || got[6].Offset != 6 {
		t.Errorf("reordered %v (%v)", gt, got)
	}
	r, _ = Reorder(NewSliceReader(in), 2)
	_, err = readAll(r)
	if err == nil || err.Error() != "trace: record 4: time -0.000000004 s is before the -0.000000001 s of a record already replayed (times from the first record): "+
		"the trace is out of order by more than the reorder window of 2 records; replay with a larger --reorder N (config: reorder: N)" {
		t.Errorf("small window: %v", err)
	}
	for _, w := range []int{0, -1, MaxReorderWindow + 1} {
		if _, err := Reorder(NewSliceReader(nil), w); err == nil {
			t.Errorf("window %d accepted", w)
		}
	}
	// A source error passes through.
	boom := errors.New("boom")
	r, _ = Reorder(errReader{boom}, 3)
	if _, err := r.Next(); !errors.Is(err, boom) {
		t.Errorf("source error %v", err)
	}
}

type errReader struct{ err error }

func (e errReader) Next() (Record, error) { return Record{}, e.err }

// TestDefaultMapMode: the multi-volume published formats wrap by
// default, every other format refuses; the reader counts what it moved.
func TestDefaultMapMode(t *testing.T) {
	for f, want := range map[Format]MapMode{FormatSystor17: MapWrap, FormatTencent: MapWrap, FormatMSR: MapReject, FormatCSV: MapReject} {
		if got := DefaultMapMode(f); got != want {
			t.Errorf("%s: %v, want %v", f, got, want)
		}
	}
	recs := []Record{{Op: sim.Read, Offset: 0, Length: 4096}, {Op: sim.Read, Offset: 1 << 20, Length: 4096},
		{Op: sim.Flush}, {Op: sim.Write, Offset: 1<<20 - 4096, Length: 4096}, {Op: sim.Write, Offset: 3 << 20, Length: 4096}}
	m, err := MapOffsets(NewSliceReader(recs), OffsetMap{Mode: MapWrap, Capacity: 1 << 20, SectorSize: 512})
	if err != nil {
		t.Fatal(err)
	}
	var offs []int64
	for {
		rec, err := m.Next()
		if err != nil {
			break
		}
		offs = append(offs, rec.Offset)
	}
	if want := []int64{0, 0, 0, 1<<20 - 4096, 0}; !slices.Equal(offs, want) {
		t.Errorf("offsets %v, want %v", offs, want)
	}
	if m.Moved() != 2 {
		t.Errorf("moved %d, want 2 (the two records past 1 MiB)", m.Moved())
	}
}
