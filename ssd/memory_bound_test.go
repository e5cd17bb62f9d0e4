package ssd

import (
	"math/rand/v2"
	"runtime"
	"testing"
)

// TestMemoryBound: MemoryBound bounds what a drive holds, built in every
// state and after random writes, within a factor of 4 of the measure so
// an up-front estimate is no wild guess.
func TestMemoryBound(t *testing.T) {
	for _, tc := range []struct {
		p      Params
		pc     Precondition
		writes int
	}{
		{IntelX25MG2(), Steady, 0},
		{IntelX25MG2(), Steady, 200000},
		{IntelX25MG2(), FreshOutOfBox, 100000},
		{Samsung970EVOPlus(), Fill, 0},
		{Samsung970EVOPlus(), Steady, 100000},
	} {
		m, err := NewModel(tc.p)
		if err != nil {
			t.Fatal(err)
		}
		m = m.WithPrecondition(tc.pc)
		held, v := heldBy(func() any {
			d, _ := newTestDrive(t, tc.p, tc.pc)
			var w gcWork
			rng := rand.New(rand.NewPCG(1, 2))
			for range tc.writes {
				d.f.write(rng.Int64N(d.g.units), false, &w)
			}
			return d
		})
		runtime.KeepAlive(v)
		bound := float64(m.MemoryBound(int64(tc.writes) * int64(m.g.unitSize)))
		t.Logf("%s %v, %d writes: held %.1f MB, bound %.1f MB", tc.p.Name, tc.pc, tc.writes, held/1e6, bound/1e6)
		if held > bound || bound > 4*held {
			t.Errorf("%s %v, %d writes: held %.0f bytes, bound %.0f (want held <= bound <= 4 x held)", tc.p.Name, tc.pc, tc.writes, held, bound)
		}
	}
}
