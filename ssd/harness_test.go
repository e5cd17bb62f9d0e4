package ssd

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/raidsim/raidsim/sim"
)

// The package's pure simulations (the data-sheet, equivalence,
// write-amplification and property tests) call t.Parallel, so on two
// cores they run two at a time; the tests that measure the heap or count
// allocations do not, and run before them, alone.

// load is a closed-loop workload: depth requests outstanding, each
// replaced as it completes, like fio or IOMeter.
type load struct {
	op     sim.Op
	bs     int64
	depth  int
	span   int64 // bytes from offset 0
	seq    bool
	ios    int
	warmup int // completions ignored at the start
}

type result struct {
	iops, mbps  float64
	meanLatency time.Duration
	elapsed     time.Duration
}

// run drives d with l and measures after the warm-up.
func (l load) run(t testing.TB, eng *sim.Engine, d sim.Device) result {
	t.Helper()
	rng := rand.New(rand.NewPCG(1, 2))
	var next int64
	issued, done := 0, 0
	var start sim.Time
	var latSum time.Duration
	var last sim.Time
	var measured int
	var submit func(r *sim.Request)
	reqs := make([]sim.Request, l.depth)
	onDone := func(r *sim.Request) {
		done++
		if done == l.warmup {
			start = r.Completed
		}
		if done > l.warmup {
			measured++
			latSum += r.Latency()
			last = r.Completed
		}
		if issued < l.ios+l.warmup {
			submit(r)
		}
	}
	submit = func(r *sim.Request) {
		var off int64
		if l.seq {
			off = next
			next = (next + l.bs) % (l.span - l.span%l.bs)
		} else {
			off = rng.Int64N(l.span/l.bs) * l.bs
		}
		r.Op, r.Offset, r.Length, r.Done, r.Data, r.FUA = l.op, off, l.bs, onDone, nil, false
		issued++
		if err := d.Submit(r); err != nil {
			t.Fatal(err)
		}
	}
	for i := range reqs {
		submit(&reqs[i])
	}
	eng.Run()
	el := last.Sub(start)
	return result{
		iops:        float64(measured) / el.Seconds(),
		mbps:        float64(measured) * float64(l.bs) / el.Seconds() / 1e6,
		meanLatency: latSum / time.Duration(max(measured, 1)),
		elapsed:     el,
	}
}

func newTestDrive(t testing.TB, p Params, pc Precondition) (*Drive, *sim.Engine) {
	t.Helper()
	return newDrive(t, p, pc, false)
}

// newDrive makes a drive preconditioned to pc on a new engine (seed 1),
// with the reference page map when explicit (preconditioning writes
// every unit and every overwrite).
func newDrive(t testing.TB, p Params, pc Precondition, explicit bool) (*Drive, *sim.Engine) {
	t.Helper()
	eng := sim.NewEngine(1)
	d, err := New(eng, p, "ssd0", nil)
	if err != nil {
		t.Fatal(err)
	}
	if explicit {
		d.explicit, d.f = true, newFTL(&d.p, true)
	}
	if _, err := d.Precondition(pc); err != nil {
		t.Fatal(err)
	}
	return d, eng
}
