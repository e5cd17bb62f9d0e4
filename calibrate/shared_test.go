package calibrate

import (
	"testing"
	"time"

	"github.com/raidsim/raidsim/disk"
	"github.com/raidsim/raidsim/disk/disksim"
	"github.com/raidsim/raidsim/internal/shareddata"
)

// sharedRequests is how many of the atlas10k trace's 10,000 requests the
// shared-data tests fit on, to keep them fast (`raidsim calibrate` fits
// on all of them; the report gives those figures).
const sharedRequests = 2000

// TestFitDeskstarOnAtlas10k is issue 12's first calibration case: the
// Deskstar 7K500 preset fitted to the trace measured on a Quantum Atlas
// 10K must improve its demerit by at least 20%.
func TestFitDeskstarOnAtlas10k(t *testing.T) {
	recs, err := LoadTrace(shareddata.Dir(t, "traces", "atlas10k.validate.trace"), "validate", sharedRequests)
	if err != nil {
		t.Fatal(err)
	}
	s, err := disk.PresetSpec("deskstar-7k500")
	if err != nil {
		t.Fatal(err)
	}
	r, err := Fit(SpecFamily{Base: s, Preset: "deskstar-7k500"}, recs, FitOptions{Evaluations: 150})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("deskstar-7k500 on atlas10k (%d requests): demerit %.3f -> %.3f ms (%s), %d evaluations",
		len(recs), r.Before.DemeritMs, r.After.DemeritMs, Improvement(r), r.Evaluations)
	if !(r.After.DemeritMs <= 0.8*r.Before.DemeritMs) {
		t.Errorf("demerit %.3f -> %.3f ms: want at least 20%% better", r.Before.DemeritMs, r.After.DemeritMs)
	}
}

// TestFitRecoversAtlas10k is issue 12's second case: started from the
// Atlas 10K's DiskSim model with its overheads doubled and its seek curve
// 1.3 times slower, the fit must come within 10% of the demerit of the
// model itself on the same requests.
func TestFitRecoversAtlas10k(t *testing.T) {
	recs, err := LoadTrace(shareddata.Dir(t, "traces", "atlas10k.validate.trace"), "validate", sharedRequests)
	if err != nil {
		t.Fatal(err)
	}
	own, _, err := disksim.Load(shareddata.Dir(t, "disksim-models", "atlas10k.parv"))
	if err != nil {
		t.Fatal(err)
	}
	reqs, err := Replay(own, recs)
	if err != nil {
		t.Fatal(err)
	}
	ownD := Compare(reqs).DemeritMs
	wrong, _ := ParamsFamily{Base: own}.Model([]float64{2, 1.3, 1.3, msOf(own.HeadSwitch), msOf(own.WriteSettle)})
	if wrong.Overheads.WriteMissAfterWrite != 2*own.Overheads.WriteMissAfterWrite || wrong.SeekTable[5].Time != time.Duration(float64(own.SeekTable[5].Time)*1.3+0.5) {
		t.Fatalf("the wrong model is not doubled and 1.3x: %v, %v", wrong.Overheads, wrong.SeekTable[5])
	}
	r, err := Fit(ParamsFamily{Base: wrong}, recs, FitOptions{Evaluations: 200, ReadAhead: DiskSimReadAhead})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("atlas10k (%d requests): own model %.3f ms; wrong model %.3f -> %.3f ms in %d evaluations; %.3f",
		len(recs), ownD, r.Before.DemeritMs, r.After.DemeritMs, r.Evaluations, r.Values)
	if !(r.After.DemeritMs <= 1.1*ownD) {
		t.Errorf("fitted demerit %.3f ms, the model's own %.3f ms: want within 10%%", r.After.DemeritMs, ownD)
	}
}
