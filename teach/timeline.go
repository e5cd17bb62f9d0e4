package teach

import (
	"fmt"
	"slices"
	"time"

	"github.com/raidsim/raidsim/lifelog"
	"github.com/raidsim/raidsim/metrics"
	"github.com/raidsim/raidsim/sim"
)

// Timeline records the life of the first host requests of a run, phase
// by phase: how long each waited in a queue, and spent on command
// overhead, seeking, rotational latency, media transfer, the bus and
// cache memory, along its critical path (so the phases add up to its
// latency), with a row for each request it sent below (an array's
// member I/Os, a cache's misses). It is the teaching view of a request's
// journey. Attach Observer() to an Experiment (or any device).
type Timeline struct {
	// Limit is the number of host requests recorded.
	Limit int
	// Entries holds the recorded requests in submission order.
	Entries []TimelineEntry

	log lifelog.Log
}

// TimelineEntry is one request's life.
type TimelineEntry struct {
	// ID is the request's ID (the record number under trace.Replay).
	ID uint64
	// Op, Offset and Length describe the request.
	Op     sim.Op
	Offset int64
	Length int64
	// Device is the device that served it, Member its index in the
	// array above (-1 for a host request), Role what it was for
	// ("pre-read", "data write", "miss", ...).
	Device string
	Member int
	Role   string
	// Submitted and Completed are when it entered and left the stack.
	Submitted, Completed sim.Time
	// Phases sums the time along its critical path for each sim.Phase;
	// with Other they add up to the latency.
	Phases [sim.PhaseCacheHit + 1]time.Duration
	// Other is critical-path time no phase claims (a completion
	// overhead, parity computation, hand-offs between layers).
	Other time.Duration
	// Children are the requests it sent below, in issue order.
	Children []TimelineEntry
	seq      int
}

// NewTimeline returns a Timeline recording the first limit requests.
func NewTimeline(limit int) *Timeline {
	t := &Timeline{Limit: limit}
	t.log = lifelog.Log{MaxHost: limit, Discard: true, Finished: t.finished}
	return t
}

// Observer returns the hooks that feed the timeline.
func (t *Timeline) Observer() *sim.Observer { return t.log.Observer() }

func (t *Timeline) finished(l *lifelog.Life) {
	e := timelineEntry(l)
	i, _ := slices.BinarySearchFunc(t.Entries, e.seq, func(x TimelineEntry, s int) int { return x.seq - s })
	t.Entries = slices.Insert(t.Entries, i, e)
}

// timelineEntry turns a life (and its children) into entries.
func timelineEntry(l *lifelog.Life) TimelineEntry {
	e := TimelineEntry{ID: l.ID, Op: l.Op, Offset: l.Offset, Length: l.Length, Member: l.Member, Role: l.Kind,
		Submitted: l.Submitted, Completed: l.Completed, seq: l.Seq}
	if len(l.Layers) > 0 {
		e.Device = l.Layers[0]
	}
	tot := lifelog.Totals(l.Breakdown())
	copy(e.Phases[:], tot[:len(e.Phases)])
	e.Other = tot[len(tot)-1]
	for _, c := range l.Children {
		ce := timelineEntry(c)
		if c.Member >= 0 {
			ce.Role = memberRole(l, c, nil)
		}
		e.Children = append(e.Children, ce)
	}
	return e
}

// timelinePhases are the columns of the table, in the order a request
// meets them.
var timelinePhases = []sim.Phase{sim.PhaseQueue, sim.PhaseOverhead, sim.PhaseSeek,
	sim.PhaseRotate, sim.PhaseMedia, sim.PhaseBus, sim.PhaseCacheHit}

// Table renders the timeline: one row per host request and, indented
// under it, one per request it sent below; times in milliseconds.
func (t *Timeline) Table() metrics.Table {
	tb := metrics.Table{
		Title:  "Request timeline (ms)",
		Header: []string{"#", "request", "device", "submitted"},
		Notes: []string{"Each row's phases follow its critical path (what it waited for last), so with " +
			"\"other\" (completion overhead, parity, hand-offs) they add up to its latency. Rows marked " +
			"with > are the requests a host request sent below, under their device and array member."},
	}
	for _, p := range timelinePhases {
		tb.Header = append(tb.Header, p.String())
	}
	tb.Header = append(tb.Header, "other", "latency")
	ncq := false
	for _, e := range t.Entries {
		ncq = addTimelineRows(&tb, e, 0) || ncq
	}
	if ncq {
		tb.Notes = append(tb.Notes, "A drive command that waited in the queue shows no overhead: NCQ decodes "+
			"queued commands while the drive serves others, so the overhead overlapped the wait.")
	}
	return tb
}

// addTimelineRows adds e's row and its children's; it reports whether
// a drive command's overhead was hidden behind its queue wait.
func addTimelineRows(tb *metrics.Table, e TimelineEntry, depth int) bool {
	msf := func(d time.Duration) string { return metrics.FormatFixed(float64(d)/1e6, 3) }
	req := fmt.Sprintf("%v %d@%d", e.Op, e.Length, e.Offset)
	if e.Op == sim.Flush {
		req = "flush"
	}
	id, dev := fmt.Sprint(e.ID), e.Device
	if depth > 0 {
		id = ">"
		req = e.Role + " " + req
		if e.Member >= 0 {
			dev = fmt.Sprintf("%s (member %d)", e.Device, e.Member)
		}
	}
	row := []string{id, req, dev, msf(time.Duration(e.Submitted))}
	for _, p := range timelinePhases {
		row = append(row, msf(e.Phases[p]))
	}
	lat := "-"
	if e.Completed >= e.Submitted && e.Completed > 0 {
		lat = msf(e.Completed.Sub(e.Submitted))
	}
	tb.AddRow(append(row, msf(e.Other), lat)...)
	hidden := len(e.Children) == 0 && e.Phases[sim.PhaseQueue] > 0 && e.Phases[sim.PhaseOverhead] == 0
	for _, c := range e.Children {
		hidden = addTimelineRows(tb, c, depth+1) || hidden
	}
	return hidden
}
