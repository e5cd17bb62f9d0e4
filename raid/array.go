package raid

import (
	"errors"
	"fmt"
	"time"

	"github.com/raidsim/raidsim/sim"
)

// ErrDataLost reports a request that needs data no longer recoverable:
// a RAID 0 member failed, both copies of a mirror failed, or a second
// RAID 5 member failed. It arrives in Done, wrapped with the request and
// the failed members; test with errors.Is.
var ErrDataLost = errors.New("raid: data lost: too many members failed")

// Array is a RAID array of sim.Device members that is itself a
// sim.Device. Its capacity is the usable data capacity, rounded down to
// whole stripes. Make one with New.
type Array struct {
	eng      *sim.Engine
	cfg      Config
	name     string
	obs      *sim.Observer
	m        Mapping
	n        int
	u        int64
	ss       int
	rows     int64 // stripe units used on each member
	capacity int64
	created  sim.Time
	mem      []member

	childDone func(*sim.Request)
	freeOps   []*op
	freeSOs   []*stripeOp
	freeKids  []*child
	freeBufs  [][]byte
	active    []*op // ops taking part in overlap ordering, by arrival
	rr        int
	ct        counters
	rb        *rebuild
	cand      []int  // scratch: live copies of a mirrored chunk
	down      []bool // scratch: by member, unavailable at the stripe planned
	// updatesInFlight counts RAID 5 stripes whose data and parity
	// writes, and mirrored writes whose copies, are in flight.
	updatesInFlight int
	lostRanges      lostSet // logical ranges lost in rebuilds
	// badUnits are the rows of a rebuilt member that its rebuild could
	// not compute (a source unreadable with no redundancy left): md's
	// bad block log on the replacement. They hold no valid bytes, so no
	// repair takes them as a source (see source).
	badUnits map[memberRow]bool
	gone6    []int    // scratch: RAID 6 members not read
	units6   [][]byte // scratch: a RAID 6 stripe's units by role

	hFinish  finishHandler
	hParity  parityHandler
	hRebuild rebuildHandler
	hFail    failHandler
	hAbort   abortHandler
}

// member is one slot of the array: its device and its state.
type member struct {
	dev         sim.Device
	failed      bool
	failedAt    sim.Time
	outstanding int
	busySince   sim.Time
	busy        time.Duration
	lastEnd     int64
	reads       int64
	writes      int64
	flushes     int64
	readBytes   int64
	writeBytes  int64
	errors      int64
	open        []*child // requests in flight on the member (child.slot indexes it)
	kicked      bool     // failed by the array after a write error (md_error)
}

type opKind uint8

const (
	kRead opKind = iota
	kWrite
	kFlush
	kRebuild
	kTrim
	kRepair // a read error's repair, ordered with writes (md freezes the array for it)
)

// op is one parent request (or one rebuild step) in flight.
type op struct {
	r        *sim.Request
	kind     opKind
	tracked  bool
	lo, hi   int64 // ordering range, logical bytes
	blockers int   // earlier overlapping ops not yet finished
	pending  int   // children and stripe ops outstanding
	err      error
	waitFrom sim.Time
	degraded bool
	mirrored bool     // writes to two or more copies are in flight
	row      int64    // rebuild step: the stripe unit row
	rb       *rebuild // rebuild step: the rebuild it belongs to
	parent   *op      // repair: the read it serves
	rep      repairAt // repair: what to repair
}

// child is one request to a member.
type child struct {
	req    sim.Request
	o      *op
	so     *stripeOp
	member int
	slot   int    // index in the member's open list
	dst    []byte // plain read: the parent's bytes (req.Data is a bounce buffer)
	bounce []byte // plain read: the buffer the member reads into
	// abandoned: the member failed while serving it; the array went on
	// without it (an abort event) and waits only for the member's Done
	// to recycle it. aborted and devDone say which of the two came.
	abandoned, aborted, devDone bool
}

