package calibrate

import (
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/raidsim/raidsim/disk"
	"github.com/raidsim/raidsim/disk/disksim"
	"github.com/raidsim/raidsim/internal/shareddata"
	"github.com/raidsim/raidsim/sim"
	"github.com/raidsim/raidsim/trace"
)

func TestMain(m *testing.M) { shareddata.Main(m) }

// measuredTrace returns n requests (reads and writes of 1 to 32 blocks,
// a third of them sequential, the rest random within the first span
// bytes) with the service times a drive of model truth gives them,
// replayed at one request outstanding with 10 ms gaps: a trace "measured"
// on a drive whose parameters the test knows.
func measuredTrace(t *testing.T, truth disk.Params, n int, span int64, seed uint64) []trace.Record {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 1))
	recs := make([]trace.Record, n)
	var end int64
	for i := range recs {
		r := &recs[i]
		r.Op = sim.Read
		if rng.IntN(3) == 0 {
			r.Op = sim.Write
		}
		r.Length = int64(1+rng.IntN(32)) * 512
		r.Offset = end
		if rng.IntN(3) != 0 || end+r.Length > span {
			r.Offset = rng.Int64N((span-r.Length)/512) * 512
		}
		end = r.End()
		r.Time = sim.Time(i) * sim.Time(10*time.Millisecond)
	}
	reqs, err := Replay(truth, recs)
	if err != nil {
		t.Fatal(err)
	}
	var at sim.Time
	for i := range recs {
		recs[i].Time, recs[i].Measured = at, reqs[i].Simulated
		at += sim.Time(reqs[i].Simulated + 10*time.Millisecond)
	}
	return recs
}

// TestFitSpecRecovers fits a preset to a trace measured on a drive that
// is the same preset with other overheads, seek curve, switch times and
// read-ahead; the fit must remove most of the demerit.
func TestFitSpecRecovers(t *testing.T) {
	s, err := disk.PresetSpec("deskstar-7k500")
	if err != nil {
		t.Fatal(err)
	}
	fam := SpecFamily{Base: s, Preset: "deskstar-7k500"}
	x := fam.Start()
	x[0], x[1], x[2], x[5], x[6] = 0.8, 1.1, 2.0, 0.6, 0.9 // overheads, track-to-track, head switch, settle
	truth, err := fam.Model(x)
	if err != nil {
		t.Fatal(err)
	}
	truth.ReadAhead = disk.ReadAheadTrack
	recs := measuredTrace(t, truth, 600, 2<<30, 7)
	r, err := Fit(fam, recs, FitOptions{Evaluations: 150})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("demerit %.4f -> %.4f ms in %d evaluations; %v, read-ahead %v", r.Before.DemeritMs, r.After.DemeritMs, r.Evaluations, r.Values, r.ReadAhead)
	if !(r.After.DemeritMs <= 0.3*r.Before.DemeritMs) || r.Evaluations > 150 {
		t.Errorf("demerit %.4f -> %.4f ms in %d evaluations: want at least 70%% better within 150", r.Before.DemeritMs, r.After.DemeritMs, r.Evaluations)
	}
	if r.ReadAhead != disk.ReadAheadTrack {
		t.Errorf("read-ahead %v, want track", r.ReadAhead)
	}
	for i, p := range r.Params {
		if !(r.Values[i] >= p.Min && r.Values[i] <= p.Max) {
			t.Errorf("%s = %g outside %g..%g", p.Name, r.Values[i], p.Min, p.Max)
		}
	}
}

// miniModel loads the tiny DiskSim model in testdata.
func miniModel(t *testing.T) (string, disk.Params) {
	t.Helper()
	path := filepath.Join("testdata", "mini.parv")
	p, _, err := disksim.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	return path, p
}

// TestFitParamsWritesBack fits the tiny DiskSim model to a trace measured
// on a drive with half its overheads, a seek curve 0.7x at short and 1.2x
// at long distances, and other switch times; the fit must remove most of
// the demerit, and the DiskSim files it writes must load into the fitted
// model: the same demerit, to the microsecond.
func TestFitParamsWritesBack(t *testing.T) {
	parv, base := miniModel(t)
	fam := ParamsFamily{Base: base}
	truth, _ := fam.Model([]float64{0.5, 0.7, 1.2, 0.35, 0.25})
	recs := measuredTrace(t, truth, 1500, 3000*512, 3)
	opt := FitOptions{Evaluations: 200, ReadAhead: DiskSimReadAhead}
	r, err := Fit(fam, recs, opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("demerit %.4f -> %.4f ms in %d evaluations; %v", r.Before.DemeritMs, r.After.DemeritMs, r.Evaluations, r.Values)
	if !(r.After.DemeritMs <= 0.3*r.Before.DemeritMs) {
		t.Errorf("demerit %.4f -> %.4f ms: want at least 70%% better", r.Before.DemeritMs, r.After.DemeritMs)
	}
	m, err := DiskSimEdits(parv, base, r)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Edits) == 0 || m.SeekFile == "" || len(m.SeekCurve) == 0 {
		t.Fatalf("edits %+v, seek file %q", m.Edits, m.SeekFile)
	}
	if err := m.WriteTo("testdata"); err == nil {
		t.Error("WriteTo the model's own folder: no error")
	}
	dir := t.TempDir()
	if err := m.WriteTo(dir); err != nil {
		t.Fatal(err)
	}
	fitted, _, err := disksim.Load(filepath.Join(dir, "mini.parv"))
	if err != nil {
		t.Fatal(err)
	}
	reqs, err := Replay(fitted, recs)
	if err != nil {
		t.Fatal(err)
	}
	if d := Compare(reqs).DemeritMs; math.Abs(d-r.After.DemeritMs) > 1e-3 {
		t.Errorf("the written model scores %.5f ms, the fit %.5f ms", d, r.After.DemeritMs)
	}
	// The same inputs give the same fit.
	opt.Evaluations = 40
	a, _ := Fit(fam, recs, opt)
	b, _ := Fit(fam, recs, opt)
	if !slices.Equal(a.Values, b.Values) || a.After.DemeritMs != b.After.DemeritMs {
		t.Errorf("two fits differ: %v %v", a.Values, b.Values)
	}
}

