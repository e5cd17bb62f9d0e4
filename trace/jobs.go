package trace

import (
	"errors"
	"fmt"
	"io"
	"math/bits"
	"math/rand/v2"
	"time"

	"github.com/raidsim/raidsim/sim"
)

// Job is one stream of requests RunJobs runs beside others on one
// device, as an fio job section runs beside the others of its group: its
// records, how many it keeps outstanding, how it paces them, and when it
// starts and stops.
type Job struct {
	// Source gives the records, in order; its end ends the job.
	Source Reader
	// IODepth is the most requests the job keeps outstanding (zero
	// means 1), at most MaxIODepth.
	IODepth int
	// Pacing paces the requests (fio rate and thinktime); the zero
	// value is a closed loop.
	Pacing Pacing
	// MinBlock is the job's smallest request size in bytes (fio's
	// min_bs), the unit that turns Pacing.Rate into a request rate;
	// needed for Poisson pacing and RateIOPS.
	MinBlock int64
	// Split marks a job whose request sizes vary (a bssplit): a
	// RateIOPS without a Rate then spaces requests by count, not bytes.
	Split bool
	// Mixed lets a rated job take the other of reads and writes when
	// its own is ahead of schedule (a mixed pattern with both
	// directions in its mix).
	Mixed bool
	// Rand draws Poisson gaps; needed with Pacing.Poisson.
	Rand *rand.Rand
	// After lists earlier jobs (indexes in the slice given to RunJobs)
	// that must all have ended before this one starts (fio wait_for).
	After []int
	// StartDelay is idle time before the job starts, from the start of
	// RunJobs or from the end of the last job in After (fio
	// startdelay).
	StartDelay time.Duration
	// Runtime, when positive, stops issuing that long after the job
	// started (fio runtime); requests outstanding then complete.
	Runtime time.Duration
	// Beside makes the job stop issuing when job 0 does, as a
	// background job runs beside a phase's own; job 0 cannot be beside.
	Beside bool
}

// JobsOptions configures RunJobs.
type JobsOptions struct {
	// Deadline, when positive, stops every job's issuing that long after
	// RunJobs started (a phase's runtime).
	Deadline time.Duration
	// OnComplete, if set, is called for every completed request, from
	// the event loop, with its job's index and the record it came from;
	// neither pointer may be kept after the call.
	OnComplete func(job int, rec *Record, r *sim.Request)
	// Observer, if set, sees each request as submitted and completed,
	// under the device name "trace".
	Observer *sim.Observer
}

// JobResult is what one job did.
type JobResult struct {
	// Started reports that the job started; Start is when (after its
	// waits and delay) and End its last completion, or Start if it
	// completed nothing.
	Started    bool
	Start, End sim.Time
	// Issued counts the requests submitted (flushes included),
	// Completed those whose Done was called, Failed those among them
	// with an error.
	Issued, Completed, Failed int64
	// RuntimeReached reports a job stopped by its Runtime or the
	// Deadline before its records ran out.
	RuntimeReached bool
	// Spin is the CPU time its think time spun (Pacing.ThinkTimeSpin).
	Spin time.Duration
	// Depth counts its submissions by the requests then outstanding,
	// that one included, in fio's IO depth bins: 1, 2-3, 4-7, 8-15,
	// 16-31, 32-63 and 64 or more.
	Depth [7]int64
}

// Elapsed returns End - Start.
func (r JobResult) Elapsed() time.Duration { return r.End.Sub(r.Start) }

