package trace

import (
	"errors"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/raidsim/raidsim/sim"
)

func dsDrain(t *testing.T, r Reader) ([]Record, error) {
	t.Helper()
	var out []Record
	for {
		rec, err := r.Next()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		out = append(out, rec)
	}
}

func TestValidateReader(t *testing.T) {
	src := "R Hit 265552 2 14901.000000 4757.708232\n" +
		"\n# comment\n" +
		"W Miss 100 8 12628.5 0\r\n" +
		"  r hit 0 1 0.0004 1\n"
	recs, err := dsDrain(t, NewValidateReader(strings.NewReader(src), "v.trace"))
	if err != nil {
		t.Fatal(err)
	}
	t1 := sim.Time(14901000 + 4757708)
	want := []Record{
		{Time: 0, Op: sim.Read, Offset: 265552 * 512, Length: 1024, Measured: 14901 * time.Microsecond},
		{Time: t1, Op: sim.Write, Offset: 51200, Length: 4096, Measured: 12628500 * time.Nanosecond},
		{Time: t1 + 12628500, Op: sim.Read, Offset: 0, Length: 512, Measured: 0},
	}
	if len(recs) != len(want) {
		t.Fatalf("got %d records: %+v", len(recs), recs)
	}
	for i := range want {
		if recs[i] != want[i] {
			t.Errorf("record %d = %+v, want %+v", i, recs[i], want[i])
		}
	}
}

func TestValidateReaderMalformed(t *testing.T) {
	for _, tc := range []struct{ line, field string }{
		{"R Hit 1 2 3", ""},
		{"R Hit 1 2 3 4 5", ""},
		{"X Hit 1 2 3 4", "type"},
		{"R Maybe 1 2 3 4", "hit"},
		{"R Hit -1 2 3 4", "blkno"},
		{"R Hit 1 0 3 4", "bcount"},
		{"R Hit 1 x 3 4", "bcount"},
		{"R Hit 1 2 -3 4", "service"},
		{"R Hit 1 2 3 NaN", "interarrival"},
		{"R Hit 1 2 3 1e13", "interarrival"},
		{"R Hit 99999999999999999 2 3 4", "blkno"},
	} {
		_, err := NewValidateReader(strings.NewReader("R Hit 0 1 1 1\n"+tc.line+"\n"), "v.trace").readTwo()
		var pe *ParseError
		if !errors.As(err, &pe) || pe.Line != 2 || pe.Field != tc.field || pe.File != "v.trace" {
			t.Errorf("%q: error %v, want a ParseError at v.trace:2 field %q", tc.line, err, tc.field)
		}
	}
}

// readTwo reads two records, returning the second's error.
func (v *ValidateReader) readTwo() (Record, error) {
	if _, err := v.Next(); err != nil {
		return Record{}, err
	}
	return v.Next()
}

// TestValidateSamples reads the two measured traces shared beside the
// repository.
func TestValidateSamples(t *testing.T) {
	for _, tc := range []struct {
		file          string
		n, reads      int
		meanServiceMs float64
	}{
		{"atlas10k.validate.trace", 10000, 6569, 3.893},
		{"hp_c3323a.validate.trace", 9074, 6113, 15.765},
	} {
		f, err := os.Open(sample(t, tc.file))
		if err != nil {
			t.Fatal(err)
		}
		recs, err := dsDrain(t, NewValidateReader(f, tc.file))
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		reads := 0
		var sum time.Duration
		for i, r := range recs {
			if r.Op == sim.Read {
				reads++
			}
			sum += r.Measured
			if i > 0 && r.Time < recs[i-1].Time+sim.Time(recs[i-1].Measured) {
				t.Fatalf("%s: record %d issued before the previous completed", tc.file, i+1)
			}
		}
		mean := float64(sum) / float64(len(recs)) / 1e6
		if len(recs) != tc.n || reads != tc.reads || mean < tc.meanServiceMs-0.0005 || mean > tc.meanServiceMs+0.0005 {
			t.Errorf("%s: %d records, %d reads, mean %.4f ms; want %d, %d, %.3f", tc.file, len(recs), reads, mean, tc.n, tc.reads, tc.meanServiceMs)
		}
	}
}

// fixedDevice serves every request in a fixed time plus 1 µs per 512
// bytes, and records issue times.
type fixedDevice struct {
	eng    *sim.Engine
	issued []sim.Time
	fail   int // fail the request with this ID at completion
	refuse int // refuse the request with this ID at Submit
}

func (d *fixedDevice) Submit(r *sim.Request) error {
	if int(r.ID) == d.refuse {
		return errors.New("refused")
	}
	r.Issued = d.eng.Now()
	d.issued = append(d.issued, r.Issued)
	d.eng.After(time.Millisecond+time.Duration(r.Length/512)*time.Microsecond, sim.HandlerFunc(func(now sim.Time, _ any) {
		r.Completed = now
		if int(r.ID) == d.fail {
			r.Err = errors.New("media error")
		}
		r.Done(r)
	}), nil)
	return nil
}

