package raidsim

import (
	"fmt"
	"io"
	"time"

	"github.com/raidsim/raidsim/metrics"
	"github.com/raidsim/raidsim/sim"
	"github.com/raidsim/raidsim/spec"
	"github.com/raidsim/raidsim/trace"
)

// TraceReport describes a replayed trace, with the latency the trace
// itself recorded beside the simulated one when the format carries it.
type TraceReport struct {
	// Path is the file replayed.
	Path string `json:"path"`
	// Format is the format read (the sniffed one under "auto").
	Format string `json:"format"`
	// Mode is "open" (recorded times) or "closed" (fixed iodepth) loop.
	Mode string `json:"mode"`
	// Records is the number of requests issued.
	Records int64 `json:"records"`
	// Skipped counts records dropped by the reader or filters (other
	// devices, lines of other event types).
	Skipped int64 `json:"skipped"`
	// Measured summarizes the response times recorded in the trace for
	// the records replayed, when the format has them.
	Measured *metrics.LatencySummary `json:"measured_latency_ms,omitempty"`
	// ReorderWindow is the time window the records were sorted within
	// before replay (spec reorder_window, or the format's default), in
	// seconds; 0 when they were replayed as read.
	ReorderWindowS float64 `json:"reorder_window_s,omitempty"`
	// ReorderRecords is the record-count window they were sorted
	// within instead (spec reorder); 0 when none.
	ReorderRecords int `json:"reorder_records,omitempty"`
	// Reordered counts the records the reorder moved: each read after a
	// record with a later time. Present whenever a window was applied.
	Reordered *int64 `json:"reordered,omitempty"`
	// MaxLateS is the most any of them was late, in seconds: the latest
	// time read before it less its own.
	MaxLateS float64 `json:"max_late_s,omitempty"`
	// Map is how offsets past the stack were mapped onto it (wrap or
	// scale; absent: refused), and Mapped how many records moved.
	Map    string `json:"map,omitempty"`
	Mapped int64  `json:"mapped,omitempty"`
	// MapDefault reports that Map is the format's default
	// (trace.DefaultMapMode), not the experiment's choice.
	MapDefault bool `json:"map_default,omitempty"`
	// Warning, when set, says the open-loop trace outran the stack: more
	// than overloadWarn requests were outstanding at once, so latencies
	// are mostly queueing.
	Warning string `json:"warning,omitempty"`
}

// overloadWarn is the outstanding requests past which an open-loop
// replay is reported as outrunning the stack: a host keeps 32 NCQ tags
// on each of 32 drives.
const overloadWarn = 1024

// openedTrace is a trace opened for replay: its reader with every
// filter, the format read, the file to close and the reorder applied.
type openedTrace struct {
	r       trace.Reader
	format  trace.Format
	closer  io.Closer
	reorder trace.Reordering // nil when the records are replayed as read
	window  time.Duration    // reorder's time window, if by time
	mapped  *trace.MapReader
	mode    trace.MapMode
}

// openTrace opens src's file with its filters, sorted within its
// reorder window and mapped onto a device of capacity bytes and
// sectorSize.
func openTrace(src *spec.TraceSource, capacity int64, sectorSize int) (*openedTrace, error) {
	r, f, c, err := trace.Open(src.Path, src.Format)
	if err != nil {
		return nil, err
	}
	o := &openedTrace{format: f, closer: c}
	if len(src.Devices) > 0 {
		devs := src.Devices
		r = trace.Filter(r, func(rec *trace.Record) bool {
			for _, d := range devs {
				if rec.Device == d {
					return true
				}
			}
			return false
		})
	}
	if r, err = o.sort(r, src); err != nil {
		c.Close()
		return nil, err
	}
	o.mode = src.Map
	if !src.MapGiven {
		o.mode = trace.DefaultMapMode(f)
	}
	o.mapped, err = trace.MapOffsets(r, trace.OffsetMap{Mode: o.mode, Capacity: capacity, SectorSize: sectorSize, SourceCapacity: src.SourceCapacity})
	if err != nil {
		c.Close()
		return nil, err
	}
	o.r = o.mapped
	return o, nil
}

// sort wraps r in the reorder src asks for: a window of records
// (reorder), of time (reorder_window, or in open loop the format's
// default unless strict_order), or none. A closed loop ignores times,
// so it keeps the file's order unless a window is given.
func (o *openedTrace) sort(r trace.Reader, src *spec.TraceSource) (trace.Reader, error) {
	if src.Reorder > 0 {
		rr, err := trace.Reorder(r, src.Reorder)
		o.reorder = rr
		return rr, err
	}
	o.window = src.ReorderWindow
	if o.window == 0 && !src.StrictOrder && src.IODepth == 0 {
		o.window = trace.DefaultReorderWindow(o.format)
	}
	if o.window == 0 {
		return r, nil
	}
	rr, err := trace.ReorderWithin(r, o.window)
	o.reorder = rr
	return rr, err
}

// describe adds the mapping and the reorder to a trace report.
func (o *openedTrace) describe(tr *TraceReport, src *spec.TraceSource) {
	if o.mode != trace.MapReject {
		tr.Map, tr.Mapped, tr.MapDefault = o.mode.String(), o.mapped.Moved(), !src.MapGiven
	}
	if o.reorder == nil {
		return
	}
	st := o.reorder.Stats()
	tr.Reordered, tr.MaxLateS = &st.Late, st.MaxLate.Seconds()
	if src.Reorder > 0 {
		tr.ReorderRecords = src.Reorder
	} else {
		tr.ReorderWindowS = o.window.Seconds()
	}
}

// replayTrace replays src on dev, counting every completion into pr.
func replayTrace(eng *sim.Engine, dev sim.Device, src *spec.TraceSource, obs *sim.Observer, pr *phaseRun) (trace.ReplayResult, *TraceReport, error) {
	o, err := openTrace(src, dev.Capacity(), dev.SectorSize())
	if err != nil {
		return trace.ReplayResult{}, nil, err
	}
	skips := o.r
	r := pr.dropFlushes(o.r)
	defer o.closer.Close()
	opt := trace.ReplayOptions{Mode: trace.OpenLoop, Speed: src.Speed, Observer: obs}
	if src.IODepth > 0 {
		opt = trace.ReplayOptions{Mode: trace.ClosedLoop, IODepth: src.IODepth, Observer: obs}
	}
	var measured metrics.OpStats
	opt.OnComplete = func(rec *trace.Record, q *sim.Request) {
		if rec.Measured > 0 && q.Err == nil {
			measured.Add(q.Length, rec.Measured)
		}
		pr.observe(rec, q)
	}
	res, err := trace.Replay(eng, dev, r, opt)
	tr := &TraceReport{Path: src.Path, Format: string(o.format), Mode: opt.Mode.String(), Records: res.Issued, Skipped: trace.Skipped(skips)}
	o.describe(tr, src)
	if res.PeakOutstanding > overloadWarn {
		tr.Warning = fmt.Sprintf("the trace outran the stack: up to %d requests were outstanding at once (latencies are mostly queueing; replay slower with speed)", res.PeakOutstanding)
	}
	if measured.IOs() > 0 {
		l := measured.Summarize(time.Second).LatencyMS
		tr.Measured = &l
	}
	return res, tr, err
}
