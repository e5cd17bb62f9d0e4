package disk

import "github.com/raidsim/raidsim/sim"

// segment is one read segment of the buffer: the LBAs [start, end) it
// holds. An empty segment has start == end.
type segment struct {
	start, end int64
	used       uint64 // LRU stamp
}

// readCache is the segmented read buffer. Every change to what its
// segments hold goes through its methods (and set), which count it in
// ver, and count in grew and shrank the changes that gave a segment
// sectors it did not hold and that took some away: a range no segment
// held is held after a change only if that segment grew, so a
// remembered answer (Drive.queuedHit) is checked against the segments
// that grew since, not all of them.
type readCache struct {
	segs   []segment
	nread  int   // segs[:nread] take reads; segs[nread], if any, the latest write
	size   int64 // sectors per segment
	clock  uint64
	filled bool   // some segment holds data
	ver    uint64 // changes to the segments' ranges so far
	grew   uint64 // changes that gave a segment sectors
	shrank uint64 // changes that took sectors from a segment
	// lastGrew is the segment the latest growth was in, and every
	// growth from the grew count soleFrom on was in it.
	lastGrew int
	soleFrom uint64
}

// set makes segment i hold [start, end) (empty unless start < end),
// counting the change.
func (rc *readCache) set(i int, start, end int64) {
	s := &rc.segs[i]
	was, is := s.start < s.end, start < end
	if is && (!was || start < s.start || end > s.end) {
		if i != rc.lastGrew {
			rc.lastGrew, rc.soleFrom = i, rc.grew
		}
		rc.grew++
	}
	if was && (!is || start > s.start || end < s.end) {
		rc.shrank++
	}
	s.start, s.end = start, end
	rc.ver++
}

// holds reports whether segment i's recorded range holds [lba, lba+n).
func (rc *readCache) holds(i int, lba, n int64) bool {
	s := &rc.segs[i]
	return s.start <= lba && lba+n <= s.end && s.start < s.end
}

// find returns the index of a segment holding [lba, lba+n), or -1. The
// segment being filled by read-ahead is checked against front (the data
// read so far) rather than its recorded end.
func (rc *readCache) find(lba, n int64, active int, front int64) int {
	if !rc.filled {
		return -1
	}
	i := rc.holding(lba, n)
	if active >= 0 && (i < 0 || active < i) && rc.frontHolds(active, lba, n, front) {
		return active
	}
	return i
}

// holding returns the first segment whose recorded range holds [lba,
// lba+n), or -1.
func (rc *readCache) holding(lba, n int64) int {
	end := lba + n
	for i := range rc.segs {
		s := &rc.segs[i]
		if s.start <= lba && end <= s.end && s.start < s.end {
			return i
		}
	}
	return -1
}

// frontHolds reports whether segment i, read up to front, holds [lba,
// lba+n).
func (rc *readCache) frontHolds(i int, lba, n, front int64) bool {
	s := &rc.segs[i]
	return s.start <= lba && lba+n <= front && s.start < front
}

// setStart moves the start of segment i.
func (rc *readCache) setStart(i int, start int64) {
	rc.set(i, start, rc.segs[i].end)
}

// slot returns the segment a read of [lba, ...) should fill: one that
// ends exactly at lba (a sequential run continues), else the least
// recently used.
func (rc *readCache) slot(lba int64) int {
	best := 0
	for i := range rc.segs[:rc.nread] {
		s := &rc.segs[i]
		if s.end == lba && s.end > s.start {
			return i
		}
		if s.used < rc.segs[best].used {
			best = i
		}
	}
	return best
}

// prefix returns how many sectors from lba on (fewer than n) one read
// segment holds: the front of a partial hit.
func (rc *readCache) prefix(lba, n int64) int64 {
	var k int64
	if !rc.filled {
		return 0
	}
	for i := range rc.segs {
		if s := &rc.segs[i]; s.start <= lba && lba < s.end {
			k = max(k, min(s.end-lba, n-1))
		}
	}
	return k
}

func (rc *readCache) touch(i int) {
	rc.clock++
	rc.segs[i].used = rc.clock
}

