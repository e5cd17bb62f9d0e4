package raidsim

import (
	"cmp"
	"errors"
	"fmt"
	"time"

	"github.com/raidsim/raidsim/metrics"
	"github.com/raidsim/raidsim/sim"
	"github.com/raidsim/raidsim/spec"
	"github.com/raidsim/raidsim/trace"
)

// RunOptions is what a run takes beside its description.
type RunOptions struct {
	// Observer, when set, receives every layer's hooks (the phases of
	// every request) for timelines and logs.
	Observer *sim.Observer
	// MaxMemory bounds the run's memory in bytes: a plan whose
	// EstimateMemory passes it is refused before anything is built, and
	// a run whose heap passes it stops; both errors wrap ErrMemory and
	// name the estimate or the heap, and what reduces it. Zero takes
	// MemoryLimit (GOMEMLIMIT, else the machine's memory); negative
	// turns both checks off.
	MaxMemory int64
	// CheckContents gives every host write real bytes and, at the
	// plan's power loss, compares the array's members with them
	// (PowerLossReport.Contents): lost and torn writes, wrong ranges,
	// inconsistent stripes. It needs a power loss, an array with
	// redundancy, drives that write through, synthetic writes of at most
	// 256 MiB, and no host, faults or failures.
	CheckContents bool
	// Progress, when set, is called on the run's goroutine about every
	// 65,536 events (a few times a second) with how far the run is; an
	// error from it stops the run with that error.
	Progress func(Progress) error
}

// Progress is how far a run is, for a progress line.
type Progress struct {
	// Phase is the phase running, from 0, of Phases; PhaseName its name.
	Phase, Phases int
	PhaseName     string
	// Completed counts the requests completed so far, every phase
	// together; Planned is the requests the run's phases plan, or 0 when
	// a phase's count is not known before it runs (a trace, a runtime).
	Completed, Planned int64
	// Now is the virtual time from the start.
	Now time.Duration
}

// pollEvery is how many events a run's poll waits between calls.
const pollEvery = 1 << 16

// Run checks x, builds its stack once and runs its phases in order on
// it (one engine, the same devices: caches keep their contents between
// phases), and reports each phase and the whole. Every problem with x is
// reported at once, with its key path. Requests that fail in service (a
// RAID 5 array that lost two members) do not stop the run: the report
// counts them and keeps the first error. The same x gives a
// byte-identical report.
func Run(x *spec.Experiment) (*Report, error) { return RunWith(x, RunOptions{}) }

// RunWith is Run with options.
func RunWith(x *spec.Experiment, o RunOptions) (*Report, error) {
	pl, err := x.Plan()
	if err != nil {
		return nil, err
	}
	return RunPlan(pl, o)
}

// RunPlan runs a plan from spec.Experiment.Plan.
func RunPlan(pl *spec.Plan, o RunOptions) (*Report, error) {
	limit, source := o.MaxMemory, "as asked"
	if limit == 0 {
		limit, source = MemoryLimit()
	}
	if limit > 0 {
		if err := checkMemory(pl, limit, source); err != nil {
			return nil, err
		}
	}
	if o.CheckContents {
		if err := checkContentsPlan(pl); err != nil {
			return nil, err
		}
	}
	eng := sim.NewEngine(pl.Seed)
	s, err := Build(eng, pl, "", o.Observer)
	if err != nil {
		return nil, err
	}
	var contents *contentsCheck
	if o.CheckContents {
		if contents, err = newContentsCheck(eng, s); err != nil {
			return nil, err
		}
	}
	r := &runner{eng: eng, stack: s, plan: pl, obs: o.Observer}
	r.poll(o, limit, source)
	r.warm.start(pl)
	powerLoss := schedulePowerLoss(eng, s, pl.PowerLoss, pl.PowerLossAt, contents)
	rep := &Report{SchemaVersion: SchemaVersion, Name: pl.Name, Seed: pl.Seed}
	for i := range pl.Phases {
		r.phase = i
		ph, err := r.runPhase(&pl.Phases[i])
		if err != nil {
			if len(pl.Phases) > 1 {
				return nil, fmt.Errorf("raidsim: phase %q: %w", pl.Phases[i].Name, err)
			}
			return nil, fmt.Errorf("raidsim: %w", err)
		}
		rep.Phases = append(rep.Phases, *ph)
	}
	rebuild := r.finishRebuild()
	if err := eng.Err(); err != nil {
		return nil, fmt.Errorf("raidsim: %w", err)
	}
	if r.warm.ended {
		r.first = r.warm.end // the total's rates start after the warm-up
	}
	rep.Total = r.totalReport(rep.Phases)
	rep.Warmup = r.warm.report(r.first)
	rep.addStack(s)
	rep.addFaults(s)
	rep.PowerLoss = powerLoss()
	if err := eng.Err(); err != nil {
		return nil, fmt.Errorf("raidsim: %w", err)
	}
	if rebuild != nil {
		if err := healthyBaseline(pl, rep, rebuild); err != nil {
			return nil, err
		}
		rep.RAID.Rebuild = rebuild
	}
	return rep, nil
}