// RunJobs runs jobs at once on dev, each keeping up to its iodepth
// requests outstanding and pacing them as its Pacing says, and runs the
// engine until every job has ended and every request completed. It
// returns what they did together (a ReplayResult: requests numbered from
// 1 in the order they were read from the jobs' sources, Issued, Failed,
// FirstIssue, LastCompletion, PeakOutstanding) and job by job.
//
// A job without pacing is a closed loop: it fills its iodepth at its
// start, in order, and each completion issues its next record at once,
// from the completion; jobs fill in the order given. So one job of
// depth N issues exactly what Replay's ClosedLoop at depth N issues,
// and the same requests at the same times. See Pacing for rates and
// think time.
//
// Errors are Replay's: a record the device refuses, or a source error,
// stops every job's issuing and is returned after the requests
// outstanding complete; a request that fails in service is counted and
// its error returned, but the jobs go on.
func RunJobs(eng *sim.Engine, dev sim.Device, jobs []Job, o JobsOptions) (ReplayResult, []JobResult, error) {
	if err := checkJobs(jobs); err != nil {
		return ReplayResult{}, nil, err
	}
	r := &jobRunner{eng: eng, dev: dev, o: o, begin: eng.Now(), deadline: sim.Never}
	if o.Deadline > 0 {
		r.deadline = r.begin.Add(o.Deadline)
	}
	r.jobs = make([]*jobState, len(jobs))
	for i := range jobs {
		j := &jobState{r: r, idx: i, j: jobs[i], waiting: len(jobs[i].After)}
		if j.j.IODepth == 0 {
			j.j.IODepth = 1
		}
		if j.j.Pacing.ThinkTimeBlocks == 0 {
			j.j.Pacing.ThinkTimeBlocks = 1
		}
		r.jobs[i] = j
		for _, a := range jobs[i].After {
			r.jobs[a].waiters = append(r.jobs[a].waiters, i)
		}
	}
	for _, j := range r.jobs {
		if j.waiting == 0 {
			j.schedule(r.begin)
		}
	}
	for !r.finished() {
		if !eng.Step() {
			r.fail(fmt.Errorf("trace: jobs stalled at %v: %d requests outstanding and no events pending (a device never called Done)",
				eng.Now(), r.outstanding))
			break
		}
	}
	results := make([]JobResult, len(jobs))
	for i, j := range r.jobs {
		results[i] = j.res
	}
	return r.res, results, r.err
}

// checkJobs reports every problem of jobs at once.
func checkJobs(jobs []Job) error {
	var errs []error
	for i, j := range jobs {
		bad := func(format string, args ...any) {
			errs = append(errs, fmt.Errorf("trace: jobs[%d]: "+format, append([]any{i}, args...)...))
		}
		if j.Source == nil {
			bad("no Source")
		}
		if j.IODepth < 0 || j.IODepth > MaxIODepth {
			bad("IODepth %d is outside 0..%d", j.IODepth, MaxIODepth)
		}
		if err := j.Pacing.Validate(); err != nil {
			errs = append(errs, fmt.Errorf("trace: jobs[%d]: %w", i, err))
		}
		if j.Pacing.Rated() && j.MinBlock <= 0 {
			bad("a rated job needs MinBlock, its smallest request size")
		}
		if j.Pacing.Poisson && j.Rand == nil {
			bad("Poisson pacing needs Rand")
		}
		if j.StartDelay < 0 || j.Runtime < 0 {
			bad("negative StartDelay or Runtime")
		}
		if j.Beside && i == 0 {
			bad("job 0 cannot be Beside itself")
		}
		for _, a := range j.After {
			if a < 0 || a >= i {
				bad("After names job %d, not an earlier job", a)
			}
		}
	}
	return errors.Join(errs...)
}

// jobRunner is the state of one RunJobs call.
type jobRunner struct {
	eng         *sim.Engine
	dev         sim.Device
	o           JobsOptions
	jobs        []*jobState
	begin       sim.Time
	deadline    sim.Time
	outstanding int
	numbered    int64
	stopped     bool // an error stopped every job's issuing
	err         error
	res         ReplayResult
}

func (r *jobRunner) fail(err error) {
	if r.err == nil {
		r.err = err
	}
}

// finished reports whether every job has ended.
func (r *jobRunner) finished() bool {
	for _, j := range r.jobs {
		if j.state != jobEnded {
			return false
		}
	}
	return true
}

// stopAll ends the issuing of every job after an error.
func (r *jobRunner) stopAll(now sim.Time) {
	r.stopped = true
	for _, j := range r.jobs {
		if j.state != jobEnded {
			j.stop(now)
		}
	}
}

// jobWait is what a job waits for.
type jobWait uint8