// New makes an array of members on eng. cfg gets its defaults filled and
// is validated with the members (every problem is reported). The array
// uses each member up to the smallest member's capacity, rounded down to
// whole stripe units. name labels errors and Observer calls; obs may be
// nil.
func New(eng *sim.Engine, cfg Config, members []sim.Device, name string, obs *sim.Observer) (*Array, error) {
	cfg = cfg.WithDefaults()
	err := cfg.Validate(members...)
	if members == nil {
		err = errors.Join(err, fmt.Errorf("raid: %v needs at least %d members, got 0", cfg.Level, MinMembers(cfg.Level)))
	}
	if eng == nil {
		err = errors.Join(errors.New("raid: New needs an engine, got nil"), err)
	}
	if err != nil {
		return nil, err
	}
	a := &Array{eng: eng, cfg: cfg, name: name, obs: obs, n: len(members), u: cfg.StripeUnit,
		ss: members[0].SectorSize(), created: eng.Now()}
	a.m = Mapping{Level: cfg.Level, Layout: cfg.Layout, Members: a.n, StripeUnit: cfg.StripeUnit}
	minCap := members[0].Capacity()
	a.mem = make([]member, a.n)
	for i, d := range members {
		a.mem[i].dev = d
		minCap = min(minCap, d.Capacity())
	}
	a.rows = minCap / a.u
	a.capacity = a.m.Capacity(minCap)
	a.childDone = a.onChildDone
	a.cand = make([]int, 0, a.n)
	a.gone6, a.units6 = make([]int, 0, a.n), make([][]byte, a.n)
	a.down = make([]bool, a.n)
	a.hFinish.a, a.hParity.a, a.hRebuild.a, a.hFail.a, a.hAbort.a = a, a, a, a, a
	return a, nil
}

// Name returns the name given to New.
func (a *Array) Name() string { return a.name }

// Config returns the configuration in use, defaults filled.
func (a *Array) Config() Config { return a.cfg }

// Mapping returns the array's address mapping.
func (a *Array) Mapping() Mapping { return a.m }

// Members returns the member devices (a rebuilt slot holds its spare).
func (a *Array) Members() []sim.Device {
	out := make([]sim.Device, a.n)
	for i := range a.mem {
		out[i] = a.mem[i].dev
	}
	return out
}

// UpdatesInFlight returns how many redundant updates are under way now:
// RAID 5 stripes whose new data and parity have been sent to their
// members and are not all written, and RAID 1 and 10 writes whose copies
// are not all written. Were power lost now, each could leave its stripe's
// parity, or its copies, disagreeing with the data: the RAID write hole.
// (Member writes already acknowledged from a drive's volatile write cache
// are not counted here; they are lost with that cache.)
func (a *Array) UpdatesInFlight() int { return a.updatesInFlight }

// Capacity returns the usable data capacity in bytes.
func (a *Array) Capacity() int64 { return a.capacity }

// SectorSize returns the members' sector size in bytes.
func (a *Array) SectorSize() int { return a.ss }

// Geometry describes the striping, for layers above that align to it.
type Geometry struct {
	Level       Level
	Members     int
	DataMembers int   // members' worth of data per stripe
	StripeUnit  int64 // bytes per member per stripe
	FullStripe  int64 // data bytes per stripe: DataMembers x StripeUnit
	MemberBytes int64 // bytes used on each member
}

// Geometry returns the array's striping.
func (a *Array) Geometry() Geometry {
	return Geometry{Level: a.cfg.Level, Members: a.n, DataMembers: a.m.DataMembers(), StripeUnit: a.u,
		FullStripe: a.m.FullStripe(), MemberBytes: a.rows * a.u}
}

// StripeUnit returns the bytes each member holds of a stripe.
func (a *Array) StripeUnit() int64 { return a.u }

// FullStripe returns the data bytes of a stripe; writes aligned to it
// need no parity reads on RAID 5. A cache can discover it with an
// interface{ FullStripe() int64 } assertion.
func (a *Array) FullStripe() int64 { return a.m.FullStripe() }

