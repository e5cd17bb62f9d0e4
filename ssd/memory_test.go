package ssd

import (
	"math/rand/v2"
	"runtime"
	"testing"
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

// TestMemoryByWhatIsTouched: a drive's FTL costs memory for its blocks
// and for the units a run touches, never for its capacity. A 160 GB
// drive holds under 64 bytes per erase block fresh, filled or in steady
// state; random writes then cost under 40 bytes per unit written or
// moved by garbage collection (a forward-map entry, a reverse-map slot);
// the explicit reference map of a 4 GB steady drive costs at most 10
// bytes per unit of its capacity, as the page map always did.
func TestMemoryByWhatIsTouched(t *testing.T) {
	var blocks float64
	for _, pc := range []Precondition{FreshOutOfBox, Fill, Steady} {
		held, v := heldBy(func() any {
			d, _ := newTestDrive(t, IntelX25MG2(), pc)
			return d
		})
		d := v.(*Drive)
		blocks = float64(d.g.blocks())
		t.Logf("160 GB drive, %v: %.1f MB (%.0f bytes per erase block)", pc, held/1e6, held/blocks)
		if held > 64*blocks {
			t.Errorf("%v: %.0f bytes, more than 64 per block", pc, held)
		}
		if pc == Steady {
			var w gcWork
			rng := rand.New(rand.NewPCG(1, 2))
			wrote, _ := heldBy(func() any {
				for range 200000 {
					d.f.write(rng.Int64N(d.g.units), false, &w)
				}
				return nil
			})
			st := d.f.stats()
			touched := float64(st.hostUnits + st.gcMoves)
			t.Logf("then 200,000 random writes (%.0f units written or moved): %.1f MB more, %.1f bytes per unit", touched, wrote/1e6, wrote/touched)
			if wrote > 40*touched {
				t.Errorf("%.0f bytes for %.0f units written or moved: more than 40 each", wrote, touched)
			}
		}
		runtime.KeepAlive(d)
	}
	held, v := heldBy(func() any {
		d, _ := newDrive(t, smallX25M(), Steady, true)
		return d
	})
	d := v.(*Drive)
	perUnit := (held - 64*float64(d.g.blocks())) / float64(d.g.units)
	t.Logf("explicit map, 4 GB steady: %.1f MB, %.2f bytes per unit beyond the blocks", held/1e6, perUnit)
	if perUnit > 10 {
		t.Errorf("explicit map: %.2f bytes per unit, want at most 10", perUnit)
	}
	runtime.KeepAlive(d)
}
