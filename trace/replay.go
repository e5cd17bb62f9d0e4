package trace

import (
	"errors"
	"fmt"
	"io"
	"math"
	"time"

	"github.com/raidsim/raidsim/sim"
)

// ReplayMode chooses how Replay paces requests.
type ReplayMode uint8

const (
	// ClosedLoop keeps ReplayOptions.IODepth requests outstanding and
	// ignores record times: each completion issues the next record, as
	// fio does with an iodepth. Since times do not pace it, a closed loop
	// does not check that they are sorted.
	ClosedLoop ReplayMode = iota
	// OpenLoop issues each record at its own time, scaled by
	// ReplayOptions.Speed, however many requests are still outstanding.
	// The records must be sorted by time (see Reorder).
	OpenLoop
)

// String returns "closed" or "open".
func (m ReplayMode) String() string {
	switch m {
	case ClosedLoop:
		return "closed"
	case OpenLoop:
		return "open"
	}
	return fmt.Sprintf("mode(%d)", uint8(m))
}

// ReplayOptions configures Replay. The zero value is a closed loop at
// depth 1.
type ReplayOptions struct {
	// Mode is ClosedLoop (the zero value) or OpenLoop.
	Mode ReplayMode
	// IODepth is the number of requests a closed loop keeps outstanding;
	// zero means 1. Open loops ignore it.
	IODepth int
	// Speed divides the gaps between record times in an open loop: 2
	// replays twice as fast, 0.5 half as fast. Zero means 1. Closed loops
	// ignore it.
	Speed float64
	// OnComplete, if set, is called for every completed request, failed
	// or not, from the event loop, before the request is reused. rec is
	// the record it came from. Neither pointer may be kept after the call.
	OnComplete func(rec *Record, r *sim.Request)
	// Observer, if set, sees each request as submitted and completed,
	// under the device name "trace".
	Observer *sim.Observer
	// MaxOutstanding bounds the requests an open loop may have
	// outstanding; zero means DefaultMaxOutstanding. A trace arriving
	// faster than the device serves it would otherwise queue without
	// end (and report queueing, not the device): reaching the bound
	// stops the replay with an *OverloadError. Closed loops ignore it.
	MaxOutstanding int
}

// DefaultMaxOutstanding is the open loop's bound on outstanding
// requests when ReplayOptions.MaxOutstanding is zero: the NCQ depth (32)
// of 2048 drives, far beyond any queue a real host keeps.
const DefaultMaxOutstanding = 1 << 16

// OverloadError stops an open-loop replay whose outstanding requests
// reached ReplayOptions.MaxOutstanding.
type OverloadError struct {
	// Record is the number of the record that would have exceeded it.
	Record int64
	// At is the time from the start of the replay.
	At time.Duration
	// Outstanding is the bound reached.
	Outstanding int
}

func (e *OverloadError) Error() string {
	return fmt.Sprintf("trace: record %d: %d requests outstanding %v into an open-loop replay: the trace arrives faster than the stack serves it (replay it slower with speed, or in a closed loop with iodepth)",
		e.Record, e.Outstanding, e.At)
}

// ReplayResult summarises a replay.
type ReplayResult struct {
	// Issued counts records submitted and accepted by the device.
	Issued int64
	// Completed counts requests whose Done was called.
	Completed int64
	// Failed counts completed requests whose Err was not nil.
	Failed int64
	// FirstIssue is the virtual time of the first accepted submit.
	FirstIssue sim.Time
	// LastCompletion is the virtual time of the last completion.
	LastCompletion sim.Time
	// PeakOutstanding is the most requests outstanding at once.
	PeakOutstanding int
}

// Elapsed returns LastCompletion - FirstIssue.
func (r ReplayResult) Elapsed() time.Duration { return r.LastCompletion.Sub(r.FirstIssue) }

// ReplayObserverName is the device name Replay (and ReplayValidate) give
// the Observer hooks they call for the requests they submit, so a hook can
// tell host-level events from those of the devices below.
const ReplayObserverName = "trace"

