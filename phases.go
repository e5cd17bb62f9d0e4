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

// phase is one workload run on a stack that earlier phases may have used:
// a synthetic workload, or a trace when trace is set.
type phase struct {
	// name labels the phase's report.
	name string
	// workload is the synthetic workload (when trace is nil).
	workload trace.Workload
	// trace, when set, replays a trace file instead.
	trace *TraceSource
	// delay is idle virtual time before the phase starts, during which
	// caches keep destaging.
	delay time.Duration
	// stream is the engine random stream the synthetic workload draws
	// from.
	stream string
	// runtime, when positive, stops issuing requests that long after the
	// phase starts.
	runtime time.Duration
	// background are workloads run beside workload until it ends, each
	// drawing from stream + "/bgN".
	background []trace.Workload
}

// hostOptions is what the host does to requests before the stack sees
// them.
type hostOptions struct {
	// dropFlushes discards Flush requests at the host, as an operating
	// system with cache flushing turned off does.
	dropFlushes bool
}

// phaseStream returns the random stream name of the i-th phase (from 0):
// the first uses WorkloadStream, so a one-phase config draws exactly the
// requests of the equivalent Experiment.
func phaseStream(i int) string {
	if i == 0 {
		return WorkloadStream
	}
	return fmt.Sprintf("%s/phase%d", WorkloadStream, i)
}

// runPhases builds x's stack on one engine and runs phases on it in
// order, the same devices serving every phase so that caches keep their
// contents from one phase to the next. It returns each phase's report
// (its requests only, no stack statistics) and the whole run's report
// (every request, and the stack's statistics at the end). A one-phase run's
// total also carries the phase's workload or trace description, which
// makes it exactly the report Experiment.Run has always given.
func (x *Experiment) runPhases(phases []phase, host hostOptions) ([]*Report, *Report, error) {
	if x.PowerLossAt < 0 {
		return nil, nil, fmt.Errorf("raidsim: PowerLossAt: %v is negative", x.PowerLossAt)
	}
	eng := sim.NewEngine(x.Seed)
	s, err := x.BuildStack(eng, "")
	if err != nil {
		return nil, nil, err
	}
	dev := s.Top
	powerLoss := schedulePowerLoss(eng, s, x.PowerLossAt)
	var (
		total      metrics.Recorder
		totalFail  int64
		totalFirst string
		first      sim.Time
		last       sim.Time
		started    bool
		reports    = make([]*Report, 0, len(phases))
	)
	for i := range phases {
		ph := &phases[i]
		if ph.delay > 0 {
			eng.RunUntil(eng.Now().Add(ph.delay))
		}
		var (
			rec      metrics.Recorder
			failed   int64
			firstErr error // the Err of the first request that failed
			firstID  uint64
			dropped  int64
		)
		observe := func(_ *trace.Record, r *sim.Request) {
			if r.Err != nil {
				if failed == 0 {
					firstErr, firstID = r.Err, r.ID
				}
				failed++
				return
			}
			rec.Observe(r)
			total.Observe(r)
		}
		var drop func(trace.Reader) trace.Reader
		if host.dropFlushes {
			drop = func(r trace.Reader) trace.Reader {
				return trace.Filter(r, func(rec *trace.Record) bool {
					if rec.Op == sim.Flush {
						dropped++
						return false
					}
					return true
				})
			}
		}
		var (
			res trace.ReplayResult
			tr  *TraceReport
			w   = ph.workload.WithDefaults()
			mix *jobMix
			// runtimeReached: the phase's runtime stopped it
			runtimeReached bool
		)
		if ph.trace != nil {
			res, tr, err = replayTrace(eng, dev, ph.trace, x.Observer, drop, observe)
		} else {
			if err := w.Validate(dev.Capacity(), dev.SectorSize()); err != nil {
				return nil, nil, err
			}
			var src trace.Reader
			if src, err = trace.NewSynthetic(w, eng.Rand(ph.stream), dev.Capacity(), dev.SectorSize()); err != nil {
				return nil, nil, err
			}
			if drop != nil {
				src = drop(src)
			}
			depth, onComplete := w.IODepth, observe
			if len(ph.background) > 0 {
				if mix, err = newJobMix(eng, dev, ph, src, drop); err != nil {
					return nil, nil, err
				}
				src, depth, onComplete = mix, mix.depth(), mix.observe(observe)
			}
			var dl *deadline
			if ph.runtime > 0 {
				dl = &deadline{r: src, eng: eng, end: eng.Now().Add(ph.runtime)}
				src = dl
			}
			res, err = trace.Replay(eng, dev, src, trace.ReplayOptions{
				Mode: trace.ClosedLoop, IODepth: depth, OnComplete: onComplete, Observer: x.Observer})
			runtimeReached = dl != nil && dl.reached
		}
		// Replay returns the first failure too; anything else is fatal.
		if err != nil && (failed == 0 || !errors.Is(err, firstErr)) {
			if len(phases) > 1 {
				return nil, nil, fmt.Errorf("raidsim: phase %q: %w", ph.name, err)
			}
			return nil, nil, fmt.Errorf("raidsim: %w", err)
		}
		rep := &Report{Summary: rec.Summarize(res.Elapsed()), Failed: failed, Trace: tr, HostFlushesDropped: dropped,
			RuntimeReached: runtimeReached}
		if tr == nil {
			rep.Workload = workloadInfo(w, res.Issued-rec.Flush().IOs(), x.Seed) // reads and writes
		}
		if mix != nil {
			rep.Workload.IOs = mix.issued[0]
			for j, bw := range ph.background {
				wi := workloadInfo(bw.WithDefaults(), mix.issued[j+1], x.Seed)
				rep.Background = append(rep.Background, wi)
			}
		}
		if failed > 0 {
			rep.FirstError = fmt.Sprintf("request %d: %v", firstID, firstErr)
			if totalFail == 0 {
				totalFirst = rep.FirstError
				if len(phases) > 1 {
					totalFirst = fmt.Sprintf("phase %q: %s", ph.name, rep.FirstError)
				}
			}
			totalFail += failed
		}
		if res.Issued > 0 {
			if !started {
				first, started = res.FirstIssue, true
			}
			last = max(last, res.LastCompletion)
		}
		reports = append(reports, rep)
	}
	tot := &Report{Summary: total.Summarize(last.Sub(first)), Failed: totalFail, FirstError: totalFirst}
	for _, r := range reports {
		tot.HostFlushesDropped += r.HostFlushesDropped
	}
	if len(reports) == 1 {
		tot.Workload, tot.Trace = reports[0].Workload, reports[0].Trace
	}
	for _, d := range s.Drives {
		tot.Disks = append(tot.Disks, diskReport(d))
	}
	if s.Array != nil {
		tot.RAID = raidReport(s.Array)
	}
	if s.Cache != nil {
		tot.Cache = cacheReport(s.Cache)
	}
	tot.PowerLoss = powerLoss()
	return reports, tot, nil
}

