package cache

// lruPolicy evicts the least recently used clean extent: a hit moves an
// extent to the back of one queue, eviction takes the front. The
// classic policy (see Mattson et al., "Evaluation techniques for
// storage hierarchies", IBM Systems Journal 9(2), 1970, whose stack
// algorithm raidsim mrc uses to compute LRU's miss ratio at every size
// in one pass).
type lruPolicy struct{ queues }

func (p *lruPolicy) miss(int64, int64) {}
func (p *lruPolicy) admit(e *extent)   { p.push(0, e) }
func (p *lruPolicy) hit(e *extent)     { p.q[0].moveToBack(e) }
func (p *lruPolicy) victim() *extent   { return p.q[0].popFront() }