// RunPhase runs phase ph of pl on s (built from pl on eng by Build) as
// Run runs each phase, and reports it. It is for code that drives a
// built stack itself, phase by phase (package benchmark measures a
// rebuild over a window of a phase): it takes no power-loss snapshot,
// does not wait for a planned rebuild to end and runs no healthy
// baseline.
func RunPhase(eng *sim.Engine, s *Stack, pl *spec.Plan, ph *spec.PhasePlan) (*PhaseReport, error) {
	r := &runner{eng: eng, stack: s, plan: pl}
	return r.runPhase(ph)
}

// runner runs the phases of one plan on one stack.
type runner struct {
	eng   *sim.Engine
	stack *Stack
	plan  *spec.Plan
	obs   *sim.Observer
	// total records every measured request of every phase.
	total metrics.Recorder
	// warm leaves the run's warm-up out.
	warm warmup
	// first and last bound the run's requests; started is set once one
	// was issued.
	first, last sim.Time
	started     bool
	// phase is the phase running; completed counts the requests
	// completed in every phase, for Progress.
	phase     int
	completed int64
}

// poll watches the run's heap against limit (when positive) and calls
// o.Progress, every pollEvery events.
func (r *runner) poll(o RunOptions, limit int64, source string) {
	if limit <= 0 && o.Progress == nil {
		return
	}
	planned := PlannedRequests(r.plan)
	r.eng.SetPoll(pollEvery, func() error {
		if limit > 0 {
			if h := heapBytes(); h > limit {
				return fmt.Errorf("%w: its heap reached %s, past the %s limit (%s; --max-memory or GOMEMLIMIT sets it), %v into the run: write less (ios, size), or replay less of the trace",
					ErrMemory, approxBytes(h), approxBytes(limit), source, r.eng.Now())
			}
		}
		if o.Progress == nil {
			return nil
		}
		ph := &r.plan.Phases[min(r.phase, len(r.plan.Phases)-1)]
		return o.Progress(Progress{Phase: r.phase, Phases: len(r.plan.Phases), PhaseName: ph.Name,
			Completed: r.completed, Planned: planned, Now: time.Duration(r.eng.Now())})
	})
}

// PlannedRequests returns the requests pl's phases issue (ios, or one
// pass over the region for ios 0), or 0 when a phase's count is not
// known before it runs (a trace, a runtime).
func PlannedRequests(pl *spec.Plan) int64 {
	var total int64
	count := func(w trace.Workload) bool {
		w = w.WithDefaults()
		if w.NumIOs > 0 {
			total = satAdd(total, w.NumIOs)
			return true
		}
		bs := w.BS
		for _, s := range w.BSSplit {
			bs = min(cmp.Or(bs, s.Size), s.Size)
		}
		if bs <= 0 || w.NumIOs < 0 {
			return false
		}
		total = satAdd(total, cmp.Or(w.Size, pl.Capacity-w.Offset)/bs)
		return true
	}
	for _, ph := range pl.Phases {
		if ph.Trace != nil || ph.Runtime > 0 {
			return 0
		}
		if len(ph.Jobs) == 0 && !count(ph.Workload) {
			return 0
		}
		for _, j := range ph.Jobs {
			if j.Runtime > 0 || !count(j.Workload) {
				return 0
			}
		}
	}
	return total
}

// phaseRun is what one phase's completions are counted into.
type phaseRun struct {
	r        *runner
	rec      metrics.Recorder
	failed   int64
	firstErr error // the Err of the first request that failed
	firstID  uint64
	dropped  int64 // flushes the host dropped
	flushes  int64 // flushes completed, ramp-up included
	ramp     int64 // completions still to leave out
	rampEnd  sim.Time
	warmed   bool // the run's warm-up left some of this phase's completions out
}

