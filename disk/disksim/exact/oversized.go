package exact

// The driver's splitting of requests larger than a smart controller's
// cache takes ("Max request size", which the driver learns at start-up
// from IO_QLEN_MAXCHECK), as iodriver_schedule and
// iodriver_access_complete in src/disksim_iodriver.c do it: the first
// Max request size blocks go down, the whole request is kept in the
// controller's oversized list, and each part's completion sends the
// next part down, until the last completes the request. A part's
// completion sends the next part without counting the request off the
// controller, so every split request leaves one more counted on it for
// good (the driver's numoutstanding).

// splitOversized is iodriver_schedule's part for a smart controller: a
// request larger than the maximum goes down cut to it, and a copy of
// the whole joins the oversized list (after its first entry).
func (s *Sim) splitOversized(e *event) {
	limit := s.m.Controller.Smart.Cache.MaxRequestSize
	if limit == 0 || e.bcount <= limit {
		return
	}
	c := s.smart
	total := s.copyOf(e)
	e.bcount = limit
	if c.oversized != nil {
		total.next = c.oversized.next
		c.oversized.next = total
		return
	}
	total.next = total
	c.oversized = total
}

// oversizedPart is iodriver_access_complete's search of the oversized
// list: when r is a part of a split request, either the next part is
// sent down (and it reports true), or the whole request is taken out
// of the list and returned in r's place.
func (s *Sim) oversizedPart(r *event) (*event, bool) {
	c := s.smart
	holds := func(t *event) bool {
		return t.opid == r.opid && r.blkno >= t.blkno && r.blkno < t.blkno+t.bcount
	}
	t := c.oversized
	for first := true; (first || t != c.oversized) && t != nil && t.next != nil && !holds(t.next); first = false {
		t = t.next
	}
	if t == nil || !holds(t.next) {
		return r, false
	}
	limit := s.m.Controller.Smart.Cache.MaxRequestSize
	total := t.next
	if end := total.blkno + total.bcount; r.blkno+limit < end {
		// "more to go": the next part, counted on the controller again
		p := s.copyOf(r)
		p.blkno += limit
		p.bcount = min(limit, end-p.blkno)
		p.typ = evAccessArrive
		p.next = nil
		s.drvOut++
		p.time = s.now
		s.schedule(p)
		return nil, true
	}
	t.next = total.next
	if c.oversized == total {
		c.oversized = nil
		if total.next != total {
			c.oversized = total.next
		}
	}
	total.next = nil
	return total, false
}