// jobMix runs a phase's workload and its background workloads at once in
// one closed loop: each job owns iodepth slots, and a completed request's
// slot takes the next record of the same job. Records carry their job's
// index in Device. The mix ends when the first job (the phase's own
// workload) ends.
type jobMix struct {
	jobs   []trace.Reader
	depths []int
	filled int     // records handed out while filling the slots
	last   int     // job of the request that completed last
	issued []int64 // reads and writes handed out per job
}

// newJobMix prepares ph's background generators beside main; drop, when
// set, wraps each (the host dropping flushes).
func newJobMix(eng *sim.Engine, dev sim.Device, ph *phase, main trace.Reader, drop func(trace.Reader) trace.Reader) (*jobMix, error) {
	m := &jobMix{jobs: []trace.Reader{main}, depths: []int{ph.workload.WithDefaults().IODepth}}
	for j, bw := range ph.background {
		bw = bw.WithDefaults()
		src, err := trace.NewSynthetic(bw, eng.Rand(fmt.Sprintf("%s/bg%d", ph.stream, j)), dev.Capacity(), dev.SectorSize())
		if err != nil {
			return nil, err
		}
		var r trace.Reader = src
		if drop != nil {
			r = drop(src)
		}
		m.jobs = append(m.jobs, r)
		m.depths = append(m.depths, bw.IODepth)
	}
	m.issued = make([]int64, len(m.jobs))
	return m, nil
}

// depth returns the slots of every job together.
func (m *jobMix) depth() int {
	n := 0
	for _, d := range m.depths {
		n += d
	}
	return min(n, trace.MaxIODepth)
}

// observe wraps a completion callback to note the completed job.
func (m *jobMix) observe(next func(*trace.Record, *sim.Request)) func(*trace.Record, *sim.Request) {
	return func(rec *trace.Record, r *sim.Request) {
		m.last = rec.Device
		next(rec, r)
	}
}

// Next returns the next record of the job whose slot is free.
func (m *jobMix) Next() (trace.Record, error) {
	j := m.last
	if n := m.filled; n < m.depth() {
		m.filled++
		for j = 0; j < len(m.depths)-1 && n >= m.depths[j]; j++ {
			n -= m.depths[j]
		}
	}
	rec, err := m.jobs[j].Next()
	if err != nil {
		return rec, err // the first job's end ends the phase; the others do not end first
	}
	rec.Device = j
	if rec.Op != sim.Flush {
		m.issued[j]++
	}
	return rec, nil
}

// deadline ends a reader once virtual time reaches end.
type deadline struct {
	r       trace.Reader
	eng     *sim.Engine
	end     sim.Time
	reached bool
}

// Next returns r's next record, or io.EOF from end on.
func (d *deadline) Next() (trace.Record, error) {
	if d.eng.Now() >= d.end {
		d.reached = true
		return trace.Record{}, io.EOF
	}
	return d.r.Next()
}
