package cache

import (
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/raidsim/raidsim/sim"
)

// Cache is a volume cache in front of a sim.Device: a controller or host
// memory write-back cache. It implements sim.Device with the capacity and
// sector size of the device below. Make one with New.
type Cache struct {
	eng   *sim.Engine
	cfg   Config
	below sim.Device
	name  string
	obs   *sim.Observer
	ss    int64
	cap   int64

	stripe int64 // full-stripe bytes destages align to, or 0

	dirty *extentTree // acknowledged data not yet sent below
	busy  *extentTree // writes in flight below (destages, write-through, FUA)
	clean *extentTree // data equal to the device's
	lrw   list        // dirty extents, least recently written first
	age   list        // dirty extents, oldest first
	rp    replacer    // clean extents in eviction order

	live      epochs   // dirty and destaging extents per flush epoch
	epoch     uint64   // epoch of new writes; a flush starts the next
	flushes   []*host  // flushes waiting for their epoch to drain
	stalled   []*host  // write-back writes waiting for room
	blocked   []*host  // write-arounds waiting for an overlapping write below
	misses    []*child // reads in flight below (host misses and read-ahead)
	parked    []parked // host reads waiting for a read-ahead in flight
	missKids  []*child // scratch: the misses of one read
	reserved  int64    // room promised to writes whose ack is pending
	stallFrom sim.Time // when the stalled queue last became non-empty
	destaging int64    // memory charged to destages in flight
	destBytes int64    // bytes of destages in flight

	// missAt holds the ranges of misses, index for index, so that a
	// scan for those a range overlaps reads one small array instead of
	// every child; prefetching counts the read-aheads among them.
	missAt      []Extent
	prefetching int

	outstanding int      // destages in flight
	cursor      int64    // C-SCAN position
	draining    bool     // watermark hysteresis
	tickPending bool     // Interval tick scheduled
	idleTimer   bool     // Idle timer scheduled
	idleNow     bool     // Idle: quiet long enough, destaging
	lastHost    sim.Time // last host request arrival
	lastReadEnd int64    // end of the previous read, for read-ahead

	hostFree  freeList[host]
	childFree freeList[child]
	extFree   freeList[extent]
	merge     []*extent // scratch
	pk        pickState
	// exhaustive makes pick consider every candidate its window allows,
	// without the shortcuts that skip what cannot change its choice
	// (tests compare the two).
	exhaustive bool

	childDone func(*sim.Request)
	// The cache's events, each a small handler bound once in New, as the
	// drive and the array bind theirs: scheduling allocates nothing.
	hComplete completeHandler
	hAck      ackHandler
	hTick     tickHandler
	hIdle     idleHandler
	hReject   rejectHandler
	copier    copyEngine // the memory bandwidth hits and absorbed writes share

	// The tier (NewOnDevice): the device holding the data, its
	// journal, and the host read's tier reads being gathered.
	tier    sim.Device
	jr      journal
	hitKids []*child
	// The sequential stream the cutoff follows: where it ends and how
	// long it has run, in bytes.
	seqEnd, seqRun int64

	st   Stats
	dacc dirtyAcc
	// fullAt is when the cache's memory (or tier) first filled: the
	// first time room had to be made. ResetStats leaves it.
	fullAt sim.Time
	// statsFrom is when the statistics last started (ResetStats).
	statsFrom sim.Time
	// droppedWrites is the share of absorbed writes whose dirty data was
	// superseded by a write sent around the cache or lost in a crash:
	// it left the cache without a destage (see Stats.CoalescedWrites).
	droppedWrites float64
	// failedDestages are the ranges of acknowledged data lost because
	// the device below failed their destage (LostRanges).
	failedDestages []Extent
}

// host is the cache's record of one request from above.
type host struct {
	r          *sim.Request
	pending    int      // children in flight
	readyAt    sim.Time // hit service ends
	need       int64    // room reserved (write-back write)
	stallStart sim.Time
	epoch      uint64 // flush: the last epoch it waits for
	err        error
	hitBytes   int64
	sequential bool // read: starts where the previous read ended
	bypass     bool // the request is past Config.SequentialCutoff
}

