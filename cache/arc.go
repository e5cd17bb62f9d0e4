package cache

// arcPolicy is ARC (Megiddo and Modha, "ARC: a self-tuning, low
// overhead replacement cache", FAST 2003). T1 holds data seen once
// recently, T2 data seen at least twice, both LRU; B1 and B2 are ghosts
// of what T1 and T2 evicted. The target size p of T1 starts at 0 and
// adapts: a miss that hits a ghost in B1 raises it by the miss's size
// times max(1, |B2|/|B1|), one in B2 lowers it by the size times
// max(1, |B1|/|B2|), and such a miss goes into T2; any other miss goes
// into T1. Eviction (the paper's REPLACE) takes T1's least recently
// used data into B1 when T1 is over p (or at p and the miss hit B2),
// else T2's into B2. The paper's bounds on the directory, |T1|+|B1| at
// most c and all four at most 2c, are kept when a miss is announced.
// The paper counts pages; here sizes are bytes and c is the cache's
// Size. ARC has no parameter to tune.
type arcPolicy struct {
	queues         // q[0] is T1, q[1] is T2
	b1, b2 *ghosts // ghosts of T1 and T2
	c, p   int64   // the cache size and T1's target, bytes
	// The announced miss: it hit B1 or B2 (and goes into T2), or it
	// found T1 the whole cache (its room is made by evicting from T1
	// without a ghost, case IV.A of the paper).
	hitB1, hitB2, t1Full bool
}

const (
	arcT1 = iota
	arcT2
)

func newARC(size int64) *arcPolicy { return &arcPolicy{b1: newGhosts(), b2: newGhosts(), c: size} }

func (a *arcPolicy) miss(off, end int64) {
	a.hitB1, a.hitB2, a.t1Full = false, false, false
	x := end - off
	if x <= 0 {
		return
	}
	t1, t2 := a.q[arcT1].bytes, a.q[arcT2].bytes
	switch {
	case a.b1.has(off, end): // case II
		d := max(1, a.b2.bytes/max(1, a.b1.bytes))
		a.p = min(a.c, a.p+d*x)
		a.b1.take(off, end)
		a.b2.take(off, end)
		a.hitB1 = true
	case a.b2.has(off, end): // case III
		d := max(1, a.b1.bytes/max(1, a.b2.bytes))
		a.p = max(0, a.p-d*x)
		a.b2.take(off, end)
		a.hitB2 = true
	case t1+a.b1.bytes+x > a.c: // case IV.A
		if t1 < a.c {
			for t1+a.b1.bytes+x > a.c && a.b1.dropOldest() {
			}
		} else {
			a.t1Full = true
		}
	case t1+t2+a.b1.bytes+a.b2.bytes+x > a.c: // case IV.B
		for t1+t2+a.b1.bytes+a.b2.bytes+x > 2*a.c && a.b2.dropOldest() {
		}
	}
}

func (a *arcPolicy) admit(e *extent) {
	if a.hitB1 || a.hitB2 {
		a.push(arcT2, e)
	} else {
		a.push(arcT1, e)
	}
	a.hitB1, a.hitB2, a.t1Full = false, false, false
}

func (a *arcPolicy) hit(e *extent) {
	if e.q == arcT1 {
		a.move(arcT2, e)
		return
	}
	a.q[arcT2].moveToBack(e)
}

func (a *arcPolicy) victim() *extent {
	t1, t2 := &a.q[arcT1], &a.q[arcT2]
	if a.t1Full && t1.head != nil {
		return t1.popFront() // case IV.A: T1 alone fills the cache
	}
	if t1.head != nil && (t1.bytes > a.p || (a.hitB2 && t1.bytes == a.p) || t2.head == nil) {
		e := t1.popFront()
		a.b1.add(e.off, e.end)
		a.b1.trim(2 * a.c)
		return e
	}
	e := t2.popFront()
	if e != nil {
		a.b2.add(e.off, e.end)
		a.b2.trim(2 * a.c)
	}
	return e
}