// Replay feeds the records of src to dev on eng and runs the engine until
// src is exhausted and every accepted request has completed; it then
// returns, leaving any unrelated events (a cache's flush timer) pending.
// Records are numbered from 1 in src's order; each request's ID is its
// record number.
//
// In a closed loop the first IODepth records are submitted at the
// engine's current time and each completion submits the next record. In
// an open loop the first record is submitted at the current time and
// record i at now + (Time_i - Time_1)/Speed: for a trace starting at time
// zero that is Time/Speed after the start, and a trace whose clock has an
// arbitrary epoch (Windows file times in the MSR traces) starts at once
// rather than centuries later. The records must be in time order (equal
// times are fine): a record whose time is earlier than the one before it
// stops the replay like a refused record, with an *OrderError naming its
// line (a *ParseError) or its record number, and a hint to sort the
// trace with Reorder. Replaying such a trace as it comes would issue
// every late record at once and report the queueing that made up, not
// the device. A closed loop ignores times and does not check them.
//
// Errors: the first one is returned, and the result counts what happened
// before it. A record the device refuses at Submit stops the replay (no
// more records are issued; requests already outstanding are run to
// completion) with an error naming the record ("trace: record 17: ...");
// so does an error from src (a *ParseError, which names its file and
// line, is returned as it is). A request completing with Err set is counted
// in Failed and reported the same way, but the replay goes on. If the
// engine runs out of events while requests are outstanding (a device that
// never calls Done), Replay returns an error rather than waiting forever.
//
// Requests are taken from a free list and reused, their Done callbacks
// bound once, so after warm-up Replay allocates nothing per record.
func Replay(eng *sim.Engine, dev sim.Device, src Reader, opt ReplayOptions) (ReplayResult, error) {
	if opt.IODepth < 0 || opt.IODepth > MaxIODepth {
		return ReplayResult{}, fmt.Errorf("trace: ReplayOptions.IODepth: %d is outside 0..%d", opt.IODepth, MaxIODepth)
	}
	if opt.IODepth == 0 {
		opt.IODepth = 1
	}
	if opt.Speed == 0 {
		opt.Speed = 1
	}
	if !(opt.Speed > 0) || math.IsInf(opt.Speed, 1) {
		return ReplayResult{}, fmt.Errorf("trace: ReplayOptions.Speed: %g is not a positive number", opt.Speed)
	}
	if opt.MaxOutstanding < 0 {
		return ReplayResult{}, fmt.Errorf("trace: ReplayOptions.MaxOutstanding: %d is negative", opt.MaxOutstanding)
	}
	if opt.MaxOutstanding == 0 {
		opt.MaxOutstanding = DefaultMaxOutstanding
	}
	if opt.Mode != ClosedLoop && opt.Mode != OpenLoop {
		return ReplayResult{}, fmt.Errorf("trace: ReplayOptions.Mode: unknown mode %d", uint8(opt.Mode))
	}
	r := &replayer{eng: eng, dev: dev, src: src, opt: opt}
	if opt.Mode == ClosedLoop {
		r.free = make([]*slot, 0, opt.IODepth)
		for range opt.IODepth {
			r.free = append(r.free, r.newSlot())
		}
		for range opt.IODepth {
			if !r.issueNext() {
				break
			}
		}
	} else {
		r.start = eng.Now()
		r.readAhead()
	}
	for !r.finished() {
		if !eng.Step() {
			r.fail(fmt.Errorf("trace: replay stalled at %v: %d requests outstanding and no events pending (a device never called Done)",
				eng.Now(), r.outstanding))
			break
		}
	}
	return r.res, r.err
}

// slot is one reusable request with the record it carries.
type slot struct {
	req sim.Request
	rec Record
	r   *replayer
}

// replayer is the state of one Replay call. As a sim.Handler it issues
// the pending record of an open loop.
type replayer struct {
	eng *sim.Engine
	dev sim.Device
	src Reader
	opt ReplayOptions

	free        []*slot
	outstanding int
	numbered    int64 // records read from src so far
	done        bool  // src exhausted or replay stopped
	err         error
	res         ReplayResult

	// open loop
	start     sim.Time // engine time of the first record
	firstTime sim.Time // trace time of the first record
	lastTime  sim.Time // trace time of the record read before
	pending   Record
}

func (r *replayer) newSlot() *slot {
	s := &slot{r: r}
	s.req.Done = s.complete // bound once
	return s
}

func (r *replayer) finished() bool {
	if r.outstanding > 0 {
		return false
	}
	return r.done
}

func (r *replayer) fail(err error) {
	if r.err == nil {
		r.err = err
	}
}