// child kinds.
const (
	kindMiss      = iota // read of missing data for a host read
	kindDestage          // destage write
	kindAround           // write-through, FUA or bypass write of a host write
	kindFlush            // flush passed below
	kindPass             // Off mode: the host request passed through
	kindPrefetch         // read-ahead, no host waits for it
	kindTierRead         // read of a hit's data from the tier
	kindTierWrite        // write of an absorbed write's data to the tier
	kindTierFill         // write of data read below to the tier
	kindStage            // read of a destage's data from the tier
	kindJournal          // journal write on the tier
	kindTierFlush        // flush of the tier, for a host flush
)

// child is a request the cache submits below.
type child struct {
	sim.Request
	kind  uint8
	h     *host
	ext   *extent // busy extent of a destage or write-around
	off   int64   // miss: the host range the child serves
	end   int64
	stale bool // miss: a write to the range arrived meanwhile
	idx   int  // miss: index in Cache.misses
	// bypass marks a miss of a read past the sequential cutoff: what it
	// reads is not kept.
	bypass bool
	// owner is the absorbed write a tier write carries (which waits for
	// the journal, not for this child).
	owner *host
}

// Striped is implemented by devices that stripe data (a RAID array).
// With AlignStripe and no geometry in the Config, New takes the stripe
// size from a device below that implements it.
type Striped interface {
	// FullStripe returns the data bytes of one stripe.
	FullStripe() int64
}

