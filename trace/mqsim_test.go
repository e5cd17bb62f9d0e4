package trace

import (
	"errors"
	"strings"
	"testing"

	"github.com/raidsim/raidsim/sim"
)

func TestMQSimReader(t *testing.T) {
	src := "11413000 0 657728 16 1\n# comment\n\n11565000 1 31244784 64 0\r\n60066625000 5 34371424 8 1\n"
	recs, err := dsDrain(t, NewMQSimReader(strings.NewReader(src), "m.trace"))
	if err != nil {
		t.Fatal(err)
	}
	want := []Record{
		{Time: 11413000, Device: 0, Offset: 657728 * 512, Length: 16 * 512, Op: sim.Read},
		{Time: 11565000, Device: 1, Offset: 31244784 * 512, Length: 64 * 512, Op: sim.Write},
		{Time: 60066625000, Device: 5, Offset: 34371424 * 512, Length: 8 * 512, Op: sim.Read},
	}
	if len(recs) != len(want) {
		t.Fatalf("%d records, want %d", len(recs), len(want))
	}
	for i := range want {
		if recs[i] != want[i] {
			t.Errorf("record %d: %+v, want %+v", i+1, recs[i], want[i])
		}
	}
}

func TestMQSimReaderMalformed(t *testing.T) {
	for _, tc := range []struct{ line, want string }{
		{"1.5 0 0 1 1", `m.trace:2: time: "1.5" is not a time in whole nanoseconds`},
		{"-3 0 0 1 1", `m.trace:2: time: "-3" is not a time in whole nanoseconds`},
		{"99999999999999999999 0 0 1 1", `m.trace:2: time: "99999999999999999999" is not a time in whole nanoseconds`},
		{"5 0 0 1 2", `m.trace:2: type: "2" is neither 1 (read) nor 0 (write)`},
		{"5 0 0 1", "m.trace:2: want 5 fields (time_ns devno lba size_sectors type), got 4"},
		{"5 0 0 0 1", `m.trace:2: bcount: "0" is not a positive block count`},
	} {
		r := NewMQSimReader(strings.NewReader("0 0 0 1 1\n"+tc.line+"\n"), "m.trace")
		if _, err := r.Next(); err != nil {
			t.Fatalf("%q: first record: %v", tc.line, err)
		}
		_, err := r.Next()
		var pe *ParseError
		if !errors.As(err, &pe) || err.Error() != "trace: "+tc.want {
			t.Errorf("%q: got %v, want %q", tc.line, err, "trace: "+tc.want)
		}
	}
}

// TestSniffMQSim: DiskSim-shaped lines with whole-number times reaching
// 1e6 and types 0 or 1 are MQSim's nanoseconds; DiskSim's decimals, or
// small whole times, stay DiskSim's milliseconds.
func TestSniffMQSim(t *testing.T) {
	for _, tc := range []struct {
		head string
		want Format
	}{
		{"11413000 0 657728 16 1\n11565000 1 31244784 64 1\n", FormatMQSim},
		{"0 4 264719034 16 0\n938828000 3 197570570 16 0\n", FormatMQSim},
		{"13.191135 30 0 5 1\n17.829285 20 576560 6 1\n", FormatDiskSim},
		{"0 0 1000 8 1\n12 3 64 16 0\n", FormatDiskSim},
		{"11413000 0 657728 16 1\n11565000 1 31244784 64 0x1c\n", FormatDiskSim},
		{"11413000 0 657728 16 1\n11565000.5 1 31244784 64 1\n", FormatDiskSim},
	} {
		got, err := Sniff([]byte(tc.head))
		if err != nil || got != tc.want {
			t.Errorf("Sniff(%q) = %v, %v; want %v", tc.head, got, err, tc.want)
		}
	}
}

// TestMQSimSamples reads the two MQSim traces shared beside the
// repository through Open, which must recognise them.
func TestMQSimSamples(t *testing.T) {
	for _, tc := range []struct {
		file          string
		records       int
		reads, maxDev int
		lastSeconds   float64
	}{
		{"tpcc-small.disksim-ns.trace", 6999, 4381, 15, -1},
		{"websearch-small.disksim-ns.trace", 24783, 24779, 5, 60.066625}, // 24,783 lines, the last without a newline
	} {
		r, format, c, err := Open(sample(t, tc.file), "auto")
		if err != nil {
			t.Fatal(err)
		}
		recs, err := dsDrain(t, r)
		c.Close()
		if err != nil {
			t.Fatal(err)
		}
		if format != FormatMQSim {
			t.Errorf("%s: sniffed as %s, want %s", tc.file, format, FormatMQSim)
		}
		reads, maxDev := 0, 0
		for _, rec := range recs {
			if rec.Op == sim.Read {
				reads++
			}
			maxDev = max(maxDev, rec.Device)
		}
		last := recs[len(recs)-1].Time.Seconds()
		if len(recs) != tc.records || maxDev != tc.maxDev || (tc.reads >= 0 && reads != tc.reads) ||
			(tc.lastSeconds >= 0 && last != tc.lastSeconds) {
			t.Errorf("%s: %d records, %d reads, devices up to %d, last at %v s", tc.file, len(recs), reads, maxDev, last)
		}
		t.Logf("%s: %d records, %d reads, devices 0-%d, last at %.3f s", tc.file, len(recs), reads, maxDev, last)
	}
}

func FuzzMQSimReader(f *testing.F) {
	f.Add([]byte("11413000 0 657728 16 1\n11565000 1 31244784 64 0\n"))
	f.Add([]byte("1.5 0 1 1 1\n#\n"))
	f.Fuzz(func(t *testing.T, data []byte) { checkReader(t, data, FormatMQSim) })
}
