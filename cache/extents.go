package cache

import "github.com/raidsim/raidsim/sim"

// Extent is a byte range of the device: Length bytes from Offset.
type Extent struct {
	Offset, Length int64
}

// End returns Offset+Length.
func (e Extent) End() int64 { return e.Offset + e.Length }

// extent is one range of cached data: dirty, clean, or in flight to the
// device below. Extents of one tree never overlap.
type extent struct {
	// The fields a search or a walk reads of every extent it passes
	// (the range and the offset-order links) and the replacement or LRW
	// links come first: an extent is 128 bytes, two cache lines, and
	// a search touching a neighbour then reads one of them.
	off, end int64
	// ord links the extent to its neighbours in its tree, in offset
	// order.
	ord links
	// lk[0] links the LRW list (dirty) or a replacement policy's queue
	// (clean), lk[1] the age list (dirty, oldest born first).
	lk [2]links
	// data holds end-off bytes, or is nil when the requests that made
	// the extent carried no payload. Slices handed to other extents are
	// always capped (three-index slicing), so appending to one never
	// writes into another's bytes.
	data []byte
	// epoch is the flush epoch of dirty data (see Cache.flushes).
	epoch uint64
	// lastWrite is when the extent was last written (LRW order).
	lastWrite sim.Time
	// born is when the oldest byte of a dirty extent was written.
	born sim.Time
	// writes is the number of absorbed host writes a dirty extent stands
	// for: the writes merged into it and those it overwrote, a write cut
	// between extents counting in each for the share of its bytes each
	// holds (see Stats.CoalescedWrites).
	writes float64
	// ref is WOW's recency bit: written again since the sweep passed.
	ref bool
	// orphan marks an in-flight destage whose data a Crash dropped.
	orphan bool
	// destage marks an in-flight extent that is a destage (else a
	// write-through or FUA write of a host request).
	destage bool
	// q is the replacement policy's queue that holds a clean extent,
	// freq its reference bit or frequency (see the policies).
	q, freq uint8
}

// dataRange returns e's bytes for [a, b), capped, or nil.
func (e *extent) dataRange(a, b int64) []byte {
	if e.data == nil {
		return nil
	}
	return e.data[a-e.off : b-e.off : b-e.off]
}

// extentTree is an index of disjoint extents ordered by offset, with
// the byte and block-charge totals kept up to date.
type extentTree struct {
	idx    extentIndex
	block  int64
	bytes  int64 // sum of lengths
	charge int64 // sum of whole blocks touched, in bytes
	// longAt, when positive, makes the tree count in long its extents
	// of longAt bytes or more: the dirty tree counts those that could
	// hold a full stripe, so a destage choice knows when none can.
	longAt int64
	long   int

	buf []*extent // overlapping's result
}

func newExtentTree(block, capacity int64, fl *nodeFreeList) *extentTree {
	return &extentTree{block: block, idx: newExtentIndex(fl, capacity)}
}

// chargeOf returns the bytes of the whole blocks [off, end) touches.
func (t *extentTree) chargeOf(off, end int64) int64 {
	if end <= off {
		return 0
	}
	b := t.block
	return ((end+b-1)/b - off/b) * b
}

func (t *extentTree) len() int { return t.idx.len() }

func (t *extentTree) insert(e *extent) {
	t.idx.insert(e)
	t.bytes += e.end - e.off
	t.charge += t.chargeOf(e.off, e.end)
	t.long += t.isLong(e.off, e.end)
}

func (t *extentTree) remove(e *extent) {
	t.idx.remove(e)
	t.bytes -= e.end - e.off
	t.charge -= t.chargeOf(e.off, e.end)
	t.long -= t.isLong(e.off, e.end)
}

// isLong returns 1 if [off, end) counts in long, else 0.
func (t *extentTree) isLong(off, end int64) int {
	if t.longAt > 0 && end-off >= t.longAt {
		return 1
	}
	return 0
}

// setRange moves e (in the tree) to [off, end); the caller keeps e.data
// consistent. No other extent may overlap the new range.
func (t *extentTree) setRange(e *extent, off, end int64) {
	t.bytes += (end - off) - (e.end - e.off)
	t.charge += t.chargeOf(off, end) - t.chargeOf(e.off, e.end)
	t.long += t.isLong(off, end) - t.isLong(e.off, e.end)
	t.idx.setRange(e, off, end)
}

// floor returns the last extent starting at or before pos, or nil.
func (t *extentTree) floor(pos int64) *extent { return t.idx.floor(pos) }

// ceil returns the first extent starting at or after pos, or nil.
func (t *extentTree) ceil(pos int64) *extent { return t.idx.ceil(pos) }

// containing returns the extent holding byte pos, or nil.
func (t *extentTree) containing(pos int64) *extent {
	if t.idx.empty(pos, pos+1) {
		return nil
	}
	if e := t.floor(pos); e != nil && e.end > pos {
		return e
	}
	return nil
}

