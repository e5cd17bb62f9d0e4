package teach_test

import (
	"bytes"
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/raidsim/raidsim"
	"github.com/raidsim/raidsim/lifelog"
	"github.com/raidsim/raidsim/raid"
	"github.com/raidsim/raidsim/sim"
	"github.com/raidsim/raidsim/spec"
	"github.com/raidsim/raidsim/teach"
)

// explainRAID5 is the example: three 4 KiB random writes on a
// 4-drive RAID 5 of Deskstar 7K160s with a 64 KiB stripe unit.
func explainRAID5(policy string) *spec.Experiment {
	x := experiment("deskstar-7k160", spec.Job{RW: "randwrite", BS: 4096, IOs: 3, IODepth: 1})
	x.Stack.Disks = 4
	x.Stack.RAID = &spec.RAID{Level: "5", StripeUnit: 64 << 10, RAID5Write: policy}
	return x
}

// TestExplainPhasesAddUp: each explained request's critical-path phases
// tile its life and add up to its latency, and those latencies are the
// ones the report measured.
func TestExplainPhasesAddUp(t *testing.T) {
	for _, policy := range []string{"", "rmw"} {
		e, err := teach.Explain(explainRAID5(policy), 3)
		require.NoError(t, err)
		require.Len(t, e.Requests, 3)
		var sum float64
		for _, l := range e.Requests {
			segs := l.Breakdown()
			require.NotEmpty(t, segs)
			at := l.Submitted
			var total sim.Time
			for _, s := range segs {
				assert.Equal(t, at, s.Start, "request %d: segments tile its life", l.ID)
				assert.Greater(t, s.End, s.Start)
				at = s.End
				total += s.End - s.Start
			}
			assert.Equal(t, l.Completed, at)
			assert.Equal(t, l.Completed-l.Submitted, total, "request %d: phases add up to its latency", l.ID)
			var drive bool
			for _, s := range segs {
				drive = drive || s.Label == "seek" || s.Label == "rotate"
			}
			assert.True(t, drive, "request %d: a small RAID 5 write waits for a drive's pre-read", l.ID)
			sum += float64(l.Completed-l.Submitted) / 1e6
		}
		mean := e.Report.Total.Summary.All.LatencyMS.Mean
		assert.InDelta(t, mean*3, sum, 1e-6, "the report's latencies")
	}
}

// TestExplainMembersMatchMapping: the member I/Os of each write are
// where raid.Mapping puts its data and parity, the plan is md's choice,
// and the text names plan, parity member, pre-reads and drive phases.
func TestExplainMembersMatchMapping(t *testing.T) {
	for _, c := range []struct{ policy, method, text string }{
		{"", "rcw", "reconstruct-write"}, // 4 drives: 2 pre-reads either way, a tie md gives to rcw
		{"rmw", "rmw", "read-modify-write"},
	} {
		e, err := teach.Explain(explainRAID5(c.policy), 3)
		require.NoError(t, err)
		require.NotNil(t, e.Mapping)
		m := *e.Mapping
		for _, l := range e.Requests {
			ad := m.Locate(l.Offset)
			require.Len(t, l.Plans, 1)
			p := l.Plans[0]
			assert.Equal(t, c.method, p.Method)
			assert.Equal(t, m.Stripe(l.Offset), p.Stripe)
			assert.Equal(t, raid.ParityMember(m.Layout, m.Members, p.Stripe), p.ParityMember)
			var reads, writes []int
			for _, ch := range l.Children {
				assert.Equal(t, ad.Offset, ch.Offset, "member I/O at the chunk's member offset")
				assert.Equal(t, fmt.Sprintf("disk%d", ch.Member), ch.Layers[0])
				if ch.Op == sim.Read {
					reads = append(reads, ch.Member)
				} else {
					writes = append(writes, ch.Member)
				}
			}
			assert.ElementsMatch(t, []int{ad.Member, p.ParityMember}, writes, "data and parity written")
			if c.method == "rmw" {
				assert.ElementsMatch(t, []int{ad.Member, p.ParityMember}, reads, "old data and parity pre-read")
			} else {
				assert.Len(t, reads, 2)
				assert.NotContains(t, reads, ad.Member)
				assert.NotContains(t, reads, p.ParityMember)
			}
		}
		var b bytes.Buffer
		require.NoError(t, e.WriteText(&b))
		out := b.String()
		for _, want := range []string{c.text, "parity on member", "pre-read", "seek", "cylinders", "rotate",
			"first sector at", "media", "bus", "data write", "parity write", "in short:", "why:"} {
			assert.Contains(t, out, want, c.policy)
		}
	}
}

