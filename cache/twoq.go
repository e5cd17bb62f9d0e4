package cache

// twoQPolicy is the full version of 2Q (Johnson and Shasha, "2Q: a low
// overhead high performance buffer management replacement algorithm",
// VLDB 1994) with the paper's recommended sizes: data seen once goes
// into A1in, a FIFO, and when A1in holds more than Kin (25% of the
// cache) its oldest data is evicted and remembered in A1out, ghosts of
// at most Kout (50% of the cache); a miss that hits a ghost in A1out
// goes into Am, an LRU, whose least recently used data is evicted when
// A1in is within Kin. A hit in A1in changes nothing (correlated
// references); a hit in Am moves the data to Am's back. Sizes are
// bytes of the cache's Size, where the paper counts pages.
type twoQPolicy struct {
	queues           // q[0] is A1in, q[1] is Am
	out      *ghosts // A1out
	kin      int64
	kout     int64
	ghostHit bool // the range miss announced hit A1out
}

const (
	twoQIn = iota
	twoQMain
)

func newTwoQ(size int64) *twoQPolicy {
	return &twoQPolicy{out: newGhosts(), kin: frac(size, 0.25), kout: frac(size, 0.50)}
}

func (p *twoQPolicy) miss(off, end int64) { p.ghostHit = p.out.take(off, end) }

func (p *twoQPolicy) admit(e *extent) {
	if p.ghostHit {
		p.push(twoQMain, e)
	} else {
		p.push(twoQIn, e)
	}
	p.ghostHit = false
}

func (p *twoQPolicy) hit(e *extent) {
	if e.q == twoQMain {
		p.q[twoQMain].moveToBack(e)
	}
}

func (p *twoQPolicy) victim() *extent {
	in, am := &p.q[twoQIn], &p.q[twoQMain]
	if in.head != nil && (in.bytes > p.kin || am.head == nil) {
		e := in.popFront()
		p.out.add(e.off, e.end)
		p.out.trim(p.kout)
		return e
	}
	return am.popFront()
}
