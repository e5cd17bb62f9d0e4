package faults

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/raidsim/raidsim/sim"
)

// Errors a faulty device completes requests with; test with errors.Is.
var (
	// ErrMedia reports a read of an unreadable sector (a *MediaError).
	ErrMedia = errors.New("faults: unrecoverable read error")
	// ErrFailed reports a request to, or completing on, a failed device.
	ErrFailed = errors.New("faults: device failed")
	// ErrTimeout reports a request the host's command timer gave up on.
	ErrTimeout = errors.New("faults: command timed out")
)

// MediaError is a read that met unreadable sectors.
type MediaError struct {
	// Device is the wrapper's name.
	Device string
	// Sector is the first unreadable sector (LBA) the read touched, and
	// Sectors how many of its sectors are unreadable.
	Sector  int64
	Sectors int
	// Recovery is the time the drive spent retrying before it gave up.
	Recovery time.Duration
}

func (e *MediaError) Error() string {
	return fmt.Sprintf("faults: %s: unrecoverable read error at sector %d (%d unreadable, %v of recovery)", e.Device, e.Sector, e.Sectors, e.Recovery)
}

// Unwrap returns ErrMedia.
func (e *MediaError) Unwrap() error { return ErrMedia }

// Stats counts what a Device injected.
type Stats struct {
	// Requests counts requests accepted, and Completed their Done calls.
	Requests, Completed int64
	// UREs counts sectors the per-bit error rate made unreadable.
	UREs int64
	// MediaErrors counts reads failed by unreadable sectors.
	MediaErrors int64
	// Rewritten counts unreadable sectors a write made readable again.
	Rewritten int64
	// Recovery is the total time spent in error recovery.
	Recovery time.Duration
	// Timeouts counts requests completed with ErrTimeout.
	Timeouts int64
	// FailedRequests counts requests completed with ErrFailed.
	FailedRequests int64
	// RuleErrors and Slowed count requests a Rule failed, and requests a
	// Rule or SlowFraction delayed.
	RuleErrors, Slowed int64
	// Failed reports whether the device has failed, and FailedAt when.
	Failed   bool
	FailedAt sim.Time
}

// Device is a fault-injecting wrapper around a sim.Device; it is itself
// a sim.Device. Make one with New.
type Device struct {
	eng     *sim.Engine
	inner   sim.Device
	cfg     Config
	name    string
	rng     *rand.Rand
	created sim.Time
	ss      int64
	recov   time.Duration
	errFail error
	bad     badSet

	submitted  int64
	cached     []*child // writes acknowledged early, not yet below
	writing    []*child // with WriteCache: every write on its way below
	readWait   []*child // with WriteCache: reads of bytes on their way below
	flushWait  []*child // flushes waiting for cached writes
	busyUntil  sim.Time
	timers     []timer // deadlines, oldest first from timerHead
	timerHead  int
	timerArmed bool
	held       []*child
	open       []*child // accepted, parent not yet completed (child.slot indexes it)
	free       []*child
	st         Stats
	innerDone  func(*sim.Request)
	ctx        Ctx

	hComplete completeHandler
	hSend     sendHandler
	hTimeout  timeoutHandler
	hRelease  releaseHandler
	hFail     failHandler
}

// child is one request sent below on behalf of a parent.
type child struct {
	req     sim.Request
	parent  *sim.Request
	err     error
	extra   time.Duration // start delay from rules and slowness
	refs    int           // the request below, events and wait lists still referring to it
	gen     uint64        // bumped on reuse, so a stale timer entry is ignored
	done    bool          // parent completed
	failing bool          // Fail has scheduled its completion
	slot    int           // index in Device.open while the parent waits
	cached  bool          // a write acknowledged early (Config.WriteCache)
	copy    []byte        // its Data, copied
}

