package raidsim

import (
	"fmt"
	"time"

	"github.com/raidsim/raidsim/metrics"
	"github.com/raidsim/raidsim/sim"
	"github.com/raidsim/raidsim/spec"
	"github.com/raidsim/raidsim/trace"
)

// jobRun is a synthetic phase's jobs as trace.RunJobs runs them: the
// phase's own job (index 0) and its background jobs, each Beside it, or
// its concurrent jobs (spec.PhasePlan.Jobs), one per clone, each with a
// recorder of its own.
type jobRun struct {
	pr      *phaseRun
	jobs    []trace.Job
	flushes []int64            // flushes completed per job
	rec     []metrics.Recorder // per concurrent job; nil for own-and-background phases
}

// newJobRun makes the generators of ph's jobs.
func (r *runner) newJobRun(ph *spec.PhasePlan, pr *phaseRun) (*jobRun, error) {
	dev := r.stack.Top
	jr := &jobRun{pr: pr}
	add := func(w trace.Workload, stream string) (*trace.Job, error) {
		rng := r.eng.Rand(stream)
		src, err := trace.NewSynthetic(w, rng, dev.Capacity(), dev.SectorSize())
		if err != nil {
			return nil, err
		}
		w = src.Workload()
		lo := w.BS
		if len(w.BSSplit) > 0 {
			lo = w.BSSplit[0].Size
			for _, e := range w.BSSplit {
				lo = min(lo, e.Size)
			}
		}
		j := trace.Job{Source: pr.dropFlushes(src), IODepth: w.IODepth, Pacing: w.Pacing, MinBlock: lo,
			Split: len(w.BSSplit) > 0, Mixed: w.RW.Mixed() && w.RWMixRead > 0 && w.RWMixRead < 100}
		if w.Pacing.Poisson {
			j.Rand = r.eng.Rand(stream + "/rate")
		}
		jr.jobs = append(jr.jobs, j)
		return &jr.jobs[len(jr.jobs)-1], nil
	}
	if len(ph.Jobs) == 0 {
		if _, err := add(ph.Workload, ph.Stream); err != nil {
			return nil, err
		}
		for j, bw := range ph.Background {
			b, err := add(bw, fmt.Sprintf("%s/bg%d", ph.Stream, j))
			if err != nil {
				return nil, err
			}
			b.Beside = true
		}
	} else {
		for i := range ph.Jobs {
			jp := &ph.Jobs[i]
			j, err := add(jp.Workload, jp.Stream)
			if err != nil {
				return nil, err
			}
			j.StartDelay, j.Runtime = jp.StartDelay, jp.Runtime
			if jp.WaitFor >= 0 {
				for k := range i {
					if ph.Jobs[k].Entry == jp.WaitFor {
						j.After = append(j.After, k)
					}
				}
			}
		}
		jr.rec = make([]metrics.Recorder, len(ph.Jobs))
	}
	jr.flushes = make([]int64, len(jr.jobs))
	return jr, nil
}

// observe counts a completion into the phase and its job.
func (jr *jobRun) observe(job int, rec *trace.Record, q *sim.Request) {
	if q.Op == sim.Flush {
		jr.flushes[job]++
	}
	if jr.pr.observe(rec, q) && jr.rec != nil {
		jr.rec[job].Observe(q)
	}
}

// describe notes in rep what the jobs issued: the phase's own workload
// and background jobs, or each concurrent job (or reporting group).
func (jr *jobRun) describe(ph *spec.PhasePlan, per []trace.JobResult, rep *PhaseReport, seed uint64, first sim.Time) {
	ios := func(j int) int64 { return per[j].Issued - jr.flushes[j] } // reads and writes
	if len(ph.Jobs) == 0 {
		rep.Workload = workloadInfo(ph.Workload, ios(0), seed)
		for j, bw := range ph.Background {
			rep.Background = append(rep.Background, workloadInfo(bw, ios(j+1), seed))
		}
		return
	}
	start := first
	for _, p := range per {
		if p.Started && p.Start < start {
			start = p.Start
		}
	}
	for i := 0; i < len(ph.Jobs); {
		n := 1 // jobs reported together: a run of one group's group_reporting jobs
		for jp := &ph.Jobs[i]; jp.GroupReporting && i+n < len(ph.Jobs) &&
			ph.Jobs[i+n].GroupReporting && ph.Jobs[i+n].Group == jp.Group; n++ {
		}
		rep.Jobs = append(rep.Jobs, jr.report(ph, per, i, n, seed, start, ios))
		i += n
	}
}

// report is jobs i..i+n-1 of ph as one JobReport.
func (jr *jobRun) report(ph *spec.PhasePlan, per []trace.JobResult, i, n int, seed uint64, phaseStart sim.Time,
	ios func(int) int64) JobReport {
	jp := &ph.Jobs[i]
	out := JobReport{Name: jp.Name, Group: jp.Group, Jobs: n, Latency: &metrics.Recorder{}}
	var begin, end sim.Time
	var spin time.Duration
	var issued int64
	started := false
	for k := i; k < i+n; k++ {
		p := per[k]
		out.Latency.Merge(&jr.rec[k])
		issued += ios(k)
		spin += p.Spin
		for b, c := range p.Depth {
			out.IODepths[b] += c
		}
		out.FailedRequests += p.Failed
		out.RuntimeReached = out.RuntimeReached || p.RuntimeReached
		if !p.Started {
			continue
		}
		if !started || p.Start < begin {
			begin = p.Start
		}
		end = max(end, p.End)
		started = true
	}
	if !started {
		begin, end = phaseStart, phaseStart
	}
	out.Summary = out.Latency.Summarize(end.Sub(begin))
	out.StartS = begin.Sub(phaseStart).Seconds()
	out.SpinS = spin.Seconds()
	out.Workload = workloadInfo(jp.Workload, issued, seed)
	return out
}
