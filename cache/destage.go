package cache

import (
	"math"

	"github.com/raidsim/raidsim/sim"
)

// scanWindow bounds how many dirty extents one destage choice looks at
// for a full stripe before it settles for what it has.
const scanWindow = 64

// pressing reports that dirty data must go whatever its shape: a flush
// waits for it, a write waits for room, the Idle policy is sweeping, or
// the Interval policy has data older than Interval.
func (c *Cache) pressing() bool {
	return len(c.flushes) > 0 || len(c.stalled) > 0 || c.idleNow || c.aged()
}

// aged reports that the Interval policy holds dirty data written
// Interval or longer ago.
func (c *Cache) aged() bool {
	return c.cfg.Policy == Interval && c.age.head != nil && c.eng.Now() >= c.due(c.age.head.born)
}

// due returns when data written at born turns due for the Interval
// policy: Interval later, at the next Wakeup when one is set.
func (c *Cache) due(born sim.Time) sim.Time {
	at := born.Add(c.cfg.Interval)
	if w := int64(c.cfg.Wakeup); w > 0 && int64(at)%w != 0 {
		at = sim.Time((int64(at)/w + 1) * w)
	}
	return at
}

// target returns how many destages the policy wants in flight now.
func (c *Cache) target() int {
	if c.cfg.Mode != WriteBack || c.dirty.len() == 0 {
		return 0
	}
	m := c.cfg.MaxOutstandingDestages
	if c.pressing() {
		return m
	}
	occ := float64(c.dirty.charge) / float64(c.cfg.MaxDirty)
	hi, lo := c.cfg.HighWater, c.cfg.LowWater
	if c.cfg.Policy == Linear {
		switch {
		case occ <= lo:
			return 0
		case occ >= hi:
			return m
		}
		return max(1, int(math.Ceil(float64(m)*(occ-lo)/(hi-lo))))
	}
	// Watermark, and the backstop of Interval and Idle.
	if occ >= hi {
		c.draining = true
	} else if occ <= lo {
		c.draining = false
	}
	if c.draining {
		return m
	}
	return 0
}

// kick starts destages until the policy's target is met or nothing can
// go.
func (c *Cache) kick() {
	for c.outstanding < c.target() {
		e, a, b := c.pick()
		if e == nil {
			return
		}
		c.startDestage(e, a, b)
	}
}

// pickState is the state of one pick, kept in the Cache so that the
// btree visitor is bound once.
type pickState struct {
	partialOK bool
	sweeping  bool   // a flush, Interval or Idle wants everything out
	oldest    uint64 // only extents of this epoch or older, if a flush waits
	wowSkip   bool   // WOW: skip (and clear) extents with the recency bit
	partials  int    // acceptable partial-stripe candidates seen
	settled   bool   // the choice is made: no later candidate can beat fb
	found     *extent
	a, b      int64
	fb        *extent // first partial-stripe candidate
	fa, fbEnd int64
}

