package ssd

import (
	"runtime"
	"testing"
	"time"

	"github.com/raidsim/raidsim/sim"
)

// closedLoop keeps depth random 4 KiB requests of one op outstanding and
// counts completions; it allocates nothing once built.
type closedLoop struct {
	d     sim.Device
	op    sim.Op
	span  int64
	x     uint64
	done  int
	reqs  []sim.Request
	onDon func(*sim.Request)
}

func newClosedLoop(d sim.Device, op sim.Op, depth int) *closedLoop {
	c := &closedLoop{d: d, op: op, span: d.Capacity() / 4096, x: 1, reqs: make([]sim.Request, depth)}
	c.onDon = c.complete
	return c
}

func (c *closedLoop) submit(r *sim.Request) {
	c.x = c.x*6364136223846793005 + 1442695040888963407
	r.Op, r.Offset, r.Length, r.Done = c.op, int64((c.x>>17)%uint64(c.span))*4096, 4096, c.onDon
	if err := c.d.Submit(r); err != nil {
		panic(err)
	}
}

func (c *closedLoop) complete(r *sim.Request) {
	c.done++
	if c.d != nil {
		c.submit(r)
	}
}

func (c *closedLoop) start() {
	for i := range c.reqs {
		c.submit(&c.reqs[i])
	}
}

// steps runs the engine until n more requests completed.
func (c *closedLoop) steps(eng *sim.Engine, n int) {
	for target := c.done + n; c.done < target && eng.Step(); {
	}
}

// TestZeroAllocsSteadyState: once warm, random 4 KiB reads and writes at
// depth 32 on a steady-state drive (with GC running) allocate nothing.
// Reads never do: they find units where the steady state laid them out.
// Writes add forward-map entries and reverse-map runs while they touch
// units and blocks for the first time (a few allocations per ten
// thousand requests, the table and the arena growing by doubling); once
// the run has touched the whole 4 GB drive, none.
func TestZeroAllocsSteadyState(t *testing.T) {
	p := IntelX25MG2()
	p.Capacity = 4e9
	p.WriteCost = 10 * time.Microsecond
	for _, op := range []sim.Op{sim.Read, sim.Write} {
		d, eng := newTestDrive(t, p, Steady)
		c := newClosedLoop(d, op, 32)
		c.start()
		c.steps(eng, 20000) // warm: rings and heaps at their working size
		growing := mallocs(func() { c.steps(eng, 100000) })
		if op == sim.Write && growing > 100 {
			t.Errorf("%v: %d allocations in 100,000 requests touching the drive for the first time", op, growing)
		}
		if n := testing.AllocsPerRun(20, func() { c.steps(eng, 1000) }); n != 0 {
			t.Errorf("%v: %.0f allocations per 1,000 requests in steady state", op, n)
		}
		t.Logf("%v: %d allocations while first touching the drive, then none", op, growing)
		if op == sim.Write && d.Stats().GCPageMoves == 0 {
			t.Errorf("no GC during the write run: the test does not cover it")
		}
	}
}

// mallocs returns the heap allocations f makes.
func mallocs(f func()) uint64 {
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	f()
	runtime.ReadMemStats(&m1)
	return m1.Mallocs - m0.Mallocs
}
