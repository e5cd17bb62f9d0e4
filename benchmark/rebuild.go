package benchmark

import (
	"errors"
	"time"

	"github.com/raidsim/raidsim"
	"github.com/raidsim/raidsim/sim"
	"github.com/raidsim/raidsim/spec"
)

// RebuildSample is a rebuild's progress under a foreground load over a
// window of virtual time (RebuildUnderLoad).
type RebuildSample struct {
	// Bytes is what the rebuild wrote to the spare in Elapsed, and Total
	// the member bytes it must write in all.
	Bytes, Total int64
	Elapsed      time.Duration
	// Done reports that the rebuild finished inside the window.
	Done bool
	// Foreground is the load's report over the window.
	Foreground raidsim.PhaseReport
}

// Estimate is the whole rebuild's time at the window's rate: Elapsed
// itself when Done. The rebuild starts at the members' outer (fastest)
// zone, so on a drive whose rate falls towards the inner zones the
// estimate is optimistic by up to the outer/inner rate ratio.
func (s RebuildSample) Estimate() time.Duration {
	if s.Done || s.Bytes <= 0 {
		return s.Elapsed
	}
	return time.Duration(float64(s.Elapsed) * float64(s.Total) / float64(s.Bytes))
}

// RebuildUnderLoad runs x, whose stack plans a failure and a rebuild
// (stack.failures, stack.rebuild), with its first phase as the
// foreground load, for window of virtual time after the rebuild starts
// (the phase is cut at the window with its runtime), and reports the
// rebuild's progress. A whole rebuild of a large drive takes hours of
// virtual time; a window of minutes measures its rate under the load.
func RebuildUnderLoad(x *spec.Experiment, window time.Duration) (*RebuildSample, error) {
	pl, err := x.Plan()
	if err != nil {
		return nil, err
	}
	if pl.Rebuild == nil || len(pl.Phases) == 0 || window <= 0 {
		return nil, errors.New("benchmark: RebuildUnderLoad needs a planned rebuild, a phase and a positive window")
	}
	ph := pl.Phases[0]
	ph.Runtime = pl.Rebuild.At + window
	eng := sim.NewEngine(pl.Seed)
	s, err := raidsim.Build(eng, pl, "", nil)
	if err != nil {
		return nil, err
	}
	rep, err := raidsim.RunPhase(eng, s, pl, &ph)
	if err != nil {
		return nil, err
	}
	if err := s.RebuildErr(); err != nil {
		return nil, err
	}
	rb := s.RebuildStats()
	return &RebuildSample{Bytes: rb.Bytes, Total: rb.Total, Elapsed: rb.Duration, Done: rb.Done, Foreground: *rep}, nil
}
