package ssd

import (
	"runtime"
	"testing"

	"github.com/raidsim/raidsim/sim"
)

// heldBy returns the heap bytes that make() holds after it returns.
func heldBy(make func() any) (float64, any) {
	runtime.GC()
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	v := make()
	runtime.GC()
	runtime.ReadMemStats(&m1)
	return float64(m1.HeapAlloc) - float64(m0.HeapAlloc), v
}

// TestSparseMemory: a fresh 160 GB drive holds only its per-block
// metadata (no mapping), and a written drive at most 10 bytes per written
// 4 KiB unit beyond it (the bound; BenchmarkPrecondition reports
// the 160 GB steady-state figure).
func TestSparseMemory(t *testing.T) {
	fresh, d0 := heldBy(func() any {
		d, err := New(sim.NewEngine(1), IntelX25MG2(), "ssd0", nil)
		if err != nil {
			t.Fatal(err)
		}
		return d
	})
	blocks := float64(d0.(*Drive).g.blocks())
	t.Logf("fresh 160 GB drive: %.1f MB (%.0f bytes per erase block)", fresh/1e6, fresh/blocks)
	if fresh > 64*blocks {
		t.Errorf("a fresh drive holds %.0f bytes, more than 64 per block", fresh)
	}
	runtime.KeepAlive(d0)
	p := IntelX25MG2()
	p.Capacity = 16e9
	filled, d1 := heldBy(func() any {
		d, _ := newTestDrive(t, p, Steady)
		return d
	})
	d := d1.(*Drive)
	perUnit := (filled - fresh/blocks*float64(d.g.blocks())) / float64(d.g.units)
	t.Logf("16 GB drive in steady state: %.1f MB, %.2f bytes per written 4 KiB beyond block metadata", filled/1e6, perUnit)
	if perUnit > 10 {
		t.Errorf("%.2f bytes per written unit, want at most 10", perUnit)
	}
	runtime.KeepAlive(d1)
}
