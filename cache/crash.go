package cache

import "slices"

// Crash models a power loss of the cache memory at the current virtual
// time. A volatile cache returns the extents of acknowledged data that
// exist only in its memory (dirty data, and data whose destage is still
// in flight), sorted by offset and merged where they touch, and drops
// them together with its clean data; the device below then holds
// everything else that was acknowledged. A NonVolatile cache loses
// nothing and returns nil, and so does a cache on a device
// (NewOnDevice): its data and journal are on the device, which reports
// what its own volatile buffer would lose.
//
// Requests in flight are not cancelled: destages already sent below
// still complete (the device may or may not have their data, as after a
// real power loss), and host requests continue to be served, so a
// simulation can go on after a crash to observe recovery.
func (c *Cache) Crash() []Extent {
	c.st.Crashes++
	if c.cfg.NonVolatile || c.tier != nil {
		return nil
	}
	var lost []Extent
	c.dirty.ascend(func(e *extent) bool {
		lost = append(lost, Extent{e.off, e.end - e.off})
		return true
	})
	c.busy.ascend(func(e *extent) bool {
		if e.destage && !e.orphan {
			lost = append(lost, Extent{e.off, e.end - e.off})
			e.orphan = true
		}
		return true
	})
	lost = mergeExtents(lost)
	for _, x := range lost {
		c.st.LostBytes += x.Length
	}
	for e := c.lrw.head; e != nil; {
		next := c.lrw.next(e)
		c.droppedWrites += e.writes
		c.dirty.remove(e)
		c.live.add(e.epoch, -1)
		c.freeExtent(e)
		e = next
	}
	c.lrw.reset()
	c.age.reset()
	for e := c.clean.idx.head; e != nil; e = c.clean.idx.head {
		c.clean.remove(e)
		c.freeExtent(e)
	}
	c.rp = newReplacer(c.cfg.Replacement, c.cfg.Size) // its ghosts were in memory too
	c.destaging, c.destBytes = 0, 0
	c.draining = false
	c.noteDirty()
	c.admit()
	c.checkFlushes()
	return lost
}

// LostRanges returns the ranges of acknowledged data the cache lost
// because the device below failed their destage (an array that lost
// members, say), sorted by offset and merged: the data Stats.
// DestageErrors counts. A failed destage is not retried, so reads there
// return what the device below holds, which may be older data or (where
// a destage spanning stripes landed in part) the acknowledged data.
func (c *Cache) LostRanges() []Extent {
	return mergeExtents(slices.Clone(c.failedDestages))
}

// mergeExtents sorts xs by offset and merges extents that overlap or
// touch.
func mergeExtents(xs []Extent) []Extent {
	slices.SortFunc(xs, func(a, b Extent) int {
		switch {
		case a.Offset < b.Offset:
			return -1
		case a.Offset > b.Offset:
			return 1
		}
		return 0
	})
	out := xs[:0]
	for _, x := range xs {
		if n := len(out); n > 0 && x.Offset <= out[n-1].End() {
			out[n-1].Length = max(out[n-1].End(), x.End()) - out[n-1].Offset
			continue
		}
		out = append(out, x)
	}
	return out
}
