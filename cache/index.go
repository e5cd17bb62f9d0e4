package cache

// The extents of a tree are kept in a B+ tree keyed by their offsets,
// written for them: the keys sit in the nodes (a search compares int64s
// in place, without calling an ordering function or loading extents),
// the leaves are linked (a scan walks them, no callback), and nodes
// come from a free list shared by the cache's trees, so the steady
// state allocates nothing.

// fanout is the most keys a node holds; a node other than the root
// holds at least minFill, except while it is being rebalanced.
const (
	fanout  = 32
	minFill = fanout / 3
)

// bnode is a node of the index. A leaf holds keys[i] and exts[i], in
// key order, and links to its neighbours; an inner node holds kids[i],
// each kids[i] (i > 0) holding keys at or above keys[i] and kids[i-1]
// keys below it (keys[0] is not used).
type bnode struct {
	n          int
	leaf       bool
	keys       [fanout]int64
	exts       [fanout]*extent
	kids       [fanout]*bnode
	prev, next *bnode // leaves: the neighbours in key order
}

// nodePool recycles nodes among the trees of one cache.
type nodePool []*bnode

func (p *nodePool) get(leaf bool) *bnode {
	var x *bnode
	if n := len(*p); n > 0 {
		x = (*p)[n-1]
		*p = (*p)[:n-1]
	} else {
		x = new(bnode)
	}
	x.leaf = leaf
	return x
}

func (p *nodePool) put(x *bnode) {
	*x = bnode{}
	*p = append(*p, x)
}

// extentIndex is an ordered set of extents by offset (offsets unique).
type extentIndex struct {
	root  *bnode
	count int
	pool  *nodePool
}

