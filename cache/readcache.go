package cache

import "github.com/raidsim/raidsim/sim"

// read serves a host read: the parts held in cache memory (dirty data,
// data on its way below, clean data) are copied at once; each missing
// range becomes one read below. The request completes when every piece
// has, and not before the hit service time.
func (c *Cache) read(h *host) {
	r := h.r
	c.st.Reads++
	c.st.ReadBytes += r.Length
	h.sequential = r.Offset == c.lastReadEnd
	c.lastReadEnd = r.End()
	c.serveRead(h)
}

// serveRead serves h from memory and misses below, and reads ahead of a
// sequential stream. A read that overlaps a read-ahead in flight waits
// for it and is served again when it lands.
func (c *Cache) serveRead(h *host) {
	r := h.r
	off, end := r.Offset, r.End()
	want := r.Data != nil
	caching := !c.cfg.NoReadCache
	if p := c.prefetchOver(off, end); p != nil {
		c.parked = append(c.parked, parked{p, h})
		return
	}

	var last *child
	for pos := off; pos < end; {
		// Data lower in precedence stops where higher data starts.
		e, lim := c.dirty.probe(pos, end)
		if e != nil {
			pos = c.hit(h, e, pos, end)
			continue
		}
		e, bnext := c.busy.probe(pos, lim)
		if e != nil && (!want || e.data != nil) {
			pos = c.hit(h, e, pos, lim)
			continue
		}
		next := bnext
		if caching {
			ce, cnext := c.clean.probe(pos, bnext)
			if ce != nil && (!want || ce.data != nil) {
				c.rp.hit(ce)
				pos = c.hit(h, ce, pos, bnext)
				continue
			}
			next = cnext
		}
		if last != nil && last.end == pos {
			last.end = next
		} else {
			last = c.newChild(kindMiss, h)
			last.off, last.end, last.bypass = pos, next, h.bypass
			c.missKids = append(c.missKids, last)
		}
		pos = next
	}
	if h.hitBytes > 0 {
		c.st.ReadHitBytes += h.hitBytes
		h.readyAt = c.eng.Now().Add(c.service(h.hitBytes))
	}
	switch {
	case len(c.missKids) == 0:
		c.st.ReadHits++
	case h.hitBytes > 0:
		c.st.ReadPartialHits++
	}
	for _, ch := range c.missKids {
		ch.Op, ch.Offset, ch.Length = sim.Read, ch.off, ch.end-ch.off
		if want {
			ch.Data = r.Data[ch.off-off : ch.end-off : ch.end-off]
		}
		c.st.BelowReads++
		c.st.BelowReadBytes += ch.Length
		c.addMiss(ch)
	}
	n := len(c.missKids)
	for i, ch := range c.missKids {
		c.missKids[i] = nil
		c.submitChild(ch)
	}
	c.missKids = c.missKids[:0]
	if c.tier != nil {
		c.submitTierReads()
	}
	if h.sequential && caching && c.cfg.ReadAhead > 0 && !h.bypass {
		c.readAhead(end, want)
	}
	if h.pending == 0 && n == 0 {
		c.finish(h)
	}
}

// parked is a host read waiting for the read-ahead it overlaps.
type parked struct {
	p *child
	h *host
}

// prefetchOver returns a read-ahead in flight that overlaps [off, end),
// or nil.
func (c *Cache) prefetchOver(off, end int64) *child {
	if c.prefetching == 0 {
		return nil
	}
	for i, x := range c.missAt {
		if x.Offset < end && x.End() > off && c.misses[i].kind == kindPrefetch {
			return c.misses[i]
		}
	}
	return nil
}

