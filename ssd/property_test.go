package ssd

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
	"runtime"
	"testing"
)

// checkFTL verifies the mapping's invariants: every mapped logical unit
// points at a valid slot whose reverse entry names it back; the valid
// slots are exactly the mapped units' (no orphan valid data); each
// block's valid count is the population of its valid bits; closed
// blocks sit in the bucket of their valid count; free blocks hold nothing.
func checkFTL(f *ftl) error {
	mapped := 0
	for lpn := range f.g.units {
		ppn, _, ok := f.lookup(lpn)
		if !ok {
			continue
		}
		mapped++
		c, i := f.chunk(ppn)
		if c == nil || c.bits[i>>6]&(1<<(i&63)) == 0 {
			return fmt.Errorf("unit %d maps to slot %d, which is not valid", lpn, ppn)
		}
		if int64(c.rev[i]) != lpn {
			return fmt.Errorf("unit %d maps to slot %d, whose reverse entry is %d", lpn, ppn, c.rev[i])
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
		c, i0 := f.chunk(int64(bn) * upb)
		if c != nil {
			for i := i0; i < i0+upb; i++ {
				if c.bits[i>>6]&(1<<(i&63)) != 0 {
					n++
				}
			}
		}
		valid += n
		if int(b.valid) != n {
			return fmt.Errorf("block %d counts %d valid, has %d valid bits", bn, b.valid, n)
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
// garbage collection (greedy and cost-benefit) on a tiny drive and checks
// after each batch that every logical unit maps to exactly one valid slot
// and that garbage collection never erases valid data: each unit's slot
// holds the version last written to it, followed through every GC move.
func TestFTLProperty(t *testing.T) {
	for seed := uint64(1); seed <= 6; seed++ {
		p := Params{Capacity: 4 << 20, LinkRate: 1e9, Channels: 2, WaysPerChannel: 1, PageSize: 4096, PagesPerBlock: 8,
			ReadTime: 1, ProgramTime: 1, EraseTime: 1, ChannelRate: 1e9, OverProvisioning: 0.25, GC: GCPolicy(seed % 2)}
		p.FillDefaults()
		if err := p.Validate(); err != nil {
			t.Fatal(err)
		}
		f := newFTL(&p)
		rng := rand.New(rand.NewPCG(seed, 99))
		version := make([]uint32, f.g.units)   // last version written per unit (0: none or trimmed)
		slotVer := make([]uint32, f.g.slots()) // version each slot holds
		f.moveHook = func(from, to int64) { slotVer[to] = slotVer[from] }
		f.eraseHook = func(bn int32) {
			for lpn := range f.g.units {
				if ppn, _, ok := f.lookup(lpn); ok && ppn/int64(f.g.unitsPerBlock) == int64(bn) {
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
					version[lpn] = 0
					continue
				}
				next++
				ppn := f.write(lpn, false, &w)
				version[lpn], slotVer[ppn] = next, next
			}
			if err := checkFTL(f); err != nil {
				t.Fatalf("seed %d batch %d: %v", seed, batch, err)
			}
			for lpn, v := range version {
				ppn, _, ok := f.lookup(int64(lpn))
				if ok != (v != 0) || (ok && slotVer[ppn] != v) {
					t.Fatalf("seed %d batch %d: unit %d holds version %d, want %d (mapped %v)", seed, batch, lpn, slotVer[ppn], v, ok)
				}
			}
		}
		if f.stats().gcMoves == 0 || f.stats().erases == 0 {
			t.Fatalf("seed %d: no garbage collection happened (%d moves, %d erases)", seed, f.stats().gcMoves, f.stats().erases)
		}
		_ = bits.UintSize
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

// TestSteadyIndependentOfWorkers: steady-state preconditioning gives the
// same drive whatever the number of goroutines.
func TestSteadyIndependentOfWorkers(t *testing.T) {
	sum := func(procs int) (float64, uint64) {
		old := runtime.GOMAXPROCS(procs)
		defer runtime.GOMAXPROCS(old)
		d, _ := newTestDrive(t, smallX25M(), Steady)
		var h uint64
		for lpn := range d.g.units {
			ppn, _, _ := d.f.lookup(lpn)
			h = h*1099511628211 ^ uint64(ppn)
		}
		return d.Preconditioned().WriteAmplification, h
	}
	wa1, h1 := sum(1)
	wa2, h2 := sum(3)
	if wa1 != wa2 || h1 != h2 {
		t.Fatalf("1 worker: WA %v map %x; 3 workers: WA %v map %x", wa1, h1, wa2, h2)
	}
	d, _ := newTestDrive(t, smallX25M(), Steady)
	if err := checkFTL(d.f); err != nil {
		t.Fatal(err)
	}
}

// TestCopyStateFrom: a drive given another's preconditioned state has the
// same mapping, passes the invariants on its own copy, and diverges from
// the original when written.
func TestCopyStateFrom(t *testing.T) {
	src, eng := newTestDrive(t, smallX25M(), Steady)
	dst, err := New(eng, smallX25M(), "ssd1", nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := dst.CopyStateFrom(src); err != nil {
		t.Fatal(err)
	}
	for lpn := int64(0); lpn < src.g.units; lpn += 997 {
		a, _, _ := src.f.lookup(lpn)
		b, _, _ := dst.f.lookup(lpn)
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
