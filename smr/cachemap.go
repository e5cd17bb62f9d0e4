package smr

import "github.com/google/btree"

// The media cache is a circular log in the conventional tracks at the
// outer diameter (Skylight, FAST 2015: the Seagate drives' persistent
// cache is one region at the OD, written as a log and cleaned in FIFO
// order). Each append becomes one log entry; the indirection map sends
// each LBA range written there to its entry's platter offset. An entry
// stays in the log, counting against the cache, until the log's tail
// passes it; the tail only passes entries none of whose bytes are still
// mapped (overwritten, trimmed, or cleaned into their band).

// mapExtent maps LBAs [lba, lba+n) to the media cache at platter
// offset phys, in log entry entry.
type mapExtent struct {
	lba, n, phys int64
	entry        uint64
}

func lessExtent(a, b mapExtent) bool { return a.lba < b.lba }

// logEntry is one append to the media cache log.
type logEntry struct {
	id   uint64
	phys int64 // platter offset of its first byte
	n    int64 // bytes
	live int64 // bytes still mapped
	band int64 // the band its data belongs to
}

// cacheLog is the indirection map and the log together.
type cacheLog struct {
	start, size int64 // the cache region on the platter
	maxExtents  int

	m       *btree.BTreeG[mapExtent]
	entries []logEntry // oldest first; entries[0] has id firstID
	firstID uint64
	nextID  uint64
	used    int64 // bytes from the tail entry to the head, dead ones included
	resume  int64 // where an emptied log resumes, from the region's start
	off     int   // entries[:off] have left the log

	hits []mapExtent // scratch for overlapping
}

func newCacheLog(start, size int64, maxExtents int) *cacheLog {
	fl := btree.NewFreeListG[mapExtent](256)
	return &cacheLog{start: start, size: size, maxExtents: maxExtents,
		m: btree.NewWithFreeListG(16, lessExtent, fl), firstID: 1, nextID: 1}
}

// extents is the number of mapped extents.
func (c *cacheLog) extents() int { return c.m.Len() }

// free is the bytes that can still be appended before the head meets
// the tail.
func (c *cacheLog) free() int64 { return c.size - c.used }

// head is the platter offset of the next append. An emptied log
// resumes right after its last append, so the log keeps circling the
// region.
func (c *cacheLog) head() int64 {
	if c.off == len(c.entries) {
		return c.start + c.resume
	}
	t := c.entries[c.off].phys - c.start
	return c.start + (t+c.used)%c.size
}

// live returns the entries still in the log, oldest first.
func (c *cacheLog) live() []logEntry { return c.entries[c.off:] }

// fits reports whether n bytes in at most pieces appends fit, map
// entries included (each append may split one existing extent in two).
func (c *cacheLog) fits(n int64, pieces int) bool {
	return c.free() >= n && c.extents()+2*pieces <= c.maxExtents
}

// appendAt writes LBAs [lba, lba+n) of band b at the head and maps
// them. It returns the platter ranges written (one, or two when the
// append wraps round the end of the region), in order, in segs.
func (c *cacheLog) appendAt(lba, n, b int64, segs [][2]int64) [][2]int64 {
	c.unmap(lba, n)
	for n > 0 {
		h := c.head()
		k := min(n, c.start+c.size-h)
		e := logEntry{id: c.nextID, phys: h, n: k, live: k, band: b}
		c.nextID++
		c.entries = append(c.entries, e)
		c.used += k
		c.m.ReplaceOrInsert(mapExtent{lba: lba, n: k, phys: h, entry: e.id})
		segs = append(segs, [2]int64{h, k})
		lba += k
		n -= k
	}
	return segs
}

// entry returns the log entry with id, or nil once it left the log.
func (c *cacheLog) entry(id uint64) *logEntry {
	if id < c.firstID || id-c.firstID >= uint64(len(c.entries)-c.off) {
		return nil
	}
	return &c.entries[c.off+int(id-c.firstID)]
}

// overlapping returns the mapped extents that overlap [lba, lba+n), in
// LBA order, in a scratch slice valid until the next call.
func (c *cacheLog) overlapping(lba, n int64) []mapExtent {
	c.hits = c.hits[:0]
	end := lba + n
	c.m.DescendLessOrEqual(mapExtent{lba: lba}, func(e mapExtent) bool {
		if e.lba+e.n > lba {
			c.hits = append(c.hits, e)
		}
		return false
	})
	c.m.AscendRange(mapExtent{lba: lba + 1}, mapExtent{lba: end}, func(e mapExtent) bool {
		c.hits = append(c.hits, e)
		return true
	})
	return c.hits
}

// unmap drops the mappings of [lba, lba+n), cutting extents that stick
// out of it. It returns the bytes unmapped.
func (c *cacheLog) unmap(lba, n int64) int64 {
	end := lba + n
	var dropped int64
	hits := append([]mapExtent(nil), c.overlapping(lba, n)...)
	for _, e := range hits {
		c.m.Delete(e)
		lo, hi := max(e.lba, lba), min(e.lba+e.n, end)
		if e.lba < lba {
			c.m.ReplaceOrInsert(mapExtent{lba: e.lba, n: lba - e.lba, phys: e.phys, entry: e.entry})
		}
		if e.lba+e.n > end {
			c.m.ReplaceOrInsert(mapExtent{lba: end, n: e.lba + e.n - end, phys: e.phys + end - e.lba, entry: e.entry})
		}
		if le := c.entry(e.entry); le != nil {
			le.live -= hi - lo
		}
		dropped += hi - lo
	}
	c.retire()
	return dropped
}

// retire moves the tail past entries none of whose bytes are mapped.
func (c *cacheLog) retire() {
	for c.off < len(c.entries) && c.entries[c.off].live == 0 {
		e := &c.entries[c.off]
		c.used -= e.n
		c.resume = (e.phys - c.start + e.n) % c.size
		c.off++
		c.firstID++
	}
	if c.off == len(c.entries) {
		c.entries, c.off, c.used = c.entries[:0], 0, 0
	} else if c.off > 1024 && c.off > len(c.entries)/2 {
		n := copy(c.entries, c.entries[c.off:])
		c.entries, c.off = c.entries[:n], 0
	}
}

// tailBand returns the band of the oldest live entry, the next to
// clean, and false when the log is empty.
func (c *cacheLog) tailBand() (int64, bool) {
	if c.off == len(c.entries) {
		return 0, false
	}
	return c.entries[c.off].band, true
}