// extend records that segment i now holds data up to end, dropping its
// oldest data beyond the segment size.
func (rc *readCache) extend(i int, end int64) {
	start := rc.segs[i].start
	if end-start > rc.size {
		start = end - rc.size
	}
	rc.set(i, start, end)
	rc.filled = true
}

// wrote records [lba, lba+n) as the latest write's data, if a segment
// is kept for it.
func (rc *readCache) wrote(lba, n int64) {
	if rc.nread == len(rc.segs) {
		return
	}
	rc.set(rc.nread, max(lba, lba+n-rc.size), lba+n)
	rc.filled = true
}

// invalidate empties every segment overlapping [lba, lba+n) and reports
// whether segment active was one of them.
func (rc *readCache) invalidate(lba, n int64, active int) (hitActive bool) {
	if !rc.filled {
		return false
	}
	end := lba + n
	for i := range rc.segs {
		s := &rc.segs[i]
		if s.start < end && lba < s.end {
			rc.set(i, 0, 0)
			if i == active {
				hitActive = true
			}
		}
	}
	return hitActive
}

// extent is a run of dirty sectors, with the physical position of its
// first sector cached for the destage scheduler.
type extent struct {
	lba, n           int64
	cyl, head, angle int64
}

// dirtySet is the write cache's dirty data: at most cap extents in a
// fixed slice (two spare slots absorb a split), unordered (the destage
// scheduler scans them in that order), and the same ranges sorted by
// LBA in byLBA, so that covers is a binary search. The extents never
// overlap. Every change goes through insert, remove or take, which
// count it in ver, and count in grew the insertions and in shrank the
// changes that may have taken sectors away (as readCache does, for
// Drive.queuedHit).
type dirtySet struct {
	ext     []extent
	byLBA   []span
	cap     int
	sectors int64
	ver     uint64 // changes so far
	grew    uint64 // insertions so far
	shrank  uint64 // removals and takes so far
	// grown is the range of the extent the latest insertion made or
	// extended, and grownShrank the shrank count just after it.
	grown       span
	grownShrank uint64
}

// span is a range of sectors [start, end).
type span struct{ start, end int64 }

func newDirtySet(entries int) dirtySet {
	return dirtySet{ext: make([]extent, 0, entries+2), byLBA: make([]span, 0, entries+2), cap: entries}
}

