package ssd

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/raidsim/raidsim/sim"
)

// mixLoad is a load of 4 KiB requests for the equivalence test, each a
// read with probability readFrac, at a unit drawn uniformly or from a
// Zipf distribution (s = 1.2 from rank 1,000 on, the ranks scattered
// over the drive so hot units sit on every die). It is a closed loop
// with depth requests outstanding, or with rate > 0 an open loop of
// Poisson arrivals at rate requests per second.
type mixLoad struct {
	readFrac float64
	zipf     bool
	depth    int
	rate     float64
	ios      int
	warmup   int
	seed     uint64 // of the load's stream
}

// loadResult is what a run measured after its warm-up.
type loadResult struct {
	iops      float64
	latencies []time.Duration // sorted
	st        Stats
}

func (l mixLoad) run(t testing.TB, eng *sim.Engine, d *Drive) loadResult {
	t.Helper()
	rng := rand.New(rand.NewPCG(11+l.seed, 12))
	units := uint64(d.g.units)
	z := rand.NewZipf(rng, 1.2, 1000, units-1)
	var res loadResult
	issued, done := 0, 0
	var start, last sim.Time
	var before Stats
	var free []*sim.Request
	var onDone func(*sim.Request)
	submit := func(r *sim.Request) {
		u := rng.Uint64N(units)
		if l.zipf {
			u = z.Uint64() * 0x9E3779B97F4A7C15 % units
		}
		r.Op = sim.Write
		if rng.Float64() < l.readFrac {
			r.Op = sim.Read
		}
		r.Offset, r.Length, r.Done = int64(u)*4096, 4096, onDone
		issued++
		if err := d.Submit(r); err != nil {
			t.Fatal(err)
		}
	}
	onDone = func(r *sim.Request) {
		done++
		switch {
		case done == l.warmup:
			start, before = r.Completed, d.Stats()
		case done > l.warmup:
			res.latencies = append(res.latencies, r.Latency())
			last = r.Completed
		}
		switch {
		case l.rate > 0:
			free = append(free, r)
		case issued < l.warmup+l.ios:
			submit(r)
		}
	}
	if l.rate > 0 {
		var arrive sim.HandlerFunc
		arrive = func(sim.Time, any) {
			if issued >= l.warmup+l.ios {
				return
			}
			r := &sim.Request{}
			if n := len(free); n > 0 {
				r, free = free[n-1], free[:n-1]
			}
			submit(r)
			eng.After(time.Duration(rng.ExpFloat64()/l.rate*1e9), arrive, nil)
		}
		eng.After(0, arrive, nil)
	} else {
		reqs := make([]sim.Request, l.depth)
		for i := range reqs {
			submit(&reqs[i])
		}
	}
	eng.Run()
	after := d.Stats()
	res.st = after
	res.st.HostUnits -= before.HostUnits
	res.st.GCPageMoves -= before.GCPageMoves
	res.st.Erases -= before.Erases
	res.st.ProgramUnits -= before.ProgramUnits
	res.st.FlashReads -= before.FlashReads
	res.iops = float64(len(res.latencies)) / last.Sub(start).Seconds()
	slices.Sort(res.latencies)
	return res
}

// equivalence is one comparison of the drawn steady state with the
// explicit map: both run the same loads, on reps drives each (engine
// seeds 1..reps), pooled.
type equivalence struct {
	ex, lazy pooled
}

// pooled is what reps runs measured together.
type pooled struct {
	hostUnits, moves, erases int64
	iops                     float64 // mean over the runs
	latencies                []float64
}

func (p *pooled) add(r loadResult, reps int) {
	p.hostUnits += r.st.HostUnits
	p.moves += r.st.GCPageMoves
	p.erases += r.st.Erases
	p.iops += r.iops / float64(reps)
	for _, l := range r.latencies {
		p.latencies = append(p.latencies, float64(l))
	}
}

func (p *pooled) wa() float64 { return float64(p.hostUnits+p.moves) / float64(p.hostUnits) }

func (p *pooled) mean() float64 {
	s := 0.0
	for _, l := range p.latencies {
		s += l
	}
	return s / float64(len(p.latencies))
}

func (p *pooled) quantile(q float64) float64 { return p.latencies[int(q*float64(len(p.latencies)-1))] }