// pick chooses the next destage: an extent and the range [a, b) of it.
// It returns a nil extent when nothing may go now. Candidates come in
// destage order: from the cursor upwards, wrapping (OrderLBA, OrderWOW),
// or least recently written first (OrderLRW). With stripe alignment it
// looks at up to scanWindow candidates for whole stripes before taking
// a partial one, and takes partial stripes only under pressure or above
// the high water mark; otherwise the cache waits for stripes to fill.
func (c *Cache) pick() (*extent, int64, int64) {
	k := &c.pk
	*k = pickState{oldest: math.MaxUint64}
	k.partialOK = c.stripe == 0 || c.pressing() || c.cfg.Policy == Interval || c.cfg.Policy == Idle ||
		float64(c.dirty.charge) >= c.cfg.HighWater*float64(c.cfg.MaxDirty)
	aged := c.aged()
	k.sweeping = len(c.flushes) > 0 || c.idleNow || aged
	if len(c.flushes) > 0 && c.live.upTo(c.flushes[0].epoch) > 0 {
		k.oldest = c.flushes[0].epoch // data written before the flush first
	}
	passes := 1
	if c.cfg.Order == OrderWOW && !c.pressing() {
		passes, k.wowSkip = 2, true
	}
	for pass := 0; pass < passes; pass++ {
		if pass == 1 {
			k.wowSkip, k.partials = false, 0
		}
		if !k.partialOK && !k.wowSkip && c.dirty.long == 0 && !c.exhaustive {
			// No dirty extent is long enough for a full stripe and a
			// partial one may not go: the scan would find nothing, and
			// without WOW's recency bits to clear it changes nothing.
			continue
		}
		if aged && k.oldest == math.MaxUint64 && pass == 0 {
			// Interval: the data older than Interval, oldest first.
			limit := c.eng.Now().Add(-c.cfg.Interval)
			for e := c.age.head; e != nil && e.born <= limit && !c.consider(e); e = c.age.next(e) {
			}
			if k.found != nil {
				return k.found, k.a, k.b
			}
			if k.fb != nil {
				return k.fb, k.fa, k.fbEnd
			}
		}
		switch {
		case c.cfg.Order == OrderLRW:
			for e := c.lrw.head; e != nil && !c.consider(e); e = c.lrw.next(e) {
			}
		default:
			start := c.cursor
			if e := c.dirty.containing(start); e != nil {
				start = e.off
			}
			for e := c.dirty.ceil(start); e != nil && !c.consider(e); e = e.ord.next {
			}
			if k.found == nil && !k.settled && start > 0 && k.partials < scanWindow {
				for e := c.dirty.idx.head; e != nil && e.off < start && !c.consider(e); e = e.ord.next {
				}
			}
		}
		if k.found != nil {
			return k.found, k.a, k.b
		}
		if k.fb != nil {
			return k.fb, k.fa, k.fbEnd
		}
	}
	return nil, 0, 0
}

// consider looks at one candidate for pick and reports whether the
// search is over.
func (c *Cache) consider(e *extent) bool {
	k := &c.pk
	if e.epoch > k.oldest {
		return false
	}
	if k.wowSkip && e.ref {
		e.ref = false
		return false
	}
	a, b, full, ok := c.rangeIn(e)
	if !ok {
		return false
	}
	if full || c.stripe == 0 {
		k.found, k.a, k.b = e, a, b
		return true
	}
	// The extent written last is likely still growing: while other
	// destages are in flight it waits to fill its stripe, unless a flush
	// or a sweep needs it.
	growing := e == c.lrw.tail && c.outstanding > 0 && !k.sweeping
	if k.partialOK && k.fb == nil && !growing {
		k.fb, k.fa, k.fbEnd = e, a, b
		if c.dirty.long == 0 && !k.wowSkip && !c.exhaustive {
			// No later candidate can be a full stripe: the first
			// partial one is the choice, and stopping here skips only
			// candidates whose consideration changes nothing.
			k.settled = true
			return true
		}
	}
	k.partials++
	return k.partials >= scanWindow
}

// rangeIn returns the part of e to destage: not overlapping a write in
// flight below, at most MaxDestageBytes, and with alignment whole
// stripes when e covers one (full) or else a piece that ends at a stripe
// boundary or at e's end.
func (c *Cache) rangeIn(e *extent) (a, b int64, full, ok bool) {
	a, b = e.off, e.end
	for {
		be := c.busy.containing(a)
		if be == nil {
			break
		}
		a = be.end
		if a >= b {
			return 0, 0, false, false
		}
	}
	b = c.busy.nextStart(a, b)
	if s := c.stripe; s > 0 {
		s0 := (a + s - 1) / s * s
		if s0+s <= b {
			n := min((b-s0)/s, max(1, c.cfg.MaxDestageBytes/s))
			return s0, s0 + n*s, true, true
		}
		b = min(b, (a/s+1)*s)
	}
	b = min(b, a+c.cfg.MaxDestageBytes)
	return a, b, false, true
}

