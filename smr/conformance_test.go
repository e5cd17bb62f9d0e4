package smr

import (
	"math/rand/v2"
	"testing"

	"github.com/raidsim/raidsim/sim"
	"github.com/raidsim/raidsim/simtest"
)

func TestConformance(t *testing.T) {
	for _, fill := range []bool{false, true} {
		simtest.TestDevice(t, func(t *testing.T) (sim.Device, *sim.Engine) {
			d, eng := newSmall(t, small())
			if fill {
				d.FillBands()
			}
			return d, eng
		})
	}
	// A CMR preset's device is its platter.
	simtest.TestDevice(t, func(t *testing.T) (sim.Device, *sim.Engine) {
		m, err := NewModel(WD40EFRX())
		if err != nil {
			t.Fatal(err)
		}
		eng := sim.NewEngine(1)
		d, err := m.NewDevice(eng, "cmr", nil)
		if err != nil {
			t.Fatal(err)
		}
		return d, eng
	})
}

// The indirection map against a naive one (the log entry holding each
// 512-byte sector): random appends and unmaps, then every range's
// overlapping extents must name, sector by sector, the same entries and
// platter offsets, and the log's live bytes must add up.
func TestMapAgainstNaive(t *testing.T) {
	const sectors = 2048
	rng := rand.New(rand.NewPCG(3, 9))
	c := newCacheLog(0, 1<<40, 1<<20)
	type loc struct {
		entry uint64
		phys  int64
	}
	naive := make([]loc, sectors)
	var segs [][2]int64
	for step := range 3000 {
		lo := rng.Int64N(sectors)
		n := 1 + rng.Int64N(min(64, sectors-lo))
		if rng.IntN(3) == 0 {
			c.unmap(lo*512, n*512)
			for s := lo; s < lo+n; s++ {
				naive[s] = loc{}
			}
		} else {
			segs = c.appendAt(lo*512, n*512, 0, segs[:0])
			id := c.nextID - 1
			for s := lo; s < lo+n; s++ {
				naive[s] = loc{id, segs[0][0] + (s-lo)*512}
			}
		}
		got := make([]loc, sectors)
		for _, e := range c.overlapping(0, sectors*512) {
			for s := e.lba / 512; s < (e.lba+e.n)/512; s++ {
				got[s] = loc{e.entry, e.phys + s*512 - e.lba}
			}
		}
		live := map[uint64]int64{}
		for s, l := range naive {
			if got[s] != l {
				t.Fatalf("step %d: sector %d maps to %+v, want %+v", step, s, got[s], l)
			}
			if l.entry != 0 {
				live[l.entry] += 512
			}
		}
		for _, e := range c.live() {
			if e.live != live[e.id] {
				t.Fatalf("step %d: entry %d counts %d live bytes, the map %d", step, e.id, e.live, live[e.id])
			}
		}
	}
}
