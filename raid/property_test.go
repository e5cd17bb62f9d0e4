package raid_test

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/raidsim/raidsim/raid"
	"github.com/raidsim/raidsim/sim"
	"github.com/raidsim/raidsim/simtest"
)

// world is an array on MemDevice members with a model of what it should
// hold.
type world struct {
	t     *testing.T
	seed  uint64
	eng   *sim.Engine
	rng   *rand.Rand
	a     *raid.Array
	mems  []*simtest.MemDevice // by slot; a rebuilt slot holds its spare
	model []byte
	ss    int64
	out   int // requests outstanding
}

func newWorld(t *testing.T, cfg raid.Config, n int, memberCap int64, seed uint64) *world {
	t.Helper()
	w := &world{t: t, seed: seed, eng: sim.NewEngine(seed), rng: rand.New(rand.NewPCG(seed, 7)), ss: 512}
	mems, devs := memMembers(t, w.eng, n, memberCap)
	for _, m := range mems {
		w.jitter(m)
	}
	a, err := raid.New(w.eng, cfg, devs, "md0", nil)
	if err != nil {
		t.Fatal(err)
	}
	w.a, w.mems = a, mems
	w.model = make([]byte, a.Capacity())
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("seed %d reproduces this failure", seed)
		}
	})
	return w
}

// jitter gives m random service times so completions reorder.
func (w *world) jitter(m *simtest.MemDevice) {
	m.SetLatency(func(*sim.Request) time.Duration {
		return time.Duration(w.rng.IntN(400)) * time.Microsecond
	})
}

func (w *world) fill(p []byte) {
	var v uint64
	for i := range p {
		if i%8 == 0 {
			v = w.rng.Uint64()
		}
		p[i] = byte(v >> (8 * (i % 8)))
	}
}

// randWrite returns an extent of one of the shapes that matter: inside
// one stripe unit, spanning units and stripes, whole stripes, or
// anywhere.
func (w *world) randExtent() (off, n int64) {
	g := w.a.Geometry()
	c := w.a.Capacity()
	sectors := func(lo, hi int64) int64 { return lo + w.rng.Int64N((hi-lo)/w.ss+1)*w.ss }
	switch w.rng.IntN(4) {
	case 0: // partial, inside one unit
		unit := w.rng.Int64N(c / g.StripeUnit)
		a := sectors(0, g.StripeUnit-w.ss)
		b := sectors(a+w.ss, g.StripeUnit)
		return unit*g.StripeUnit + a, b - a
	case 1: // spanning
		n = sectors(w.ss, 3*g.FullStripe)
		off = sectors(0, c-n)
		return off, n
	case 2: // full stripes
		k := 1 + w.rng.Int64N(2)
		s := w.rng.Int64N(c/g.FullStripe - k + 1)
		return s * g.FullStripe, k * g.FullStripe
	default:
		n = sectors(w.ss, 64<<10)
		off = sectors(0, c-n)
		return off, n
	}
}

func (w *world) submit(r *sim.Request) {
	w.t.Helper()
	if err := w.a.Submit(r); err != nil {
		w.t.Fatalf("%v: %v", r, err)
	}
	w.out++
}

// writes submits a batch of concurrent writes; each updates the model
// when acknowledged.
func (w *world) writes(k int) {
	for range k {
		off, n := w.randExtent()
		r := &sim.Request{Op: sim.Write, Offset: off, Length: n, Data: make([]byte, n)}
		w.fill(r.Data)
		r.Done = func(r *sim.Request) {
			w.out--
			if r.Err != nil {
				w.t.Errorf("%v: %v", r, r.Err)
				return
			}
			copy(w.model[r.Offset:], r.Data)
		}
		w.submit(r)
	}
}

// reads submits concurrent reads and checks them against the model
// (no write is in flight meanwhile).
func (w *world) reads(k int) {
	for range k {
		off, n := w.randExtent()
		r := &sim.Request{Op: sim.Read, Offset: off, Length: n, Data: make([]byte, n)}
		r.Done = func(r *sim.Request) {
			w.out--
			if r.Err != nil {
				w.t.Errorf("%v: %v", r, r.Err)
				return
			}
			if want := w.model[r.Offset:r.End()]; !bytes.Equal(r.Data, want) {
				i := 0
				for r.Data[i] == want[i] {
					i++
				}
				w.t.Errorf("%v: byte %d is %#x, want %#x (the last acknowledged write)", r, r.Offset+int64(i), r.Data[i], want[i])
			}
		}
		w.submit(r)
	}
}