// startDestage moves [a, b) of the dirty extent e to the in-flight tree
// and writes it below.
func (c *Cache) startDestage(e *extent, a, b int64) {
	p := c.newExtent(a, b)
	p.data = e.dataRange(a, b)
	p.epoch, p.lastWrite, p.destage = e.epoch, e.lastWrite, true
	c.st.CoalescedWrites += c.cutDirty(e, a, b)
	c.live.add(p.epoch, 1)
	c.busy.insert(p)
	c.outstanding++
	c.destaging += c.busy.chargeOf(a, b)
	c.destBytes += b - a
	c.st.Destages++
	c.st.DestageBytes += b - a
	if s := c.stripe; s > 0 && a%s == 0 && (b-a)%s == 0 {
		c.st.FullStripeDestages++
	}
	c.cursor = b
	if c.cursor >= c.cap {
		c.cursor = 0
	}
	if c.tier != nil {
		c.tierIO(kindStage, nil, sim.Read, a, b).ext = p // then below: stageDone
		return
	}
	ch := c.newChild(kindDestage, nil)
	ch.ext = p
	ch.Op, ch.Offset, ch.Length, ch.Data = sim.Write, a, b-a, p.data
	c.submitChild(ch)
}

// destageDone: the data is on the device below and becomes clean.
func (c *Cache) destageDone(ch *child) {
	p := ch.ext
	c.busy.remove(p)
	c.outstanding--
	c.live.add(p.epoch, -1)
	if !p.orphan {
		c.destaging -= c.busy.chargeOf(p.off, p.end)
		c.destBytes -= p.end - p.off
		if ch.Err != nil {
			// The data is gone: a failed destage is not retried.
			c.st.DestageErrors++
			c.st.LostBytes += p.end - p.off
			c.failedDestages = append(c.failedDestages, Extent{p.off, p.end - p.off})
		}
	}
	c.noteDirty()
	c.unblock()
	c.admit()
	if !p.orphan && ch.Err == nil {
		c.fillClean(p.off, p.end, p.data, true)
	}
	c.freeExtent(p)
	c.checkFlushes()
	c.armTimers()
}

// armTimers schedules the Interval tick or the Idle check when dirty
// data needs one.
func (c *Cache) armTimers() {
	if c.cfg.Mode != WriteBack || c.dirty.len() == 0 {
		return
	}
	switch c.cfg.Policy {
	case Interval:
		// Wake when the oldest dirty byte turns Interval old; once it
		// has, destage completions keep the sweep going.
		if at := c.due(c.age.head.born); !c.tickPending && at > c.eng.Now() {
			c.tickPending = true
			c.eng.Schedule(at, &c.hTick, nil)
		}
	case Idle:
		if !c.idleTimer && !c.idleNow {
			c.idleTimer = true
			c.eng.Schedule(max(c.lastHost.Add(c.cfg.Idle), c.eng.Now()), &c.hIdle, nil)
		}
	}
}

// onTick wakes the Interval policy when the oldest dirty data turns
// Interval old.
func (c *Cache) onTick(sim.Time, any) {
	c.tickPending = false
	c.kick()
	c.armTimers()
}

// onIdle starts the Idle policy's destage once the host has been quiet
// for Idle.
func (c *Cache) onIdle(now sim.Time, _ any) {
	c.idleTimer = false
	if c.dirty.len() == 0 {
		return
	}
	if now.Sub(c.lastHost) >= c.cfg.Idle {
		c.idleNow = true
		c.kick()
		return
	}
	c.armTimers()
}

// checkWaterMark notes the first time dirty data reaches the high water
// mark.
func (c *Cache) checkWaterMark() {
	if c.st.HighWaterAt == sim.Never && float64(c.dirty.charge) >= c.cfg.HighWater*float64(c.cfg.MaxDirty) {
		c.st.HighWaterAt = c.eng.Now()
	}
}
