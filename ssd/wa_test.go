package ssd

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/raidsim/raidsim/sim"
)

// waModel is GreedyWriteAmplification: the analytic model the tests
// compare with (Desnoyers, SYSTOR 2012; Xiang & Kurkoski 2012).
func waModel(alpha float64) float64 { return GreedyWriteAmplification(alpha) }

func TestWAModelKnownValue(t *testing.T) {
	// Xiang & Kurkoski's figure: over-provisioning 0.3 gives 2.36.
	if got := waModel(1.3); math.Abs(got-2.36) > 0.01 {
		t.Fatalf("waModel(1.3) = %.3f, want 2.36", got)
	}
}

// waParams is a small drive for functional write-amplification runs: 4 GB
// on one die, so the blocks GC holds in reserve (GCLowBlocks and two
// write points) are under 1% of the spare space.
func waParams(op float64) Params {
	p := IntelX25MG2()
	p.Capacity = 4e9
	p.Channels, p.WaysPerChannel, p.DiesPerChip = 1, 1, 1
	p.OverProvisioning = op
	return p
}

// TestWriteAmplificationModel measures greedy GC's write amplification
// under uniform random 4 KiB writes at over-provisioning 7%, 12% and 28%
// and compares it with the analytic model (waModel): within 10%.
func TestWriteAmplificationModel(t *testing.T) {
	for _, op := range []float64{0.07, 0.12, 0.28} {
		d, _ := newTestDrive(t, waParams(op), Steady)
		f := d.f
		rng := rand.New(rand.NewPCG(7, uint64(op*100)))
		h0, m0 := f.stats().hostUnits, f.stats().gcMoves
		var w gcWork
		for range d.g.units / 2 {
			f.write(rng.Int64N(d.g.units), false, &w)
		}
		got := float64(f.stats().hostUnits-h0+f.stats().gcMoves-m0) / float64(f.stats().hostUnits-h0)
		alpha := float64(d.g.slots()) / float64(d.g.units)
		want := waModel(alpha)
		t.Logf("OP %.0f%% (alpha %.4f physical/user): simulated greedy WA %.3f, Desnoyers/Xiang-Kurkoski model %.3f (%+.1f%%)",
			op*100, alpha, got, want, 100*(got/want-1))
		if math.Abs(got/want-1) > 0.10 {
			t.Errorf("OP %.0f%%: WA %.3f not within 10%% of the model's %.3f", op*100, got, want)
		}
	}
}

// TestCostBenefitUniform: under uniform random writes every block ages
// alike, so cost-benefit cleaning cannot beat greedy by much; it must
// stay within 15% of it and above 1.
func TestCostBenefitUniform(t *testing.T) {
	var was [2]float64
	for i, pol := range []GCPolicy{Greedy, CostBenefit} {
		p := waParams(0.12)
		p.Capacity = 2e9
		p.GC = pol
		d, _ := newTestDrive(t, p, Steady)
		was[i] = d.Preconditioned().WriteAmplification
	}
	t.Logf("OP 12%%: greedy WA %.3f, cost-benefit WA %.3f", was[0], was[1])
	if was[1] <= 1 || math.Abs(was[1]/was[0]-1) > 0.15 {
		t.Errorf("cost-benefit WA %.3f vs greedy %.3f", was[1], was[0])
	}
}

// TestSteadyConverges: steady-state preconditioning stops once write
// amplification settles, and settles near the model.
func TestSteadyConverges(t *testing.T) {
	d, _ := newTestDrive(t, waParams(0.0737), Steady)
	res := d.Preconditioned()
	alpha := float64(d.g.slots()) / float64(d.g.units)
	t.Logf("steady after %d rounds (%.2f capacities), WA %.3f, model %.3f", res.Rounds, float64(res.Rounds)/steadyRoundDiv, res.WriteAmplification, waModel(alpha))
	if res.Rounds < steadyMinRounds || res.Rounds >= steadyMaxRounds {
		t.Errorf("rounds %d", res.Rounds)
	}
	if math.Abs(res.WriteAmplification/waModel(alpha)-1) > 0.1 {
		t.Errorf("steady WA %.3f far from the model", res.WriteAmplification)
	}
}