const (
	jobIdle         jobWait = iota // not started: its After jobs have not all ended
	jobStarting                    // its start (StartDelay) is scheduled
	jobRunning                     // issuing (inside run)
	jobFull                        // a full iodepth: a completion, then its think time
	jobQuiesceRate                 // none outstanding, then sleepFor (a rated job ahead)
	jobQuiesceThink                // none outstanding, then its think time's stall
	jobSleeping                    // its timer
	jobDraining                    // done issuing: its outstanding requests
	jobEnded
)

// jobState is one job of a RunJobs call. As a sim.Handler it starts the
// job or wakes it from a sleep.
type jobState struct {
	r           *jobRunner
	idx         int
	j           Job
	res         JobResult
	state       jobWait
	waiting     int   // After jobs not yet ended
	waiters     []int // jobs waiting for this one
	start       sim.Time
	outstanding int
	free        []*jobSlot
	pending     Record
	pendingID   uint64
	have        bool // pending holds a record not yet issued
	decided     bool // pending's rate decision is made
	eof         bool // the source ran out
	sleepFor    time.Duration
	// rate: each direction's next due time from the start, its bytes
	// issued and its accumulated gaps (Poisson, split counts)
	next, last [3]time.Duration
	bytes      [3]int64
	// think time: blocks (reads, writes, trims) issued and completed,
	// the count at the last stall, and whether the last issue was one
	issuedBlocks, doneBlocks, lastThink int64
	lastRW                              bool
}

// jobSlot is one reusable request of a job.
type jobSlot struct {
	req sim.Request
	rec Record
	j   *jobState
}

// schedule starts the job StartDelay after now: at once (synchronously)
// without a delay.
func (j *jobState) schedule(now sim.Time) {
	if j.j.StartDelay == 0 {
		j.begin(now)
		return
	}
	j.state = jobStarting
	j.r.eng.Schedule(now.Add(j.j.StartDelay), j, nil)
}

// begin starts issuing.
func (j *jobState) begin(now sim.Time) {
	j.res.Started, j.res.Start, j.res.End, j.start = true, now, now, now
	j.state = jobRunning
	j.run(now)
}

// HandleEvent starts the job or wakes it; an event for a job that
// ended meanwhile does nothing.
func (j *jobState) HandleEvent(now sim.Time, _ any) {
	switch j.state {
	case jobStarting:
		j.begin(now)
	case jobSleeping:
		j.state = jobRunning
		j.run(now)
	}
}

// run issues records until the job has to wait.
func (j *jobState) run(now sim.Time) {
	for {
		if j.mustStop(now) {
			j.stop(now)
			return
		}
		if !j.have && !j.read(now) {
			return
		}
		if !j.decided {
			j.decided = true
			if wait := j.decide(now); wait > 0 {
				if !j.j.Pacing.Offload && j.outstanding > 0 {
					j.state, j.sleepFor = jobQuiesceRate, wait
					return
				}
				j.sleep(now, wait)
				return
			}
		}
		if !j.submit(now) {
			return
		}
		if j.outstanding >= j.j.IODepth {
			j.state = jobFull
			return
		}
		if j.think(now) {
			return
		}
	}
}

// mustStop reports whether the job must stop issuing: an error, the
// deadline, its runtime, or job 0's end for a job beside it.
func (j *jobState) mustStop(now sim.Time) bool {
	r := j.r
	switch {
	case r.stopped:
		return true
	case j.j.Beside && r.jobs[0].state >= jobDraining:
		return true
	case now >= r.deadline || (j.j.Runtime > 0 && now >= j.start.Add(j.j.Runtime)):
		j.res.RuntimeReached = true
		return true
	}
	return false
}

// read takes the next record; at the source's end or an error it stops
// the job (an error, every job) and reports false.
func (j *jobState) read(now sim.Time) bool {
	rec, err := j.j.Source.Next()
	if err != nil {
		if err == io.EOF {
			j.eof = true
			j.stop(now)
			return false
		}
		var pe *ParseError
		if !errors.As(err, &pe) {
			err = fmt.Errorf("trace: record %d: %w", j.r.numbered+1, err)
		}
		j.r.fail(err)
		j.r.stopAll(now)
		return false
	}
	j.r.numbered++
	j.pending, j.pendingID, j.have, j.decided = rec, uint64(j.r.numbered), true, false
	return true
}