// compare runs load l on reps drives of each kind built from p.
func compare(t testing.TB, p Params, l mixLoad, reps int) equivalence {
	t.Helper()
	var e equivalence
	for rep := range reps {
		for _, explicit := range []bool{true, false} {
			eng := sim.NewEngine(uint64(rep + 1))
			d, err := New(eng, p, "ssd0", nil)
			if err != nil {
				t.Fatal(err)
			}
			if explicit {
				d.explicit, d.f = true, newFTL(&d.p, true)
			}
			if _, err := d.Precondition(Steady); err != nil {
				t.Fatal(err)
			}
			r := l.run(t, eng, d)
			if explicit {
				e.ex.add(r, reps)
			} else {
				e.lazy.add(r, reps)
			}
		}
	}
	slices.Sort(e.ex.latencies)
	slices.Sort(e.lazy.latencies)
	return e
}

// ksDistance is the Kolmogorov-Smirnov distance of two sorted samples:
// the largest difference, over all latencies x, between the shares of
// each at or below x.
func ksDistance(a, b []float64) float64 {
	i, j, d := 0, 0, 0.0
	for i < len(a) && j < len(b) {
		x := min(a[i], b[j])
		for i < len(a) && a[i] <= x {
			i++
		}
		for j < len(b) && b[j] <= x {
			j++
		}
		d = max(d, math.Abs(float64(i)/float64(len(a))-float64(j)/float64(len(b))))
	}
	return d
}

// equivalenceCase is one cell of the equivalence matrix.
type equivalenceCase struct {
	name string
	p    Params
	l    mixLoad
}

// equivalenceCases are greedy and cost-benefit GC at 7%, 12% and 28%
// spare, each under uniform random writes, Zipf-distributed writes and a
// 70/30 mix of uniform reads and writes, n requests each (the mix
// twice as many), on the X25-M's make-up on 4 dies at 2 GB (1,000
// blocks a die): small enough for the explicit map.
func equivalenceCases(n int) []equivalenceCase {
	var cs []equivalenceCase
	for _, gc := range []GCPolicy{Greedy, CostBenefit} {
		for _, op := range []float64{0.07, 0.12, 0.28} {
			p := IntelX25MG2()
			p.Capacity = 2e9
			p.Channels, p.WaysPerChannel, p.DiesPerChip = 4, 1, 1
			p.OverProvisioning, p.GC = op, gc
			for _, ld := range []struct {
				name string
				l    mixLoad
			}{
				{"uniform writes", mixLoad{depth: 32, ios: n, warmup: 10000}},
				{"zipf writes", mixLoad{zipf: true, depth: 32, ios: n, warmup: 10000}},
				{"70/30 reads and writes", mixLoad{readFrac: 0.7, rate: mixRate(p), ios: 2 * n, warmup: 15000}},
			} {
				cs = append(cs, equivalenceCase{fmt.Sprintf("%v/OP %.0f%%/%s", gc, op*100, ld.name), p, ld.l})
			}
		}
	}
	return cs
}

// mixRate is the arrival rate, requests per second, of a 70/30 mix of
// reads and writes that asks 40% of what p's dies can write in the
// steady state (reads cost them little): host writes each take their
// program and write amplification's share of copies and erases, at the
// large-drive model's write amplification (a 4-die test drive's
// reserve raises it by up to a tenth).
func mixRate(p Params) float64 {
	m, err := NewModel(p)
	if err != nil {
		panic(err)
	}
	g := &m.g
	wa := GreedyWriteAmplificationBlock(float64(g.slots())/float64(g.units), g.unitsPerBlock)
	prog := (p.ProgramTime + max(p.ProgramTimeSlow, p.ProgramTime)) / 2
	perWrite := wa*prog.Seconds() + (wa-1)*p.ReadTime.Seconds() + wa/float64(g.unitsPerBlock)*p.EraseTime.Seconds()
	return 0.4 * float64(g.dies) / perWrite / 0.3
}

// tolerances are checkEquivalence's bounds, as fractions.
type tolerances struct {
	wa, gc, iops, mean float64 // relative: WA; GC copies and erases per host unit; IOPS; mean latency
	quantiles, p99     float64 // relative: the latencies' 50th and 90th percentiles; their 99th
	openKS             float64 // Kolmogorov-Smirnov distance of the open-loop mix's latencies
}

// latinCases are six of the eighteen cases of equivalenceCases: for
// each policy and spare one load, chosen so that every spare and every
// load meets both policies (greedy: uniform writes at 7%, Zipf writes at
// 12%, the mix at 28%; cost-benefit: Zipf at 7%, the mix at 12%,
// uniform at 28%).
func latinCases(n int) []equivalenceCase {
	all := equivalenceCases(n)
	var cs []equivalenceCase
	for gc := range 2 {
		for op := range 3 {
			cs = append(cs, all[gc*9+op*3+(op+gc)%3])
		}
	}
	return cs
}