// New wraps inner with the faults of cfg, which gets its defaults and is
// validated (every problem reported). Random choices come from the
// stream "<name>/faults" of eng.
func New(eng *sim.Engine, inner sim.Device, cfg Config, name string) (*Device, error) {
	if eng == nil || inner == nil {
		return nil, errors.New("faults: New needs an engine and a device")
	}
	cfg = cfg.WithDefaults()
	ss := int64(inner.SectorSize())
	if ss <= 0 {
		return nil, fmt.Errorf("faults: %s: device sector size %d is not positive", name, ss)
	}
	if err := cfg.Validate(inner.Capacity() / ss); err != nil {
		return nil, err
	}
	d := &Device{eng: eng, inner: inner, cfg: cfg, name: name, rng: eng.Rand(name + "/faults"),
		created: eng.Now(), ss: ss, recov: cfg.RecoveryTime()}
	d.errFail = fmt.Errorf("faults: %s: %w", name, ErrFailed)
	for _, s := range cfg.BadSectors {
		d.bad.add(s)
	}
	d.innerDone = d.onInnerDone
	d.hComplete.d, d.hSend.d, d.hTimeout.d, d.hRelease.d, d.hFail.d = d, d, d, d, d
	d.ctx.Rand = d.rng
	if cfg.FailAt > 0 {
		eng.Schedule(d.created.Add(cfg.FailAt), &d.hFail, nil)
	}
	return d, nil
}

// Name returns the name given to New.
func (d *Device) Name() string { return d.name }

// Inner returns the wrapped device.
func (d *Device) Inner() sim.Device { return d.inner }

// Config returns the configuration in use, defaults filled.
func (d *Device) Config() Config { return d.cfg }

// Capacity returns the wrapped device's capacity in bytes.
func (d *Device) Capacity() int64 { return d.inner.Capacity() }

// SectorSize returns the wrapped device's sector size in bytes.
func (d *Device) SectorSize() int { return d.inner.SectorSize() }

// Stats returns what the device has injected so far.
func (d *Device) Stats() Stats { return d.st }

// BadSectors returns the sectors unreadable now, in order.
func (d *Device) BadSectors() []int64 { return append([]int64(nil), d.bad.s...) }

// MarkBad makes sector lba unreadable until it is written (a latent
// sector error injected by hand).
func (d *Device) MarkBad(lba int64) { d.bad.add(lba) }

// Fail fails the device now, as a drive that dies does: every request
// outstanding (queued, held in error recovery, waiting for the write
// cache, or in service below) completes with ErrFailed at this instant,
// from the event loop, and so does every request after it. What the
// device below does afterwards with the requests it was serving is
// dropped: it no longer reads or fills their Data.
func (d *Device) Fail() {
	if d.st.Failed {
		return
	}
	d.st.Failed, d.st.FailedAt = true, d.eng.Now()
	for _, c := range d.open {
		if !c.failing {
			c.failing = true
			c.err = d.errFail
			d.later(c, 0)
		}
	}
}

// Submit checks r and starts serving it (see the package doc).
func (d *Device) Submit(r *sim.Request) error {
	if err := sim.CheckRequest(r, d.inner.Capacity(), int(d.ss)); err != nil {
		return fmt.Errorf("faults: %s: %w", d.name, err)
	}
	now := d.eng.Now()
	r.Issued = now
	c := d.get()
	c.parent, c.err, c.extra, c.done, c.failing = r, nil, 0, false, false
	c.slot = len(d.open)
	d.open = append(d.open, c)
	d.ctx.Now, d.ctx.Since, d.ctx.IOs = now, now.Sub(d.created), d.submitted
	d.submitted++
	d.st.Requests++
	if d.st.Failed {
		c.err = d.errFail
		d.later(c, 0)
		return nil
	}
	if d.applyRules(c, r) {
		return nil
	}
	if d.cfg.WriteCache && d.cacheWrite(c, r) {
		return nil
	}
	if d.cfg.Timeout > 0 {
		d.armTimeout(c, now.Add(d.cfg.Timeout))
	}
	if c.extra > 0 {
		// A slow response is slow to start: the data lands, and the
		// request completes, extra later, so completions keep the order
		// in which the device below stores writes.
		c.refs++
		d.eng.Schedule(now.Add(c.extra), &d.hSend, c)
		return nil
	}
	d.start(c)
	return nil
}

// start sends c below, or holds it while the drive recovers a sector.
func (d *Device) start(c *child) {
	if d.eng.Now() < d.busyUntil {
		c.refs++ // the held list refers to it
		d.held = append(d.held, c)
		return
	}
	d.send(c)
}

// applyRules applies the first matching rule and SlowFraction; it
// reports whether the request was answered without service.
func (d *Device) applyRules(c *child, r *sim.Request) bool {
	for i := range d.cfg.Rules {
		rule := &d.cfg.Rules[i]
		if !rule.When(&d.ctx, r) {
			continue
		}
		if rule.Err != nil {
			d.st.RuleErrors++
			c.err = fmt.Errorf("faults: %s: %v: %w", d.name, r, rule.Err)
			d.later(c, rule.Delay)
			return true
		}
		c.extra = rule.Delay
		break
	}
	if d.cfg.SlowFraction > 0 && d.rng.Float64() < d.cfg.SlowFraction {
		c.extra += d.cfg.SlowDelay
	}
	if c.extra > 0 {
		d.st.Slowed++
	}
	return false
}

