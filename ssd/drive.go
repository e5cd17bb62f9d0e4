package ssd

import (
	"fmt"
	"time"

	"github.com/raidsim/raidsim/sim"
)

// Model is a drive model checked once: Params with defaults filled and
// validated. Any number of drives can be built from it.
type Model struct {
	p Params
	g geometry
	// pre is the state each drive is put in when built.
	pre Precondition
}

// NewModel fills p's defaults and validates it, reporting every problem.
func NewModel(p Params) (*Model, error) {
	p.FillDefaults()
	if err := p.Validate(); err != nil {
		return nil, err
	}
	return &Model{p: p, g: newGeometry(&p)}, nil
}

// Params returns the model's parameters, defaults filled.
func (m *Model) Params() Params { return m.p }

// Capacity returns the user capacity in bytes, rounded down to sectors.
func (m *Model) Capacity() int64 {
	return m.p.Capacity
}

// SectorSize returns the logical sector size in bytes.
func (m *Model) SectorSize() int { return m.p.SectorSize }

// Drive is a simulated SSD: a sim.Device on one sim.Engine. Create it
// with New or Model.NewDrive. Not safe for concurrent use.
type Drive struct {
	eng  *sim.Engine
	p    Params
	name string
	obs  *sim.Observer
	g    geometry
	f    *ftl
	// explicit makes the FTL the reference page map of the tests:
	// preconditioning writes every unit and every overwrite, and every
	// written unit has a dense forward-map entry.
	explicit bool

	unitBytes    int64
	linkNsPerB   float64
	chanNsPerB   float64
	slcUnits     int64
	syncAlways   bool // no write buffer: every write waits for its program
	volatileBuf  bool // a buffer a power loss empties
	idleDelay    time.Duration
	linkIn       *sim.Time // host-to-drive link free at (SATA: same as linkOut)
	linkOut      *sim.Time
	links        [2]sim.Time
	ctrlFree     sim.Time
	chanFree     []sim.Time
	dies         []die
	slots        []slot
	freeSlots    []int32
	hostQ        queue[*sim.Request]
	bufWait      queue[int32]
	flushWait    []int32
	held         queue[int32] // dies holding a part page for more units (partialOK), oldest first
	bufUsed      int64        // bytes of the write buffer in use
	bufArea      float64      // integral of bufUsed over time since created, byte-nanoseconds
	bufSince     sim.Time     // when bufArea was last brought up to date
	slcUsed      int64        // units held in SLC mode
	outstanding  int
	release      bool // program: the die is released to program a part page (releaseOldest)
	busySince    sim.Time
	idleSince    sim.Time
	base         ftlStats // FTL counters when the run began (after preconditioning)
	gcProgrammed int64    // GC copies programmed: with the host write that forced them, or when background work ends
	st           Stats
	data         store
	hDone        doneHandler
	hDie         dieHandler
	hIdle        idleHandler
	hRead        readHandler
	unitXfer     sim.Time // one unit's channel transfer
	precondition PreconditionResult
}

// die is one die's timing state and program queue.
type die struct {
	idx   int
	ch    int
	free  sim.Time // busy until
	q     queue[pend]
	rq    queue[int32] // slots of page reads in flight, in order
	busy  bool         // an operation's completion event is pending
	batch int          // units of the program in flight (0: background work)
	// Foreground garbage collection's die time, owed: a host write that
	// opens a block collects garbage at once in the FTL, and the die
	// pays the time in equal shares with the programs of that block's
	// units, as controllers interleave collection with host writes,
	// instead of stalling every write queued on the die (and, the buffer
	// filling, the whole drive) for the block's worth of copies.
	gcSpare  time.Duration // owed, not yet shared out to units
	gcCopies int           // the copies it covers
	gcLeft   int           // units of the block still to take a share
	gcFlight int           // GC copies done by the operation in flight, counted when it ends
	held     bool          // in Drive.held
	// gcDue is the GC time the units programmed took as their shares,
	// covering gcDueMoves copies, paid a slice at a time between the
	// die's other operations, so that reads wait for a slice at most.
	gcDue      time.Duration
	gcDueMoves int
	slow       bool // next MLC page is a slow (MSB) page
	allocSeq   uint64
	progSeq    uint64
	// spans are the die's busy times not yet over when last reserved, in
	// time order (each starts when the one before ends, or later).
	spans queue[span]
}

