package traceevents

import (
	"fmt"
	"io"
	"slices"

	"github.com/raidsim/raidsim/lifelog"
	"github.com/raidsim/raidsim/sim"
)

// Process ids of the fixed processes; intermediate layers follow.
const (
	pidWorkload = 1
	pidDrives   = 2
)

// place is where a life's span went.
type place struct {
	pid, tid   int
	start, end sim.Time
}

// builder turns a log into events.
type builder struct {
	f      File
	pids   map[string]int     // intermediate layer -> pid
	lanes  map[int][]sim.Time // pid -> end of each lane's last span
	drives map[int]*driveTrack
	spans  map[*lifelog.Life][]place
	flows  int
}

// driveTrack is one drive's thread.
type driveTrack struct {
	name  string
	lives []*lifelog.Life
}

// Write writes the lives recorded in g as a trace-event file.
func Write(w io.Writer, g *lifelog.Log) error {
	b := &builder{pids: make(map[string]int), lanes: make(map[int][]sim.Time),
		drives: make(map[int]*driveTrack), spans: make(map[*lifelog.Life][]place)}
	b.f.DisplayTimeUnit = "ms"
	b.f.OtherData = map[string]string{"generator": "raidsim", "time": "virtual: microseconds since the run began"}
	if g.Cut > 0 {
		b.f.OtherData["cut"] = fmt.Sprintf("%d later requests left out; recording stopped at %.3f ms", g.Cut, float64(g.CutAt)/1e6)
	}
	b.meta(pidWorkload, 0, "process_name", "workload (host requests)")
	b.meta(pidDrives, 0, "process_name", "drives")
	var all []*lifelog.Life
	for _, root := range g.Roots {
		root.Walk(func(l *lifelog.Life) { all = append(all, l) })
	}
	// Spans start in submission order so lanes fill the same way each
	// time.
	slices.SortStableFunc(all, func(x, y *lifelog.Life) int { return int(x.Submitted - y.Submitted) })
	for _, l := range all {
		if l.Done {
			b.request(l)
		}
	}
	b.driveSpans()
	for _, l := range all {
		b.links(l)
	}
	b.counters(g)
	return b.f.encode(w)
}

// request places l's request span: in the workload for a host request,
// in its layer's process for a layer's own work. A drive command is
// placed by driveSpans.
func (b *builder) request(l *lifelog.Life) {
	if len(l.Layers) > 0 {
		if i, ok := lifelog.DriveIndex(l.Layers[0]); ok {
			t := b.drives[i]
			if t == nil {
				t = &driveTrack{name: l.Layers[0]}
				b.drives[i] = t
			}
			t.lives = append(t.lives, l)
		}
	}
	pid := 0
	switch {
	case l.Parent == nil && !l.Background:
		pid = pidWorkload
	case len(l.Children) > 0 || l.Background:
		pid = b.layerPid(l)
	default:
		return // a drive command only
	}
	tid := b.lane(pid, l.Submitted, l.Completed)
	b.span(l, pid, tid, l.Submitted, l.Completed, requestArgs(l))
	for _, s := range l.Breakdown() {
		name := s.Label
		if s.Device != "" {
			name = s.Device + " " + s.Label
		}
		b.x(name, "phase", pid, tid, s.Start, s.End, nil)
	}
}

// layerPid returns the process of the layer l entered.
func (b *builder) layerPid(l *lifelog.Life) int {
	name := l.Via
	if len(l.Layers) > 0 {
		name = l.Layers[0]
	}
	pid, ok := b.pids[name]
	if !ok {
		pid = pidDrives + 1 + len(b.pids)
		b.pids[name] = pid
		b.meta(pid, 0, "process_name", name)
	}
	return pid
}

// lane returns a thread of pid free over [start, end), naming new ones.
func (b *builder) lane(pid int, start, end sim.Time) int {
	ls := b.lanes[pid]
	for i, e := range ls {
		if e <= start {
			ls[i] = end
			return i + 1
		}
	}
	b.lanes[pid] = append(ls, end)
	tid := len(ls) + 1
	b.meta(pid, tid, "thread_name", fmt.Sprintf("lane %d", tid))
	return tid
}

// driveSpans places each drive's commands on its thread: service from
// dispatch (the end of the queue wait) to completion, its phases
// nested; a span never starts before the previous one ended.
func (b *builder) driveSpans() {
	ids := make([]int, 0, len(b.drives))
	for i := range b.drives {
		ids = append(ids, i)
	}
	slices.Sort(ids)
	for _, i := range ids {
		t := b.drives[i]
		tid := i + 1
		b.meta(pidDrives, tid, "thread_name", t.name)
		slices.SortStableFunc(t.lives, func(x, y *lifelog.Life) int { return int(dispatch(x) - dispatch(y)) })
		var prev sim.Time
		for _, l := range t.lives {
			start := max(dispatch(l), prev)
			if start >= l.Completed {
				continue
			}
			prev = l.Completed
			args := requestArgs(l)
			args["queue_ms"] = ms(start - l.Submitted)
			if p := l.Position; p != nil {
				args["cylinder"], args["seek_cylinders"] = p.Cylinder, p.Distance
				args["platter_angle_deg"], args["first_sector_angle_deg"] = round1(p.StartAngle), round1(p.TargetAngle)
			}
			b.span(l, pidDrives, tid, start, l.Completed, args)
			for _, s := range l.Breakdown() {
				if s.Label != lifelog.Other && s.End > start {
					b.x(s.Label, "phase", pidDrives, tid, max(s.Start, start), s.End, nil)
				}
			}
		}
	}
}