// send passes c's request to the device below.
func (d *Device) send(c *child) {
	q := &c.req
	if c.cached { // acknowledged already: its own copy of the request
		q.Data = c.copy
	} else {
		p := c.parent
		q.Op, q.Offset, q.Length, q.FUA, q.Data = p.Op, p.Offset, p.Length, p.FUA, p.Data
	}
	q.Err, q.Ctx, q.Done = nil, c, d.innerDone
	c.refs++
	if err := d.inner.Submit(q); err != nil {
		c.refs--
		c.err = fmt.Errorf("faults: %s: %w", d.name, err)
		d.later(c, 0)
	}
}

// onInnerDone is every child's Done.
func (d *Device) onInnerDone(q *sim.Request) {
	c := q.Ctx.(*child)
	c.refs--
	d.st.Completed++
	now := d.eng.Now()
	if d.cfg.FailAfterIOs > 0 && d.st.Completed == d.cfg.FailAfterIOs {
		defer d.Fail() // this one completes; the next do not
	}
	if c.cached { // on the device below now (or lost, if it failed)
		if q.Err == nil {
			d.st.Rewritten += int64(d.bad.clear(q.Offset/d.ss, q.End()/d.ss))
		}
		d.persisted(c)
		return
	}
	if d.cfg.WriteCache && q.Op == sim.Write {
		d.written(c)
	}
	if c.done { // timed out: the host no longer waits for it
		d.release(c)
		return
	}
	err, delay := q.Err, time.Duration(0)
	switch {
	case err != nil:
		err = fmt.Errorf("faults: %s: %w", d.name, err)
	case d.st.Failed:
		err = d.errFail
	case q.Op == sim.Read:
		if me := d.readMedia(q, now); me != nil {
			err, delay = me, delay+me.Recovery
		}
	case q.Op == sim.Write:
		d.st.Rewritten += int64(d.bad.clear(q.Offset/d.ss, q.End()/d.ss))
	}

	c.err = err
	if delay == 0 {
		d.deliver(c)
		d.release(c)
		return
	}
	d.later(c, delay)
}

// readMedia draws the read's new unreadable sectors and returns the
// error if it touched any, making the drive busy for its recovery.
func (d *Device) readMedia(q *sim.Request, now sim.Time) *MediaError {
	lo, hi := q.Offset/d.ss, q.End()/d.ss
	if d.cfg.UREPerBit > 0 {
		bits := float64(q.Length) * 8
		for k := poisson(d.rng, bits*d.cfg.UREPerBit); k > 0; k-- {
			d.bad.add(lo + d.rng.Int64N(hi-lo))
			d.st.UREs++
		}
	}
	first, n := d.bad.first(lo, hi)
	if n == 0 {
		return nil
	}
	d.st.MediaErrors++
	d.st.Recovery += d.recov
	end := now.Add(d.recov)
	if end > d.busyUntil {
		d.busyUntil = end
		d.eng.Schedule(end, &d.hRelease, nil)
	}
	return &MediaError{Device: d.name, Sector: first, Sectors: n, Recovery: d.recov}
}

// later completes c's parent delay from now.
func (d *Device) later(c *child, delay time.Duration) {
	c.refs++
	d.eng.Schedule(d.eng.Now().Add(delay), &d.hComplete, c)
}

// deliver completes c's parent with c.err, once.
func (d *Device) deliver(c *child) {
	if c.done {
		return
	}
	c.done = true
	p := c.parent
	c.parent = nil
	d.close(c)
	if errors.Is(c.err, ErrFailed) {
		d.st.FailedRequests++
	}
	p.Err, p.Completed = c.err, d.eng.Now()
	p.Done(p)
}

// close removes c from the open list, and stops the device below from
// touching its parent's Data once the parent completes: a request the
// host gave up on (a timeout) or that a failure ended must not have its
// buffer filled or read afterwards, when it may hold something else.
func (d *Device) close(c *child) {
	last := d.open[len(d.open)-1]
	d.open[c.slot], last.slot = last, c.slot
	d.open[len(d.open)-1] = nil
	d.open = d.open[:len(d.open)-1]
	if !c.cached {
		c.req.Data = nil
	}
}

