package raidsim

import (
	"errors"
	"fmt"

	"github.com/raidsim/raidsim/sim"
	"github.com/raidsim/raidsim/spec"
	"github.com/raidsim/raidsim/trace"
)

// Generate writes the synthetic workload of x's first phase, record by
// record, to w, and returns how many it wrote. The records are exactly
// those Run replays for the same x, so replaying the written trace in
// closed loop at the job's iodepth reproduces the first phase's report.
// No device is built: the stack's capacity comes from its plan.
func Generate(x *spec.Experiment, w trace.Writer) (int64, error) {
	pl, err := x.Plan()
	if err != nil {
		return 0, err
	}
	ph := &pl.Phases[0]
	if ph.Trace != nil {
		return 0, errors.New("raidsim: generate: the first phase replays a trace; give a synthetic job")
	}
	eng := sim.NewEngine(pl.Seed)
	src, err := trace.NewSynthetic(ph.Workload, eng.Rand(ph.Stream), pl.Capacity, pl.SectorSize)
	if err != nil {
		return 0, err
	}
	n, err := trace.Copy(w, src)
	if err != nil {
		return n, fmt.Errorf("raidsim: generate: %w", err)
	}
	return n, nil
}