// after returns the number of ranges of byLBA starting at or before
// lba.
func (s *dirtySet) after(lba int64) int {
	lo, hi := 0, len(s.byLBA)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if s.byLBA[m].start <= lba {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// span returns the range of byLBA that starts at lba (an extent's).
func (s *dirtySet) span(lba int64) *span { return &s.byLBA[s.after(lba)-1] }

// addSpan puts [start, end) in byLBA.
func (s *dirtySet) addSpan(start, end int64) {
	i := s.after(start)
	s.byLBA = append(s.byLBA, span{})
	copy(s.byLBA[i+1:], s.byLBA[i:])
	s.byLBA[i] = span{start, end}
}

// dropSpan takes the range starting at lba out of byLBA.
func (s *dirtySet) dropSpan(lba int64) {
	i := s.after(lba) - 1
	s.byLBA = append(s.byLBA[:i], s.byLBA[i+1:]...)
}

func (g *geometry) place(e *extent) {
	p := g.locate(e.lba)
	e.cyl, e.head = p.cyl, p.head
	e.angle = g.zones[p.zone].angle(p.cyl, p.head, p.sector, g.heads)
}

// covers reports whether one extent holds all of [lba, lba+n): the
// last one starting at or before lba, since they do not overlap.
func (s *dirtySet) covers(lba, n int64) bool {
	i := s.after(lba)
	return i > 0 && lba+n <= s.byLBA[i-1].end
}

// remove drops the dirty data in [lba, lba+n): newer data replaces it.
func (s *dirtySet) remove(g *geometry, lba, n int64) {
	s.ver++
	s.shrank++
	end := lba + n
	for i := 0; i < len(s.ext); {
		e := &s.ext[i]
		eEnd := e.lba + e.n
		if eEnd <= lba || e.lba >= end {
			i++
			continue
		}
		switch {
		case e.lba >= lba && eEnd <= end: // covered
			s.sectors -= e.n
			s.dropSpan(e.lba)
			last := len(s.ext) - 1
			s.ext[i] = s.ext[last]
			s.ext = s.ext[:last]
			continue
		case e.lba < lba && eEnd > end: // split around the new data
			tail := extent{lba: end, n: eEnd - end}
			g.place(&tail)
			e.n = lba - e.lba
			s.span(e.lba).end = lba
			s.sectors -= n
			s.ext = append(s.ext, tail)
			s.addSpan(end, eEnd)
		case e.lba < lba: // trim its tail
			s.sectors -= eEnd - lba
			e.n = lba - e.lba
			s.span(e.lba).end = lba
		default: // trim its head (it keeps its place in byLBA)
			s.sectors -= end - e.lba
			s.span(e.lba).start = end
			e.n = eEnd - end
			e.lba = end
			g.place(e)
		}
		i++
	}
}

// insert adds [lba, lba+n) as dirty, replacing older dirty data it
// overlaps and extending an extent that ends at lba (up to maxMerge
// sectors).
func (s *dirtySet) insert(g *geometry, lba, n, maxMerge int64) {
	s.remove(g, lba, n)
	s.sectors += n
	for i := range s.ext {
		e := &s.ext[i]
		if e.lba+e.n == lba && e.n+n <= maxMerge {
			e.n += n
			s.span(e.lba).end = lba + n
			s.grow(e.lba, lba+n)
			return
		}
	}
	e := extent{lba: lba, n: n}
	g.place(&e)
	s.ext = append(s.ext, e)
	s.addSpan(lba, lba+n)
	s.grow(lba, lba+n)
}

// grow records that an insertion left an extent over [start, end).
func (s *dirtySet) grow(start, end int64) {
	s.grew++
	s.grown, s.grownShrank = span{start, end}, s.shrank
}

// stillCovers is covers for a range whose answer was yes (was) or no
// when the counts were grew and shrank: a yes holds while nothing
// shrank; a no while nothing grew, or after one insertion, unless the
// extent it left covers the range (then yes, if nothing shrank since).
func (s *dirtySet) stillCovers(lba, n int64, was bool, grew, shrank uint64) bool {
	switch {
	case was:
		if shrank == s.shrank {
			return true
		}
	case grew == s.grew:
		return false
	case grew+1 == s.grew:
		if lba < s.grown.start || lba+n > s.grown.end {
			return false
		}
		if s.grownShrank == s.shrank {
			return true
		}
	}
	return len(s.ext) > 0 && s.covers(lba, n)
}

// take removes and returns extent i.
func (s *dirtySet) take(i int) extent {
	s.ver++
	s.shrank++
	e := s.ext[i]
	s.dropSpan(e.lba)
	last := len(s.ext) - 1
	s.ext[i] = s.ext[last]
	s.ext = s.ext[:last]
	s.sectors -= e.n
	return e
}

// store holds written payloads sector by sector, for runs that carry
// Request.Data. It is created on first use: performance runs never touch it.
type store struct {
	m  map[int64][]byte
	ss int64
}

func (s *store) write(r *sim.Request, lba int64) {
	if s.m == nil {
		s.m = make(map[int64][]byte)
	}
	for i := int64(0); i*s.ss < int64(len(r.Data)); i++ {
		b := s.m[lba+i]
		if b == nil {
			b = make([]byte, s.ss)
			s.m[lba+i] = b
		}
		copy(b, r.Data[i*s.ss:(i+1)*s.ss])
	}
}

func (s *store) read(r *sim.Request, lba int64) {
	for i := int64(0); i*s.ss < int64(len(r.Data)); i++ {
		dst := r.Data[i*s.ss : (i+1)*s.ss]
		if b := s.m[lba+i]; b != nil {
			copy(dst, b)
		} else {
			clear(dst)
		}
	}
}