func (d *fixedDevice) Capacity() int64 { return 1 << 40 }

func (d *fixedDevice) SectorSize() int { return 512 }

func TestReplayValidate(t *testing.T) {
	recs := []Record{
		{Time: 0, Op: sim.Read, Offset: 0, Length: 512, Measured: 2 * time.Millisecond},
		{Time: sim.Time(5 * time.Millisecond), Op: sim.Write, Offset: 4096, Length: 1024, Measured: time.Millisecond},
		// A gap that would be negative (Time earlier than the previous
		// completion) counts as none.
		{Time: sim.Time(5 * time.Millisecond), Op: sim.Read, Offset: 0, Length: 512, Measured: 3 * time.Millisecond},
	}
	eng := sim.NewEngine(1)
	eng.RunUntil(sim.Time(time.Second))
	dev := &fixedDevice{eng: eng}
	var pairs int
	res, err := ReplayValidate(eng, dev, NewSliceReader(recs), ValidateOptions{OnPair: func(rec *Record, s time.Duration) {
		pairs++
		if rec.Measured != recs[pairs-1].Measured {
			t.Errorf("pair %d: record %+v", pairs, rec)
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	// Record 1 at 1 s, done at 1 s + 1.001 ms; gap 5 - 0 - 2 = 3 ms.
	// Record 2 at 1 s + 4.001 ms, done 1.002 ms later; gap 5-5-1 < 0: none.
	s := sim.Time(time.Second)
	want := []sim.Time{s, s + sim.Time(4001*time.Microsecond), s + sim.Time(5003*time.Microsecond)}
	for i := range want {
		if i >= len(dev.issued) || dev.issued[i] != want[i] {
			t.Fatalf("issued at %v, want %v", dev.issued, want)
		}
	}
	wantSim := []time.Duration{1001 * time.Microsecond, 1002 * time.Microsecond, 1001 * time.Microsecond}
	if pairs != 3 || res.Issued != 3 || res.Completed != 3 || len(res.Simulated) != 3 || res.FirstIssue != s {
		t.Fatalf("result %+v, %d pairs", res, pairs)
	}
	for i := range wantSim {
		if res.Simulated[i] != wantSim[i] || res.Measured[i] != recs[i].Measured {
			t.Errorf("pair %d: measured %v simulated %v, want %v %v", i, res.Measured[i], res.Simulated[i], recs[i].Measured, wantSim[i])
		}
	}
}

func TestReplayValidateErrors(t *testing.T) {
	recs := []Record{{Op: sim.Read, Length: 512}, {Op: sim.Read, Length: 512}, {Op: sim.Read, Length: 512}}
	eng := sim.NewEngine(1)
	res, err := ReplayValidate(eng, &fixedDevice{eng: eng, fail: 2}, NewSliceReader(recs), ValidateOptions{})
	if err == nil || !strings.Contains(err.Error(), "record 2: media error") || res.Completed != 2 || res.Failed != 1 || len(res.Simulated) != 1 {
		t.Errorf("failing request: %v %+v", err, res)
	}
	res, err = ReplayValidate(eng, &fixedDevice{eng: eng, refuse: 2}, NewSliceReader(recs), ValidateOptions{})
	if err == nil || !strings.Contains(err.Error(), "record 2: refused") || res.Issued != 1 {
		t.Errorf("refused request: %v %+v", err, res)
	}
	bad := NewValidateReader(strings.NewReader("R Hit 0 1 1 1\nbad\n"), "v.trace")
	res, err = ReplayValidate(eng, &fixedDevice{eng: eng}, bad, ValidateOptions{})
	var pe *ParseError
	if !errors.As(err, &pe) || !strings.Contains(err.Error(), "record 2") || res.Completed != 1 {
		t.Errorf("bad source: %v %+v", err, res)
	}
	res, err = ReplayValidate(eng, &fixedDevice{eng: eng}, NewSliceReader(nil), ValidateOptions{})
	if err != nil || res.Issued != 0 {
		t.Errorf("empty source: %v %+v", err, res)
	}
}

func FuzzValidateReader(f *testing.F) {
	f.Add("R Hit 265552 2 14901.000000 4757.708232\nW Hit 4583176   4    663.00000  45422.00000\n")
	f.Add("W Miss 0 1 0 0\n# c\n\n")
	f.Add("R Hit 1 2 3 4 5\n")
	f.Fuzz(func(t *testing.T, src string) {
		r := NewValidateReader(strings.NewReader(src), "f")
		var prev Record
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
			if rec.Length <= 0 || rec.Offset < 0 || rec.Measured < 0 || (i > 0 && rec.Time < prev.Time+sim.Time(prev.Measured)) {
				t.Fatalf("bad record %+v after %+v", rec, prev)
			}
			prev = rec
		}
	})
}
