package cache

// sievePolicy is SIEVE (Zhang, Yang, Yue, Vigfusson and Rashmi, "SIEVE
// is simpler than LRU: an efficient turn-key eviction algorithm for
// web caches", NSDI 2024): a FIFO queue with one visited bit per
// extent (extent.freq), set by a hit, and a hand. To evict, the hand
// moves from where it stopped towards newer extents (from the oldest
// when it has none, wrapping from the newest to the oldest), clearing
// visited bits, and evicts the first unvisited extent; it then rests
// on the next newer one. Unlike CLOCK, survivors stay where they are,
// and new extents go in at the newest end, so they meet the hand only
// after the extents older than them: new data that is not hit again is
// demoted quickly. The paper has no parameters.
type sievePolicy struct {
	queues
	hand *extent // the next extent the hand looks at, or nil: the oldest
}

func (p *sievePolicy) miss(int64, int64) {}

func (p *sievePolicy) admit(e *extent) {
	e.freq = 0
	p.push(0, e)
}

func (p *sievePolicy) hit(e *extent) { e.freq = 1 }

func (p *sievePolicy) victim() *extent {
	q := &p.q[0]
	o := p.hand
	if o == nil {
		o = q.head
	}
	for o != nil && o.freq != 0 {
		o.freq = 0
		if o = q.next(o); o == nil {
			o = q.head
		}
	}
	if o == nil {
		return nil
	}
	p.hand = q.next(o)
	q.unlink(o)
	return o
}

func (p *sievePolicy) remove(e *extent) {
	if p.hand == e {
		p.hand = p.q[0].next(e)
	}
	p.queues.remove(e)
}
