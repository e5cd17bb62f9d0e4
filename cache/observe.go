package cache

import "github.com/raidsim/raidsim/sim"

// Observer reports beyond the phases: what a write merged with, and the
// requests the cache sends below. Called only when an observer is set.

// observeAbsorb absorbs the write r, as onAck does, and tells the
// observer which dirty extent holds it now and what it merged with.
func (c *Cache) observeAbsorb(r *sim.Request, now sim.Time) {
	off, end := r.Offset, r.End()
	var a sim.Absorb
	for _, e := range c.dirty.overlapping(off, end, true) {
		if e.epoch == c.epoch {
			a.Merged++
		}
		if e.off < end && e.end > off {
			a.Overwritten += min(e.end, end) - max(e.off, off)
		}
	}
	c.absorb(off, end, r.Data, now)
	a.Off, a.End = off, end
	if e := c.dirty.containing(off); e != nil {
		a.Off, a.End = e.off, e.end
	}
	c.obs.Absorb(c.name, r, a, now)
}

// observeChild tells the observer about ch before it goes below: a
// destage, or a child of a host request (or of none: read-ahead).
func (c *Cache) observeChild(ch *child) {
	now := c.eng.Now()
	if ch.kind == kindDestage {
		c.obs.OnDestage(c.name, &ch.Request, now)
		return
	}
	var parent *sim.Request
	if ch.h != nil {
		parent = ch.h.r
	}
	c.obs.OnChild(c.name, parent, &ch.Request, -1, now)
}

// DirtyExtents returns the acknowledged data that exists only in the
// cache's memory now (dirty, or being destaged), as Crash would report
// it but without dropping anything: the first limit extents in offset
// order, merged where they touch, and how many there are in all. A
// non-volatile cache reports its dirty data too; it would keep it.
func (c *Cache) DirtyExtents(limit int) (first []Extent, count int) {
	var all []Extent
	c.dirty.ascend(func(e *extent) bool {
		all = append(all, Extent{e.off, e.end - e.off})
		return true
	})
	c.busy.ascend(func(e *extent) bool {
		if e.destage && !e.orphan {
			all = append(all, Extent{e.off, e.end - e.off})
		}
		return true
	})
	all = mergeExtents(all)
	return all[:min(limit, len(all))], len(all)
}