// readAhead keeps Config.ReadAhead bytes ahead of a sequential stream
// whose last read ends at from: once less than half of that is in memory
// or on its way, it reads the next ReadAhead bytes below in the
// background, from the end of what is held up to the next data held.
// The host does not wait for it; a read that needs it waits for it
// instead of reading the same data again.
func (c *Cache) readAhead(from int64, want bool) {
	held := func(pos int64) int64 { // end of what holds pos, or -1
		for _, t := range []*extentTree{c.dirty, c.busy, c.clean} {
			if e := t.containing(pos); e != nil && (!want || e.data != nil || t != c.clean) {
				return e.end
			}
		}
		for _, ch := range c.misses {
			if ch.Offset <= pos && pos < ch.End() {
				return ch.End()
			}
		}
		return -1
	}
	pos := from
	for pos < c.cap && pos-from < c.cfg.ReadAhead/2 {
		e := held(pos)
		if e < 0 {
			break
		}
		pos = e
	}
	if pos-from >= c.cfg.ReadAhead/2 || pos >= c.cap {
		return
	}
	limit := min(pos+c.cfg.ReadAhead, c.cap)
	for _, t := range []*extentTree{c.dirty, c.busy, c.clean} {
		if e := t.ceil(pos); e != nil && e.off < limit {
			limit = e.off
		}
	}
	for _, ch := range c.misses {
		if ch.Offset > pos && ch.Offset < limit {
			limit = ch.Offset
		}
	}
	if limit <= pos {
		// A clean extent without the payload a data run needs starts
		// here: the next miss reads it.
		return
	}
	ch := c.newChild(kindPrefetch, nil)
	ch.Op, ch.Offset, ch.Length = sim.Read, pos, limit-pos
	ch.off, ch.end = pos, limit
	if want {
		ch.Data = make([]byte, ch.Length)
	}
	c.st.BelowReads++
	c.st.BelowReadBytes += ch.Length
	c.st.ReadAheadBytes += ch.Length
	c.addMiss(ch)
	c.submitChild(ch)
}

// prefetchDone keeps what a read-ahead brought, unless a write to the
// range arrived meanwhile, and serves the reads that waited for it.
func (c *Cache) prefetchDone(ch *child) {
	c.dropMiss(ch)
	if ch.Err == nil && !ch.stale {
		c.fillClean(ch.Offset, ch.End(), ch.Data, false)
	}
	for i := 0; i < len(c.parked); {
		if c.parked[i].p != ch {
			i++
			continue
		}
		h := c.parked[i].h
		copy(c.parked[i:], c.parked[i+1:])
		c.parked[len(c.parked)-1] = parked{}
		c.parked = c.parked[:len(c.parked)-1]
		c.serveRead(h)
	}
}

// addMiss puts ch, a read about to go below, on the list of reads in
// flight below.
func (c *Cache) addMiss(ch *child) {
	ch.idx = len(c.misses)
	c.misses = append(c.misses, ch)
	c.missAt = append(c.missAt, Extent{ch.Offset, ch.Length})
	if ch.kind == kindPrefetch {
		c.prefetching++
	}
}

// dropMiss takes ch off the list of reads in flight below.
func (c *Cache) dropMiss(ch *child) {
	last := len(c.misses) - 1
	c.misses[ch.idx] = c.misses[last]
	c.misses[ch.idx].idx = ch.idx
	c.missAt[ch.idx] = c.missAt[last]
	c.misses[last] = nil
	c.misses = c.misses[:last]
	c.missAt = c.missAt[:last]
	if ch.kind == kindPrefetch {
		c.prefetching--
	}
}

// hit copies the part of [pos, end) that e holds into the host's buffer
// (zeros where e has no payload) and returns where it stops.
func (c *Cache) hit(h *host, e *extent, pos, end int64) int64 {
	stop := min(e.end, end)
	if r := h.r; r.Data != nil {
		dst := r.Data[pos-r.Offset : stop-r.Offset]
		if e.data != nil {
			copy(dst, e.data[pos-e.off:stop-e.off])
		} else {
			clear(dst)
		}
	}
	h.hitBytes += stop - pos
	if c.tier != nil {
		c.tierRead(h, pos, stop)
	}
	return stop
}

// missDone takes the data of a read below: into the host's buffer, and
// into clean memory unless a write to the range arrived meanwhile.
func (c *Cache) missDone(ch *child) {
	c.dropMiss(ch)
	if ch.Err != nil {
		return
	}
	r := ch.h.r
	if r.Data != nil {
		dst := r.Data[ch.off-r.Offset : ch.end-r.Offset]
		if ch.stale {
			// Newer acknowledged data for the range is in memory.
			c.overlay(dst, ch.off, ch.end)
		}
	}
	if !ch.stale && !ch.bypass {
		c.fillClean(ch.Offset, ch.End(), ch.Data, false)
	}
}