// TestTransform checks that the search's coordinates map back to values
// within bounds, and values to themselves.
func TestTransform(t *testing.T) {
	ft := &fitter{ps: append(slices.Clone(specParams), paramsParams...)}
	x := append(SpecFamily{Base: mustSpec(t)}.Start(), 1, 2, 0.5, 1, 0)
	back := ft.toValues(ft.toSearch(x))
	for i, p := range ft.ps {
		lo := p.Min + edge*(p.Max-p.Min)
		if p.Log {
			lo = math.Exp(math.Log(p.Min) + edge*(math.Log(p.Max)-math.Log(p.Min)))
		}
		if math.Abs(back[i]-max(x[i], lo)) > 1e-9*max(1, x[i]) {
			t.Errorf("%s: %g -> %g", p.Name, x[i], back[i])
		}
	}
	for _, y := range []float64{-1e6, -40, 0, 40, 1e6, math.Inf(1), math.Inf(-1)} {
		ys := make([]float64, len(ft.ps))
		for i := range ys {
			ys[i] = y
		}
		for i, v := range ft.toValues(ys) {
			if p := ft.ps[i]; !(v >= p.Min && v <= p.Max) {
				t.Errorf("y=%g: %s = %g outside %g..%g", y, p.Name, v, p.Min, p.Max)
			}
		}
	}
}

func mustSpec(t *testing.T) disk.Spec {
	t.Helper()
	s, err := disk.PresetSpec("deskstar-7k500")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestLoadTrace checks the prefix and the errors.
func TestLoadTrace(t *testing.T) {
	dir := t.TempDir()
	val := filepath.Join(dir, "v.trace")
	os.WriteFile(val, []byte("R Hit 0 8 1000.0 50.0\nW Hit 64 8 700.0 10.0\nR Hit 8 8 900.0 0\n"), 0o644)
	recs, err := LoadTrace(val, "", 2)
	if err != nil || len(recs) != 2 || recs[1].Op != sim.Write || recs[1].Measured != 700*time.Microsecond {
		t.Fatalf("LoadTrace: %v, %+v", err, recs)
	}
	blk := filepath.Join(dir, "b.blkparse")
	os.WriteFile(blk, []byte("  8,0    0        1     0.000000000  1234  Q   R 2048 + 8 [fio]\n"), 0o644)
	empty := filepath.Join(dir, "e.trace")
	os.WriteFile(empty, []byte("# nothing\n"), 0o644)
	for _, tc := range []struct {
		path, format string
		max          int
		want         string
	}{
		{blk, "blkparse", 0, "records no measured service times (blkparse replays one kind of event; --format blkparse:DC pairs"},
		{blk, "blkparse:DC", 0, "no read or write requests"},
		{filepath.Join(dir, "none"), "", 0, "no such file"},
		{val, "", -1, "want 1..2000000, or 0 for all"},
		{val, "", MaxTraceRecords + 1, "want 1..2000000, or 0 for all"},
		{empty, "validate", 0, "no read or write requests"},
	} {
		_, err := LoadTrace(tc.path, tc.format, tc.max)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s %s: %v, want %q", tc.path, tc.format, err, tc.want)
		}
	}
	dc := filepath.Join(dir, "dc.blkparse")
	os.WriteFile(dc, []byte("8,0 0 1 0.001 1 D R 64 + 8 [fio]\n8,0 0 2 0.0035 1 C R 64 + 8 [0]\n"), 0o644)
	if recs, err := LoadTrace(dc, "blkparse:DC", 0); err != nil || len(recs) != 1 || recs[0].Measured != 2500*time.Microsecond {
		t.Errorf("blkparse:DC: %v, %+v", err, recs)
	}
	// A trace longer than the limit is an error when all of it is asked
	// for, never silently cut; a limit keeps its first requests.
	defer func(n int) { maxRecords = n }(maxRecords)
	maxRecords = 2
	if _, err := LoadTrace(val, "", 0); err == nil || !strings.Contains(err.Error(), "more than 2 requests: give a limit") {
		t.Errorf("3 requests over a limit of 2: %v", err)
	}
	if recs, err := LoadTrace(val, "", 2); err != nil || len(recs) != 2 {
		t.Errorf("the first 2 of 3: %v, %d", err, len(recs))
	}
}
