package ssd

import (
	"bytes"
	"fmt"
	"testing"
	"time"

	"github.com/raidsim/raidsim/sim"
	"github.com/raidsim/raidsim/simtest"
)

// smallX25M is the X25-M's make-up at 4 GB (the smallest its 40 dies
// and 7% spare allow), for tests that need a fresh drive many times.
func smallX25M() Params {
	p := IntelX25MG2()
	p.Capacity = 4e9
	return p
}

func conformanceVariants() map[string]Params {
	noBuf := smallX25M()
	noBuf.WriteBuffer = 0
	plp := smallX25M()
	plp.PowerLossProtection = true
	nvme := Samsung970EVOPlus()
	nvme.Capacity = 40e9
	nvme.SLCCache = 64 << 20
	cb := smallX25M()
	cb.GC = CostBenefit
	return map[string]Params{"x25m": smallX25M(), "no-buffer": noBuf, "plp": plp, "970-slc": nvme, "cost-benefit": cb}
}

func TestConformance(t *testing.T) {
	for name, p := range conformanceVariants() {
		t.Run(name, func(t *testing.T) {
			simtest.TestDevice(t, func(t *testing.T) (sim.Device, *sim.Engine) {
				eng := sim.NewEngine(1)
				d, err := New(eng, p, "ssd0", nil)
				if err != nil {
					t.Fatal(err)
				}
				return d, eng
			}, simtest.WithData(), simtest.WithTrimZeroes())
		})
	}
}

// do submits r and runs the engine until it completes.
func do(t *testing.T, eng *sim.Engine, d sim.Device, r *sim.Request) {
	t.Helper()
	done := false
	r.Done = func(*sim.Request) { done = true }
	if err := d.Submit(r); err != nil {
		t.Fatal(err)
	}
	for !done && eng.Step() {
	}
	if !done || r.Err != nil {
		t.Fatalf("%v: done %v err %v", r, done, r.Err)
	}
}

// TestTrimReadsZeroes: a trimmed range, whole map units or not, reads
// back as zeroes; the rest keeps its data; whole units are unmapped.
func TestTrimReadsZeroes(t *testing.T) {
	eng := sim.NewEngine(1)
	d, err := New(eng, smallX25M(), "ssd0", nil)
	if err != nil {
		t.Fatal(err)
	}
	data := bytes.Repeat([]byte{0xab}, 64<<10)
	do(t, eng, d, &sim.Request{Op: sim.Write, Offset: 0, Length: int64(len(data)), Data: data})
	eng.Run()
	do(t, eng, d, &sim.Request{Op: sim.Trim, Offset: 3584, Length: 16384}) // sectors 7..38: units 1..3 whole
	got := make([]byte, len(data))
	do(t, eng, d, &sim.Request{Op: sim.Read, Offset: 0, Length: int64(len(got)), Data: got})
	for i, b := range got {
		want := byte(0xab)
		if i >= 3584 && i < 3584+16384 {
			want = 0
		}
		if b != want {
			t.Fatalf("byte %d = %#x, want %#x", i, b, want)
		}
	}
	for u := int64(1); u <= 3; u++ {
		if _, _, ok := d.f.lookup(u); ok {
			t.Errorf("unit %d still mapped after trim", u)
		}
	}
	for _, u := range []int64{0, 4} {
		if _, _, ok := d.f.lookup(u); !ok {
			t.Errorf("unit %d (partly trimmed) lost its mapping", u)
		}
	}
	if st := d.Stats(); st.Trims != 1 || st.UnmappedReads != 3 {
		t.Errorf("stats: %d trims, %d unmapped reads; want 1 and 3", st.Trims, st.UnmappedReads)
	}
}