// pend is one unit waiting for its program.
type pend struct {
	ppn   int64
	ready sim.Time      // when the controller handed it to the die
	slot  int32         // request waiting for it, or -1
	held  bool          // occupies the write buffer
	gc    time.Duration // its share of foreground GC's die time, paid with its program
	moves int32         // the GC copies that share covers
}

// slot is one queued command (an NCQ tag).
type slot struct {
	r          *sim.Request
	idx        int32
	remaining  int      // units a synchronous write still waits for
	ackAt      sim.Time // earliest completion
	flushSeq   []uint64 // per die: units a flush waits for
	bufWaiting bool
	buffered   bool     // a write acknowledged from the buffer
	tAdmit     sim.Time // when it got its tag (a write: its buffer room)
	tCtrl      sim.Time // when the controller finished with it
}

type doneHandler struct{ d *Drive }
type dieHandler struct{ d *Drive }
type idleHandler struct{ d *Drive }
type readHandler struct{ d *Drive }

func (h *doneHandler) HandleEvent(now sim.Time, arg any) { h.d.finish(arg.(*slot), now) }
func (h *dieHandler) HandleEvent(now sim.Time, arg any)  { h.d.dieDone(arg.(*die), now) }
func (h *idleHandler) HandleEvent(now sim.Time, _ any)   { h.d.kickIdle(now) }
func (h *readHandler) HandleEvent(now sim.Time, arg any) { h.d.readDone(arg.(*die), now) }

// New returns a drive with parameters p (defaults filled) on eng, named
// name in errors and observer calls. obs may be nil.
func New(eng *sim.Engine, p Params, name string, obs *sim.Observer) (*Drive, error) {
	m, err := NewModel(p)
	if err != nil {
		return nil, fmt.Errorf("ssd %s: %w", name, err)
	}
	return m.NewDrive(eng, name, obs)
}

// NewDrive makes a drive of the model on eng: fresh out of the box, or
// preconditioned as the model says (WithPrecondition).
func (m *Model) NewDrive(eng *sim.Engine, name string, obs *sim.Observer) (*Drive, error) {
	if eng == nil {
		return nil, fmt.Errorf("ssd %s: nil engine", name)
	}
	p := m.p
	d := &Drive{eng: eng, p: p, name: name, obs: obs, g: m.g, f: newFTL(&p, false)}
	d.unitBytes = d.g.unitSize
	d.linkNsPerB = 1e9 / p.LinkRate
	d.chanNsPerB = 1e9 / p.ChannelRate
	d.slcUnits = p.SLCCache / d.unitBytes
	d.syncAlways = p.WriteBuffer == 0
	d.volatileBuf = p.WriteBuffer > 0 && !p.PowerLossProtection
	d.idleDelay = defaultIdleDelay
	d.linkIn, d.linkOut = &d.links[0], &d.links[0]
	if p.Interface == NVMe {
		d.linkOut = &d.links[1]
	}
	d.chanFree = make([]sim.Time, p.Channels)
	d.dies = make([]die, d.g.dies)
	for i := range d.dies {
		d.dies[i] = die{idx: i, ch: i % p.Channels}
		// The rings grow by doubling to their working size (at most the
		// buffer and a full queue on one die), then are reused.
		d.dies[i].q.grow(16)
		d.dies[i].rq.grow(16)
	}
	d.slots = make([]slot, p.QueueDepth)
	d.freeSlots = make([]int32, 0, p.QueueDepth)
	for i := p.QueueDepth - 1; i >= 0; i-- {
		d.slots[i] = slot{idx: int32(i)}
		d.freeSlots = append(d.freeSlots, int32(i))
	}
	d.hostQ.grow(16)
	d.bufWait.grow(16)
	d.flushWait = make([]int32, 0, p.QueueDepth)
	d.held.grow(d.g.dies)
	d.data.unit = d.unitBytes
	d.hDone.d, d.hDie.d, d.hIdle.d, d.hRead.d = d, d, d, d
	d.unitXfer = sim.Time(float64(d.unitBytes) * d.chanNsPerB)
	d.idleSince = eng.Now()
	d.st.created = eng.Now()
	d.bufSince = eng.Now()
	if m.pre != FreshOutOfBox {
		if _, err := d.Precondition(m.pre); err != nil {
			return nil, err
		}
	}
	return d, nil
}

