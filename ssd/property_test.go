package ssd

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/raidsim/raidsim/sim"
)

// checkFTL verifies the mapping's invariants: every mapped logical unit
// points at a valid slot whose reverse entry names it back, on its own
// die; the valid slots are exactly the mapped units' (no orphan valid
// data); each block's valid count is the number of its valid slots;
// closed blocks sit in the bucket of their valid count; free blocks
// hold nothing.
func checkFTL(f *ftl) error {
	mapped := 0
	for lpn := range f.g.units {
		ppn, ok := f.where(lpn)
		if !ok {
			continue
		}
		mapped++
		if u, valid := f.slotUnit(ppn); !valid || u != lpn {
			return fmt.Errorf("unit %d maps to slot %d, which holds unit %d (valid %v)", lpn, ppn, u, valid)
		}
		if f.dieOf(lpn) != int(ppn/int64(f.g.unitsPerBlock))/int(f.g.blocksPerDie) {
			return fmt.Errorf("unit %d lives off its die", lpn)
		}
	}
	valid := 0
	upb := int64(f.g.unitsPerBlock)
	inBucket := map[int32]bool{}
	for d := range f.dies {
		for v, h := range f.dies[d].buckets {
			for bn := h; bn != noBlock; bn = f.blk[bn].next {
				if int(f.blk[bn].valid) != v || f.blk[bn].state != blockClosed {
					return fmt.Errorf("block %d in bucket %d has %d valid, state %d", bn, v, f.blk[bn].valid, f.blk[bn].state)
				}
				inBucket[bn] = true
			}
		}
	}
	for bn := range f.blk {
		b := &f.blk[bn]
		n := 0
		for ppn := int64(bn) * upb; ppn < int64(bn+1)*upb; ppn++ {
			if _, ok := f.slotUnit(ppn); ok {
				n++
			}
		}
		valid += n
		if int(b.valid) != n {
			return fmt.Errorf("block %d counts %d valid, has %d valid slots", bn, b.valid, n)
		}
		if b.state == blockFree && n != 0 {
			return fmt.Errorf("free block %d holds %d valid units", bn, n)
		}
		if (b.state == blockClosed) != inBucket[int32(bn)] {
			return fmt.Errorf("block %d state %d, in a bucket: %v", bn, b.state, inBucket[int32(bn)])
		}
	}
	if valid != mapped {
		return fmt.Errorf("%d valid slots for %d mapped units", valid, mapped)
	}
	return nil
}

// TestFTLProperty runs seeded random mixes of writes, trims and
// garbage collection (greedy and cost-benefit) on a tiny drive, from each
// starting state (fresh, filled and steady, laid out lazily or written
// with the explicit map), and checks after each batch that every logical
// unit maps to exactly one valid slot and that garbage collection never
// erases valid data: each unit's slot holds the version last written to
// it (0: what preconditioning left), followed through every GC move.
func TestFTLProperty(t *testing.T) {
	t.Parallel()
	for seed := uint64(1); seed <= 12; seed++ {
		p := Params{Capacity: 4 << 20, LinkRate: 1e9, Channels: 2, WaysPerChannel: 1, PageSize: 4096, PagesPerBlock: 8,
			ReadTime: 1, ProgramTime: 1, EraseTime: 1, ChannelRate: 1e9, OverProvisioning: 0.25, GC: GCPolicy(seed % 2)}
		if seed > 6 {
			p.PagesPerBlock, p.PlanesPerDie, p.Capacity, p.OverProvisioning = 64, 2, 16<<20, 0.5 // blocks over 64 units, a partial last stripe
			p.Capacity += 3 * 4096
		}
		p.FillDefaults()
		if err := p.Validate(); err != nil {
			t.Fatal(err)
		}
		start := Precondition(seed / 2 % 3)
		explicit := seed%4 == 3
		d, _ := newDrive(t, p, start, explicit)
		f := d.f
		rng := rand.New(rand.NewPCG(seed, 99))
		version := make([]uint32, f.g.units) // last version written per unit (0: what preconditioning left)
		mapped := make([]bool, f.g.units)
		for lpn := range mapped {
			_, mapped[lpn] = f.where(int64(lpn))
		}
		slotVer := make([]uint32, f.g.slots()) // version each slot holds
		f.moveHook = func(from, to int64) { slotVer[to] = slotVer[from] }
		f.eraseHook = func(bn int32) {
			for lpn := range f.g.units {
				if ppn, ok := f.where(lpn); ok && ppn/int64(f.g.unitsPerBlock) == int64(bn) {
					t.Fatalf("seed %d: erasing block %d, which holds unit %d's current data", seed, bn, lpn)
				}
			}
		}
		var w gcWork
		next := uint32(0)
		for batch := 0; batch < 40; batch++ {
			for range 500 {
				lpn := rng.Int64N(f.g.units)
				if rng.IntN(8) == 0 {
					f.trim(lpn)
					mapped[lpn] = false
					continue
				}
				next++
				ppn := f.write(lpn, false, &w)
				version[lpn], slotVer[ppn], mapped[lpn] = next, next, true
			}
			if err := checkFTL(f); err != nil {
				t.Fatalf("seed %d (%v, explicit %v) batch %d: %v", seed, start, explicit, batch, err)
			}
			for lpn, v := range version {
				ppn, ok := f.where(int64(lpn))
				if ok != mapped[lpn] || (ok && slotVer[ppn] != v) {
					t.Fatalf("seed %d batch %d: unit %d holds version %d, want %d (mapped %v)", seed, batch, lpn, slotVer[ppn], v, ok)
				}
			}
		}
		if f.stats().gcMoves == 0 || f.stats().erases == 0 {
			t.Fatalf("seed %d: no garbage collection happened (%d moves, %d erases)", seed, f.stats().gcMoves, f.stats().erases)
		}
	}
}