// TestFlushAndFUA: with a volatile buffer a write completes before its
// program and leaves volatile bytes; a flush completes only once they
// are programmed; a FUA write waits for its own program. With power-loss
// protection nothing is volatile and a flush costs only the command.
func TestFlushAndFUA(t *testing.T) {
	p := smallX25M()
	eng := sim.NewEngine(1)
	d, _ := New(eng, p, "ssd0", nil)
	w := &sim.Request{Op: sim.Write, Offset: 0, Length: 64 << 10}
	do(t, eng, d, w)
	if w.Latency() >= p.ProgramTime || d.VolatileBytes() != 64<<10 {
		t.Fatalf("buffered write: latency %v, volatile %d bytes", w.Latency(), d.VolatileBytes())
	}
	f := &sim.Request{Op: sim.Flush}
	do(t, eng, d, f)
	if d.VolatileBytes() != 0 || f.Latency() < p.ProgramTime {
		t.Fatalf("flush: latency %v, %d volatile bytes after", f.Latency(), d.VolatileBytes())
	}
	fua := &sim.Request{Op: sim.Write, Offset: 1 << 20, Length: 4096, FUA: true}
	do(t, eng, d, fua)
	if fua.Latency() < p.ProgramTime {
		t.Fatalf("FUA write completed in %v, before a program (%v)", fua.Latency(), p.ProgramTime)
	}

	p.PowerLossProtection = true
	eng = sim.NewEngine(1)
	d, _ = New(eng, p, "ssd0", nil)
	do(t, eng, d, &sim.Request{Op: sim.Write, Offset: 0, Length: 64 << 10})
	f = &sim.Request{Op: sim.Flush}
	do(t, eng, d, f)
	if d.VolatileBytes() != 0 || f.Latency() > 50*time.Microsecond {
		t.Fatalf("PLP: flush latency %v, volatile %d", f.Latency(), d.VolatileBytes())
	}
}

// TestReadsWaitBehindGC: in steady state a read that lands on a die busy
// with garbage collection waits for it, so read latency under a random
// write load is far above the idle read latency.
func TestReadsWaitBehindGC(t *testing.T) {
	p := IntelX25MG2()
	p.Capacity = 4e9
	p.WriteCost = 10 * time.Microsecond // let the flash, not the controller, limit writes
	d, eng := newTestDrive(t, p, Steady)
	idle := load{op: sim.Read, bs: 4096, depth: 1, span: p.Capacity, ios: 2000}.run(t, eng, d)
	eng.Run()
	var readLat time.Duration
	var reads int
	writes := &randWriter{d: d, span: p.Capacity, n: 20000}
	writes.start(16)
	rr := &sim.Request{}
	var next func(*sim.Request)
	next = func(r *sim.Request) {
		if r.Completed > 0 {
			readLat += r.Latency()
			reads++
		}
		if writes.left() > 0 {
			*r = sim.Request{Op: sim.Read, Offset: int64(reads*7919%int(p.Capacity/4096)) * 4096, Length: 4096, Done: next}
			if err := d.Submit(r); err != nil {
				t.Fatal(err)
			}
		}
	}
	next(rr)
	eng.Run()
	busy := readLat / time.Duration(reads)
	t.Logf("QD1 read latency idle %v, under steady-state random writes %v (GC time %v)", idle.meanLatency, busy, d.Stats().GCTime)
	if busy < 3*idle.meanLatency {
		t.Errorf("reads under GC %v not clearly slower than idle %v", busy, idle.meanLatency)
	}
}

// randWriter keeps random 4 KiB writes outstanding until n were issued.
type randWriter struct {
	d       sim.Device
	span    int64
	n, sent int
	x       uint64
	reqs    []sim.Request
}

func (w *randWriter) left() int { return w.n - w.sent }

func (w *randWriter) start(depth int) {
	w.reqs = make([]sim.Request, depth)
	for i := range w.reqs {
		w.submit(&w.reqs[i])
	}
}

func (w *randWriter) submit(r *sim.Request) {
	if w.sent >= w.n {
		return
	}
	w.sent++
	w.x = w.x*6364136223846793005 + 1442695040888963407
	*r = sim.Request{Op: sim.Write, Offset: int64((w.x>>20)%uint64(w.span/4096)) * 4096, Length: 4096, Done: w.submit}
	if err := w.d.Submit(r); err != nil {
		panic(err)
	}
}