// Submit checks r and starts serving it: split at stripe-unit
// boundaries into requests to the members, which all complete before r
// does. Writes (and, on a degraded RAID 5, reads) that overlap an
// earlier write still in flight wait for it, widened to whole stripes on
// RAID 5, like md's stripe cache, so parity is never computed from data
// being changed and the last write acknowledged is the one that stays.
func (a *Array) Submit(r *sim.Request) error {
	if err := sim.CheckRequest(r, a.capacity, a.ss); err != nil {
		return fmt.Errorf("raid: %s: %w", a.name, err)
	}
	now := a.eng.Now()
	r.Issued = now
	a.obs.OnSubmitted(a.name, r, now)
	o := a.getOp()
	o.r = r
	switch r.Op {
	case sim.Read:
		o.kind = kRead
		a.ct.reads++
		a.ct.readBytes += r.Length
	case sim.Write:
		o.kind = kWrite
		a.ct.writes++
		a.ct.writeBytes += r.Length
	case sim.Trim:
		o.kind = kTrim
	default:
		o.kind = kFlush
		a.ct.flushes++
		a.start(o)
		return nil
	}
	o.lo, o.hi = r.Offset, r.End()
	if o.kind == kWrite || o.kind == kTrim || (a.m.Level.parity() && a.anyFailed()) {
		a.track(o)
	} else {
		a.start(o)
	}
	return nil
}

func (a *Array) anyFailed() bool {
	for i := range a.mem {
		if a.mem[i].failed {
			return true
		}
	}
	return false
}

// avail reports whether member m holds good data for stripe row: it has
// not failed, or it is the spare being rebuilt and row is done.
func (a *Array) avail(m int, row int64) bool {
	if !a.mem[m].failed {
		return true
	}
	return a.rb != nil && a.rb.active && a.rb.member == m && row < a.rb.row
}

// memberRow names one member's unit in one stripe row.
type memberRow struct {
	m   int
	row int64
}

// source reports whether member m's bytes at row may be read to repair
// another member's read error: it is available and its unit there is
// not one its rebuild could not compute. (Writes still go to such a
// unit, and reads of its own data are governed by LostRanges.)
func (a *Array) source(m int, row int64) bool {
	return a.avail(m, row) && (len(a.badUnits) == 0 || !a.badUnits[memberRow{m, row}])
}

// markBad records that member m's unit at row holds no valid bytes.
func (a *Array) markBad(m int, row int64) {
	if a.badUnits == nil {
		a.badUnits = map[memberRow]bool{}
	}
	a.badUnits[memberRow{m, row}] = true
}

// conflicts reports whether p and o touch the same bytes and one of them
// changes them: reads never wait for reads, nor repairs for reads.
func conflicts(p, o *op) bool {
	readish := func(x *op) bool { return x.kind == kRead || x.kind == kRepair }
	return p.lo < o.hi && o.lo < p.hi && !(readish(p) && readish(o) && (p.kind == kRead || o.kind == kRead))
}

// track enters o in the ordering list and starts it unless an earlier
// overlapping op is in flight.
func (a *Array) track(o *op) {
	if a.m.Level.parity() {
		fs := a.m.FullStripe()
		o.lo = o.lo / fs * fs
		o.hi = (o.hi + fs - 1) / fs * fs
	}
	o.tracked = true
	for _, p := range a.active {
		if conflicts(p, o) {
			o.blockers++
		}
	}
	a.active = append(a.active, o)
	if o.blockers == 0 {
		a.start(o)
		return
	}
	o.waitFrom = a.eng.Now()
	a.ct.waits++
}

// untrack removes o from the ordering list and starts the ops that were
// waiting only for it.
func (a *Array) untrack(o *op) {
	i := 0
	for i < len(a.active) && a.active[i] != o {
		i++
	}
	if i == len(a.active) {
		return
	}
	copy(a.active[i:], a.active[i+1:])
	a.active[len(a.active)-1] = nil
	a.active = a.active[:len(a.active)-1]
	now := a.eng.Now()
	for _, q := range a.active[i:] {
		if conflicts(o, q) {
			q.blockers--
			if q.blockers == 0 {
				if q.r != nil {
					a.obs.OnPhase(a.name, q.r, sim.PhaseQueue, q.waitFrom, now)
				}
				a.start(q)
			}
		}
	}
}