// slot returns the child of the inner node x whose keys may hold k.
func (x *bnode) slot(k int64) int {
	lo, hi := 1, x.n // the first i >= 1 with keys[i] > k, minus one
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if x.keys[m] <= k {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo - 1
}

// search returns the first i of the leaf x with keys[i] >= k (x.n if
// none).
func (x *bnode) search(k int64) int {
	lo, hi := 0, x.n
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if x.keys[m] < k {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// leafFor returns the leaf whose range holds k.
func (t *extentIndex) leafFor(k int64) *bnode {
	x := t.root
	for x != nil && !x.leaf {
		x = x.kids[x.slot(k)]
	}
	return x
}

// cursor is a position in the index: exts[i] of leaf x, or nowhere
// when x is nil.
type cursor struct {
	x *bnode
	i int
}

func (c cursor) ok() bool     { return c.x != nil }
func (c cursor) ext() *extent { return c.x.exts[c.i] }
func (c *cursor) next()       { c.i++; c.settle() }
func (c *cursor) prev()       { c.i--; c.settle() }

// settle moves a cursor that stepped off its leaf to the neighbour.
func (c *cursor) settle() {
	switch {
	case c.x == nil:
	case c.i >= c.x.n:
		c.x, c.i = c.x.next, 0
	case c.i < 0:
		c.x = c.x.prev
		if c.x != nil {
			c.i = c.x.n - 1
		}
	}
}

// atOrAfter returns the cursor at the first extent with offset >= k.
func (t *extentIndex) atOrAfter(k int64) cursor {
	x := t.leafFor(k)
	if x == nil {
		return cursor{}
	}
	c := cursor{x, x.search(k)}
	c.settle()
	return c
}

// atOrBefore returns the cursor at the last extent with offset <= k.
func (t *extentIndex) atOrBefore(k int64) cursor {
	x := t.leafFor(k)
	if x == nil {
		return cursor{}
	}
	i := x.search(k)
	if i < x.n && x.keys[i] == k {
		return cursor{x, i}
	}
	c := cursor{x, i - 1}
	c.settle()
	return c
}

// first returns the cursor at the lowest extent.
func (t *extentIndex) first() cursor {
	x := t.root
	for x != nil && !x.leaf {
		x = x.kids[0]
	}
	if x == nil || x.n == 0 {
		return cursor{}
	}
	return cursor{x, 0}
}

// ascend calls fn on every extent in offset order until it returns
// false. fn must not change the index.
func (t *extentIndex) ascend(fn func(*extent) bool) {
	for c := t.first(); c.ok() && fn(c.ext()); c.next() {
	}
}

// insert adds e, keyed by e.off, which no extent of the index has.
func (t *extentIndex) insert(e *extent) {
	if t.root == nil {
		t.root = t.pool.get(true)
	}
	if sib, sep := t.insertIn(t.root, e.off, e); sib != nil {
		r := t.pool.get(false)
		r.n = 2
		r.kids[0], r.kids[1], r.keys[1] = t.root, sib, sep
		t.root = r
	}
	t.count++
}

// insertIn adds (k, e) under x; when x splits it returns the new right
// sibling and the lowest key it holds.
func (t *extentIndex) insertIn(x *bnode, k int64, e *extent) (*bnode, int64) {
	if x.leaf {
		i := x.search(k)
		copy(x.keys[i+1:x.n+1], x.keys[i:x.n])
		copy(x.exts[i+1:x.n+1], x.exts[i:x.n])
		x.keys[i], x.exts[i] = k, e
		x.n++
		if x.n < fanout {
			return nil, 0
		}
		return t.split(x)
	}
	i := x.slot(k)
	sib, sep := t.insertIn(x.kids[i], k, e)
	if sib == nil {
		return nil, 0
	}
	copy(x.keys[i+2:x.n+1], x.keys[i+1:x.n])
	copy(x.kids[i+2:x.n+1], x.kids[i+1:x.n])
	x.keys[i+1], x.kids[i+1] = sep, sib
	x.n++
	if x.n < fanout {
		return nil, 0
	}
	return t.split(x)
}

// split moves the upper half of the full node x to a new right sibling
// and returns it with its lowest key. A node is split as soon as it is
// full, so the arrays never overflow.
func (t *extentIndex) split(x *bnode) (*bnode, int64) {
	s := t.pool.get(x.leaf)
	h := x.n / 2
	s.n = x.n - h
	copy(s.keys[:s.n], x.keys[h:x.n])
	if x.leaf {
		copy(s.exts[:s.n], x.exts[h:x.n])
		clear(x.exts[h:x.n])
		s.prev, s.next = x, x.next
		if x.next != nil {
			x.next.prev = s
		}
		x.next = s
	} else {
		copy(s.kids[:s.n], x.kids[h:x.n])
		clear(x.kids[h:x.n])
	}
	x.n = h
	return s, s.keys[0]
}

// delete removes the extent keyed k and reports whether there was one.
func (t *extentIndex) delete(k int64) bool {
	if t.root == nil || !t.deleteIn(t.root, k) {
		return false
	}
	t.count--
	if r := t.root; !r.leaf && r.n == 1 {
		t.root = r.kids[0]
		t.pool.put(r)
	} else if r.leaf && r.n == 0 {
		t.root = nil
		t.pool.put(r)
	}
	return true
}

// deleteIn removes key k under x, rebalancing the children it passes
// through, and reports whether k was there.
func (t *extentIndex) deleteIn(x *bnode, k int64) bool {
	if x.leaf {
		i := x.search(k)
		if i == x.n || x.keys[i] != k {
			return false
		}
		copy(x.keys[i:x.n-1], x.keys[i+1:x.n])
		copy(x.exts[i:x.n-1], x.exts[i+1:x.n])
		x.n--
		x.exts[x.n] = nil
		return true
	}
	i := x.slot(k)
	if !t.deleteIn(x.kids[i], k) {
		return false
	}
	if x.kids[i].n < minFill {
		t.rebalance(x, i)
	}
	return true
}

// rebalance refills x's child i, which fell below minFill, from a
// neighbour: both merge into one node if they fit, else keys move over
// until they hold about as many.
func (t *extentIndex) rebalance(x *bnode, i int) {
	if i == x.n-1 {
		i-- // rebalance the last child with its left neighbour
	}
	if i < 0 {
		return // an only child: the root collapses it
	}
	l, r := x.kids[i], x.kids[i+1]
	if l.n+r.n <= fanout-1 {
		t.merge(x, i)
		return
	}
	for l.n < r.n-1 {
		t.shiftLeft(x, i)
	}
	for r.n < l.n-1 {
		t.shiftRight(x, i)
	}
}

// merge appends x's child i+1 to child i and drops it.
func (t *extentIndex) merge(x *bnode, i int) {
	l, r := x.kids[i], x.kids[i+1]
	copy(l.keys[l.n:], r.keys[:r.n])
	if l.leaf {
		copy(l.exts[l.n:], r.exts[:r.n])
		l.next = r.next
		if r.next != nil {
			r.next.prev = l
		}
	} else {
		l.keys[l.n] = x.keys[i+1] // r's keys[0] is not used: the separator
		copy(l.kids[l.n:], r.kids[:r.n])
	}
	l.n += r.n
	copy(x.keys[i+1:x.n-1], x.keys[i+2:x.n])
	copy(x.kids[i+1:x.n-1], x.kids[i+2:x.n])
	x.n--
	x.kids[x.n] = nil
	t.pool.put(r)
}

// shiftLeft moves the lowest key of x's child i+1 to the end of child
// i.
func (t *extentIndex) shiftLeft(x *bnode, i int) {
	l, r := x.kids[i], x.kids[i+1]
	if l.leaf {
		l.keys[l.n], l.exts[l.n] = r.keys[0], r.exts[0]
		copy(r.exts[:r.n-1], r.exts[1:r.n])
		r.exts[r.n-1] = nil
	} else {
		l.keys[l.n], l.kids[l.n] = x.keys[i+1], r.kids[0]
		copy(r.kids[:r.n-1], r.kids[1:r.n])
		r.kids[r.n-1] = nil
	}
	copy(r.keys[:r.n-1], r.keys[1:r.n])
	l.n++
	r.n--
	x.keys[i+1] = r.keys[0]
}

// shiftRight moves the highest key of x's child i to the front of child
// i+1.
func (t *extentIndex) shiftRight(x *bnode, i int) {
	l, r := x.kids[i], x.kids[i+1]
	copy(r.keys[1:r.n+1], r.keys[:r.n])
	l.n--
	if l.leaf {
		copy(r.exts[1:r.n+1], r.exts[:r.n])
		r.keys[0], r.exts[0] = l.keys[l.n], l.exts[l.n]
		l.exts[l.n] = nil
		x.keys[i+1] = r.keys[0]
	} else {
		copy(r.kids[1:r.n+1], r.kids[:r.n])
		r.keys[1], r.kids[0] = x.keys[i+1], l.kids[l.n]
		l.kids[l.n] = nil
		x.keys[i+1] = l.keys[l.n]
	}
	r.n++
}
