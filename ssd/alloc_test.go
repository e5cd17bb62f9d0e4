package ssd

import (
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
	c.submit(r)
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
func TestZeroAllocsSteadyState(t *testing.T) {
	p := IntelX25MG2()
	p.Capacity = 4e9
	p.WriteCost = 10 * time.Microsecond
	for _, op := range []sim.Op{sim.Read, sim.Write} {
		d, eng := newTestDrive(t, p, Steady)
		c := newClosedLoop(d, op, 32)
		c.start()
		c.steps(eng, 20000) // warm: rings and heaps at their working size
		allocs := testing.AllocsPerRun(20, func() { c.steps(eng, 1000) })
		if perReq := allocs / 1000; perReq != 0 {
			t.Errorf("%v: %.3f allocations per request in steady state", op, perReq)
		}
		if op == sim.Write && d.Stats().GCPageMoves == 0 {
			t.Errorf("no GC during the write run: the test does not cover it")
		}
	}
}