// overlay copies the dirty data within [off, end) over dst.
func (c *Cache) overlay(dst []byte, off, end int64) {
	for _, e := range c.dirty.overlapping(off, end, false) {
		a, b := max(e.off, off), min(e.end, end)
		if e.data != nil {
			copy(dst[a-off:b-off], e.data[a-e.off:b-e.off])
		}
	}
}

// fillClean keeps the parts of [off, end) that no tree holds as clean
// data (data holds the range's bytes, or is nil), evicting clean data in
// the replacement policy's order to make room. It gives way to writes
// waiting for room. On a tier, the new clean data is written there in
// the background unless onTier says it is there already (a destage's).
func (c *Cache) fillClean(off, end int64, data []byte, onTier bool) {
	if c.cfg.NoReadCache || c.cfg.Mode == Off || len(c.stalled) > 0 {
		return
	}
	for pos := off; pos < end; {
		e, next := c.dirty.probe(pos, end)
		if e != nil {
			pos = e.end
			continue
		}
		if e, next = c.busy.probe(pos, next); e != nil {
			pos = e.end
			continue
		}
		if e, next = c.clean.probe(pos, next); e != nil {
			pos = e.end
			continue
		}
		if !c.makeRoom(pos, next, c.clean.chargeOf(pos, next)) {
			return
		}
		e = c.newExtent(pos, next)
		if data != nil {
			e.data = append([]byte(nil), data[pos-off:next-off]...)
		}
		c.clean.insert(e)
		c.rp.admit(e)
		if c.tier != nil {
			if !onTier {
				c.tierIO(kindTierFill, nil, sim.Write, pos, next)
			}
			c.journalKey(nil)
		}
		pos = next
	}
}

// makeRoom evicts clean data, in the replacement policy's order, until
// need more bytes fit in cache memory, for clean data of [off, end) or
// (off == end) dirty data, and reports whether they do.
func (c *Cache) makeRoom(off, end, need int64) bool {
	c.rp.miss(off, end)
	if c.used()+need > c.cfg.Size && c.fullAt == sim.Never {
		c.fullAt = c.eng.Now()
	}
	for c.used()+need > c.cfg.Size {
		e := c.rp.victim()
		if e == nil {
			return false
		}
		c.evict(e)
	}
	return true
}

// evict drops the clean extent e, which the policy has let go.
func (c *Cache) evict(e *extent) {
	c.st.Evictions++
	c.st.EvictedBytes += e.end - e.off
	c.clean.remove(e)
	c.freeExtent(e)
	if c.tier != nil {
		c.journalKey(nil)
	}
}

// dropClean forgets clean data within [off, end), which a write makes
// stale.
func (c *Cache) dropClean(off, end int64) {
	ov := c.clean.overlapping(off, end, false)
	c.merge = append(c.merge[:0], ov...)
	for _, e := range c.merge {
		switch {
		case off <= e.off && e.end <= end:
			c.rp.remove(e)
			c.clean.remove(e)
			c.freeExtent(e)
		case e.off < off && end < e.end:
			r := c.newExtent(end, e.end)
			r.data = e.dataRange(end, e.end)
			if e.data != nil {
				e.data = e.data[: off-e.off : off-e.off]
			}
			c.rp.shrink(e, e.end-off)
			c.clean.setRange(e, e.off, off)
			c.clean.insert(r)
			c.rp.split(e, r)
		case e.off < off:
			if e.data != nil {
				e.data = e.data[: off-e.off : off-e.off]
			}
			c.rp.shrink(e, e.end-off)
			c.clean.setRange(e, e.off, off)
		default:
			e.data = e.dataRange(end, e.end)
			c.rp.shrink(e, end-e.off)
			c.clean.setRange(e, end, e.end)
		}
	}
	c.merge = c.merge[:0]
}