// TestObserverPhases: the observer sees a read's queue, controller, flash
// and link phases, in order and adding up to its latency.
func TestObserverPhases(t *testing.T) {
	eng := sim.NewEngine(1)
	var phases []sim.Phase
	var total sim.Time
	obs := &sim.Observer{Phase: func(_ string, _ *sim.Request, p sim.Phase, a, b sim.Time) {
		phases = append(phases, p)
		total += b - a
	}}
	d, err := New(eng, smallX25M(), "ssd0", obs)
	if err != nil {
		t.Fatal(err)
	}
	do(t, eng, d, &sim.Request{Op: sim.Write, Offset: 0, Length: 4096})
	eng.Run()
	phases, total = nil, 0
	r := &sim.Request{Op: sim.Read, Offset: 0, Length: 4096}
	do(t, eng, d, r)
	want := []sim.Phase{sim.PhaseOverhead, sim.PhaseMedia, sim.PhaseBus}
	if fmt.Sprint(phases) != fmt.Sprint(want) || time.Duration(total) != r.Latency() {
		t.Fatalf("phases %v (sum %v), want %v summing to the latency %v", phases, time.Duration(total), want, r.Latency())
	}
}

// TestForegroundGCPaced: in the steady state, a die pays its garbage
// collection's time in shares with the programs of the host block that
// followed it, so random writes keep the dies busy: over 85% of the time
// under 4 KiB random writes at depth 32, measured over a span in which
// every die opens several host blocks (when a die paid a block's worth
// of copies at once, writes queued on it filled the shared buffer and
// the other dies idled: 37% on the X25-M, 51% on the 970 EVO Plus).
// The X25-M here; TestForegroundGCPacedLong (build tag long) adds the
// 970 EVO Plus, whose 3,072-unit blocks take 400,000 writes.
func TestForegroundGCPaced(t *testing.T) {
	t.Parallel()
	checkForegroundGCPaced(t, gcPacedCases[:1])
}

// gcPacedCases are TestForegroundGCPaced's drives: a capacity and the
// writes over which every die opens several host blocks (128 units a
// block on the X25-M's 40 dies, 3,072 on the 970's 32).
var gcPacedCases = []gcPacedCase{{"intel-x25m-g2", 16e9, 40000}, {"samsung-970-evo-plus", 256e9, 400000}}

type gcPacedCase struct {
	name     string
	capacity int64
	ios      int
}

// checkForegroundGCPaced runs TestForegroundGCPaced on cs.
func checkForegroundGCPaced(t *testing.T, cs []gcPacedCase) {
	for _, c := range cs {
		p, err := Preset(c.name)
		if err != nil {
			t.Fatal(err)
		}
		p.Capacity = c.capacity
		p.WriteCost = min(p.WriteCost, 10*time.Microsecond) // the flash, not the controller, limits writes
		d, eng := newTestDrive(t, p, Steady)
		l := newClosedLoop(d, sim.Write, 32)
		l.start()
		l.steps(eng, 20000)
		s0, t0 := d.Stats(), eng.Now()
		l.steps(eng, c.ios)
		s1, t1 := d.Stats(), eng.Now()
		busy := float64(s1.DieTime-s0.DieTime) / float64(t1.Sub(t0)) / float64(d.g.dies)
		wa := float64(s1.HostUnits-s0.HostUnits+s1.GCPageMoves-s0.GCPageMoves) / float64(s1.HostUnits-s0.HostUnits)
		t.Logf("%s: %.0f IOPS, WA %.2f, dies busy %.0f%%", c.name, float64(c.ios)/t1.Sub(t0).Seconds(), wa, 100*busy)
		if busy < 0.85 {
			t.Errorf("%s: dies busy %.0f%% of the time under saturating random writes", c.name, 100*busy)
		}
	}
}