// decide makes a rated job's decision for the pending record, as fio's
// rate_ddir: the time to wait before issuing it (0: now), switching a
// mixed job to the other direction when that one is due sooner.
func (j *jobState) decide(now sim.Time) time.Duration {
	if !j.j.Pacing.Rated() {
		return 0
	}
	d := direction(j.pending.Op)
	if d < 0 {
		return 0
	}
	el := now.Sub(j.start)
	if j.next[d] <= el {
		return 0
	}
	if j.j.Mixed && d != DirTrim {
		od := d ^ 1
		if j.next[od] <= el || j.next[od] < j.next[d] {
			j.pending.Op = sim.Read
			if od == DirWrite {
				j.pending.Op = sim.Write
			}
			return max(j.next[od]-el, 0)
		}
	}
	return j.next[d] - el
}

// sleep waits d, or until the job must stop if that comes first.
func (j *jobState) sleep(now sim.Time, d time.Duration) {
	at := now.Add(d)
	if stop := j.r.deadline; stop < at {
		at = max(stop, now)
	}
	if j.j.Runtime > 0 {
		if stop := j.start.Add(j.j.Runtime); stop < at {
			at = max(stop, now)
		}
	}
	j.state = jobSleeping
	j.r.eng.Schedule(at, j, nil)
}

// submit issues the pending record, reporting false if the device
// refused it (which stops every job).
func (j *jobState) submit(now sim.Time) bool {
	r := j.r
	var s *jobSlot
	if n := len(j.free); n > 0 {
		s, j.free = j.free[n-1], j.free[:n-1]
	} else {
		s = &jobSlot{j: j}
		s.req.Done = s.complete // bound once
	}
	rec := j.pending
	j.have = false
	s.rec = rec
	q := &s.req
	q.Op, q.Offset, q.Length, q.FUA = rec.Op, rec.Offset, rec.Length, rec.FUA
	q.Data, q.Err, q.Issued, q.Completed = nil, nil, 0, 0
	q.ID = j.pendingID
	if err := r.dev.Submit(q); err != nil {
		j.free = append(j.free, s)
		r.fail(fmt.Errorf("trace: record %d: %w", j.pendingID, err))
		r.stopAll(now)
		return false
	}
	if r.res.Issued == 0 {
		r.res.FirstIssue = now
	}
	r.res.Issued++
	r.outstanding++
	r.res.PeakOutstanding = max(r.res.PeakOutstanding, r.outstanding)
	j.res.Issued++
	j.outstanding++
	j.res.Depth[depthBin(j.outstanding)]++
	r.o.Observer.OnSubmitted(ReplayObserverName, q, now)
	j.lastRW = false
	if d := direction(rec.Op); d >= 0 {
		j.lastRW = true
		j.issuedBlocks++
		j.advance(d, rec.Length)
	}
	return true
}

// depthBin is fio's IO depth bin of n requests outstanding.
func depthBin(n int) int {
	switch {
	case n >= 64:
		return 6
	case n <= 1:
		return 0
	}
	return min(bits.Len(uint(n))-1, 5)
}

// advance moves direction d's schedule past a request of n bytes, as
// fio's usec_for_io.
func (j *jobState) advance(d Direction, n int64) {
	p := &j.j.Pacing
	j.bytes[d] += n
	bps := p.Rate[d]
	if bps == 0 {
		hi, lo := bits.Mul64(uint64(p.RateIOPS[d]), uint64(j.j.MinBlock))
		if hi != 0 || lo > 1<<62 {
			lo = 1 << 62
		}
		bps = int64(lo)
	}
	if bps == 0 {
		return
	}
	switch {
	case p.Poisson:
		iops := float64(bps) / float64(j.j.MinBlock)
		j.last[d] += time.Duration(j.j.Rand.ExpFloat64() * 1e9 / iops)
		j.next[d] = j.last[d]
	case p.Rate[d] == 0 && j.j.Split:
		j.last[d] += time.Duration(1e9 / float64(p.RateIOPS[d]))
		j.next[d] = j.last[d]
	default:
		j.next[d] = bytesTime(j.bytes[d], bps)
	}
}