// get takes a child from the free list.
func (d *Device) get() *child {
	if n := len(d.free); n > 0 {
		c := d.free[n-1]
		d.free = d.free[:n-1]
		c.gen++
		return c
	}
	return &child{}
}

// release returns c to the free list once nothing refers to it.
func (d *Device) release(c *child) {
	if c.refs == 0 && c.done {
		if d.cfg.WriteCache {
			d.written(c)
		}
		c.req = sim.Request{}
		c.err = nil
		d.free = append(d.free, c)
	}
}

type completeHandler struct{ d *Device }

func (h *completeHandler) HandleEvent(_ sim.Time, arg any) {
	c := arg.(*child)
	c.refs--
	h.d.deliver(c)
	h.d.release(c)
}

type timeoutHandler struct{ d *Device }

// timer is one request's deadline. Deadlines come in submission order
// (Timeout is fixed), so they wait in a FIFO behind one engine event.
type timer struct {
	c   *child
	gen uint64
	at  sim.Time
}

// armTimeout queues c's deadline, scheduling the event if none is.
func (d *Device) armTimeout(c *child, at sim.Time) {
	// Requests mostly complete in the order they came: drop the entries
	// at the front that no longer wait, so the queue holds about as many
	// as are outstanding.
	for d.timerHead < len(d.timers) {
		t := d.timers[d.timerHead]
		if t.c.gen == t.gen && !t.c.done {
			break
		}
		d.timers[d.timerHead] = timer{}
		d.timerHead++
	}
	d.compactTimers()
	d.timers = append(d.timers, timer{c, c.gen, at})
	if !d.timerArmed {
		d.timerArmed = true
		d.eng.Schedule(at, &d.hTimeout, nil)
	}
}

// HandleEvent times out every request whose deadline has come and is
// still waiting, then waits for the next deadline.
func (h *timeoutHandler) HandleEvent(now sim.Time, _ any) {
	d := h.d
	d.timerArmed = false
	for len(d.timers) > d.timerHead && d.timers[d.timerHead].at <= now {
		t := d.timers[d.timerHead]
		d.timers[d.timerHead] = timer{}
		d.timerHead++
		if c := t.c; c.gen == t.gen && !c.done && c.parent != nil {
			d.st.Timeouts++
			c.err = fmt.Errorf("faults: %s: %v: %w after %v", d.name, c.parent, ErrTimeout, d.cfg.Timeout)
			d.deliver(c)
			d.release(c)
		}
	}
	d.compactTimers()
	if len(d.timers) > d.timerHead {
		d.timerArmed = true
		d.eng.Schedule(d.timers[d.timerHead].at, &d.hTimeout, nil)
	}
}

type releaseHandler struct{ d *Device }

// HandleEvent sends the requests held during a recovery, once it is over.
func (h *releaseHandler) HandleEvent(now sim.Time, _ any) {
	d := h.d
	if now < d.busyUntil {
		return // a later recovery holds them longer
	}
	held := d.held
	d.held = nil
	for _, c := range held {
		c.refs--
		switch {
		case c.done && !c.cached: // timed out while held (a cached write was acknowledged: it still goes below)
			d.release(c)
		case d.st.Failed:
			c.err = d.errFail
			d.deliver(c)
			d.release(c)
		default:
			d.send(c)
		}
	}
}

type failHandler struct{ d *Device }

func (h *failHandler) HandleEvent(sim.Time, any) { h.d.Fail() }

type sendHandler struct{ d *Device }

// HandleEvent starts a slow request once its delay is over.
func (h *sendHandler) HandleEvent(_ sim.Time, arg any) {
	c := arg.(*child)
	c.refs--
	switch {
	case c.done && !c.cached: // timed out while delayed
		h.d.release(c)
	case h.d.st.Failed:
		c.err = h.d.errFail
		h.d.deliver(c)
		h.d.release(c)
	default:
		h.d.start(c)
	}
}

// compactTimers moves the live deadlines to the front of the slice once
// half of it is spent, so it does not grow.
func (d *Device) compactTimers() {
	if d.timerHead > 0 && d.timerHead >= len(d.timers)/2 {
		n := copy(d.timers, d.timers[d.timerHead:])
		clear(d.timers[n:])
		d.timers, d.timerHead = d.timers[:n], 0
	}
}
