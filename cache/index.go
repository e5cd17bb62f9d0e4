package cache

import "github.com/google/btree"

// The extents of a tree are indexed by offset in a google/btree
// (BTreeG over a 16-byte value item, nodes recycled through one
// FreeListG per cache), and linked to their neighbours in offset order
// (extent.ord), so that a search descends the btree once and every
// walk from there follows the links. A tree remembers the extent its
// last search found and answers a search at or just after it from the
// links, without a descent: a sequential stream asks about the extent
// it is growing or the one after it.

// degree is the btree's degree: nodes hold degree-1 to 2*degree-1
// items. 16 is the degree at which the stack benchmark ran fastest
// among 8, 16, 32 and 64.
const degree = 64

// freeNodes is how many empty btree nodes a cache's free list keeps for
// reuse (each about 2 KiB once grown): more than the trees of a cache
// shed between two peaks in the steady state.
const freeNodes = 4096

// item is an extent's entry in the btree: its offset, the key, beside
// the extent, so comparisons read the item in the node, not the extent.
type item struct {
	off int64
	e   *extent
}

func lessItem(a, b item) bool { return a.off < b.off }

// nodeFreeList is the btree node free list the trees of one cache
// share.
type nodeFreeList = btree.FreeListG[item]

func newNodeFreeList() *nodeFreeList { return btree.NewFreeListG[item](freeNodes) }

// extentIndex is an ordered set of extents by offset (offsets unique),
// linked in offset order.
type extentIndex struct {
	t     *btree.BTreeG[item]
	head  *extent // lowest offset
	last  *extent // the extent the last floor found, or nil
	found *extent // floor's result, set by its visitor
	visit btree.ItemIteratorG[item]
	near  regionMap // the regions the extents touch
}

func newExtentIndex(fl *nodeFreeList, capacity int64) extentIndex {
	return extentIndex{t: btree.NewWithFreeListG(degree, lessItem, fl), near: newRegionMap(capacity)}
}

// empty reports that no extent touches [a, b), without a descent when
// none comes near it.
func (x *extentIndex) empty(a, b int64) bool { return !x.near.any(a, b) }

// take is floor's visitor: the first item visited is the answer.
func (x *extentIndex) take(it item) bool {
	x.found = it.e
	return false
}

// floor returns the last extent with offset <= k, or nil.
func (x *extentIndex) floor(k int64) *extent {
	if h := x.last; h != nil && h.off <= k {
		n := h.ord.next
		if n == nil || n.off > k {
			return h
		}
		if nn := n.ord.next; nn == nil || nn.off > k {
			x.last = n
			return n
		}
	}
	if x.head == nil || x.head.off > k {
		return nil
	}
	if x.visit == nil {
		x.visit = x.take // bound once: a method value allocates
	}
	x.found = nil
	x.t.DescendLessOrEqual(item{off: k}, x.visit)
	x.last = x.found
	return x.found
}

// ceil returns the first extent with offset >= k, or nil.
func (x *extentIndex) ceil(k int64) *extent {
	f := x.floor(k)
	switch {
	case f == nil:
		return x.head
	case f.off == k:
		return f
	}
	return f.ord.next
}

// len returns the number of extents.
func (x *extentIndex) len() int { return x.t.Len() }

// insert adds e, keyed by e.off, which no extent of the index has.
func (x *extentIndex) insert(e *extent) {
	p := x.floor(e.off)
	if p == nil {
		e.ord = links{next: x.head}
		x.head = e
	} else {
		e.ord = links{prev: p, next: p.ord.next}
		p.ord.next = e
	}
	if n := e.ord.next; n != nil {
		n.ord.prev = e
	}
	x.t.ReplaceOrInsert(item{e.off, e})
	x.near.mark(x.near.region(e.off), x.near.region(e.end-1))
	x.last = e
}

// remove takes e out of the index.
func (x *extentIndex) remove(e *extent) {
	x.t.Delete(item{off: e.off})
	p, n := e.ord.prev, e.ord.next
	x.near.unmark(x.near.region(e.off), x.near.region(e.end-1), p, n)
	if p != nil {
		p.ord.next = n
	} else {
		x.head = n
	}
	if n != nil {
		n.ord.prev = p
	}
	if x.last == e {
		x.last = p
	}
	e.ord = links{}
}

// setRange moves e, in the index, to [off, end); its neighbours stay
// its neighbours (no extent lies between).
func (x *extentIndex) setRange(e *extent, off, end int64) {
	x.near.move(e.off, e.end, off, end, e.ord.prev, e.ord.next)
	if off != e.off {
		x.t.Delete(item{off: e.off})
		x.t.ReplaceOrInsert(item{off, e})
	}
	e.off, e.end = off, end
}

// regionMap marks the regions of the device (aligned runs of
// 1<<shift bytes) that some extent of an index touches, one bit each,
// so that a search over a range no extent comes near is answered
// without a descent. Random requests over a large device mostly ask
// about such ranges. The map is exact: an extent leaving a region
// clears its bit unless a neighbour in offset order still touches it.
type regionMap struct {
	shift uint
	bits  []uint64
}

// mapBits bounds a region map: at most this many regions (128 KiB of
// bits), larger regions on larger devices.
const mapBits = 1 << 20

// minRegionShift makes regions at least 64 KiB.
const minRegionShift = 16

func newRegionMap(capacity int64) regionMap {
	s := uint(minRegionShift)
	for capacity>>s > mapBits {
		s++
	}
	return regionMap{shift: s}
}

// region returns the region of byte pos.
func (m *regionMap) region(pos int64) int64 { return pos >> m.shift }

// any reports whether some marked region overlaps [a, b).
func (m *regionMap) any(a, b int64) bool {
	a, b = max(a, 0), max(b, a+1)
	for r := m.region(a); r <= m.region(b-1); r++ {
		if w := int(r >> 6); w < len(m.bits) && m.bits[w]&(1<<(r&63)) != 0 {
			return true
		}
	}
	return false
}

// mark sets regions r0 through r1.
func (m *regionMap) mark(r0, r1 int64) {
	if r1 < r0 {
		return
	}
	if need := int(r1>>6) + 1; need > len(m.bits) {
		m.bits = append(m.bits, make([]uint64, need-len(m.bits))...)
	}
	for r := r0; r <= r1; r++ {
		m.bits[r>>6] |= 1 << (r & 63)
	}
}

// unmark clears regions r0 through r1 of an extent between prev and
// next (either may be nil), keeping the bits of the regions a
// neighbour still touches.
func (m *regionMap) unmark(r0, r1 int64, prev, next *extent) {
	if prev != nil && m.region(prev.end-1) >= r0 {
		r0++
	}
	if next != nil && m.region(next.off) <= r1 {
		r1--
	}
	for r := r0; r <= r1; r++ {
		m.bits[r>>6] &^= 1 << (r & 63)
	}
}

// move updates the map for e, between prev and next, going from
// [a, b) to [c, d).
func (m *regionMap) move(a, b, c, d int64, prev, next *extent) {
	a0, a1, b0, b1 := m.region(a), m.region(b-1), m.region(c), m.region(d-1)
	m.unmark(a0, min(a1, b0-1), prev, next) // left of the new regions
	m.unmark(max(a0, b1+1), a1, prev, next) // right of them
	m.mark(b0, min(b1, a0-1))
	m.mark(max(b0, a1+1), b1)
}