// nextStart returns the offset of the first extent starting after pos,
// or limit if there is none before it.
func (t *extentTree) nextStart(pos, limit int64) int64 {
	if e := t.ceil(pos + 1); e != nil && e.off < limit {
		return e.off
	}
	return limit
}

// probe returns the extent holding byte pos, or nil, and the offset of
// the first extent starting after pos, or limit if none starts before
// it: containing and nextStart in one descent.
func (t *extentTree) probe(pos, limit int64) (*extent, int64) {
	if t.idx.empty(pos, limit) {
		return nil, limit
	}
	var hold *extent
	n := t.idx.head
	if f := t.idx.floor(pos); f != nil {
		if f.end > pos {
			hold = f
		}
		n = f.ord.next // starts after pos: f was the last at or before it
	}
	if n != nil && n.off < limit {
		return hold, n.off
	}
	return hold, limit
}

// overlapping returns the extents that overlap [off, end), or also touch
// it when adjacent is set, in offset order. The slice is reused by the
// next call.
func (t *extentTree) overlapping(off, end int64, adjacent bool) []*extent {
	t.buf = t.buf[:0]
	limit := end
	if adjacent {
		limit = end + 1
	}
	if t.idx.empty(off-1, limit) {
		return t.buf
	}
	e := t.idx.floor(off)
	if e == nil {
		e = t.idx.head
	} else if e.end < off || (!adjacent && e.end == off) {
		e = e.ord.next // ends before the range: not in it
	}
	for ; e != nil && e.off < limit; e = e.ord.next {
		t.buf = append(t.buf, e)
	}
	return t.buf
}

// ascend calls fn on every extent in offset order until it returns
// false; fn must not change the tree.
func (t *extentTree) ascend(fn func(*extent) bool) {
	for e := t.idx.head; e != nil && fn(e); e = e.ord.next {
	}
}

// covered returns the bytes of [off, end) the tree holds.
func (t *extentTree) covered(off, end int64) int64 {
	var n int64
	for _, e := range t.overlapping(off, end, false) {
		n += min(e.end, end) - max(e.off, off)
	}
	return n
}

// links are one list's pointers in an extent.
type links struct{ prev, next *extent }

// list is an intrusive doubly linked list of extents, oldest first: the
// LRW order of dirty extents or a replacement queue of clean ones
// (i = 0), or the age order of dirty extents (i = 1).
type list struct {
	head, tail *extent
	i          int
}

func (l *list) next(e *extent) *extent { return e.lk[l.i].next }

func (l *list) pushBack(e *extent) {
	e.lk[l.i] = links{prev: l.tail}
	if l.tail != nil {
		l.tail.lk[l.i].next = e
	} else {
		l.head = e
	}
	l.tail = e
}

// insertAfter links e after at (which is in the list).
func (l *list) insertAfter(e, at *extent) {
	n := at.lk[l.i].next
	e.lk[l.i] = links{prev: at, next: n}
	if n != nil {
		n.lk[l.i].prev = e
	} else {
		l.tail = e
	}
	at.lk[l.i].next = e
}

func (l *list) unlink(e *extent) {
	k := e.lk[l.i]
	if k.prev != nil {
		k.prev.lk[l.i].next = k.next
	} else if l.head == e {
		l.head = k.next
	}
	if k.next != nil {
		k.next.lk[l.i].prev = k.prev
	} else if l.tail == e {
		l.tail = k.prev
	}
	e.lk[l.i] = links{}
}

func (l *list) moveToBack(e *extent) {
	if l.tail == e {
		return
	}
	l.unlink(e)
	l.pushBack(e)
}

// reset empties the list without touching its extents.
func (l *list) reset() { l.head, l.tail = nil, nil }

// epochs counts dirty and in-flight destage extents per flush epoch, so
// a flush can tell when everything written before it has reached the
// device below.
type epochs struct {
	base uint64
	n    []int
}

func (x *epochs) add(e uint64, d int) {
	for e-x.base >= uint64(len(x.n)) {
		x.n = append(x.n, 0)
	}
	x.n[e-x.base] += d
}

// upTo returns the extents of epochs up to and including e.
func (x *epochs) upTo(e uint64) int {
	if e < x.base {
		return 0
	}
	s := 0
	for i := 0; i < len(x.n) && uint64(i) <= e-x.base; i++ {
		s += x.n[i]
	}
	return s
}

// trim forgets leading empty epochs older than cur.
func (x *epochs) trim(cur uint64) {
	i := 0
	for i < len(x.n) && x.n[i] == 0 && x.base+uint64(i) < cur {
		i++
	}
	if i > 0 {
		x.n = append(x.n[:0], x.n[i:]...)
		x.base += uint64(i)
	}
}

// growTo returns s extended to n bytes (new bytes zero), reallocating
// with doubling when its capacity is short.
func growTo(s []byte, n int64) []byte {
	if int64(cap(s)) >= n {
		old := len(s)
		s = s[:n]
		clear(s[old:])
		return s
	}
	ns := make([]byte, n, max(n, 2*int64(cap(s))))
	copy(ns, s)
	return ns
}
