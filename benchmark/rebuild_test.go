package benchmark_test

import (
	"testing"
	"time"

	"github.com/raidsim/raidsim/benchmark"
	"github.com/raidsim/raidsim/spec"
)

// rebuildUnder is a 3-drive RAID 5 of 7K160s that loses member 0 at
// once and rebuilds it onto a spare at once, with random 4 KiB reads at
// depth as the foreground load.
func rebuildUnder(depth int) *spec.Experiment {
	return &spec.Experiment{Seed: 1,
		Stack: spec.Stack{Drive: spec.Drive{Preset: "deskstar-7k160"}, Disks: 3, RAID: &spec.RAID{Level: "5"},
			Failures: []spec.Failure{{Member: 0}}, Rebuild: &spec.Rebuild{Member: 0}},
		Phases: []spec.Phase{{Job: spec.Job{RW: "randread", BS: 4096, IODepth: depth}}},
	}
}

// TestRebuildUnderLoad: over a 2 s window the rebuild writes part of the
// member, the estimate extrapolates that rate to the whole member, and
// a heavier foreground load slows the rebuild down.
func TestRebuildUnderLoad(t *testing.T) {
	const window = 2 * time.Second
	light, err := benchmark.RebuildUnderLoad(rebuildUnder(1), window)
	if err != nil {
		t.Fatal(err)
	}
	if light.Done || light.Bytes <= 0 || light.Bytes >= light.Total {
		t.Fatalf("rebuild after %v: %d of %d bytes (done %v), want part of the member", window, light.Bytes, light.Total, light.Done)
	}
	// The chunks in flight when the window closes complete after it.
	if light.Elapsed < window || light.Elapsed > window+100*time.Millisecond {
		t.Errorf("elapsed %v, want the %v window and the chunks then in flight", light.Elapsed, window)
	}
	want := time.Duration(float64(light.Elapsed) * float64(light.Total) / float64(light.Bytes))
	if got := light.Estimate(); got != want {
		t.Errorf("estimate %v, want elapsed x total / bytes = %v", got, want)
	}
	if light.Foreground.All.IOs == 0 {
		t.Error("no foreground requests were reported")
	}
	heavy, err := benchmark.RebuildUnderLoad(rebuildUnder(16), window)
	if err != nil {
		t.Fatal(err)
	}
	if heavy.Bytes >= light.Bytes {
		t.Errorf("rebuilt %d bytes under depth 16, %d under depth 1: a heavier load should slow the rebuild", heavy.Bytes, light.Bytes)
	}
	if _, err := benchmark.RebuildUnderLoad(rebuildUnder(1), 0); err == nil {
		t.Error("a zero window was accepted")
	}
}
