package raidsim

import (
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/raidsim/raidsim/metrics"
	"github.com/raidsim/raidsim/sim"
	"github.com/raidsim/raidsim/trace"
)

// TraceSource replays a block I/O trace file instead of a synthetic
// workload.
type TraceSource struct {
	// Path is the trace file; .gz and .bz2 files are decompressed on the
	// fly.
	Path string
	// Format is a trace.Formats() name, or "" / "auto" to sniff it from
	// the first lines.
	Format string
	// Devices keeps only the records of these device (volume, disk)
	// numbers; empty keeps every record.
	Devices []int
	// IODepth, when positive, replays in closed loop: that many requests
	// outstanding, ignoring the trace's timestamps. Zero replays in open
	// loop at the recorded times.
	IODepth int
	// Speed divides the recorded inter-arrival times in open loop (2
	// replays twice as fast); zero means 1.
	Speed float64
	// Map says what to do with offsets past the stack's capacity:
	// trace.MapReject (stop with an error naming the record), MapWrap or
	// MapScale (which needs SourceCapacity).
	Map trace.MapMode
	// SourceCapacity is the traced device's size in bytes, for MapScale.
	SourceCapacity int64
	// Reorder, when positive, sorts records by time within a window of
	// that many records, for traces that are not time-sorted (Tencent,
	// SYSTOR'17); a record out of order by more is an error.
	Reorder int
}

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
}

// openTrace opens src's file with its filters, mapped onto a device of
// capacity bytes and sectorSize.
func openTrace(src *TraceSource, capacity int64, sectorSize int) (trace.Reader, trace.Format, io.Closer, error) {
	if src.Path == "" {
		return nil, "", nil, errors.New("raidsim: Trace.Path: no trace file given")
	}
	if src.IODepth < 0 || src.IODepth > trace.MaxIODepth {
		return nil, "", nil, fmt.Errorf("raidsim: Trace.IODepth: %d is outside 0..%d", src.IODepth, trace.MaxIODepth)
	}
	if src.Speed < 0 {
		return nil, "", nil, fmt.Errorf("raidsim: Trace.Speed: %g is negative", src.Speed)
	}
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

// replayTrace replays src on dev, passing every completion to obs. drop,
// when set, wraps the reader (the host dropping flushes).
func replayTrace(eng *sim.Engine, dev sim.Device, src *TraceSource, o *sim.Observer, drop func(trace.Reader) trace.Reader, obs func(*trace.Record, *sim.Request)) (trace.ReplayResult, *TraceReport, error) {
	r, f, c, err := openTrace(src, dev.Capacity(), dev.SectorSize())
	if err != nil {
		return trace.ReplayResult{}, nil, err
	}
	skips := r
	if drop != nil {
		r = drop(r)
	}
	defer c.Close()
	opt := trace.ReplayOptions{Mode: trace.OpenLoop, Speed: src.Speed, Observer: o}
	if opt.Speed == 0 {
		opt.Speed = 1
	}
	if src.IODepth > 0 {
		opt = trace.ReplayOptions{Mode: trace.ClosedLoop, IODepth: src.IODepth, Observer: o}
	}
	var measured metrics.OpStats
	opt.OnComplete = func(rec *trace.Record, q *sim.Request) {
		if rec.Measured > 0 && q.Err == nil {
			measured.Add(q.Length, rec.Measured)
		}
		obs(rec, q)
	}
	res, err := trace.Replay(eng, dev, r, opt)
	tr := &TraceReport{Path: src.Path, Format: string(f), Mode: opt.Mode.String(), Records: res.Issued, Skipped: trace.Skipped(skips)}
	if measured.IOs() > 0 {
		l := measured.Summarize(time.Second).LatencyMS
		tr.Measured = &l
	}
	return res, tr, err
}
