package cache

// trim serves a host trim (discard): the dirty and clean data of its
// range are dropped at once, so no later destage writes them after the
// trim, and the trim goes below like a write-around, once no destage of
// the range is in flight.
func (c *Cache) trim(h *host) {
	r := h.r
	c.trimDirty(r.Offset, r.End())
	c.dropClean(r.Offset, r.End())
	c.staleMisses(r.Offset, r.End())
	c.noteDirty()
	c.around(h)
	c.admit()
	c.checkFlushes()
}
