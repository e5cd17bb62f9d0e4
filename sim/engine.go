package sim

import (
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"time"
)

// Handler receives events from an Engine. Implementations are usually
// long-lived components (a drive, an array) that switch on the argument or
// on their own state; a Handler is bound once, so scheduling does not
// allocate.
type Handler interface {
	// HandleEvent is called when virtual time reaches the event's instant.
	// now equals Engine.Now(); arg is the value given to Schedule.
	HandleEvent(now Time, arg any)
}

// HandlerFunc adapts a function to the Handler interface. Converting a
// function to a HandlerFunc once and keeping the value avoids allocating
// on every Schedule call.
type HandlerFunc func(now Time, arg any)

// HandleEvent calls f(now, arg).
func (f HandlerFunc) HandleEvent(now Time, arg any) { f(now, arg) }

// event is one pending heap entry.
type event struct {
	at  Time
	seq uint64
	h   Handler
	arg any
}

func (a *event) before(b *event) bool {
	if a.at != b.at {
		return a.at < b.at
	}
	return a.seq < b.seq
}

// Engine is a single-threaded discrete-event scheduler with a virtual
// clock. The zero value is not usable; call NewEngine.
//
// Engines are independent: parallel experiments run one Engine per
// goroutine and share nothing.
type Engine struct {
	now       Time
	seq       uint64
	heap      []event
	processed uint64
	seed      uint64
	streams   map[string]*rand.Rand
	// pollAt is the processed count at which Step next calls poll
	// (or stops, once err is set); never reached without a poll.
	pollAt    uint64
	pollEvery uint64
	poll      func() error
	err       error
}

// NewEngine returns an engine at time zero whose random streams derive
// from seed.
func NewEngine(seed uint64) *Engine {
	return &Engine{seed: seed, streams: make(map[string]*rand.Rand), pollAt: math.MaxUint64}
}

// SetPoll arranges for f to be called from Step every `every` events
// (at least 1), on the engine's goroutine: for progress output and
// resource checks during long runs. An error from f stops the engine as
// Stop does. A nil f removes the poll.
func (e *Engine) SetPoll(every uint64, f func() error) {
	e.poll, e.pollEvery = f, max(every, 1)
	switch {
	case e.err != nil:
		e.pollAt = 0
	case f == nil:
		e.pollAt = math.MaxUint64
	default:
		e.pollAt = e.processed + e.pollEvery
	}
}

// Stop ends the run with err: Step runs no more events and reports
// false, as if none were pending, and Err returns err (the first one,
// if Stop is called again). Events stay pending.
func (e *Engine) Stop(err error) {
	if e.err == nil {
		e.err = err
	}
	e.pollAt = 0
}

// Err returns the error the engine stopped with (Stop, a poll, or a time
// past Never), or nil.
func (e *Engine) Err() error { return e.err }

// ErrTimeOverflow is the error an engine stops with when an event would
// be scheduled past the largest time it can represent (Never, about 292
// years after the start): a delay computed from input too large for
// virtual time. Inputs are checked against MaxInputTime where they
// enter, so this is the last line of defence.
var ErrTimeOverflow = errors.New("sim: virtual time overflowed (an event more than 292 years after the start)")

// MaxInputTime is the latest instant, from the start of a run, that any
// time computed from input (trace times over a speed factor, paced
// request schedules, rebuild and fault times) may reach: half of Never
// (about 146 years), leaving the stack's own delays room below Never.
const MaxInputTime Time = Never / 2

// pollNow runs the poll (or stops) when Step reaches pollAt, and reports
// whether the engine may go on.
func (e *Engine) pollNow() bool {
	if e.err != nil {
		return false
	}
	if e.poll == nil {
		e.pollAt = math.MaxUint64
		return true
	}
	if err := e.poll(); err != nil {
		e.Stop(err)
		return false
	}
	e.pollAt = e.processed + e.pollEvery
	return true
}

// Now returns the current virtual time.
func (e *Engine) Now() Time { return e.now }

// Seed returns the run seed the engine was created with.
func (e *Engine) Seed() uint64 { return e.seed }

