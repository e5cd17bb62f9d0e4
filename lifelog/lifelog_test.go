package lifelog_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/raidsim/raidsim/lifelog"
	"github.com/raidsim/raidsim/sim"
)

// TestBreakdownByHand drives the hooks as an array over two drives
// would and checks the critical path against hand computation: the
// host write waits 1 for ordering, its pre-read on disk0 (queue 0-3,
// seek 3-7, rotate 7-9, media 9-10, bus 8-10 overlapping) ends last at
// 10, the write on disk1 runs 11-14 (overhead 11-12, cache-hit 12-13,
// 1 of completion overhead), and the array acknowledges at 15.
func TestBreakdownByHand(t *testing.T) {
	g := &lifelog.Log{}
	o := g.Observer()
	host, pre0, pre1, w := &sim.Request{Op: sim.Write, Length: 4096}, &sim.Request{Op: sim.Read}, &sim.Request{Op: sim.Read}, &sim.Request{Op: sim.Write}
	o.OnSubmitted("array", host, 0)
	o.OnSubmitted("trace", host, 0)
	o.OnPhase("array", host, sim.PhaseQueue, 0, 1)
	o.OnPlan("array", host, sim.StripePlan{Method: "rmw", ParityMember: 1}, 1)
	o.OnChild("array", host, pre0, 0, 1)
	o.OnSubmitted("disk0", pre0, 1)
	o.OnChild("array", host, pre1, 1, 1)
	o.OnSubmitted("disk1", pre1, 1)
	for _, p := range []struct {
		ph   sim.Phase
		a, b sim.Time
	}{{sim.PhaseQueue, 1, 3}, {sim.PhaseSeek, 3, 7}, {sim.PhaseRotate, 7, 9}, {sim.PhaseBus, 8, 10}, {sim.PhaseMedia, 9, 10}} {
		o.OnPhase("disk0", pre0, p.ph, p.a, p.b)
	}
	o.OnCompleted("disk1", pre1, 5)
	o.OnCompleted("disk0", pre0, 10)
	o.OnChild("array", host, w, 1, 11)
	o.OnSubmitted("disk1", w, 11)
	o.OnPhase("disk1", w, sim.PhaseOverhead, 11, 12)
	o.OnPhase("disk1", w, sim.PhaseCacheHit, 12, 13)
	o.OnCompleted("disk1", w, 14)
	o.OnCompleted("array", host, 15)
	o.OnCompleted("trace", host, 15)

	require.Len(t, g.Roots, 1)
	l := g.Roots[0]
	assert.True(t, l.Host)
	assert.Equal(t, []string{"array"}, l.Layers)
	require.Len(t, l.Children, 3)
	assert.Equal(t, "member", l.Children[0].Kind)
	tot := lifelog.Totals(l.Breakdown())
	// queue 1+2, seek 4, rotate 2, bus 8-10 clipped to 9-10 after rotate
	// (bus starts first at 8, so it takes 9-10 and media nothing),
	// array hand-off 10-11, overhead 1, cache-hit 1, completion 13-14
	// and 14-15 other.
	assert.EqualValues(t, 3, tot[0], "queue")
	assert.EqualValues(t, 1, tot[1], "overhead")
	assert.EqualValues(t, 4, tot[2], "seek")
	assert.EqualValues(t, 2, tot[3], "rotate")
	assert.EqualValues(t, 0, tot[4], "media")
	assert.EqualValues(t, 1, tot[5], "bus")
	assert.EqualValues(t, 1, tot[6], "cache-hit")
	assert.EqualValues(t, 3, tot[7], "other: 10-11, 13-14, 14-15")
}

// TestMaxHostCuts: beyond MaxHost host requests nothing is recorded,
// not even the children of the requests left out.
func TestMaxHostCuts(t *testing.T) {
	g := &lifelog.Log{MaxHost: 1}
	o := g.Observer()
	a, b, c := &sim.Request{}, &sim.Request{}, &sim.Request{}
	o.OnSubmitted("dev", a, 0)
	o.OnSubmitted("dev", b, 0)
	o.OnChild("dev", b, c, 0, 0)
	o.OnSubmitted("disk0", c, 0)
	o.OnCompleted("disk0", c, 1)
	o.OnCompleted("dev", b, 1)
	o.OnCompleted("dev", a, 2)
	require.Len(t, g.Roots, 1)
	assert.Empty(t, g.Roots[0].Children)
	assert.EqualValues(t, 1, g.Cut)
	assert.EqualValues(t, 2, g.Roots[0].Latency())
}