// observe counts one completion, and reports whether it entered the
// phase's figures (not left out by a warm-up or ramp, not failed).
func (pr *phaseRun) observe(_ *trace.Record, q *sim.Request) bool {
	pr.r.completed++
	if q.Op == sim.Flush {
		pr.flushes++
	}
	if pr.r.warm.exclude(pr.r.stack, q) {
		pr.rampEnd, pr.warmed = q.Completed, true
		return false
	}
	if pr.ramp > 0 {
		pr.ramp--
		pr.rampEnd = q.Completed
		return false
	}
	if q.Err != nil {
		if pr.failed == 0 {
			pr.firstErr, pr.firstID = q.Err, q.ID
		}
		pr.failed++
		return false
	}
	pr.rec.Observe(q)
	pr.r.total.Observe(q)
	return true
}

// dropFlushes wraps src to discard Flush records, as a host with cache
// flushing turned off does, when the plan asks for it.
func (pr *phaseRun) dropFlushes(src trace.Reader) trace.Reader {
	if !pr.r.plan.DropFlushes {
		return src
	}
	return trace.Filter(src, func(rec *trace.Record) bool {
		if rec.Op == sim.Flush {
			pr.dropped++
			return false
		}
		return true
	})
}

// runPhase runs one phase and reports it.
func (r *runner) runPhase(ph *spec.PhasePlan) (*PhaseReport, error) {
	if ph.StartDelay > 0 {
		r.eng.RunUntil(r.eng.Now().Add(ph.StartDelay))
	}
	pr := &phaseRun{r: r, ramp: ph.RampIOs}
	rep := &PhaseReport{Name: ph.Name}
	hostFrom := r.hostStats()
	var res trace.ReplayResult
	var err error
	if ph.Trace != nil {
		res, rep.Trace, err = replayTrace(r.eng, r.stack.Top, ph.Trace, r.obs, pr)
	} else {
		res, err = r.runSynthetic(ph, pr, rep)
	}
	if stop := r.eng.Err(); stop != nil { // a poll or a time overflow stopped the engine
		return nil, stop
	}
	// Replay returns the first failure too; anything else is fatal.
	if err != nil && (pr.failed == 0 || !errors.Is(err, pr.firstErr)) {
		return nil, err
	}
	elapsed := res.Elapsed()
	if ph.RampIOs > 0 || pr.warmed {
		elapsed = res.LastCompletion.Sub(pr.rampEnd)
	}
	rep.Summary = pr.rec.Summarize(elapsed)
	rep.Host = r.hostSummary(hostFrom)
	rep.Latency = &pr.rec
	rep.FailedRequests, rep.HostFlushesDropped = pr.failed, pr.dropped
	if pr.failed > 0 {
		rep.FirstError = fmt.Sprintf("request %d: %v", pr.firstID, pr.firstErr)
	}
	if res.Issued > 0 {
		if !r.started {
			r.first, r.started = res.FirstIssue, true
		}
		r.last = max(r.last, res.LastCompletion)
	}
	return rep, nil
}

// runSynthetic runs a phase's synthetic jobs at once (trace.RunJobs):
// its own job and its background jobs, or its concurrent jobs, noting
// what they issued in rep.
func (r *runner) runSynthetic(ph *spec.PhasePlan, pr *phaseRun, rep *PhaseReport) (trace.ReplayResult, error) {
	jr, err := r.newJobRun(ph, pr)
	if err != nil {
		return trace.ReplayResult{}, err
	}
	res, per, err := trace.RunJobs(r.eng, r.stack.Top, jr.jobs, trace.JobsOptions{
		Deadline: ph.Runtime, OnComplete: jr.observe, Observer: r.obs})
	for _, p := range per {
		rep.RuntimeReached = rep.RuntimeReached || p.RuntimeReached
	}
	jr.describe(ph, per, rep, r.plan.Seed, res.FirstIssue)
	return res, err
}

// totalReport sums the phases into the whole run's report.
func (r *runner) totalReport(phases []PhaseReport) PhaseReport {
	tot := PhaseReport{Name: "total", Summary: r.total.Summarize(r.last.Sub(r.first)), Latency: &r.total,
		Host: r.hostSummary(nil)}
	for _, ph := range phases {
		tot.HostFlushesDropped += ph.HostFlushesDropped
		if ph.FailedRequests > 0 && tot.FailedRequests == 0 {
			tot.FirstError = ph.FirstError
			if len(phases) > 1 {
				tot.FirstError = fmt.Sprintf("phase %q: %s", ph.Name, ph.FirstError)
			}
		}
		tot.FailedRequests += ph.FailedRequests
	}
	return tot
}