// checkEquivalence compares the drawn state with the explicit map over
// every case of cs: write amplification, garbage collection's copies and
// erases per host unit, IOPS, and the latency distribution (its mean and
// its 50th, 90th and 99th percentiles) each within its bound, and under
// the open-loop mix the distributions within a Kolmogorov-Smirnov
// distance of openKS (at every latency, the shares of requests at or
// below it differ by at most that much). A closed loop's latencies sit
// close to depth over throughput (p99 about 1.2x the mean), so there a
// shift of 0.2% in every latency moves the Kolmogorov-Smirnov distance by
// 0.04: its percentiles measure it.
func checkEquivalence(t *testing.T, cs []equivalenceCase, reps int, tol tolerances) {
	for _, c := range cs {
		e := compare(t, c.p, c.l, reps)
		x, l := &e.ex, &e.lazy
		for _, m := range []struct {
			what     string
			ex, lazy float64
			tol      float64
		}{
			{"WA", x.wa(), l.wa(), tol.wa},
			{"GC copies per host unit", float64(x.moves) / float64(x.hostUnits), float64(l.moves) / float64(l.hostUnits), tol.gc},
			{"erases per host unit", float64(x.erases) / float64(x.hostUnits), float64(l.erases) / float64(l.hostUnits), tol.gc},
			{"IOPS", x.iops, l.iops, tol.iops},
			{"mean latency", x.mean(), l.mean(), tol.mean},
			{"p50 latency", x.quantile(0.5), l.quantile(0.5), tol.quantiles},
			{"p90 latency", x.quantile(0.9), l.quantile(0.9), tol.quantiles},
			{"p99 latency", x.quantile(0.99), l.quantile(0.99), tol.p99},
		} {
			if dev := m.lazy/m.ex - 1; math.Abs(dev) > m.tol {
				t.Errorf("%s: %s explicit %.4g, drawn %.4g (%+.1f%%, bound %.0f%%)", c.name, m.what, m.ex, m.lazy, 100*dev, 100*m.tol)
			}
		}
		ks := ksDistance(x.latencies, l.latencies)
		if c.l.rate > 0 && ks > tol.openKS {
			t.Errorf("%s: latency distributions %.3f apart (Kolmogorov-Smirnov), bound %.2f", c.name, ks, tol.openKS)
		}
		t.Logf("%s: WA %.3f / %.3f, IOPS %.0f / %.0f (%+.1f%%), mean %.2f / %.2f ms, p50 %.2f / %.2f, p90 %.2f / %.2f, p99 %.2f / %.2f ms, KS %.3f (explicit / drawn)",
			c.name, x.wa(), l.wa(), x.iops, l.iops, 100*(l.iops/x.iops-1), x.mean()/1e6, l.mean()/1e6,
			x.quantile(0.5)/1e6, l.quantile(0.5)/1e6, x.quantile(0.9)/1e6, l.quantile(0.9)/1e6, x.quantile(0.99)/1e6, l.quantile(0.99)/1e6, ks)
	}
}

// TestLazyMatchesExplicit: a steady state drawn from the model behaves as
// one written overwrite by overwrite with the explicit map, over the six
// cases of latinCases (every policy, spare and load) at 30,000 requests
// (60,000 for the mix), one drive of each kind. At this length two drives of one kind differ by up
// to about 1.5% in write amplification (2.5% in GC copies per host unit
// at 28% spare, where copies are 1.5 per host unit) and a few percent in
// IOPS and latency; the bounds here are 2% (WA), 3% (GC), 5% (IOPS), 8%
// (mean), 10% (percentiles: p99 rests on 300 requests) and a
// Kolmogorov-Smirnov distance of 0.03 for the open-loop mix.
//
// TestLazyMatchesExplicitLong (build tag long) runs every case of
// equivalenceCases on four drives of each kind, 150,000 requests each
// (300,000 for the mix), and holds every figure to 2% and the mix's
// distributions to 0.02.
func TestLazyMatchesExplicit(t *testing.T) {
	t.Parallel()
	checkEquivalence(t, latinCases(30000), 1, tolerances{wa: 0.02, gc: 0.03, iops: 0.05, mean: 0.08, quantiles: 0.10, p99: 0.10, openKS: 0.03})
}