// bytesTime is the time b bytes take at bps bytes per second, exactly
// (128-bit), or the longest duration when it does not fit.
func bytesTime(b, bps int64) time.Duration {
	hi, lo := bits.Mul64(uint64(b), uint64(time.Second))
	if hi >= uint64(bps) {
		return time.Duration(1<<63 - 1)
	}
	q, _ := bits.Div64(hi, lo, uint64(bps))
	if q > 1<<63-1 {
		return time.Duration(1<<63 - 1)
	}
	return time.Duration(q)
}

// think stalls the job when its think time is due, as fio's
// handle_thinktime: every ThinkTimeBlocks blocks completed (or issued),
// after a read, write or trim. It reports whether the job now waits.
func (j *jobState) think(now sim.Time) bool {
	p := &j.j.Pacing
	if p.ThinkTime == 0 || !j.lastRW {
		return false
	}
	b := j.doneBlocks
	if p.ThinkOnIssue {
		b = j.issuedBlocks
	}
	if b < j.lastThink+int64(p.ThinkTimeBlocks) {
		return false
	}
	j.lastThink = b
	if j.outstanding > 0 {
		j.state = jobQuiesceThink
		return true
	}
	j.stall(now)
	return true
}

// stall spins then sleeps the think time.
func (j *jobState) stall(now sim.Time) {
	p := &j.j.Pacing
	j.res.Spin += p.ThinkTimeSpin
	j.sleep(now, max(p.ThinkTime, p.ThinkTimeSpin))
}

// stop ends the job's issuing; it ends when its requests have
// completed. A job not yet started ends at once; stopping job 0 stops
// the jobs beside it.
func (j *jobState) stop(now sim.Time) {
	if j.state >= jobDraining {
		return
	}
	started := j.state != jobIdle && j.state != jobStarting
	j.state = jobDraining
	if !started || j.outstanding == 0 {
		j.end(now)
	}
	if j.idx == 0 {
		for _, b := range j.r.jobs[1:] {
			if b.j.Beside {
				b.stop(now)
			}
		}
	}
}

// end marks the job ended and starts the jobs waiting for it.
func (j *jobState) end(now sim.Time) {
	j.state = jobEnded
	for _, w := range j.waiters {
		wj := j.r.jobs[w]
		if wj.waiting--; wj.waiting == 0 && wj.state == jobIdle {
			if j.r.stopped {
				wj.state = jobEnded
				continue
			}
			wj.schedule(now)
		}
	}
}

// complete is every request's Done.
func (s *jobSlot) complete(q *sim.Request) {
	j := s.j
	r := j.r
	now := r.eng.Now()
	j.outstanding--
	r.outstanding--
	r.res.Completed++
	r.res.LastCompletion = now
	j.res.Completed++
	j.res.End = now
	if q.Err != nil {
		r.res.Failed++
		j.res.Failed++
		r.fail(fmt.Errorf("trace: record %d: %w", q.ID, q.Err))
	}
	if direction(q.Op) >= 0 {
		j.doneBlocks++
	}
	r.o.Observer.OnCompleted(ReplayObserverName, q, now)
	if r.o.OnComplete != nil {
		r.o.OnComplete(j.idx, &s.rec, q)
	}
	j.free = append(j.free, s)
	switch j.state {
	case jobFull:
		j.state = jobRunning
		if !j.think(now) {
			j.run(now)
		}
	case jobQuiesceRate:
		if j.outstanding == 0 {
			j.sleep(now, j.sleepFor)
		}
	case jobQuiesceThink:
		if j.outstanding == 0 {
			j.stall(now)
		}
	case jobDraining:
		if j.outstanding == 0 {
			j.end(now)
		}
	}
}

var _ sim.Handler = (*jobState)(nil)