// defaultIdleDelay is how long the drive waits with no command before
// background work (garbage collection, SLC migration) starts. Inferred:
// firmware idle timers of tens of microseconds to milliseconds; 1 ms keeps
// background work out of the gaps of a queue-depth-1 benchmark.
const defaultIdleDelay = time.Millisecond

// Name returns the drive's name.
func (d *Drive) Name() string { return d.name }

// Params returns the drive's parameters, defaults filled.
func (d *Drive) Params() Params { return d.p }

// Capacity returns the user capacity in bytes.
func (d *Drive) Capacity() int64 { return d.p.Capacity }

// SectorSize returns the logical sector size in bytes.
func (d *Drive) SectorSize() int { return d.p.SectorSize }

// VolatileBytes returns the bytes of written data held only in a write
// buffer a power loss empties (0 with PowerLossProtection or no buffer).
func (d *Drive) VolatileBytes() int64 {
	if !d.volatileBuf {
		return 0
	}
	return d.bufUsed
}

// DirtyBytes is VolatileBytes, under the disk's name for the power-loss
// view.
func (d *Drive) DirtyBytes() int64 { return d.VolatileBytes() }

// Submit queues r (see sim.Device).
func (d *Drive) Submit(r *sim.Request) error {
	if err := sim.CheckRequest(r, d.p.Capacity, d.p.SectorSize); err != nil {
		return fmt.Errorf("ssd %s: %w", d.name, err)
	}
	now := d.eng.Now()
	r.Issued, r.Completed, r.Err = now, 0, nil
	d.obs.OnSubmitted(d.name, r, now)
	if d.outstanding == 0 {
		d.busySince = now
	}
	d.outstanding++
	if len(d.freeSlots) > 0 && d.hostQ.n == 0 {
		d.admit(r, now)
	} else {
		d.hostQ.push(r)
	}
	return nil
}

// admit gives r a tag and starts serving it.
func (d *Drive) admit(r *sim.Request, now sim.Time) {
	n := len(d.freeSlots)
	s := &d.slots[d.freeSlots[n-1]]
	d.freeSlots = d.freeSlots[:n-1]
	s.r, s.remaining, s.ackAt, s.buffered, s.tAdmit, s.tCtrl = r, 0, now, false, now, now
	switch r.Op {
	case sim.Read:
		d.startRead(s, now)
	case sim.Write:
		d.startWrite(s, now)
	case sim.Trim:
		d.startTrim(s, now)
	case sim.Flush:
		d.startFlush(s, now)
	}
}

func (d *Drive) linkTime(bytes int64) sim.Time {
	return sim.Time(int64(d.p.LinkCommandTime) + int64(float64(bytes)*d.linkNsPerB))
}

// units returns the first and one-past-last map units r touches.
func (d *Drive) units(r *sim.Request) (int64, int64) {
	return r.Offset / d.unitBytes, (r.End() + d.unitBytes - 1) / d.unitBytes
}

// startRead charges the controller and queues each unit's page read on
// its die (units in the write buffer or never written need none); as
// each die read ends, its channel transfer follows (readDone), and the
// link transfer once all have arrived.
func (d *Drive) startRead(s *slot, now sim.Time) {
	t := max(now.Add(d.p.CommandLatency), d.ctrlFree)
	d.ctrlFree = t.Add(d.p.ReadCost)
	t = d.ctrlFree
	s.ackAt, s.tCtrl = t, t
	lastPage := int64(-1)
	first, end := d.units(s.r)
	for u := first; u < end; u++ {
		ppn, buffered, ok := d.f.lookup(u)
		if !ok {
			d.st.UnmappedReads++
			continue
		}
		if buffered {
			d.st.BufferReadHits++
			continue
		}
		dd := &d.dies[d.dieOfSlot(ppn)]
		if page := ppn / int64(d.g.unitsPerProgram); page != lastPage { // a multi-plane read
			lastPage = page
			d.reserve(dd, t, d.p.ReadTime)
			d.st.FlashReads++
		}
		s.remaining++
		dd.rq.push(s.idx)
		d.eng.Schedule(dd.free, &d.hRead, dd)
	}
	if s.remaining == 0 {
		d.sendRead(s)
	}
}

