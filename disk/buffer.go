package disk

import "github.com/raidsim/raidsim/sim"

// segment is one read segment of the buffer: the LBAs [start, end) it
// holds. An empty segment has start == end.
type segment struct {
	start, end int64
	used       uint64 // LRU stamp
}

// readCache is the segmented read buffer.
type readCache struct {
	segs   []segment
	nread  int   // segs[:nread] take reads; segs[nread], if any, the latest write
	size   int64 // sectors per segment
	clock  uint64
	filled bool // some segment holds data
}

// find returns the index of a segment holding [lba, lba+n), or -1. The
// segment being filled by read-ahead is checked against front (the data
// read so far) rather than its recorded end.
func (rc *readCache) find(lba, n int64, active int, front int64) int {
	if !rc.filled {
		return -1
	}
	end := lba + n
	for i := range rc.segs {
		s := &rc.segs[i]
		e := s.end
		if i == active && front > e {
			e = front
		}
		if s.start <= lba && end <= e && s.start < e {
			return i
		}
	}
	return -1
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

func (rc *readCache) touch(i int) {
	rc.clock++
	rc.segs[i].used = rc.clock
}

// extend records that segment i now holds data up to end, dropping its
// oldest data beyond the segment size.
func (rc *readCache) extend(i int, end int64) {
	s := &rc.segs[i]
	s.end = end
	if s.end-s.start > rc.size {
		s.start = s.end - rc.size
	}
	rc.filled = true
}

// wrote records [lba, lba+n) as the latest write's data, if a segment
// is kept for it.
func (rc *readCache) wrote(lba, n int64) {
	if rc.nread == len(rc.segs) {
		return
	}
	s := &rc.segs[rc.nread]
	s.start, s.end = max(lba, lba+n-rc.size), lba+n
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
			s.start, s.end = 0, 0
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
// fixed slice (two spare slots absorb a split), unordered.
type dirtySet struct {
	ext     []extent
	cap     int
	sectors int64
}

func newDirtySet(entries int) dirtySet {
	return dirtySet{ext: make([]extent, 0, entries+2), cap: entries}
}

func (g *geometry) place(e *extent) {
	p := g.locate(e.lba)
	e.cyl, e.head = p.cyl, p.head
	e.angle = g.zones[p.zone].angle(p.cyl, p.head, p.sector, g.heads)
}

// covers reports whether one extent holds all of [lba, lba+n).
func (s *dirtySet) covers(lba, n int64) bool {
	end := lba + n
	for i := range s.ext {
		e := &s.ext[i]
		if e.lba <= lba && end <= e.lba+e.n {
			return true
		}
	}
	return false
}

// remove drops the dirty data in [lba, lba+n): newer data replaces it.
func (s *dirtySet) remove(g *geometry, lba, n int64) {
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
			last := len(s.ext) - 1
			s.ext[i] = s.ext[last]
			s.ext = s.ext[:last]
			continue
		case e.lba < lba && eEnd > end: // split around the new data
			tail := extent{lba: end, n: eEnd - end}
			g.place(&tail)
			e.n = lba - e.lba
			s.sectors -= n
			s.ext = append(s.ext, tail)
		case e.lba < lba: // trim its tail
			s.sectors -= eEnd - lba
			e.n = lba - e.lba
		default: // trim its head
			s.sectors -= end - e.lba
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
			return
		}
	}
	e := extent{lba: lba, n: n}
	g.place(&e)
	s.ext = append(s.ext, e)
}

// take removes and returns extent i.
func (s *dirtySet) take(i int) extent {
	e := s.ext[i]
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