// TestDieUnits: dieUnit enumerates exactly the units dieOf maps to each
// die, once each.
func TestDieUnits(t *testing.T) {
	for _, p := range []Params{IntelX25MG2(), Samsung970EVOPlus()} {
		p.Capacity = 40e9 + 4096*37 // a partial last stripe
		p.FillDefaults()
		g := newGeometry(&p)
		f := &ftl{g: g}
		var total int64
		for d := range g.dies {
			n := g.dieUnits(d)
			total += n
			for _, i := range []int64{0, 1, n / 2, n - 1} {
				u := g.dieUnit(d, i)
				if u < 0 || u >= g.units || f.dieOf(u) != d {
					t.Fatalf("%s: die %d unit #%d = %d (die %d)", p.Name, d, i, u, f.dieOf(u))
				}
			}
		}
		if total != g.units {
			t.Fatalf("%s: dies hold %d units, want %d", p.Name, total, g.units)
		}
	}
}

// TestSteadyDeterministic: a drawn steady state depends on the engine's
// seed and the drive's name only, and keeps the mapping's invariants.
func TestSteadyDeterministic(t *testing.T) {
	t.Parallel()
	hash := func(seed uint64, name string) uint64 {
		eng := sim.NewEngine(seed)
		d, err := New(eng, waParams(0.07), name, nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := d.Precondition(Steady); err != nil {
			t.Fatal(err)
		}
		var h uint64
		for lpn := range d.g.units {
			ppn, _ := d.f.where(lpn)
			h = h*1099511628211 ^ uint64(ppn)
		}
		return h
	}
	if a, b := hash(1, "ssd0"), hash(1, "ssd0"); a != b {
		t.Fatalf("same seed and name, maps %x and %x", a, b)
	}
	if a, b := hash(1, "ssd0"), hash(2, "ssd0"); a == b {
		t.Fatalf("seeds 1 and 2 draw the same map %x", a)
	}
	if a, b := hash(1, "ssd0"), hash(1, "ssd1"); a == b {
		t.Fatalf("two drives of an engine draw the same map %x", a)
	}
	d, _ := newTestDrive(t, waParams(0.07), Steady)
	if err := checkFTL(d.f); err != nil {
		t.Fatal(err)
	}
}

// TestCopyStateFrom: a drive given another's preconditioned state has the
// same mapping, passes the invariants on its own copy, and diverges from
// the original when written.
func TestCopyStateFrom(t *testing.T) {
	t.Parallel()
	src, eng := newTestDrive(t, smallX25M(), Steady)
	dst, err := New(eng, smallX25M(), "ssd1", nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := dst.CopyStateFrom(src); err != nil {
		t.Fatal(err)
	}
	for lpn := int64(0); lpn < src.g.units; lpn += 997 {
		a, _ := src.f.where(lpn)
		b, _ := dst.f.where(lpn)
		if a != b {
			t.Fatalf("unit %d: %d in the source, %d in the copy", lpn, a, b)
		}
	}
	if dst.Preconditioned() != src.Preconditioned() || dst.Stats().HostUnits != 0 {
		t.Fatalf("copy: %+v, %+v", dst.Preconditioned(), dst.Stats())
	}
	var w gcWork
	for lpn := range int64(50000) {
		dst.f.write(lpn*7%dst.g.units, false, &w)
	}
	if err := checkFTL(dst.f); err != nil {
		t.Fatal(err)
	}
	if err := checkFTL(src.f); err != nil {
		t.Fatalf("writing the copy changed the source: %v", err)
	}
	other := IntelX25MG2()
	o, _ := New(eng, other, "ssd2", nil)
	if err := o.CopyStateFrom(src); err == nil {
		t.Fatal("copied the state of another model")
	}
}