func (w *world) drain() {
	w.t.Helper()
	w.eng.Run()
	if w.out != 0 {
		w.t.Fatalf("%d requests never completed", w.out)
	}
	if n := w.a.UpdatesInFlight(); n != 0 {
		w.t.Fatalf("%d updates still open with nothing in flight", n)
	}
}

// image returns what member slot m should hold, from the model.
func (w *world) image(m int) []byte {
	g := w.a.Geometry()
	mp := w.a.Mapping()
	img := make([]byte, g.MemberBytes)
	u := g.StripeUnit
	for o := int64(0); o < g.MemberBytes; o += u {
		if off, ok := mp.Logical(raid.Addr{Member: m, Offset: o}); ok {
			copy(img[o:o+u], w.model[off:off+u])
			continue
		}
		s := o / u
		if g.Level == raid.RAID6 { // P or Q of the stripe's data units
			data := make([][]byte, g.Members-2)
			for d := range data {
				off, _ := mp.Logical(raid.Addr{Member: raid.DataMember6(g.Members, s, d), Offset: o})
				data[d] = w.model[off : off+u]
			}
			p, q := make([]byte, u), make([]byte, u)
			raid.Syndromes(data, p, q)
			copy(img[o:o+u], map[int][]byte{-1: p, -2: q}[raid.DataIndex6(g.Members, s, m)])
			continue
		}
		// RAID 5 parity: the XOR of the stripe's data units.
		for d := range g.Members - 1 {
			dm := raid.DataMember(mp.Layout, g.Members, s, d)
			off, _ := mp.Logical(raid.Addr{Member: dm, Offset: o})
			for i := range u {
				img[o+i] ^= w.model[off+i]
			}
		}
	}
	return img
}

// check compares every live member (and skip none unless failed) with
// the image the model implies: RAID 5 parity is the XOR of the data,
// mirrors are identical, data sits where the mapping says.
func (w *world) check(failed map[int]bool) {
	w.t.Helper()
	g := w.a.Geometry()
	for m := range g.Members {
		if failed[m] {
			continue
		}
		want := w.image(m)
		got := make([]byte, len(want))
		if _, err := w.mems[m].ReadAt(got, 0); err != nil {
			w.t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			i := 0
			for got[i] == want[i] {
				i++
			}
			w.t.Fatalf("member %d: byte %d (stripe %d) is %#x, want %#x", m, i, int64(i)/g.StripeUnit, got[i], want[i])
		}
	}
}

// readAll reads the whole array back and compares it with the model.
func (w *world) readAll() {
	w.t.Helper()
	c := w.a.Capacity()
	for off := int64(0); off < c; off += 256 << 10 {
		n := min(256<<10, c-off)
		r := &sim.Request{Op: sim.Read, Offset: off, Length: n, Data: make([]byte, n)}
		r.Done = func(r *sim.Request) {
			w.out--
			if r.Err != nil {
				w.t.Errorf("%v: %v", r, r.Err)
			} else if !bytes.Equal(r.Data, w.model[r.Offset:r.End()]) {
				w.t.Errorf("%v: differs from the last acknowledged writes", r)
			}
		}
		w.submit(r)
	}
	w.drain()
}

const propertySeeds = 6

func TestPropertyHealthy(t *testing.T) {
	for _, lv := range levels {
		for seed := uint64(1); seed <= propertySeeds; seed++ {
			t.Run(fmt.Sprintf("%s/seed=%d", lv.name, seed), func(t *testing.T) {
				w := newWorld(t, lv.cfg, lv.members, 512<<10, seed)
				for range 25 {
					w.writes(1 + w.rng.IntN(6))
					w.drain()
					w.reads(1 + w.rng.IntN(4))
					w.drain()
				}
				w.check(nil)
				w.readAll()
			})
		}
	}
}