// readDone ends the oldest page read of die dd: its unit crosses the
// channel, and when it was the request's last the link transfer follows.
func (d *Drive) readDone(dd *die, now sim.Time) {
	s := &d.slots[dd.rq.pop()]
	c := max(now, d.chanFree[dd.ch]) + d.unitXfer
	d.chanFree[dd.ch] = c
	s.ackAt = max(s.ackAt, c)
	if s.remaining--; s.remaining == 0 {
		d.sendRead(s)
	}
}

// sendRead reserves the link for s's data and schedules its completion.
func (d *Drive) sendRead(s *slot) {
	l := max(s.ackAt, *d.linkOut) + d.linkTime(s.r.Length)
	*d.linkOut = l
	d.eng.Schedule(l, &d.hDone, s)
}

func (d *Drive) dieOfSlot(ppn int64) int {
	return int(ppn / int64(d.g.unitsPerBlock) / int64(d.g.blocksPerDie))
}

// startWrite admits a write into the buffer (waiting for room when it is
// full) or, write-through, straight to the dies.
func (d *Drive) startWrite(s *slot, now sim.Time) {
	r := s.r
	first, end := d.units(r)
	bytes := (end - first) * d.unitBytes
	// A write of more than half the buffer goes straight to the dies
	// (completing once programmed): buffered, it would hold the buffer
	// alone and serialize a stream of such writes.
	sync := d.syncAlways || 2*bytes > d.p.WriteBuffer || (r.FUA && !d.p.PowerLossProtection)
	if !sync && (d.bufWait.n > 0 || d.bufUsed+bytes > d.p.WriteBuffer) {
		s.bufWaiting = true
		d.st.BufferStalls++
		d.bufWait.push(s.idx)
		d.releaseHeld(now)
		return
	}
	d.writeIn(s, now, sync, first, end)
}

// writeIn moves a write's data over the link, charges the controller,
// maps its units and queues them on their dies.
func (d *Drive) writeIn(s *slot, now sim.Time, sync bool, first, end int64) {
	r := s.r
	l := max(now.Add(d.p.CommandLatency), *d.linkIn) + d.linkTime(r.Length)
	*d.linkIn = l
	s.ackAt, s.tAdmit = l, now
	c := max(l, d.ctrlFree).Add(d.p.WriteCost)
	d.ctrlFree, s.tCtrl = c, c
	d.accrueBuffer(now)
	owner := int32(-1)
	if sync {
		owner = s.idx
		s.remaining = int(end - first)
	}
	for u := first; u < end; u++ {
		var w gcWork
		ppn := d.f.write(u, true, &w)
		dd := &d.dies[d.dieOfSlot(ppn)]
		if w.moves > 0 || w.erases > 0 {
			d.owe(dd, w)
		}
		if !sync {
			d.bufUsed += d.unitBytes
		}
		gc, moves := d.share(dd)
		dd.q.push(pend{ppn: ppn, ready: c, slot: owner, held: !sync, gc: gc, moves: moves})
		dd.allocSeq++
	}
	for u := first; u < min(end, first+int64(d.g.dies*d.g.unitsPerProgram)); u++ {
		if dd := &d.dies[d.f.dieOf(u)]; !dd.busy {
			d.program(dd, now)
		}
	}
	if 2*d.bufUsed > d.p.WriteBuffer {
		d.releaseOldest(now)
	}
	s.buffered = !sync
	d.st.BufferPeakBytes = max(d.st.BufferPeakBytes, d.bufUsed)
	if !sync {
		d.eng.Schedule(l, &d.hDone, s)
	}
}

// gcTime is the die time of the reads, programs (on-die copyback, no
// channel transfer: inferred) and erases of garbage collection's work w.
func (d *Drive) gcTime(w gcWork) time.Duration {
	upp, upg := d.g.unitsPerPage, d.g.unitsPerProgram
	return time.Duration((w.moves+upp-1)/upp)*d.p.ReadTime +
		time.Duration((w.moves+upg-1)/upg)*d.nativeProgram() +
		time.Duration(w.erases)*d.p.EraseTime
}