// New returns a cache on eng in front of below. name labels the cache for
// the observer, which may be nil. It fills cfg's defaults and reports
// every problem with cfg and the arguments at once.
func New(eng *sim.Engine, cfg Config, below sim.Device, name string, obs *sim.Observer) (*Cache, error) {
	if st, ok := below.(Striped); ok && cfg.Align == AlignStripe && cfg.FullStripe == 0 && cfg.StripeUnit*int64(cfg.DataMembers) == 0 {
		cfg.FullStripe = st.FullStripe()
	}
	cfg = cfg.WithDefaults()
	errs := []error{cfg.Validate()}
	if eng == nil {
		errs = append(errs, errors.New("cache: New needs an engine, got nil"))
	}
	if below == nil {
		errs = append(errs, errors.New("cache: New needs a device below, got nil"))
	} else {
		ss := int64(below.SectorSize())
		if ss <= 0 {
			errs = append(errs, fmt.Errorf("cache: device below has sector size %d", ss))
		} else {
			for _, f := range []struct {
				name string
				v    int64
			}{{"Block", cfg.Block}, {"ReadAhead", cfg.ReadAhead}, {"MaxDestageBytes", cfg.MaxDestageBytes}, {"FullStripe", cfg.StripeBytes()}} {
				if f.v%ss != 0 {
					errs = append(errs, fmt.Errorf("cache: Config.%s %d bytes is not a multiple of the sector size %d of the device below", f.name, f.v, ss))
				}
			}
		}
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	pool := newNodeFreeList()
	c := &Cache{
		eng: eng, cfg: cfg, below: below, name: name, obs: obs,
		ss: int64(below.SectorSize()), cap: below.Capacity(),
		stripe: cfg.StripeBytes(),
		dirty:  newExtentTree(cfg.Block, below.Capacity(), pool),
		busy:   newExtentTree(cfg.Block, below.Capacity(), pool),
		clean:  newExtentTree(cfg.Block, below.Capacity(), pool),
	}
	c.rp = newReplacer(cfg.Replacement, cfg.Size)
	c.dirty.longAt = c.stripe
	c.age.i = 1
	c.childDone = c.onChildDone
	c.hComplete, c.hAck, c.hTick, c.hIdle, c.hReject = completeHandler{c}, ackHandler{c}, tickHandler{c}, idleHandler{c}, rejectHandler{c}
	c.lastReadEnd, c.seqEnd = -1, -1
	if c.cfg.SequentialCutoff == 0 {
		c.cfg.SequentialCutoff = -1 // in memory: none unless asked
	}
	c.dacc.since, c.dacc.start = eng.Now(), eng.Now()
	c.st.FilledAt, c.st.HighWaterAt = sim.Never, sim.Never
	c.fullAt = sim.Never
	return c, nil
}

// Config returns the configuration in use, defaults filled in.
func (c *Cache) Config() Config { return c.cfg }

// Summary returns the report figures of the cache's statistics, with
// its replacement policy.
func (c *Cache) Summary() Summary {
	s := c.Stats().Summary()
	if c.cfg.Replacement != LRU {
		s.Replacement = c.cfg.Replacement.String()
	}
	return s
}

// Below returns the device the cache writes to.
func (c *Cache) Below() sim.Device { return c.below }

// Capacity returns the capacity of the device below, in bytes.
func (c *Cache) Capacity() int64 { return c.cap }

// SectorSize returns the sector size of the device below, in bytes.
func (c *Cache) SectorSize() int { return int(c.ss) }

// Submit accepts r and serves it from cache memory, the device below, or
// both. It sets r.Issued and returns an error wrapping a sim sentinel for
// a request that can never be served.
func (c *Cache) Submit(r *sim.Request) error {
	now := c.eng.Now()
	r.Issued = now
	if err := sim.CheckRequest(r, c.cap, int(c.ss)); err != nil {
		return fmt.Errorf("cache %s: %w", c.name, err)
	}
	c.obs.OnSubmitted(c.name, r, now)
	h := c.newHost(r)
	c.lastHost = now
	c.idleNow = false
	defer c.armTimers()
	if c.cfg.Mode == Off {
		c.pass(h)
		return nil
	}
	if (r.Op == sim.Read || r.Op == sim.Write) && c.bypasses(r) {
		h.bypass = true
		if r.Op == sim.Read {
			c.st.BypassedReads++
		} else {
			c.st.BypassedWrites++
		}
	}
	switch r.Op {
	case sim.Read:
		c.read(h)
	case sim.Write:
		c.write(h)
	case sim.Flush:
		c.flush(h)
	case sim.Trim:
		c.trim(h)
	}
	c.kick()
	return nil
}

func (c *Cache) newHost(r *sim.Request) *host {
	h := c.hostFree.get()
	*h = host{r: r}
	return h
}

func (c *Cache) newChild(kind uint8, h *host) *child {
	ch := c.childFree.get()
	*ch = child{kind: kind, h: h}
	ch.Done = c.childDone
	ch.Ctx = ch
	return ch
}

func (c *Cache) newExtent(off, end int64) *extent {
	e := c.extFree.get()
	*e = extent{off: off, end: end}
	return e
}

func (c *Cache) freeExtent(e *extent) {
	*e = extent{}
	c.extFree.put(e)
}

// submitChild sends ch below. A rejection (which a consistent stack never
// produces) fails the child through the event loop.
func (c *Cache) submitChild(ch *child) { c.submitTo(c.below, ch) }

// submitTo sends ch to dev, the device below or the tier.
func (c *Cache) submitTo(dev sim.Device, ch *child) {
	if h := ch.h; h != nil {
		h.pending++
	}
	if c.obs != nil {
		c.observeChild(ch)
	}
	if err := dev.Submit(&ch.Request); err != nil {
		ch.Err = fmt.Errorf("cache %s: device rejected %v: %w", c.name, &ch.Request, err)
		ch.Completed = c.eng.Now()
		c.eng.After(0, &c.hReject, ch)
	}
}

// hitTime returns the service time of n bytes from cache memory (on a
// tier, the software's part; the tier's transfers take their own time)
// once the copy engine takes them (service also counts the wait for it).
func (c *Cache) hitTime(n int64) time.Duration {
	d := c.cfg.HitLatency
	if c.tier != nil {
		return d
	}
	if c.cfg.CopyRate > 0 && n > 0 {
		d += time.Duration(math.Ceil(float64(n) * 1e9 / float64(c.cfg.CopyRate)))
	}
	return d
}

// finish completes h now if nothing below is pending and its hit service
// is over, or schedules that. It is never called from inside Submit with
// an immediate completion: Submit paths always go through an event.
func (c *Cache) finish(h *host) {
	if h.pending > 0 {
		return
	}
	c.eng.Schedule(max(h.readyAt, c.eng.Now()), &c.hComplete, h)
}

// onComplete is the event that completes a host request.
func (c *Cache) onComplete(now sim.Time, arg any) {
	h := arg.(*host)
	r := h.r
	if r.Op == sim.Read && h.hitBytes > 0 {
		c.obs.OnPhase(c.name, r, sim.PhaseCacheHit, h.readyAt.Add(-c.hitTime(h.hitBytes)), h.readyAt)
	}
	r.Completed = now
	r.Err = h.err
	*h = host{}
	c.hostFree.put(h)
	c.obs.OnCompleted(c.name, r, now)
	r.Done(r)
}

// onChildDone is the Done of every child request.
func (c *Cache) onChildDone(cr *sim.Request) {
	ch := cr.Ctx.(*child)
	h := ch.h
	switch ch.kind {
	case kindMiss:
		c.missDone(ch)
	case kindPrefetch:
		c.prefetchDone(ch)
	case kindDestage:
		c.destageDone(ch)
	case kindAround:
		c.aroundDone(ch)
	case kindTierWrite:
		c.tierWriteDone(ch)
	case kindStage:
		c.stageDone(ch)
	case kindJournal:
		c.journalDone(ch)
	}
	if h != nil {
		if ch.Err != nil && h.err == nil {
			h.err = ch.Err
		}
		h.pending--
		if h.pending == 0 {
			// Complete in this event, so that the acknowledgement and
			// the cache state it implies are one step.
			if now := c.eng.Now(); h.readyAt <= now {
				c.onComplete(now, h)
			} else {
				c.eng.Schedule(h.readyAt, &c.hComplete, h)
			}
		}
	}
	*ch = child{}
	c.childFree.put(ch)
	c.kick()
}

// pass sends h's request below unchanged (mode Off).
func (c *Cache) pass(h *host) {
	r := h.r
	ch := c.newChild(kindPass, h)
	ch.Op, ch.Offset, ch.Length, ch.FUA, ch.Data = r.Op, r.Offset, r.Length, r.FUA, r.Data
	switch r.Op {
	case sim.Read:
		c.st.Reads++
		c.st.ReadBytes += r.Length
		c.st.BelowReads++
		c.st.BelowReadBytes += r.Length
	case sim.Write:
		c.st.Writes++
		c.st.WriteBytes += r.Length
		c.st.WriteArounds++
	case sim.Flush:
		c.st.Flushes++
		c.st.BelowFlushes++
	}
	c.submitChild(ch)
}

// write serves a host write.
func (c *Cache) write(h *host) {
	r := h.r
	c.st.Writes++
	c.st.WriteBytes += r.Length
	if c.cfg.Mode == WriteThrough || c.cfg.Mode == WriteAround || h.bypass || r.FUA || c.dirty.chargeOf(r.Offset, r.End()) > c.cfg.MaxDirty {
		c.around(h)
		return
	}
	if len(c.stalled) > 0 || !c.reserve(h) {
		h.stallStart = c.eng.Now()
		if len(c.stalled) == 0 {
			c.stallFrom = h.stallStart
		}
		c.stalled = append(c.stalled, h)
		c.st.Stalls++
		if c.st.FilledAt == sim.Never {
			c.st.FilledAt = c.eng.Now()
		}
		return
	}
	c.accept(h)
}

// accept puts the write h, for which room is reserved, into the cache:
// acknowledged after the memory copy, or, on a tier, once its data and
// its journal key are there.
func (c *Cache) accept(h *host) {
	if c.tier != nil {
		c.absorbOnTier(h)
		return
	}
	c.eng.After(c.service(h.r.Length), &c.hAck, h)
}

// used returns the cache memory in use or promised, in bytes.
func (c *Cache) used() int64 {
	return c.dirty.charge + c.clean.charge + c.destageCharge() + c.reserved
}

// destageCharge returns the memory held by destages in flight: the busy
// tree minus write-arounds, whose data stays in the host's buffer.
func (c *Cache) destageCharge() int64 { return c.destaging }

// reserve finds room for the write h, evicting clean data if needed.
func (c *Cache) reserve(h *host) bool {
	r := h.r
	need := c.dirty.chargeOf(r.Offset, r.End()) - c.dirty.covered(r.Offset, r.End())/c.cfg.Block*c.cfg.Block
	need = max(need, 0)
	if c.dirty.charge+c.destageCharge()+c.reserved+need > c.cfg.MaxDirty {
		return false
	}
	if !c.makeRoom(r.Offset, r.Offset, need) {
		return false
	}
	h.need = need
	c.reserved += need
	return true
}

// admit lets stalled writes in, in order, while there is room.
func (c *Cache) admit() {
	for len(c.stalled) > 0 {
		h := c.stalled[0]
		if !c.reserve(h) {
			return
		}
		copy(c.stalled, c.stalled[1:])
		c.stalled[len(c.stalled)-1] = nil
		c.stalled = c.stalled[:len(c.stalled)-1]
		now := c.eng.Now()
		c.st.StallWaitSum += now.Sub(max(h.stallStart, c.statsFrom))
		if len(c.stalled) == 0 {
			c.st.StallTime += now.Sub(c.stallFrom)
		}
		c.obs.OnPhase(c.name, h.r, sim.PhaseQueue, h.stallStart, now)
		c.accept(h)
	}
}

// onAck is the event that puts an absorbed write in the cache and
// acknowledges it.
func (c *Cache) onAck(now sim.Time, arg any) {
	h := arg.(*host)
	r := h.r
	c.reserved -= h.need
	h.need = 0
	c.staleMisses(r.Offset, r.End())
	c.dropClean(r.Offset, r.End())
	if c.obs.WantsAbsorb() {
		c.observeAbsorb(r, now)
	} else {
		c.absorb(r.Offset, r.End(), r.Data, now)
	}
	c.st.WritesAbsorbed++
	c.obs.OnPhase(c.name, r, sim.PhaseCacheHit, now.Add(-c.hitTime(r.Length)), now)
	c.noteDirty()
	c.checkWaterMark()
	c.armTimers()
	c.kick()
	c.onComplete(now, h)
}

// absorb puts a write of [off, end) with payload data (or nil) among
// the dirty extents, merging with dirty extents of the same epoch it
// overlaps or touches and cutting older ones.
func (c *Cache) absorb(off, end int64, data []byte, now sim.Time) {
	ov := c.dirty.overlapping(off, end, true)
	c.merge = append(c.merge[:0], ov...)
	var overlap int64
	writes := 1.0 // this write and those it overwrites
	same := c.merge[:0]
	for _, e := range c.merge {
		if e.off < end && e.end > off {
			overlap += min(e.end, end) - max(e.off, off)
		}
		if e.epoch == c.epoch {
			same = append(same, e)
			writes += e.writes
		} else if e.off < end && e.end > off {
			writes += c.cutDirty(e, off, end) // older epoch: superseded, not merged
		}
	}
	c.st.OverwrittenBytes += overlap
	if len(same) == 0 {
		e := c.newExtent(off, end)
		if data != nil {
			e.data = append([]byte(nil), data...)
		}
		e.epoch, e.lastWrite, e.born, e.writes = c.epoch, now, now, writes
		c.dirty.insert(e)
		c.lrw.pushBack(e)
		c.age.pushBack(e)
		c.live.add(e.epoch, 1)
		return
	}
	keep := same[0]
	lo, hi := min(off, keep.off), max(end, same[len(same)-1].end)
	anyData := data != nil
	for _, e := range same {
		anyData = anyData || e.data != nil
	}
	if anyData {
		if len(same) == 1 && keep.off <= off {
			keep.data = growTo(keep.data, hi-keep.off)
			copy(keep.data[off-keep.off:], data)
		} else {
			buf := make([]byte, hi-lo)
			for _, e := range same {
				copy(buf[e.off-lo:], e.data)
			}
			copy(buf[off-lo:], data)
			keep.data = buf
		}
	}
	// keep takes the place in the age list of the oldest it merges.
	oldest := keep
	for _, e := range same[1:] {
		if e.born < oldest.born {
			oldest = e
		}
	}
	if oldest != keep {
		c.age.unlink(keep)
		c.age.insertAfter(keep, oldest)
		keep.born = oldest.born
	}
	for _, e := range same[1:] {
		c.dirty.remove(e)
		c.lrw.unlink(e)
		c.age.unlink(e)
		c.live.add(e.epoch, -1)
		c.freeExtent(e)
	}
	c.dirty.setRange(keep, lo, hi)
	keep.lastWrite, keep.writes = now, writes
	if overlap > 0 {
		keep.ref = true
	}
	c.lrw.moveToBack(keep)
}

// cutDirty removes [off, end) from the dirty extent e, splitting it when
// the range lies inside. It returns the share of e's writes the range
// took, in proportion to its bytes; what is left of e keeps the rest.
func (c *Cache) cutDirty(e *extent, off, end int64) float64 {
	w := e.writes
	share := func(a, b int64) float64 { return w * float64(b-a) / float64(e.end-e.off) }
	switch {
	case off <= e.off && e.end <= end:
		c.dirty.remove(e)
		c.lrw.unlink(e)
		c.age.unlink(e)
		c.live.add(e.epoch, -1)
		c.freeExtent(e)
		return w
	case e.off < off && end < e.end:
		r := c.newExtent(end, e.end)
		r.data = e.dataRange(end, e.end)
		r.epoch, r.lastWrite, r.ref, r.born = e.epoch, e.lastWrite, e.ref, e.born
		r.writes = share(end, e.end)
		e.writes = share(e.off, off)
		if e.data != nil {
			e.data = e.data[: off-e.off : off-e.off]
		}
		c.dirty.setRange(e, e.off, off)
		c.dirty.insert(r)
		c.lrw.insertAfter(r, e)
		c.age.insertAfter(r, e)
		c.live.add(r.epoch, 1)
		return w - r.writes - e.writes
	case e.off < off:
		if e.data != nil {
			e.data = e.data[: off-e.off : off-e.off]
		}
		e.writes = share(e.off, off)
		c.dirty.setRange(e, e.off, off)
	default:
		e.data = e.dataRange(end, e.end)
		e.writes = share(end, e.end)
		c.dirty.setRange(e, end, e.end)
	}
	return w - e.writes
}

// trimDirty removes [off, end) from every dirty extent, for a write
// that went below around the cache: the writes it supersedes leave the
// cache without a destage.
func (c *Cache) trimDirty(off, end int64) {
	ov := c.dirty.overlapping(off, end, false)
	c.merge = append(c.merge[:0], ov...)
	for _, e := range c.merge {
		c.droppedWrites += c.cutDirty(e, off, end)
	}
}

// staleMisses marks reads in flight below that overlap a new write, so
// their data is not kept as clean.
func (c *Cache) staleMisses(off, end int64) {
	for i, x := range c.missAt {
		if x.Offset < end && x.End() > off {
			c.misses[i].stale = true
		}
	}
}

// around sends a host write below (write-through mode, FUA, or a write
// larger than the cache), after any overlapping write below completes.
func (c *Cache) around(h *host) {
	r := h.r
	if len(c.busy.overlapping(r.Offset, r.End(), false)) > 0 {
		c.blocked = append(c.blocked, h)
		return
	}
	c.startAround(h)
}

func (c *Cache) startAround(h *host) {
	r := h.r
	if r.Op == sim.Write {
		c.st.WriteArounds++
	}
	e := c.newExtent(r.Offset, r.End())
	e.data = r.Data
	c.busy.insert(e)
	ch := c.newChild(kindAround, h)
	ch.ext = e
	ch.Op, ch.Offset, ch.Length, ch.FUA, ch.Data = r.Op, r.Offset, r.Length, r.FUA, r.Data
	c.submitChild(ch)
}

// aroundDone: the write is on the device below; it supersedes whatever
// the cache holds for its range.
func (c *Cache) aroundDone(ch *child) {
	e := ch.ext
	c.busy.remove(e)
	if ch.Err == nil && ch.Op == sim.Trim {
		c.staleMisses(e.off, e.end) // the trim's own drop happened at its start
	} else if ch.Err == nil {
		c.staleMisses(e.off, e.end)
		c.trimDirty(e.off, e.end)
		c.dropClean(e.off, e.end)
		if c.cfg.Mode != WriteAround && (ch.h == nil || !ch.h.bypass) {
			c.fillClean(e.off, e.end, e.data, false)
		}
		c.noteDirty()
	}
	c.freeExtent(e)
	c.unblock()
	c.admit()
	c.checkFlushes()
}

// unblock starts write-arounds whose range is no longer busy below.
func (c *Cache) unblock() {
	j := 0
	for i, h := range c.blocked {
		r := h.r
		// An earlier blocked write overlapping this one goes first.
		earlier := false
		for _, p := range c.blocked[:j] {
			if p.r.Offset < r.End() && p.r.End() > r.Offset {
				earlier = true
				break
			}
		}
		if !earlier && len(c.busy.overlapping(r.Offset, r.End(), false)) == 0 {
			c.startAround(h)
			continue
		}
		c.blocked[j] = c.blocked[i]
		j++
	}
	clear(c.blocked[j:])
	c.blocked = c.blocked[:j]
}

// flush serves a host flush.
func (c *Cache) flush(h *host) {
	c.st.Flushes++
	if c.cfg.NonVolatile && c.cfg.NVIgnoresFlush {
		h.readyAt = c.eng.Now().Add(c.cfg.HitLatency)
		c.finish(h)
		return
	}
	h.epoch = c.epoch
	c.epoch++
	c.flushes = append(c.flushes, h)
	c.checkFlushes()
}

// checkFlushes passes down, in order, the flushes whose epochs have
// drained: every write acknowledged before them is on the device below.
func (c *Cache) checkFlushes() {
	n := 0
	for _, h := range c.flushes {
		if c.live.upTo(h.epoch) > 0 {
			break
		}
		n++
		ch := c.newChild(kindFlush, h)
		ch.Op = sim.Flush
		c.st.BelowFlushes++
		c.submitChild(ch)
		if c.tier != nil {
			tf := c.newChild(kindTierFlush, h)
			tf.Op = sim.Flush
			c.submitTo(c.tier, tf)
		}
	}
	if n > 0 {
		copy(c.flushes, c.flushes[n:])
		clear(c.flushes[len(c.flushes)-n:])
		c.flushes = c.flushes[:len(c.flushes)-n]
		c.live.trim(c.epoch)
	}
}

// freeList recycles values of T so the steady state allocates nothing:
// get reuses the most recently put value, or allocates when none is free.
type freeList[T any] []*T

func (f *freeList[T]) get() *T {
	if n := len(*f); n > 0 {
		x := (*f)[n-1]
		*f = (*f)[:n-1]
		return x
	}
	return new(T)
}

func (f *freeList[T]) put(x *T) { *f = append(*f, x) }