// dispatch returns when a drive started serving l: the end of its
// queue wait.
func dispatch(l *lifelog.Life) sim.Time {
	t := l.Submitted
	for _, p := range l.Phases {
		if p.Phase == sim.PhaseQueue {
			t = max(t, p.End)
		}
	}
	return t
}

// span adds l's request span and remembers where it is.
func (b *builder) span(l *lifelog.Life, pid, tid int, start, end sim.Time, args map[string]any) {
	name := l.Op.String()
	if l.Op != sim.Flush {
		name = fmt.Sprintf("%s %s", l.Op, size(l.Length))
	}
	if l.Kind == "destage" || l.Kind == "read-ahead" {
		name = l.Kind + " " + size(l.Length)
	}
	b.x(name, "request", pid, tid, start, end, args)
	b.spans[l] = append(b.spans[l], place{pid, tid, start, end})
}

// links adds flow arrows from l's span to the spans of what it caused:
// its children, and for an absorbed write the destages that carried it.
func (b *builder) links(l *lifelog.Life) {
	from := b.spans[l]
	if len(from) == 0 {
		return
	}
	src := from[0]
	targets := append(slices.Clone(l.Children), l.Destages...)
	if len(from) > 1 { // a host request that is itself a drive command
		b.flow(src, from[1])
	}
	for _, c := range targets {
		for _, dst := range b.spans[c] {
			b.flow(src, dst)
		}
	}
}

// flow adds an arrow from a point inside span src to the start of dst.
func (b *builder) flow(src, dst place) {
	b.flows++
	at := min(max(dst.start, src.start), src.end-1)
	b.f.TraceEvents = append(b.f.TraceEvents,
		Event{Name: "caused", Cat: "flow", Ph: "s", Ts: us(at), Pid: src.pid, Tid: src.tid, ID: b.flows},
		Event{Name: "caused", Cat: "flow", Ph: "f", Bp: "e", Ts: us(dst.start), Pid: dst.pid, Tid: dst.tid, ID: b.flows})
}

// counters adds each drive's queue depth and the levels devices
// reported.
func (b *builder) counters(g *lifelog.Log) {
	ids := make([]int, 0, len(b.drives))
	for i := range b.drives {
		ids = append(ids, i)
	}
	slices.Sort(ids)
	type step struct {
		at sim.Time
		d  int
	}
	for _, i := range ids {
		t := b.drives[i]
		var steps []step
		for _, l := range t.lives {
			steps = append(steps, step{l.Submitted, 1}, step{l.Completed, -1})
		}
		slices.SortStableFunc(steps, func(x, y step) int { return int(x.at - y.at) })
		n := 0
		for k, s := range steps {
			n += s.d
			if k+1 < len(steps) && steps[k+1].at == s.at {
				continue // one value per instant
			}
			b.counter(pidDrives, t.name+" queue", "commands", s.at, int64(n))
		}
	}
	for _, v := range g.Levels {
		pid := pidDrives
		if _, ok := lifelog.DriveIndex(v.Device); !ok {
			pid = b.layerPid(&lifelog.Life{Layers: []string{v.Device}})
		}
		b.counter(pid, v.Device+" "+v.What, "bytes", v.At, v.Value)
	}
}

func (b *builder) counter(pid int, name, series string, at sim.Time, v int64) {
	b.f.TraceEvents = append(b.f.TraceEvents, Event{Name: name, Cat: "counter", Ph: "C", Ts: us(at), Pid: pid,
		Args: map[string]any{series: v}})
}

func (b *builder) x(name, cat string, pid, tid int, start, end sim.Time, args map[string]any) {
	if end <= start {
		return
	}
	b.f.TraceEvents = append(b.f.TraceEvents, Event{Name: name, Cat: cat, Ph: "X", Ts: us(start),
		Dur: float64(end-start) / 1e3, Pid: pid, Tid: tid, Args: args})
}

func (b *builder) meta(pid, tid int, kind, name string) {
	b.f.TraceEvents = append(b.f.TraceEvents, Event{Name: kind, Ph: "M", Pid: pid, Tid: tid,
		Args: map[string]any{"name": name}})
}

// requestArgs are the details of l's span.
func requestArgs(l *lifelog.Life) map[string]any {
	a := map[string]any{"offset": l.Offset, "bytes": l.Length, "latency_ms": ms(l.Completed - l.Submitted), "kind": l.Kind}
	if l.Host {
		a["id"] = l.ID
	}
	if l.Member >= 0 {
		a["member"] = l.Member
	}
	for i, p := range l.Plans {
		a[fmt.Sprintf("stripe_plan_%d", i)] = fmt.Sprintf("stripe %d: %s, parity on member %d", p.Stripe, p.Method, p.ParityMember)
	}
	if l.Err != "" {
		a["error"] = l.Err
	}
	return a
}

// us converts virtual ns to microseconds.
func us(t sim.Time) float64 { return float64(t) / 1e3 }

func ms(t sim.Time) float64 { return float64(t) / 1e6 }

func round1(x float64) float64 { return float64(int64(x*10+0.5)) / 10 }

// size writes n bytes briefly: "4KiB", "1MiB", "1536B".
func size(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%dMiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%dKiB", n>>10)
	}
	return fmt.Sprintf("%dB", n)
}