// owe adds foreground garbage collection's work w to die dd's debt, to
// be shared out over the next block's worth of host units (inferred
// pacing: by then the die opens another host block and collects again).
func (d *Drive) owe(dd *die, w gcWork) {
	dd.gcSpare += d.gcTime(w)
	dd.gcCopies += w.moves
	dd.gcLeft = d.g.unitsPerBlock
}

// share hands the next host unit of die dd its share of the debt.
func (d *Drive) share(dd *die) (time.Duration, int32) {
	if dd.gcLeft == 0 {
		return 0, 0
	}
	t := dd.gcSpare / time.Duration(dd.gcLeft)
	m := dd.gcCopies / dd.gcLeft
	dd.gcSpare -= t
	dd.gcCopies -= m
	if dd.gcLeft--; dd.gcLeft == 0 { // the last takes the rounding
		t, m = t+dd.gcSpare, m+dd.gcCopies
		dd.gcSpare, dd.gcCopies = 0, 0
	}
	return t, int32(m)
}

// payGC occupies die dd from now with t of garbage collection covering
// moves copies.
func (d *Drive) payGC(dd *die, now sim.Time, t time.Duration, moves int) {
	if t <= 0 && moves == 0 {
		return
	}
	dd.gcFlight += moves
	d.reserve(dd, now, t)
	d.st.GCTime += t
}

// reserve occupies die dd for t from from (or from when it is next
// free), noting the span for Stats.DieTime.
func (d *Drive) reserve(dd *die, from sim.Time, t time.Duration) {
	start := max(from, dd.free)
	dd.free = start.Add(t)
	now := d.eng.Now()
	for dd.spans.n > 0 && dd.spans.at(0).end <= now { // spans over, counted
		sp := dd.spans.pop()
		d.st.DieTime += sp.end.Sub(sp.start)
	}
	if t > 0 {
		dd.spans.push(span{start, dd.free})
	}
}

// span is a time a die is busy.
type span struct{ start, end sim.Time }

// accrueBuffer brings the buffer's occupancy integral up to now, before
// bufUsed changes.
func (d *Drive) accrueBuffer(now sim.Time) {
	d.bufArea += float64(d.bufUsed) * float64(now.Sub(d.bufSince))
	d.bufSince = now
}

// nativeProgram is the mean program time of a page in the native mode.
func (d *Drive) nativeProgram() time.Duration {
	if d.p.ProgramTimeSlow > 0 {
		return (d.p.ProgramTime + d.p.ProgramTimeSlow) / 2
	}
	return d.p.ProgramTime
}

// program starts the next multi-plane program of die dd, if units wait:
// a whole page's worth, or a part page when partialOK allows it (else the
// die holds its units for more).
func (d *Drive) program(dd *die, now sim.Time) {
	n := min(dd.q.n, d.g.unitsPerProgram)
	if n == 0 {
		return
	}
	if dd.gcDue > 0 || dd.gcDueMoves > 0 {
		d.payDue(dd, now) // the last program's share of GC first; the program follows (dieDone)
		return
	}
	if n < d.g.unitsPerProgram && !d.partialOK(dd, n, now) {
		if !dd.held {
			dd.held = true
			d.held.push(int32(dd.idx))
		}
		return
	}
	dd.held = false
	ready := now
	var gc time.Duration
	moves := 0
	for i := range n {
		p := dd.q.at(i)
		ready = max(ready, p.ready)
		gc += p.gc
		moves += int(p.moves)
	}
	c := max(ready, d.chanFree[dd.ch]) + sim.Time(float64(int64(n)*d.unitBytes)*d.chanNsPerB)
	d.chanFree[dd.ch] = c
	dd.gcDue += gc // the units' share of GC, paid in slices after the program (dieDone)
	dd.gcDueMoves += moves
	tp := d.p.ProgramTime
	switch {
	case d.slcUnits > 0 && d.slcUsed+int64(n) <= d.slcUnits:
		tp = d.p.SLCProgramTime
		d.slcUsed += int64(n)
		d.st.SLCUnits += int64(n)
	case d.p.ProgramTimeSlow > 0:
		if dd.slow {
			tp = d.p.ProgramTimeSlow
		}
		dd.slow = !dd.slow
	}
	d.reserve(dd, c, tp)
	dd.busy, dd.batch = true, n
	d.st.Programs++
	d.eng.Schedule(dd.free, &d.hDie, dd)
}