// TestSteadyBelowFresh: random 4 KiB writes over the whole drive in steady
// state fall below the fresh-out-of-box figure, because garbage collection
// takes die time. (A 4 GB drive of the preset's make-up: its 40 dies hold
// few blocks each, so the reserve weighs more and WA is higher than the
// 160 GB drive's.)
func TestSteadyBelowFresh(t *testing.T) {
	p := IntelX25MG2()
	p.Capacity = 4e9
	var iops [2]float64
	for i, pc := range []Precondition{FreshOutOfBox, Steady} {
		d, eng := newTestDrive(t, p, pc)
		r := load{op: sim.Write, bs: 4096, depth: 32, span: p.Capacity, ios: 40000, warmup: 2000}.run(t, eng, d)
		iops[i] = r.iops
		st := d.Stats()
		t.Logf("%v: %.0f IOPS, WA %.2f, GC moves %d, erases %d, free blocks min %d", pc, r.iops, st.WriteAmplification, st.GCPageMoves, st.Erases, st.FreeBlocksMin)
	}
	if iops[1] >= 0.8*iops[0] {
		t.Errorf("steady %.0f IOPS not clearly below fresh %.0f", iops[1], iops[0])
	}
}

// TestSLCCliff: a long sequential write on the pseudo-SLC preset runs at
// the SLC rate until the cache is full, then at the native rate; the knee
// (the first 256 MiB window below the midpoint of the two rates) lies
// within 10% of the configured cache size. The cache is set to 4 GB here
// to keep the test short; `raidsim run --drive samsung-970-evo-plus` shows
// the 42 GB one.
func TestSLCCliff(t *testing.T) {
	p := Samsung970EVOPlus()
	p.SLCCache = 4e9
	d, eng := newTestDrive(t, p, FreshOutOfBox)
	const window = 256 << 20
	const bs = 128 << 10
	total := int64(8e9)
	var rates []float64
	var winStart sim.Time
	var winBytes int64
	onDone := func(r *sim.Request) {
		winBytes += r.Length
		if winBytes >= window {
			rates = append(rates, float64(winBytes)/r.Completed.Sub(winStart).Seconds()/1e6)
			winStart, winBytes = r.Completed, 0
		}
	}
	l := &seqWriter{d: d, bs: bs, total: total, done: onDone}
	l.start(32)
	eng.Run()
	hi, lo := rates[1], rates[len(rates)-1]
	knee := -1
	for i, r := range rates {
		if r < (hi+lo)/2 {
			knee = i
			break
		}
	}
	kneeBytes := float64(knee) * window
	t.Logf("SLC rate %.0f MB/s, native %.0f MB/s, knee at %.2f GB (configured %.2f GB)", hi, lo, kneeBytes/1e9, float64(p.SLCCache)/1e9)
	if knee < 0 || math.Abs(kneeBytes/float64(p.SLCCache)-1) > 0.10 {
		t.Errorf("knee at %.2f GB, want within 10%% of %.2f GB", kneeBytes/1e9, float64(p.SLCCache)/1e9)
	}
	if lo > 0.7*hi {
		t.Errorf("no cliff: %.0f then %.0f MB/s", hi, lo)
	}
}

// seqWriter keeps n sequential writes outstanding until total bytes.
type seqWriter struct {
	d         sim.Device
	bs, total int64
	next      int64
	done      func(*sim.Request)
	reqs      []sim.Request
}

func (w *seqWriter) start(n int) {
	w.reqs = make([]sim.Request, n)
	for i := range w.reqs {
		w.submit(&w.reqs[i])
	}
}

func (w *seqWriter) submit(r *sim.Request) {
	if w.next >= w.total {
		return
	}
	*r = sim.Request{Op: sim.Write, Offset: w.next, Length: w.bs, Done: w.onDone}
	w.next += w.bs
	if err := w.d.Submit(r); err != nil {
		panic(err)
	}
}

func (w *seqWriter) onDone(r *sim.Request) {
	w.done(r)
	w.submit(r)
}
