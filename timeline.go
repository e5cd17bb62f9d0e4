package raidsim

import (
	"fmt"
	"time"

	"github.com/raidsim/raidsim/metrics"
	"github.com/raidsim/raidsim/sim"
)

// Timeline records the life of the first requests of a run, phase by
// phase: how long each waited in the queue, and spent on command
// overhead, seeking, rotational latency, media transfer and the bus. It
// is the teaching view of one request's journey. Attach Observer() to an
// Experiment (or any device); requests after the first Limit cost a map
// lookup.
type Timeline struct {
	// Limit is the number of requests recorded.
	Limit int
	// Entries holds the recorded requests in submission order.
	Entries []TimelineEntry

	open map[*sim.Request]int
	obs  sim.Observer
}

// TimelineEntry is one request's life.
type TimelineEntry struct {
	// ID is the request's ID (the record number under trace.Replay).
	ID uint64
	// Op, Offset and Length describe the request.
	Op     sim.Op
	Offset int64
	Length int64
	// Submitted and Completed are when it entered and left the stack.
	Submitted, Completed sim.Time
	// Phases sums the spans reported for each sim.Phase.
	Phases [sim.PhaseCacheHit + 1]time.Duration
}

// NewTimeline returns a Timeline recording the first limit requests.
func NewTimeline(limit int) *Timeline {
	t := &Timeline{Limit: limit, open: make(map[*sim.Request]int)}
	t.obs = sim.Observer{Submitted: t.submitted, Phase: t.phase, Completed: t.completed}
	return t
}

// Observer returns the hooks that feed the timeline.
func (t *Timeline) Observer() *sim.Observer { return &t.obs }

func (t *Timeline) submitted(_ string, r *sim.Request, now sim.Time) {
	if _, ok := t.open[r]; ok || len(t.Entries) >= t.Limit {
		return
	}
	t.open[r] = len(t.Entries)
	t.Entries = append(t.Entries, TimelineEntry{ID: r.ID, Op: r.Op, Offset: r.Offset, Length: r.Length, Submitted: now})
}

func (t *Timeline) phase(_ string, r *sim.Request, p sim.Phase, start, end sim.Time) {
	if i, ok := t.open[r]; ok && int(p) < len(t.Entries[i].Phases) {
		t.Entries[i].Phases[p] += end.Sub(start)
	}
}

func (t *Timeline) completed(_ string, r *sim.Request, now sim.Time) {
	if i, ok := t.open[r]; ok {
		t.Entries[i].Completed = now
		delete(t.open, r) // the request may be recycled for a later record
	}
}

// timelinePhases are the columns of the table, in the order a request
// meets them.
var timelinePhases = []sim.Phase{sim.PhaseQueue, sim.PhaseOverhead, sim.PhaseSeek,
	sim.PhaseRotate, sim.PhaseMedia, sim.PhaseBus, sim.PhaseCacheHit}

// Table renders the timeline: one row per request, times in milliseconds.
func (t *Timeline) Table() metrics.Table {
	tb := metrics.Table{
		Title:  "Request timeline (ms)",
		Header: []string{"#", "request", "submitted"},
		Notes: []string{"Phases overlap where the drive overlaps them (the bus carries a read's data while " +
			"the platter is still delivering it), so they need not add up to the latency."},
	}
	for _, p := range timelinePhases {
		tb.Header = append(tb.Header, p.String())
	}
	tb.Header = append(tb.Header, "latency")
	msf := func(d time.Duration) string { return metrics.FormatFixed(float64(d)/1e6, 3) }
	for _, e := range t.Entries {
		req := fmt.Sprintf("%v %d@%d", e.Op, e.Length, e.Offset)
		if e.Op == sim.Flush {
			req = "flush"
		}
		row := []string{fmt.Sprint(e.ID), req, msf(time.Duration(e.Submitted))}
		for _, p := range timelinePhases {
			row = append(row, msf(e.Phases[p]))
		}
		lat := "-"
		if e.Completed >= e.Submitted && e.Completed > 0 {
			lat = msf(e.Completed.Sub(e.Submitted))
		}
		tb.AddRow(append(row, lat)...)
	}
	return tb
}