// partialOK reports whether die dd may program its n queued units, fewer
// than a (multi-plane) page: when a request waits for one of them (a
// write-through or FUA write), a flush waits, a write waits for buffer
// room, the drive has been idle for the idle delay, or the die is the one
// released because the buffer is over half full (releaseOldest).
// Otherwise the units wait in the buffer for the rest of the page, as
// controllers fill a program unit before programming it (inferred: a
// die that programmed whatever it held when it would otherwise idle
// spent a whole TLC program on a single 4 KiB write at light load).
func (d *Drive) partialOK(dd *die, n int, now sim.Time) bool {
	if d.release || d.bufWait.n > 0 || len(d.flushWait) > 0 || d.outstanding == 0 && now >= d.idleSince.Add(d.idleDelay) {
		return true
	}
	for i := range n {
		if dd.q.at(i).slot >= 0 {
			return true
		}
	}
	return false
}

// releaseHeld starts the programs of the dies holding part pages, now
// that partialOK allows them all.
func (d *Drive) releaseHeld(now sim.Time) {
	for d.held.n > 0 {
		if dd := &d.dies[d.held.pop()]; dd.held {
			dd.held = false
			if !dd.busy {
				d.program(dd, now)
			}
		}
	}
}

// releaseOldest starts the program of the die that has held its part
// page longest (so has gathered the most of it), as the buffer is over
// half full: one die a write keeps the buffer about half full of pages
// filling up.
func (d *Drive) releaseOldest(now sim.Time) {
	for d.held.n > 0 {
		dd := &d.dies[d.held.pop()]
		if !dd.held {
			continue // programmed since
		}
		dd.held = false
		if !dd.busy {
			d.release = true
			d.program(dd, now)
			d.release = false
			return
		}
	}
}

// dieDone ends die dd's operation: a program's units are on flash, their
// buffer space is free, writes and flushes waiting for them may finish.
func (d *Drive) dieDone(dd *die, now sim.Time) {
	n := dd.batch
	dd.batch = 0
	d.accrueBuffer(now)
	// dd stays busy while its units retire: a write that a completion
	// below admits must not start a program on it before they are gone.
	for range n {
		p := dd.q.pop()
		d.f.programmed(p.ppn)
		d.st.ProgramUnits++
		if p.held {
			d.bufUsed -= d.unitBytes
		}
		if p.slot >= 0 {
			s := &d.slots[p.slot]
			if s.remaining--; s.remaining == 0 {
				d.complete(s, now)
			}
		}
	}
	dd.progSeq += uint64(n)
	d.gcProgrammed += int64(dd.gcFlight) // GC copies done with the operation
	dd.gcFlight = 0
	dd.busy = false
	d.wakeBuffer(now)
	d.checkFlushes(now)
	switch {
	case dd.busy: // a write admitted just now started its program
	case dd.gcDue > 0 || dd.gcDueMoves > 0:
		d.payDue(dd, now)
	case dd.q.n > 0:
		d.program(dd, now)
	default:
		d.background(dd, now)
	}
}

// payDue occupies die dd with a slice of the GC time its programmed units
// took as their shares, about a program's worth of copies.
func (d *Drive) payDue(dd *die, now sim.Time) {
	d.payGCSlice(dd, now, &dd.gcDue, &dd.gcDueMoves)
}

// payGCSlice occupies die dd with a slice of a GC debt of owed time
// covering copies copies: about a program's worth of copies, the
// copies in proportion to the time. It takes the slice off both and
// reports whether the debt is now paid (copies then 0).
func (d *Drive) payGCSlice(dd *die, now sim.Time, owed *time.Duration, copies *int) (paid bool) {
	t := min(*owed, d.gcTime(gcWork{moves: d.g.unitsPerProgram}))
	moves := *copies
	if t < *owed {
		moves = int(int64(*copies) * int64(t) / int64(*owed))
	}
	d.payGC(dd, now, t, moves)
	*owed -= t
	*copies -= moves
	if *owed == 0 {
		*copies = 0
	}
	dd.busy, dd.batch = true, 0
	d.eng.Schedule(dd.free, &d.hDie, dd)
	return *owed == 0
}

