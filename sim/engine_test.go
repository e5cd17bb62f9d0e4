package sim_test

import (
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/raidsim/raidsim/sim"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/stat/distuv"
)

// logHandler appends the argument of every event it receives, with the time.
type logHandler struct {
	times []sim.Time
	args  []int
}

func (h *logHandler) HandleEvent(now sim.Time, arg any) {
	h.times = append(h.times, now)
	h.args = append(h.args, *arg.(*int))
}

func TestEngineOrdersByTimeThenSequence(t *testing.T) {
	e := sim.NewEngine(1)
	h := &logHandler{}
	vals := make([]int, 8)
	for i := range vals {
		vals[i] = i
	}
	// Scheduled out of time order; 2, 3 and 4 share an instant.
	at := []sim.Time{50, 10, 30, 30, 30, 5, 70, 10}
	for i, a := range at {
		e.Schedule(a, h, &vals[i])
	}
	e.Run()
	assert.Equal(t, []int{5, 1, 7, 2, 3, 4, 0, 6}, h.args)
	assert.Equal(t, []sim.Time{5, 10, 10, 30, 30, 30, 50, 70}, h.times)
	assert.Equal(t, sim.Time(70), e.Now())
	assert.Equal(t, uint64(8), e.Processed())
	assert.False(t, e.Step(), "no events left")
}

// chainHandler schedules further events from inside an event.
type chainHandler struct {
	e    *sim.Engine
	seen []sim.Time
	left int
}

func (h *chainHandler) HandleEvent(now sim.Time, _ any) {
	h.seen = append(h.seen, now)
	if h.left > 0 {
		h.left--
		h.e.After(3*time.Nanosecond, h, nil)
		h.e.After(0, h, nil) // same instant: runs after events already queued for now
	}
}

func TestEngineRunUntilIsInclusive(t *testing.T) {
	e := sim.NewEngine(1)
	h := &chainHandler{e: e, left: 0}
	for _, at := range []sim.Time{1, 5, 6, 9} {
		e.Schedule(at, h, nil)
	}
	e.RunUntil(6)
	assert.Equal(t, []sim.Time{1, 5, 6}, h.seen, "events at the limit run")
	assert.Equal(t, sim.Time(6), e.Now())
	assert.Equal(t, 1, e.Pending())
	assert.Equal(t, sim.Time(9), e.NextAt())

	e.RunUntil(100)
	assert.Equal(t, sim.Time(100), e.Now(), "clock moves to the limit when idle")
	assert.Equal(t, sim.Never, e.NextAt())

	// Events scheduled by events within the window also run.
	h2 := &chainHandler{e: e, left: 2}
	e.After(0, h2, nil)
	e.RunUntil(103)
	assert.Equal(t, []sim.Time{100, 100, 100, 103, 103}, h2.seen)
}

func TestEngineRejectsThePast(t *testing.T) {
	e := sim.NewEngine(1)
	e.RunUntil(10)
	assert.PanicsWithValue(t, "sim: event scheduled at 5ns, before now (10ns)", func() {
		e.Schedule(5, &logHandler{}, nil)
	})
}

// TestEngineHeapAgainstSort pushes and pops random times and checks the
// output is the stable sort of the input.
func TestEngineHeapAgainstSort(t *testing.T) {
	e := sim.NewEngine(7)
	r := e.Rand("test")
	type item struct {
		at  sim.Time
		idx int
	}
	var got []item
	h := sim.HandlerFunc(func(now sim.Time, arg any) {
		got = append(got, item{now, *arg.(*int)})
	})
	const n = 5000
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
		e.Schedule(sim.Time(r.IntN(500)), h, &idx[i])
	}
	e.Run()
	require.Len(t, got, n)
	for i := 1; i < n; i++ {
		a, b := got[i-1], got[i]
		if a.at > b.at || (a.at == b.at && a.idx > b.idx) {
			t.Fatalf("event %d (%v, #%d) ran after (%v, #%d)", i, b.at, b.idx, a.at, a.idx)
		}
	}
}

func TestRandStreamsAreNamedAndSeeded(t *testing.T) {
	a := sim.NewEngine(42)
	b := sim.NewEngine(42)
	c := sim.NewEngine(43)

	// Creating another stream first must not perturb "disk".
	_ = b.Rand("workload").Uint64()
	x, y, z := a.Rand("disk").Uint64(), b.Rand("disk").Uint64(), c.Rand("disk").Uint64()
	assert.Equal(t, x, y, "same seed and name give the same stream")
	assert.NotEqual(t, x, z, "another seed gives another stream")
	assert.NotEqual(t, a.Rand("disk").Uint64(), a.Rand("other").Uint64())
	assert.Same(t, a.Rand("disk"), a.Rand("disk"), "one stream per name")
}

func TestRandServesGonum(t *testing.T) {
	e := sim.NewEngine(3)
	d := distuv.Exponential{Rate: 2, Src: e.Rand("exp")}
	sum := 0.0
	const n = 200000
	for range n {
		sum += d.Rand()
	}
	assert.InDelta(t, 0.5, sum/n, 0.005, "mean of Exp(2) is 1/2")
}

func TestTimeArithmetic(t *testing.T) {
	t0 := sim.Time(1500)
	assert.Equal(t, sim.Time(2500), t0.Add(time.Microsecond))
	assert.Equal(t, 500*time.Nanosecond, sim.Time(2000).Sub(t0))
	assert.Equal(t, "1.5µs", t0.String())
	assert.InDelta(t, 1.5e-6, t0.Seconds(), 1e-15)
	assert.Equal(t, sim.Time(math.MaxInt64), sim.Never)
}

func TestEngineStepDoesNotAllocate(t *testing.T) {
	e := sim.NewEngine(1)
	var v int
	var h sim.Handler
	h = sim.HandlerFunc(func(now sim.Time, arg any) {
		e.After(time.Duration(1+now%97), h, &v)
	})
	for range 64 {
		e.After(0, h, &v)
	}
	for range 1000 { // let the heap reach its working size
		e.Step()
	}
	allocs := testing.AllocsPerRun(10000, func() { e.Step() })
	assert.Zero(t, allocs, "allocations per Step in steady state")
}

func BenchmarkEngine(b *testing.B) {
	for _, pending := range []int{16, 1024} {
		b.Run(fmt.Sprintf("pending=%d", pending), func(b *testing.B) {
			e := sim.NewEngine(1)
			r := e.Rand("bench")
			var v int
			var h sim.Handler
			h = sim.HandlerFunc(func(now sim.Time, arg any) {
				e.After(time.Duration(1+r.IntN(10000)), h, &v)
			})
			for range pending {
				e.After(time.Duration(r.IntN(10000)), h, &v)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				e.Step()
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "events/s")
		})
	}
}
