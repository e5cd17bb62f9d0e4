package cache

// clockPolicy is CLOCK (Corbató, "A paging experiment with the Multics
// system", MIT Project MAC report MAC-M-384, 1968): one reference bit
// per extent (extent.freq, 0 or 1), set by a hit. The hand sweeps the
// extents in the order they came in; one whose bit is set has it
// cleared and is passed over (a second chance), the first whose bit is
// clear is evicted. The queue's front is the hand: passing an extent
// over moves it to the back, and a new extent goes in at the back, just
// behind the hand, with its bit clear.
type clockPolicy struct{ queues }

func (p *clockPolicy) miss(int64, int64) {}

func (p *clockPolicy) admit(e *extent) {
	e.freq = 0
	p.push(0, e)
}

func (p *clockPolicy) hit(e *extent) { e.freq = 1 }

func (p *clockPolicy) victim() *extent {
	q := &p.q[0]
	for e := q.head; e != nil; e = q.head {
		if e.freq == 0 {
			return q.popFront()
		}
		e.freq = 0
		q.moveToBack(e)
	}
	return nil
}