// complete finishes s now, or at its acknowledgement time if later.
func (d *Drive) complete(s *slot, now sim.Time) {
	if s.ackAt > now {
		d.eng.Schedule(s.ackAt, &d.hDone, s)
		return
	}
	d.finish(s, now)
}

// wakeBuffer admits waiting writes, in order, while the buffer has room.
func (d *Drive) wakeBuffer(now sim.Time) {
	for d.bufWait.n > 0 {
		s := &d.slots[d.bufWait.at(0)]
		first, end := d.units(s.r)
		if d.bufUsed+(end-first)*d.unitBytes > d.p.WriteBuffer {
			return
		}
		d.bufWait.pop()
		s.bufWaiting = false
		d.writeIn(s, now, false, first, end)
	}
}

// startTrim unmaps the units r covers whole and completes after the
// command's link and controller time.
func (d *Drive) startTrim(s *slot, now sim.Time) {
	r := s.r
	l := max(now.Add(d.p.CommandLatency), *d.linkIn) + d.linkTime(0)
	*d.linkIn = l
	c := max(l, d.ctrlFree).Add(d.p.TrimCost)
	d.ctrlFree = c
	first := (r.Offset + d.unitBytes - 1) / d.unitBytes
	end := r.End() / d.unitBytes
	for u := first; u < end; u++ {
		d.f.trim(u)
	}
	d.eng.Schedule(c, &d.hDone, s)
}

// startFlush completes at once when nothing acknowledged is volatile,
// else when every unit queued on any die before it is programmed.
func (d *Drive) startFlush(s *slot, now sim.Time) {
	l := max(now.Add(d.p.CommandLatency), *d.linkIn) + d.linkTime(0)
	*d.linkIn = l
	s.ackAt = l
	if !d.volatileBuf || d.flushDone(s) {
		d.eng.Schedule(l, &d.hDone, s)
		return
	}
	if s.flushSeq == nil {
		s.flushSeq = make([]uint64, len(d.dies))
	}
	for i := range d.dies {
		s.flushSeq[i] = d.dies[i].allocSeq
	}
	d.flushWait = append(d.flushWait, s.idx)
	d.releaseHeld(now)
}

func (d *Drive) flushDone(s *slot) bool {
	if s.flushSeq == nil {
		return d.bufUsed == 0
	}
	for i := range d.dies {
		if d.dies[i].progSeq < s.flushSeq[i] {
			return false
		}
	}
	return true
}

func (d *Drive) checkFlushes(now sim.Time) {
	k := 0
	for _, i := range d.flushWait {
		s := &d.slots[i]
		if d.flushDone(s) {
			d.complete(s, now)
			continue
		}
		d.flushWait[k] = i
		k++
	}
	d.flushWait = d.flushWait[:k]
}

// finish completes s's request: its data moves, counters, the tag frees,
// a queued request takes it, and Done runs.
func (d *Drive) finish(s *slot, now sim.Time) {
	r := s.r
	ph := *s // its times, before a queued request takes the slot
	s.r = nil
	d.count(s, r)
	d.freeSlots = append(d.freeSlots, s.idx)
	d.outstanding--
	if d.hostQ.n > 0 {
		d.admit(d.hostQ.pop(), now)
	}
	if d.outstanding == 0 {
		d.idleSince = now
		d.st.BusyTime += now.Sub(d.busySince)
		d.eng.Schedule(now.Add(d.idleDelay), &d.hIdle, nil)
	}
	r.Completed = now
	if d.obs != nil {
		d.emitPhases(r, ph, now)
	}
	d.obs.OnCompleted(d.name, r, now)
	r.Done(r)
}

