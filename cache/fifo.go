package cache

// fifoPolicy evicts clean extents in the order they came in; a hit
// changes nothing (Belady's FIFO, "A study of replacement algorithms
// for a virtual-storage computer", IBM Systems Journal 5(2), 1966).
type fifoPolicy struct{ queues }

func (p *fifoPolicy) miss(int64, int64) {}
func (p *fifoPolicy) admit(e *extent)   { p.push(0, e) }
func (p *fifoPolicy) hit(*extent)       {}
func (p *fifoPolicy) victim() *extent   { return p.q[0].popFront() }