// TestExplainCacheDestage: a write absorbed by a write-back cache is
// traced to the destage that carried it and to that destage's member
// I/Os.
func TestExplainCacheDestage(t *testing.T) {
	x := explainRAID5("")
	x.Phases[0].IOs = 400
	x.Stack.Cache = &spec.Cache{Size: 1 << 20}
	e, err := teach.Explain(x, 2)
	require.NoError(t, err)
	l := e.Requests[0]
	require.NotNil(t, l.Absorb)
	require.NotEmpty(t, l.Destages, "1 MiB of cache fills with 400 writes: the first is destaged")
	d := l.Destages[0]
	assert.Contains(t, d.Carries, l)
	assert.LessOrEqual(t, d.Offset, l.Offset)
	assert.GreaterOrEqual(t, d.End(), l.End())
	assert.NotEmpty(t, d.Children, "the destage went to the array's members")
	var b bytes.Buffer
	require.NoError(t, e.WriteText(&b))
	assert.Contains(t, b.String(), "absorbed the write")
	assert.Contains(t, b.String(), "destaged at")
}

// TestBreakdownTilesEveryRequest: under load (queue depth 8, a cache
// over RAID 5, reads and writes) every host request's breakdown tiles
// its life exactly.
func TestBreakdownTilesEveryRequest(t *testing.T) {
	x := explainRAID5("")
	x.Phases[0] = spec.Phase{Job: spec.Job{RW: "randrw", BS: 16 << 10, IOs: 600, IODepth: 8}}
	x.Stack.Cache = &spec.Cache{Size: 2 << 20}
	g := &lifelog.Log{}
	_, err := raidsim.RunWith(x, raidsim.RunOptions{Observer: g.Observer()})
	require.NoError(t, err)
	hosts := 0
	for _, l := range g.Roots {
		if !l.Done {
			continue
		}
		hosts++
		var total sim.Time
		at := l.Submitted
		for _, s := range l.Breakdown() {
			require.Equal(t, at, s.Start, "root %d", l.Seq)
			at = s.End
			total += s.End - s.Start
		}
		require.Equal(t, l.Completed-l.Submitted, total, "root %d", l.Seq)
	}
	assert.Greater(t, hosts, 600)
}

// TestTimelineNamesMembers: the timeline nests each RAID 5 write's
// member I/Os under it with their drive and member index, and a host
// row's phases add up to its latency.
func TestTimelineNamesMembers(t *testing.T) {
	tl := teach.NewTimeline(3)
	_, err := raidsim.RunWith(explainRAID5(""), raidsim.RunOptions{Observer: tl.Observer()})
	require.NoError(t, err)
	require.Len(t, tl.Entries, 3)
	for _, e := range tl.Entries {
		var sum float64
		for _, d := range e.Phases {
			sum += float64(d)
		}
		sum += float64(e.Other)
		assert.InDelta(t, float64(e.Completed-e.Submitted), sum, 0.5)
		assert.Positive(t, e.Phases[sim.PhaseSeek], "the host row carries its member's seek")
		require.Len(t, e.Children, 4)
		for _, c := range e.Children {
			assert.Equal(t, fmt.Sprintf("disk%d", c.Member), c.Device)
		}
	}
	tb := tl.Table()
	var b bytes.Buffer
	require.NoError(t, tb.WriteText(&b))
	assert.Contains(t, b.String(), "(member ")
	assert.Contains(t, b.String(), "parity write")
	assert.Len(t, tb.Rows, 15)
}

// TestPhaseSummaryMeans: the summary's host means add up to the mean
// latency of the report.
func TestPhaseSummaryMeans(t *testing.T) {
	x := experiment("deskstar-7k500", spec.Job{RW: "randread", BS: 4096, IODepth: 4, IOs: 300})
	ps := teach.NewPhaseSummary()
	rep, err := raidsim.RunWith(x, raidsim.RunOptions{Observer: ps.Observer()})
	require.NoError(t, err)
	h := ps.Host[sim.Read]
	require.EqualValues(t, 300, h.N)
	var sum float64
	for _, d := range h.By {
		sum += float64(d)
	}
	mean := sum / 1e6 / float64(h.N)
	assert.InDelta(t, rep.Total.Summary.All.LatencyMS.Mean, mean, 1e-6)
	assert.False(t, math.IsNaN(mean))
	assert.Positive(t, h.By[2], "seek")
	assert.Equal(t, h.N, ps.Drive[sim.Read].N, "one drive command per read")
}
