package raidsim

import (
	"errors"
	"fmt"

	"github.com/raidsim/raidsim/sim"
	"github.com/raidsim/raidsim/spec"
	"github.com/raidsim/raidsim/trace"
)

// Generate writes the synthetic workload of x's first phase, record by
// record, to w, and returns how many it wrote. The records are those
// Run issues for the same x, in the order Run reads them, each stamped
// with the time its job issues it on an infinitely fast stack: zero for
// a closed-loop job, its rate's schedule for a rated one (rate,
// rate_iops, Poisson gaps drawn from the same random stream as Run's),
// think-time stalls included. So replaying the trace reproduces Run's
// report byte for byte but for the line naming the source: for a
// closed-loop job, in closed loop at the job's iodepth; for a rated job
// in io_submit_mode=offload that never fills its iodepth, in open loop
// at the recorded times. A phase of several jobs writes them all,
// interleaved as issued. No device is built: the stack's capacity comes
// from its plan.
func Generate(x *spec.Experiment, w trace.Writer) (int64, error) {
	pl, err := x.Plan()
	if err != nil {
		return 0, err
	}
	ph := &pl.Phases[0]
	if ph.Trace != nil {
		return 0, errors.New("raidsim: generate: the first phase replays a trace; give a synthetic job")
	}
	for _, wl := range append([]trace.Workload{ph.Workload}, jobWorkloads(ph)...) {
		if wl.NumIOs >= 1<<32 && len(ph.Jobs) > 0 {
			return 0, errors.New("raidsim: generate: a job runs until its runtime (time_based): give it ios to write")
		}
	}
	gen := *pl
	gen.DropFlushes = false // the trace keeps the flushes; a replay drops them as the run does
	eng := sim.NewEngine(pl.Seed)
	dev := &genDevice{eng: eng, w: w, capacity: pl.Capacity, sectorSize: pl.SectorSize}
	r := &runner{eng: eng, stack: &Stack{Top: dev}, plan: &gen}
	jr, err := r.newJobRun(ph, &phaseRun{r: r})
	if err != nil {
		return 0, err
	}
	_, _, err = trace.RunJobs(eng, dev, jr.jobs, trace.JobsOptions{Deadline: ph.Runtime,
		OnComplete: func(int, *trace.Record, *sim.Request) {}})
	if err == nil {
		err = dev.err
	}
	if err != nil {
		return dev.n, fmt.Errorf("raidsim: generate: %w", err)
	}
	return dev.n, nil
}

// jobWorkloads are the workloads of a phase's concurrent jobs.
func jobWorkloads(ph *spec.PhasePlan) []trace.Workload {
	out := make([]trace.Workload, len(ph.Jobs))
	for i, j := range ph.Jobs {
		out[i] = j.Workload
	}
	return out
}

// genDevice is an infinitely fast device that writes every request it
// is given as a trace record stamped with the time it was submitted,
// and completes it at that same instant (from the event loop).
type genDevice struct {
	eng        *sim.Engine
	w          trace.Writer
	capacity   int64
	sectorSize int
	n          int64
	err        error
}

func (d *genDevice) Capacity() int64 { return d.capacity }
func (d *genDevice) SectorSize() int { return d.sectorSize }

// Submit writes r and completes it now.
func (d *genDevice) Submit(r *sim.Request) error {
	if err := sim.CheckRequest(r, d.capacity, d.sectorSize); err != nil {
		return err
	}
	if d.err == nil {
		d.err = d.w.Write(trace.Record{Time: d.eng.Now(), Op: r.Op, Offset: r.Offset, Length: r.Length, FUA: r.FUA})
		d.n++
	}
	r.Issued = d.eng.Now()
	d.eng.Schedule(d.eng.Now(), d, r)
	return nil
}

// HandleEvent completes a request.
func (d *genDevice) HandleEvent(now sim.Time, arg any) {
	r := arg.(*sim.Request)
	r.Completed = now
	r.Done(r)
}