// Pending returns the number of scheduled events not yet run.
func (e *Engine) Pending() int { return len(e.heap) }

// Processed returns the number of events run so far.
func (e *Engine) Processed() uint64 { return e.processed }

// Schedule arranges for h.HandleEvent(at, arg) to run when virtual time
// reaches at. An instant in the past is an error in the caller: it panics
// with a message naming both times, since running it would make time go
// backwards. A negative instant is a delay that overflowed virtual time:
// the engine stops with ErrTimeOverflow instead (see Err).
func (e *Engine) Schedule(at Time, h Handler, arg any) {
	if at < e.now {
		if at < 0 {
			e.Stop(fmt.Errorf("%w at %v", ErrTimeOverflow, e.now))
			return
		}
		panic(fmt.Sprintf("sim: event scheduled at %v, before now (%v)", at, e.now))
	}
	e.seq++
	e.heap = append(e.heap, event{at: at, seq: e.seq, h: h, arg: arg})
	e.up(len(e.heap) - 1)
}

// After schedules h.HandleEvent after a span d from now. A negative d is
// treated as zero.
func (e *Engine) After(d time.Duration, h Handler, arg any) {
	if d < 0 {
		d = 0
	}
	e.Schedule(e.now.Add(d), h, arg)
}

// NextAt returns the time of the earliest pending event, or Never when
// none is pending.
func (e *Engine) NextAt() Time {
	if len(e.heap) == 0 {
		return Never
	}
	return e.heap[0].at
}

// Step runs the earliest pending event, advancing the clock to its time.
// It reports whether an event ran.
func (e *Engine) Step() bool {
	n := len(e.heap)
	if n == 0 || e.processed >= e.pollAt && !e.pollNow() {
		return false
	}
	ev := e.heap[0]
	e.heap[0] = e.heap[n-1]
	e.heap[n-1] = event{} // drop references for the garbage collector
	e.heap = e.heap[:n-1]
	if n > 1 {
		e.down(0)
	}
	e.now = ev.at
	e.processed++
	ev.h.HandleEvent(ev.at, ev.arg)
	return true
}

// Run runs events until none is pending.
func (e *Engine) Run() {
	for e.Step() {
	}
}

// RunUntil runs every event scheduled at or before t, including events
// those events schedule at or before t, and then sets the clock to t (if
// it is later than now). Events after t stay pending.
func (e *Engine) RunUntil(t Time) {
	for len(e.heap) > 0 && e.heap[0].at <= t {
		if !e.Step() {
			return // stopped
		}
	}
	if t > e.now {
		e.now = t
	}
}

// The heap is 4-ary: shallower than a binary heap, so fewer cache misses
// per pop for the event counts a storage simulation keeps.
const arity = 4

func (e *Engine) up(i int) {
	h := e.heap
	ev := h[i]
	for i > 0 {
		p := (i - 1) / arity
		if !ev.before(&h[p]) {
			break
		}
		h[i] = h[p]
		i = p
	}
	h[i] = ev
}

func (e *Engine) down(i int) {
	h := e.heap
	n := len(h)
	ev := h[i]
	for {
		c := arity*i + 1
		if c >= n {
			break
		}
		best := c
		end := min(c+arity, n)
		for j := c + 1; j < end; j++ {
			if h[j].before(&h[best]) {
				best = j
			}
		}
		if !h[best].before(&ev) {
			break
		}
		h[i] = h[best]
		i = best
	}
	h[i] = ev
}

// Rand returns the engine's random stream called name, creating it on
// first use. The stream is a PCG generator seeded from the run seed and a
// 64-bit FNV-1a hash of name, so each component's numbers depend only on
// the seed and its own name. The same name always returns the same
// stream. The result can serve as the Src of gonum distuv distributions.
func (e *Engine) Rand(name string) *rand.Rand {
	if r, ok := e.streams[name]; ok {
		return r
	}
	r := rand.New(rand.NewPCG(e.seed, StreamSeed(name)))
	e.streams[name] = r
	return r
}

// StreamSeed returns the 64-bit FNV-1a hash of name that Rand mixes with
// the run seed.
func StreamSeed(name string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(name))
	return h.Sum64()
}