// start issues o's member requests. It never completes o itself: an op
// with nothing left to do finishes from a zero-delay event, so Done is
// never called from inside Submit.
func (a *Array) start(o *op) {
	o.pending++ // guard while issuing
	switch o.kind {
	case kFlush:
		for m := range a.mem {
			if !a.mem[m].failed || (a.rb != nil && a.rb.active && a.rb.member == m) {
				a.issue(o, nil, m, sim.Flush, 0, 0, nil)
			}
		}
	case kRead, kWrite:
		if o.kind == kRead && a.checkLost(o) {
			break // data a rebuild could not recover
		}
		switch a.m.Level {
		case RAID5, RAID6:
			a.startParity(o)
		default:
			a.startPlain(o)
		}
	case kRebuild:
		a.startRebuildStep(o)
	case kTrim:
		a.startTrim(o)
	case kRepair:
		a.startRepair(o)
	}
	o.pending--
	if o.pending == 0 {
		a.eng.After(0, &a.hFinish, o)
	}
}

// The array's events, each bound to its own handler once in New so that
// scheduling does not allocate; the event's argument is the thing it is
// about.
type (
	finishHandler  struct{ a *Array } // arg *op: an op with nothing left to do
	parityHandler  struct{ a *Array } // arg *stripeOp: parity computed, write out
	rebuildHandler struct{ a *Array } // arg *rebuild: the next rebuild step is due
	failHandler    struct{ a *Array } // arg *failEvent: a failure FailAt scheduled
	abortHandler   struct{ a *Array } // arg *child: a request its member's failure ended
)

func (h *finishHandler) HandleEvent(_ sim.Time, arg any)  { h.a.finish(arg.(*op)) }
func (h *parityHandler) HandleEvent(_ sim.Time, arg any)  { arg.(*stripeOp).writePhase() }
func (h *rebuildHandler) HandleEvent(_ sim.Time, arg any) { h.a.rebuildNext(arg.(*rebuild)) }
func (h *failHandler) HandleEvent(_ sim.Time, arg any)    { _ = h.a.Fail(arg.(*failEvent).member) }
func (h *abortHandler) HandleEvent(_ sim.Time, arg any)   { h.a.aborted(arg.(*child)) }

// slice returns the part of r.Data for logical bytes [off, off+n), or
// nil when r carries no data.
func dataSlice(r *sim.Request, off, n int64) []byte {
	if r == nil || r.Data == nil {
		return nil
	}
	i := off - r.Offset
	return r.Data[i : i+n : i+n]
}

// startPlain splits a read or write on RAID 0, 1 or 10 at stripe-unit
// boundaries.
func (a *Array) startPlain(o *op) {
	r := o.r
	for off := r.Offset; off < r.End(); {
		n := min(r.End()-off, a.u-off%a.u)
		ad := a.m.Locate(off)
		row := ad.Offset / a.u
		data := dataSlice(r, off, n)
		live := a.liveCopies(ad, row)
		switch {
		case live == 0:
			o.fail(a.lost(o, row))
		case o.kind == kRead:
			a.issue(o, nil, a.pickCopy(ad.Offset), sim.Read, ad.Offset, n, data)
		default:
			if live >= 2 && !o.mirrored {
				o.mirrored = true
				a.updatesInFlight++
			}
			for _, m := range a.cand {
				a.issue(o, nil, m, sim.Write, ad.Offset, n, data)
			}
		}
		off += n
	}
}

// liveCopies fills a.cand with the members that hold a good copy of
// address ad (stripe unit row) on RAID 0, 1 or 10, and returns how many.
func (a *Array) liveCopies(ad Addr, row int64) int {
	a.cand = a.cand[:0]
	switch a.m.Level {
	case RAID0:
		a.cand = append(a.cand, ad.Member)
	case RAID1:
		for m := range a.n {
			a.cand = append(a.cand, m)
		}
	case RAID10:
		a.cand = append(a.cand, ad.Member, ad.Member+1)
	}
	live := 0
	for _, m := range a.cand {
		if a.avail(m, row) {
			a.cand[live] = m
			live++
		}
	}
	a.cand = a.cand[:live]
	return live
}

