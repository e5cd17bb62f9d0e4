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
	// Warning, when set, says the open-loop trace outran the stack: more
	// than overloadWarn requests were outstanding at once, so latencies
	// are mostly queueing.
	Warning string `json:"warning,omitempty"`
}

// overloadWarn is the outstanding requests past which an open-loop
// replay is reported as outrunning the stack: a host keeps 32 NCQ tags
// on each of 32 drives.
const overloadWarn = 1024

// openTrace opens src's file with its filters, mapped onto a device of
// capacity bytes and sectorSize.
func openTrace(src *spec.TraceSource, capacity int64, sectorSize int) (trace.Reader, trace.Format, io.Closer, error) {
	r, f, c, err := trace.Open(src.Path, src.Format)
	if err != nil {
		return nil, "", nil, err
	}
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
	if src.Reorder > 0 {
		if r, err = trace.Reorder(r, src.Reorder); err != nil {
			c.Close()
			return nil, "", nil, err
		}
	}
	r, err = trace.MapOffsets(r, trace.OffsetMap{Mode: src.Map, Capacity: capacity, SectorSize: sectorSize, SourceCapacity: src.SourceCapacity})
	if err != nil {
		c.Close()
		return nil, "", nil, err
	}
	return r, f, c, nil
}

// replayTrace replays src on dev, counting every completion into pr.
func replayTrace(eng *sim.Engine, dev sim.Device, src *spec.TraceSource, o *sim.Observer, pr *phaseRun) (trace.ReplayResult, *TraceReport, error) {
	r, f, c, err := openTrace(src, dev.Capacity(), dev.SectorSize())
	if err != nil {
		return trace.ReplayResult{}, nil, err
	}
	skips := r
	r = pr.dropFlushes(r)
	defer c.Close()
	opt := trace.ReplayOptions{Mode: trace.OpenLoop, Speed: src.Speed, Observer: o}
	if src.IODepth > 0 {
		opt = trace.ReplayOptions{Mode: trace.ClosedLoop, IODepth: src.IODepth, Observer: o}
	}
	var measured metrics.OpStats
	opt.OnComplete = func(rec *trace.Record, q *sim.Request) {
		if rec.Measured > 0 && q.Err == nil {
			measured.Add(q.Length, rec.Measured)
		}
		pr.observe(rec, q)
	}
	res, err := trace.Replay(eng, dev, r, opt)
	tr := &TraceReport{Path: src.Path, Format: string(f), Mode: opt.Mode.String(), Records: res.Issued, Skipped: trace.Skipped(skips)}
	if res.PeakOutstanding > overloadWarn {
		tr.Warning = fmt.Sprintf("the trace outran the stack: up to %d requests were outstanding at once (latencies are mostly queueing; replay slower with speed)", res.PeakOutstanding)
	}
	if measured.IOs() > 0 {
		l := measured.Summarize(time.Second).LatencyMS
		tr.Measured = &l
	}
	return res, tr, err
}