// emitPhases tells the observer where r's time went: waiting for a tag
// (or buffer room), the controller, flash (page reads with their channel
// transfers, or the programs a write-through waits for) and the link.
func (d *Drive) emitPhases(r *sim.Request, ph slot, now sim.Time) {
	o, n := d.obs, d.name
	o.OnPhase(n, r, sim.PhaseQueue, r.Issued, ph.tAdmit)
	switch r.Op {
	case sim.Read:
		o.OnPhase(n, r, sim.PhaseOverhead, ph.tAdmit, ph.tCtrl)
		o.OnPhase(n, r, sim.PhaseMedia, ph.tCtrl, ph.ackAt)
		o.OnPhase(n, r, sim.PhaseBus, ph.ackAt, now)
	case sim.Write:
		o.OnPhase(n, r, sim.PhaseBus, ph.tAdmit, ph.ackAt)
		if ph.buffered {
			o.OnPhase(n, r, sim.PhaseCacheHit, ph.ackAt, now)
			return
		}
		o.OnPhase(n, r, sim.PhaseOverhead, ph.ackAt, ph.tCtrl)
		o.OnPhase(n, r, sim.PhaseMedia, ph.tCtrl, now)
	default:
		o.OnPhase(n, r, sim.PhaseOverhead, ph.tAdmit, now)
	}
}

// count adds s's request r to the counters and moves its bytes.
func (d *Drive) count(s *slot, r *sim.Request) {
	switch r.Op {
	case sim.Read:
		d.st.Reads++
		d.st.ReadBytes += r.Length
		if r.Data != nil {
			d.data.read(r.Data, r.Offset)
		}
	case sim.Write:
		if s.buffered {
			d.st.BufferedWrites++
		}
		d.st.Writes++
		d.st.WriteBytes += r.Length
		if r.Data != nil {
			d.data.write(r.Data, r.Offset)
		}
	case sim.Trim:
		d.st.Trims++
		d.st.TrimBytes += r.Length
		d.data.zero(r.Offset, r.Length)
	case sim.Flush:
		d.st.Flushes++
	}
}

// kickIdle starts background work on idle dies once the drive has had no
// command for the idle delay.
func (d *Drive) kickIdle(now sim.Time) {
	if d.outstanding != 0 || now < d.idleSince.Add(d.idleDelay) {
		return
	}
	d.releaseHeld(now)
	for i := range d.dies {
		if dd := &d.dies[i]; !dd.busy && dd.q.n == 0 {
			d.background(dd, now)
		}
	}
}

// paySlice occupies idle die dd with a slice of the garbage collection
// time it owes, about a program's worth of copies, so that a command
// arriving meanwhile waits for a slice, not for the whole debt.
func (d *Drive) paySlice(dd *die, now sim.Time) {
	if d.payGCSlice(dd, now, &dd.gcSpare, &dd.gcCopies) {
		dd.gcLeft = 0
	}
}

// background does one step of idle work on die dd: pay a slice of the
// garbage collection time it owes (paySlice), else move a program's worth
// of SLC data to native cells, else clean a block, owing its time, while
// the die is short of free blocks. Each step is about a program long.
func (d *Drive) background(dd *die, now sim.Time) {
	if d.outstanding != 0 || now < d.idleSince.Add(d.idleDelay) {
		return
	}
	var t time.Duration
	switch {
	case dd.gcSpare > 0 || dd.gcCopies > 0:
		d.paySlice(dd, now)
		return
	case d.slcUsed > 0:
		n := min(d.slcUsed, int64(d.g.unitsPerProgram))
		d.slcUsed -= n
		d.st.SLCMigratedUnits += n
		t = d.p.ReadTime + d.nativeProgram()
	case d.f.freeBlocks(dd.idx) < d.p.GCBackgroundBlocks:
		// One victim at a time, its time owed and paid in slices like
		// foreground collection's, so a command that arrives meanwhile
		// waits for a slice, not for the block.
		var w gcWork
		if !d.f.collect(dd.idx, &w) {
			return
		}
		d.st.BackgroundGCs++
		dd.gcSpare += d.gcTime(w)
		dd.gcCopies += w.moves
		d.paySlice(dd, now)
		return
	default:
		return
	}
	d.reserve(dd, now, t)
	dd.busy, dd.batch = true, 0
	d.eng.Schedule(dd.free, &d.hDie, dd)
}