// pickCopy chooses among a.cand (live copies) by the read policy.
func (a *Array) pickCopy(off int64) int {
	if len(a.cand) == 1 {
		return a.cand[0]
	}
	if a.cfg.ReadPolicy == ReadRoundRobin {
		a.rr++
		return a.cand[a.rr%len(a.cand)]
	}
	best := a.cand[0]
	dist := func(m int) int64 {
		d := a.mem[m].lastEnd - off
		if d < 0 {
			d = -d
		}
		return d
	}
	for _, m := range a.cand[1:] {
		bm, cm := &a.mem[best], &a.mem[m]
		if cm.outstanding < bm.outstanding || (cm.outstanding == bm.outstanding && dist(m) < dist(best)) {
			best = m
		}
	}
	return best
}

// lost returns ErrDataLost wrapped with the request and failed members.
func (a *Array) lost(o *op, row int64) error {
	var failed []int
	for i := range a.mem {
		if !a.avail(i, row) {
			failed = append(failed, i)
		}
	}
	return fmt.Errorf("raid: %s: %s: stripe %d: members %v have failed: %w", a.name, o.what(), row, failed, ErrDataLost)
}

// what names o in errors: its request, the read a repair serves, or a
// rebuild step.
func (o *op) what() string {
	switch {
	case o.r != nil:
		return o.r.String()
	case o.parent != nil && o.parent.r != nil:
		return o.parent.r.String()
	}
	return "rebuild"
}

func (o *op) fail(err error) {
	if o.err == nil {
		o.err = err
	}
}

// issue sends one request to member m on behalf of o (and of so, when
// it belongs to a stripe operation).
func (a *Array) issue(o *op, so *stripeOp, m int, kind sim.Op, off, n int64, data []byte) {
	c := a.getChild()
	c.o, c.so, c.member = o, so, m
	if kind == sim.Read && so == nil && data != nil {
		// A plain read goes through a buffer of the array's, so that a
		// member failing while it reads never fills the parent's bytes
		// after the parent has moved on (see abandon).
		c.dst, c.bounce = data, a.getBuf()
		data = c.bounce[:n]
	}
	q := &c.req
	q.Op, q.Offset, q.Length, q.Data, q.Err = kind, off, n, data, nil
	q.FUA = kind == sim.Write && o.r != nil && o.r.FUA
	ms := &a.mem[m]
	now := a.eng.Now()
	a.enter(c)
	if so != nil {
		so.pending++
	} else {
		o.pending++
	}
	a.obs.OnChild(a.name, o.r, q, m, now)
	if err := ms.dev.Submit(q); err != nil {
		a.leave(c)
		if so != nil {
			so.pending--
			so.failed = true
		} else {
			o.pending--
		}
		o.fail(fmt.Errorf("raid: %s: member %d refused %v: %w", a.name, m, q, err))
		a.putChild(c)
	}
}

// enter puts c on its member's list of requests in flight.
func (a *Array) enter(c *child) {
	ms := &a.mem[c.member]
	if ms.outstanding == 0 {
		ms.busySince = a.eng.Now()
	}
	ms.outstanding++
	c.slot = len(ms.open)
	ms.open = append(ms.open, c)
}

// leave takes c off its member's list of requests in flight.
func (a *Array) leave(c *child) {
	ms := &a.mem[c.member]
	last := ms.open[len(ms.open)-1]
	ms.open[c.slot], last.slot = last, c.slot
	ms.open[len(ms.open)-1] = nil
	ms.open = ms.open[:len(ms.open)-1]
	ms.outstanding--
	if ms.outstanding == 0 {
		ms.busy += a.eng.Now().Sub(ms.busySince)
	}
}

// onChildDone is the Done of every member request.
func (a *Array) onChildDone(q *sim.Request) {
	c := q.Ctx.(*child)
	if c.abandoned { // its member failed meanwhile: already dealt with
		c.devDone = true
		if c.aborted {
			a.putChild(c)
		}
		return
	}
	a.leave(c)
	a.childEnded(c, q.Err)
	a.putChild(c)
}