// TestPropertyDegraded fails one member at a random instant in the
// middle of a batch of writes and goes on: every request completes, the
// reads return the last acknowledged writes, and the live members hold
// what the model implies (so the lost member is recoverable); then a
// rebuild runs alongside more writes and the spare ends holding exactly
// the lost member's bytes.
func TestPropertyDegraded(t *testing.T) {
	for _, lv := range levels {
		if lv.cfg.Level == raid.RAID0 {
			continue
		}
		for seed := uint64(1); seed <= propertySeeds; seed++ {
			t.Run(fmt.Sprintf("%s/seed=%d", lv.name, seed), func(t *testing.T) {
				cfg := lv.cfg
				cfg.RebuildData = true
				cfg.RebuildRate = 200 << 20
				w := newWorld(t, cfg, lv.members, 512<<10, seed)
				victim := w.rng.IntN(lv.members)
				for i := range 24 {
					w.writes(1 + w.rng.IntN(6))
					if i == 5 {
						if err := w.a.FailAt(w.eng.Now().Add(time.Duration(w.rng.IntN(300))*time.Microsecond), victim); err != nil {
							t.Fatal(err)
						}
					}
					w.drain()
					w.reads(1 + w.rng.IntN(4))
					w.drain()
				}
				if got := w.a.Failed(); len(got) != 1 || got[0] != victim {
					t.Fatalf("Failed() = %v, want [%d]", got, victim)
				}
				w.check(map[int]bool{victim: true})
				w.readAll()
				if lv.cfg.Level == raid.RAID5 && w.a.Stats().DegradedReads == 0 {
					t.Errorf("no degraded reads counted")
				}

				spare, err := simtest.NewMemDevice(w.eng, simtest.MemConfig{Capacity: 512 << 10})
				if err != nil {
					t.Fatal(err)
				}
				w.jitter(spare)
				if err := w.a.Rebuild(spare); err != nil {
					t.Fatal(err)
				}
				w.mems[victim] = spare
				for range 6 {
					w.writes(1 + w.rng.IntN(4))
					w.eng.RunUntil(w.eng.Now().Add(time.Millisecond))
				}
				w.drain()
				rs := w.a.Stats().Rebuild
				if !rs.Done || rs.Progress != 1 || rs.Err != nil {
					t.Fatalf("rebuild did not complete: %+v", rs)
				}
				if len(w.a.Failed()) != 0 {
					t.Fatalf("Failed() = %v after rebuild", w.a.Failed())
				}
				w.check(nil) // the spare included
				w.readAll()
			})
		}
	}
}

// TestSecondFailure fails a second RAID 5 member (and both copies of a
// mirror) mid-run: requests that need lost data complete with
// ErrDataLost in Done; nothing panics or hangs.
func TestSecondFailure(t *testing.T) {
	for _, lv := range levels {
		if lv.cfg.Level == raid.RAID0 || lv.cfg.Level == raid.RAID6 {
			continue // RAID 6 survives a second failure (TestRAID6SurvivesTwoFailures)
		}
		t.Run(lv.name, func(t *testing.T) {
			w := newWorld(t, lv.cfg, lv.members, 512<<10, 3)
			second := 1
			if lv.cfg.Level == raid.RAID1 {
				second = lv.members - 1
			}
			if err := w.a.FailAt(sim.Time(time.Millisecond), 0); err != nil {
				t.Fatal(err)
			}
			if err := w.a.FailAt(sim.Time(3*time.Millisecond), second); err != nil {
				t.Fatal(err)
			}
			var ok, lost int
			for range 300 {
				off, n := w.randExtent()
				op := sim.Read
				if w.rng.IntN(2) == 0 {
					op = sim.Write
				}
				r := &sim.Request{Op: op, Offset: off, Length: n, Data: make([]byte, n)}
				r.Done = func(r *sim.Request) {
					w.out--
					switch {
					case r.Err == nil:
						ok++
					case errors.Is(r.Err, raid.ErrDataLost):
						lost++
					default:
						t.Errorf("%v: unexpected error %v", r, r.Err)
					}
				}
				w.submit(r)
				w.eng.RunUntil(w.eng.Now().Add(20 * time.Microsecond))
			}
			w.drain()
			if lost == 0 || ok == 0 {
				t.Fatalf("ok %d, lost %d: want both", ok, lost)
			}
			if s := w.a.Stats(); s.Errors != int64(lost) {
				t.Errorf("Stats().Errors = %d, want %d", s.Errors, lost)
			}
		})
	}
}
