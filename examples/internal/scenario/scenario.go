// Package scenario holds what the scenario examples share: a storage
// stack built from a preset name (drives, optional RAID, optional volume
// cache) on an engine that several stacks may share, single-threaded
// request streams that run concurrently (a copy's reader and writer, an
// installer), and a closed-loop replay of a synthetic workload.
package scenario

import (
	"fmt"

	"github.com/raidsim/raidsim"
	"github.com/raidsim/raidsim/cache"
	"github.com/raidsim/raidsim/disk"
	"github.com/raidsim/raidsim/metrics"
	"github.com/raidsim/raidsim/raid"
	"github.com/raidsim/raidsim/sim"
	"github.com/raidsim/raidsim/trace"
)

// StackSpec describes a storage stack: drives of one preset, striped
// into RAID when RAID is set, with a volume write-back cache on top when
// Cache is set.
type StackSpec struct {
	// Preset is the drive preset (disk.PresetNames).
	Preset string
	// Disks is the number of drives; zero means one.
	Disks int
	// RAID, when set, makes an array of the drives.
	RAID *raid.Config
	// Cache, when set, puts a volume cache on top.
	Cache *cache.Config
}

// Stack is a built StackSpec on one engine.
type Stack = raidsim.Stack

// Build makes the stack's devices on eng. name prefixes the device
// names, so two stacks can share an engine.
func (s StackSpec) Build(eng *sim.Engine, name string) (*Stack, error) {
	p, err := disk.Preset(s.Preset)
	if err != nil {
		return nil, err
	}
	x := raidsim.Experiment{Drive: p, Disks: s.Disks, RAID: s.RAID, Cache: s.Cache}
	return x.BuildStack(eng, name)
}

// IOReq is one request a stream issues next.
type IOReq struct {
	// Dev is the device the request goes to.
	Dev sim.Device
	// Op, Off and N are the operation, offset and length in bytes.
	Op     sim.Op
	Off, N int64
	// Wait means nothing to issue yet: the stream idles until poked.
	Wait bool
	// Done means the stream has no more requests.
	Done bool
	// Segment is the caller's label, passed back to OnDone.
	Segment int
}

// Stream issues requests one at a time (queue depth 1), each when the one
// before completes, as a single-threaded program does. Several streams on
// one engine run concurrently.
type Stream struct {
	eng    *sim.Engine
	next   func() IOReq
	OnDone func(r *sim.Request, seg int) // optional, after each completion
	req    sim.Request
	seg    int
	busy   bool
	over   bool
	// End is when the stream ran out of requests.
	End sim.Time
	// Err is the first error a request met; the stream stops there.
	Err error
}

// NewStream returns a stream on eng that asks next for each request.
func NewStream(eng *sim.Engine, next func() IOReq) *Stream {
	s := &Stream{eng: eng, next: next}
	s.req.Done = s.complete
	return s
}

// Poke issues the next request if the stream is idle.
func (s *Stream) Poke() {
	if s.busy || s.over || s.Err != nil {
		return
	}
	x := s.next()
	switch {
	case x.Done:
		s.over, s.End = true, s.eng.Now()
		return
	case x.Wait:
		return
	}
	s.req.Op, s.req.Offset, s.req.Length = x.Op, x.Off, x.N
	s.req.Err, s.seg = nil, x.Segment
	if err := x.Dev.Submit(&s.req); err != nil {
		s.Err = err
		return
	}
	s.busy = true
}

func (s *Stream) complete(r *sim.Request) {
	s.busy = false
	if r.Err != nil && s.Err == nil {
		s.Err = r.Err
	}
	if s.OnDone != nil {
		s.OnDone(r, s.seg)
	}
	s.Poke()
}

// RunStreams starts every stream and runs the engine until all are over.
func RunStreams(eng *sim.Engine, ss ...*Stream) error {
	for _, s := range ss {
		s.Poke()
	}
	for {
		all := true
		for _, s := range ss {
			if s.Err != nil {
				return s.Err
			}
			all = all && s.over
		}
		if all {
			return nil
		}
		if !eng.Step() {
			return fmt.Errorf("streams stalled at %v", eng.Now())
		}
	}
}

// workloadStream is the engine's random stream name synthetic workloads
// draw from (the root package's Experiment uses the same name).
const workloadStream = "workload"

// RunWorkload replays a synthetic fio-style workload in closed loop at
// its iodepth on a fresh stack and summarizes the completions.
func RunWorkload(s StackSpec, w trace.Workload, seed uint64) (metrics.Summary, error) {
	eng := sim.NewEngine(seed)
	st, err := s.Build(eng, "")
	if err != nil {
		return metrics.Summary{}, err
	}
	return ReplayOn(eng, st.Top, w)
}

// ReplayOn replays w on dev, already built on eng.
func ReplayOn(eng *sim.Engine, dev sim.Device, w trace.Workload) (metrics.Summary, error) {
	return ReplayOnAfter(eng, dev, w, 0)
}

// RunWorkloadAfter is RunWorkload measured after a ramp-up: the first
// ramp completions are not counted, and the rate is taken from the
// ramp-th completion on, as IOMeter's ramp-up time leaves a cache's
// filling out of its figures.
func RunWorkloadAfter(s StackSpec, w trace.Workload, seed uint64, ramp int64) (metrics.Summary, error) {
	eng := sim.NewEngine(seed)
	st, err := s.Build(eng, "")
	if err != nil {
		return metrics.Summary{}, err
	}
	return ReplayOnAfter(eng, st.Top, w, ramp)
}

// ReplayOnAfter is ReplayOn measured after the first ramp completions.
func ReplayOnAfter(eng *sim.Engine, dev sim.Device, w trace.Workload, ramp int64) (metrics.Summary, error) {
	w = w.WithDefaults()
	if ramp < 0 || (w.NumIOs > 0 && ramp >= w.NumIOs) {
		return metrics.Summary{}, fmt.Errorf("scenario: ramp-up of %d requests leaves none of %d to measure", ramp, w.NumIOs)
	}
	src, err := trace.NewSynthetic(w, eng.Rand(workloadStream), dev.Capacity(), dev.SectorSize())
	if err != nil {
		return metrics.Summary{}, err
	}
	var rec metrics.Recorder
	var done int64
	t0 := eng.Now()
	res, err := trace.Replay(eng, dev, src, trace.ReplayOptions{
		Mode: trace.ClosedLoop, IODepth: w.IODepth,
		OnComplete: func(_ *trace.Record, r *sim.Request) {
			done++
			if done <= ramp {
				t0 = r.Completed
				return
			}
			rec.Observe(r)
		},
	})
	if err != nil {
		return metrics.Summary{}, err
	}
	if ramp == 0 {
		return rec.Summarize(res.Elapsed()), nil
	}
	return rec.Summarize(res.LastCompletion.Sub(t0)), nil
}