// childEnded moves c's parent on: the member served c (err nil), or it
// failed to, and the redundancy serves the parent instead where it can
// (a read from another copy or the parity, a write standing on the
// members left), as md does.
func (a *Array) childEnded(c *child, err error) {
	ms := &a.mem[c.member]
	o, so, q := c.o, c.so, &c.req
	if err != nil {
		ms.errors++
		a.memberError(c, err)
		if !a.absorb(c, err) {
			o.fail(fmt.Errorf("raid: %s: %s: member %d: %v: %w", a.name, o.what(), c.member, q, err))
			if so != nil {
				so.failed = true
			}
		}
	} else {
		switch q.Op {
		case sim.Read:
			ms.reads++
			ms.readBytes += q.Length
			ms.lastEnd = q.End()
			if c.dst != nil {
				copy(c.dst, q.Data)
			}
		case sim.Write:
			ms.writes++
			ms.writeBytes += q.Length
			ms.lastEnd = q.End()
		case sim.Trim:
		default:
			ms.flushes++
		}
	}
	if so != nil {
		so.pending--
		if so.pending == 0 {
			so.advance()
		}
		return
	}
	o.pending--
	if o.pending == 0 {
		a.finish(o)
	}
}

// opDone is called when a stripe operation of o ends.
func (a *Array) opDone(o *op) {
	o.pending--
	if o.pending == 0 {
		a.finish(o)
	}
}

// finish completes o: it leaves the ordering list (starting whatever
// waited for it) and its Done is called.
func (a *Array) finish(o *op) {
	if o.mirrored {
		a.updatesInFlight--
	}
	if o.kind == kRepair {
		if o.tracked {
			a.untrack(o)
		}
		parent := o.parent
		if o.err != nil {
			parent.fail(o.err)
		}
		a.putOp(o)
		a.opDone(parent)
		return
	}
	if o.kind == kRebuild {
		// Move the rebuild cursor before waking the writes that waited
		// for this step, so they see the stripe as rebuilt.
		a.rebuildStepDone(o.rb, o.err)
		if o.tracked {
			a.untrack(o)
		}
		a.putOp(o)
		return
	}
	if o.tracked {
		a.untrack(o)
	}
	r, err := o.r, o.err
	if o.degraded {
		a.ct.degradedReads++
	}
	if err != nil {
		a.ct.errors++
	} else if o.kind == kWrite && len(a.lostRanges) > 0 {
		a.lostRanges.remove(r.Offset, r.End()) // written good again
	}
	a.putOp(o)
	now := a.eng.Now()
	r.Completed = now
	r.Err = err
	a.obs.OnCompleted(a.name, r, now)
	r.Done(r)
}

func (a *Array) getOp() *op {
	if n := len(a.freeOps); n > 0 {
		o := a.freeOps[n-1]
		a.freeOps = a.freeOps[:n-1]
		return o
	}
	return new(op)
}

func (a *Array) putOp(o *op) {
	*o = op{}
	a.freeOps = append(a.freeOps, o)
}

func (a *Array) getChild() *child {
	if n := len(a.freeKids); n > 0 {
		c := a.freeKids[n-1]
		a.freeKids = a.freeKids[:n-1]
		return c
	}
	c := new(child)
	c.req.Done = a.childDone
	c.req.Ctx = c
	return c
}

func (a *Array) putChild(c *child) {
	a.putBuf(c.bounce)
	c.o, c.so, c.dst, c.bounce = nil, nil, nil, nil
	c.abandoned, c.aborted, c.devDone = false, false, false
	c.req.Data, c.req.Err = nil, nil
	a.freeKids = append(a.freeKids, c)
}

// getBuf returns a stripe-unit buffer (contents undefined).
func (a *Array) getBuf() []byte {
	if n := len(a.freeBufs); n > 0 {
		b := a.freeBufs[n-1]
		a.freeBufs = a.freeBufs[:n-1]
		return b
	}
	return make([]byte, a.u)
}

func (a *Array) putBuf(b []byte) {
	if b != nil {
		a.freeBufs = append(a.freeBufs, b[:a.u])
	}
}
