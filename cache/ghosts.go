package cache

import "github.com/google/btree"

// ghosts remember the ranges of clean data a policy evicted, without
// the data, oldest first, as 2Q's A1out, ARC's B1 and B2 and S3-FIFO's
// G do with page numbers. They are ranges because clean extents are:
// a miss whose range overlaps a ghost hits it, and takes it out. The
// ranges are disjoint (a new ghost replaces the parts of older ones it
// overlaps), kept in a google/btree by offset and in a FIFO of
// insertion; a ghost taken out of the btree leaves a stale FIFO entry,
// skipped when the FIFO reaches it.
type ghosts struct {
	t     *btree.BTreeG[ghost]
	fifo  []ghost // oldest first, from head
	head  int
	bytes int64
	seq   uint64

	found []ghost // overlap's result
	lo    int64   // overlap's range
	hi    int64
	first btree.ItemIteratorG[ghost]
	all   btree.ItemIteratorG[ghost]
}

// ghost is one remembered range; seq tells a live FIFO entry from a
// stale one.
type ghost struct {
	off, end int64
	seq      uint64
}

func lessGhost(a, b ghost) bool { return a.off < b.off }

func newGhosts() *ghosts {
	g := &ghosts{t: btree.NewWithFreeListG(degree, lessGhost, btree.NewFreeListG[ghost](freeNodes))}
	g.first = func(x ghost) bool {
		if x.end > g.lo {
			g.found = append(g.found, x)
		}
		return false
	}
	g.all = func(x ghost) bool {
		if x.off >= g.hi {
			return false
		}
		if x.off > g.lo || len(g.found) == 0 || g.found[0].off != x.off {
			g.found = append(g.found, x)
		}
		return true
	}
	return g
}

// overlap returns the ghosts overlapping [off, end), in offset order;
// the slice is reused by the next call.
func (g *ghosts) overlap(off, end int64) []ghost {
	g.found, g.lo, g.hi = g.found[:0], off, end
	if g.t.Len() == 0 || end <= off {
		return g.found
	}
	g.t.DescendLessOrEqual(ghost{off: off}, g.first)
	g.t.AscendGreaterOrEqual(ghost{off: off}, g.all)
	return g.found
}

// has reports whether a ghost overlaps [off, end).
func (g *ghosts) has(off, end int64) bool { return len(g.overlap(off, end)) > 0 }

// take removes the ghosts overlapping [off, end) and reports whether
// there were any.
func (g *ghosts) take(off, end int64) bool {
	ov := g.overlap(off, end)
	for _, x := range ov {
		g.t.Delete(x)
		g.bytes -= x.end - x.off
	}
	return len(ov) > 0
}

// add remembers [off, end) as the newest ghost.
func (g *ghosts) add(off, end int64) {
	g.take(off, end)
	g.seq++
	x := ghost{off, end, g.seq}
	g.t.ReplaceOrInsert(x)
	g.bytes += end - off
	if g.head > 0 && g.head >= len(g.fifo)/2 {
		n := copy(g.fifo, g.fifo[g.head:])
		g.fifo = g.fifo[:n]
		g.head = 0
	}
	g.fifo = append(g.fifo, x)
}

// dropOldest forgets the oldest ghost and reports whether there was
// one.
func (g *ghosts) dropOldest() bool {
	for g.head < len(g.fifo) {
		x := g.fifo[g.head]
		g.head++
		if cur, ok := g.t.Get(x); ok && cur.seq == x.seq {
			g.t.Delete(x)
			g.bytes -= x.end - x.off
			return true
		}
	}
	return false
}

// trim forgets the oldest ghosts until they hold at most limit bytes.
func (g *ghosts) trim(limit int64) {
	for g.bytes > limit && g.dropOldest() {
	}
}
