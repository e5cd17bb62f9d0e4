package cache

import "fmt"

// CheckInvariants reports the first broken internal invariant, for the
// property test: trees sorted and disjoint with correct totals, lists
// holding exactly their tree's extents (the age list in birth order),
// epoch counts matching, no data of the wrong length.
func (c *Cache) CheckInvariants() error {
	check := func(name string, t *extentTree, l *list, age *list) error {
		var bytes, charge int64
		n := 0
		prevEnd := int64(-1)
		var err error
		in := map[*extent]bool{}
		t.t.Ascend(func(e *extent) bool {
			switch {
			case e.off >= e.end:
				err = fmt.Errorf("%s: empty extent [%d, %d)", name, e.off, e.end)
			case e.off < prevEnd:
				err = fmt.Errorf("%s: extent [%d, %d) overlaps the one before (ending %d)", name, e.off, e.end, prevEnd)
			case e.data != nil && int64(len(e.data)) != e.end-e.off:
				err = fmt.Errorf("%s: extent [%d, %d) has %d bytes of data", name, e.off, e.end, len(e.data))
			}
			prevEnd = e.end
			bytes += e.end - e.off
			charge += t.chargeOf(e.off, e.end)
			n++
			in[e] = true
			return err == nil
		})
		if err != nil {
			return err
		}
		if bytes != t.bytes || charge != t.charge {
			return fmt.Errorf("%s: totals %d bytes %d charge, extents sum to %d and %d", name, t.bytes, t.charge, bytes, charge)
		}
		for _, l := range []*list{l, age} {
			if l == nil {
				continue
			}
			m := 0
			var prev *extent
			for e := l.head; e != nil; e = l.next(e) {
				if !in[e] {
					return fmt.Errorf("%s: list %d holds an extent [%d, %d) not in the tree", name, l.i, e.off, e.end)
				}
				if e.lk[l.i].prev != prev {
					return fmt.Errorf("%s: list %d broken back link", name, l.i)
				}
				if l.i == 1 && prev != nil && prev.born > e.born {
					return fmt.Errorf("%s: age list out of order", name)
				}
				prev = e
				m++
			}
			if l.tail != prev || m != n {
				return fmt.Errorf("%s: list %d holds %d extents, tree %d", name, l.i, m, n)
			}
		}
		return nil
	}
	if err := check("dirty", c.dirty, &c.lrw, &c.age); err != nil {
		return err
	}
	if err := check("clean", c.clean, &c.lru, nil); err != nil {
		return err
	}
	if err := check("busy", c.busy, nil, nil); err != nil {
		return err
	}
	counts := map[uint64]int{}
	c.dirty.t.Ascend(func(e *extent) bool { counts[e.epoch]++; return true })
	var destaging, destBytes int64
	outstanding := 0
	c.busy.t.Ascend(func(e *extent) bool {
		if e.destage {
			counts[e.epoch]++
			outstanding++
			if !e.orphan {
				destaging += c.busy.chargeOf(e.off, e.end)
				destBytes += e.end - e.off
			}
		}
		return true
	})
	total := 0
	for _, n := range counts {
		total += n
	}
	if got := c.live.upTo(c.epoch); got != total {
		return fmt.Errorf("live counts %d extents, trees hold %d", got, total)
	}
	for ep, n := range counts {
		if got := c.live.upTo(ep) - c.live.upTo(ep-1); ep > 0 && got != n || ep == 0 && c.live.upTo(0) != n {
			return fmt.Errorf("epoch %d: counted %d extents, live says %d", ep, n, got)
		}
	}
	if outstanding != c.outstanding || destaging != c.destaging || destBytes != c.destBytes {
		return fmt.Errorf("destages in flight: %d, %d charge, %d bytes; counters say %d, %d, %d",
			outstanding, destaging, destBytes, c.outstanding, c.destaging, c.destBytes)
	}
	if c.reserved < 0 || c.outstanding > c.cfg.MaxOutstandingDestages {
		return fmt.Errorf("reserved %d, outstanding %d", c.reserved, c.outstanding)
	}
	return nil
}