// read returns the next record, marking the replay done at the end of
// the source or on an error.
func (r *replayer) read() (Record, bool) {
	if r.done {
		return Record{}, false
	}
	rec, err := r.src.Next()
	if err != nil {
		r.done = true
		var pe *ParseError
		switch {
		case err == io.EOF:
		case errors.As(err, &pe):
			r.fail(err) // it names the file and line
		default:
			r.fail(fmt.Errorf("trace: record %d: %w", r.numbered+1, err))
		}
		return Record{}, false
	}
	r.numbered++
	return rec, true
}

// issueNext reads a record and submits it on a free slot (closed loop).
// It reports whether a request went out.
func (r *replayer) issueNext() bool {
	rec, ok := r.read()
	if !ok {
		return false
	}
	n := len(r.free) - 1
	s := r.free[n]
	r.free = r.free[:n]
	return r.submit(s, rec)
}

// submit sends rec on s, returning s to the free list if the device
// refuses it.
func (r *replayer) submit(s *slot, rec Record) bool {
	s.rec = rec
	q := &s.req
	q.Op, q.Offset, q.Length, q.FUA = rec.Op, rec.Offset, rec.Length, rec.FUA
	q.Data, q.Err, q.Issued, q.Completed = nil, nil, 0, 0
	q.ID = uint64(r.numbered)
	if err := r.dev.Submit(q); err != nil {
		r.free = append(r.free, s)
		r.fail(fmt.Errorf("trace: record %d: %w", r.numbered, err))
		r.done = true
		return false
	}
	now := r.eng.Now()
	if r.res.Issued == 0 {
		r.res.FirstIssue = now
	}
	r.res.Issued++
	r.outstanding++
	r.res.PeakOutstanding = max(r.res.PeakOutstanding, r.outstanding)
	r.opt.Observer.OnSubmitted(ReplayObserverName, q, now)
	return true
}

// complete is every request's Done.
func (s *slot) complete(q *sim.Request) {
	r := s.r
	now := r.eng.Now()
	r.outstanding--
	r.res.Completed++
	r.res.LastCompletion = now
	if q.Err != nil {
		r.res.Failed++
		r.fail(fmt.Errorf("trace: record %d: %w", q.ID, q.Err))
	}
	r.opt.Observer.OnCompleted(ReplayObserverName, q, now)
	if r.opt.OnComplete != nil {
		r.opt.OnComplete(&s.rec, q)
	}
	r.free = append(r.free, s)
	if r.opt.Mode == ClosedLoop {
		r.issueNext()
	}
}

// readAhead reads the next record of an open loop and schedules its
// issue.
func (r *replayer) readAhead() {
	rec, ok := r.read()
	if !ok {
		return
	}
	if r.numbered == 1 {
		r.firstTime = rec.Time
	} else if rec.Time < r.lastTime {
		r.fail(orderError(r.src, r.numbered, &OrderError{
			Time: rec.Time.Sub(r.firstTime), Previous: r.lastTime.Sub(r.firstTime)}))
		r.done = true
		return
	}
	r.lastTime = rec.Time
	gap := float64(rec.Time-r.firstTime) / r.opt.Speed
	if gap >= float64(sim.MaxInputTime-r.start) {
		r.fail(orderError(r.src, r.numbered, &TimeRangeError{Time: rec.Time.Sub(r.firstTime), Speed: r.opt.Speed}))
		r.done = true
		return
	}
	at := r.start + sim.Time(gap)
	if now := r.eng.Now(); at < now {
		at = now
	}
	r.pending = rec
	r.eng.Schedule(at, r, nil)
}

// HandleEvent issues the pending record of an open loop and schedules the
// next.
func (r *replayer) HandleEvent(now sim.Time, _ any) {
	if r.outstanding >= r.opt.MaxOutstanding {
		r.fail(&OverloadError{Record: r.numbered, At: now.Sub(r.start), Outstanding: r.outstanding})
		r.done = true
		return
	}
	var s *slot
	if n := len(r.free); n > 0 {
		s = r.free[n-1]
		r.free = r.free[:n-1]
	} else {
		s = r.newSlot()
	}
	if r.submit(s, r.pending) {
		r.readAhead()
	}
}

var _ sim.Handler = (*replayer)(nil)
