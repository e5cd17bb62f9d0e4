package cache

import (
	"fmt"
	"math"
)

// SetExhaustivePick turns off the destage choice's shortcuts, for tests
// that check they change no choice.
func SetExhaustivePick(c *Cache, on bool) { c.exhaustive = on }

// CheckInvariants reports the first broken internal invariant, for the
// property test: trees sorted and disjoint with correct totals, lists
// holding exactly their tree's extents (the age list in birth order),
// epoch counts and destages in flight matching their counters, no data
// of the wrong length, and every absorbed write accounted for (dirty,
// carried below by a destage, or dropped).
func (c *Cache) CheckInvariants() error {
	if err := checkTree("dirty", c.dirty, &c.lrw, &c.age); err != nil {
		return err
	}
	if err := checkTree("clean", c.clean); err != nil {
		return err
	}
	in := map[*extent]bool{}
	c.clean.ascend(func(e *extent) bool { in[e] = true; return true })
	if err := c.rp.(interface{ check(map[*extent]bool) error }).check(in); err != nil {
		return err
	}
	if err := checkTree("busy", c.busy); err != nil {
		return err
	}
	if err := c.checkEpochs(); err != nil {
		return err
	}
	if err := c.checkDestages(); err != nil {
		return err
	}
	return c.checkWrites()
}

// checkTree checks that t's extents are non-empty, sorted, disjoint, with
// data of their length and the tree's totals, and that each list holds
// exactly them.
func checkTree(name string, t *extentTree, lists ...*list) error {
	var bytes, charge int64
	prevEnd := int64(-1)
	var err error
	in := map[*extent]bool{}
	t.ascend(func(e *extent) bool {
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
		in[e] = true
		return err == nil
	})
	if err != nil {
		return err
	}
	if err := checkIndex(name, &t.idx); err != nil {
		return err
	}
	if long := countLong(t); long != t.long {
		return fmt.Errorf("%s: counts %d extents of %d bytes or more, holds %d", name, t.long, t.longAt, long)
	}
	if bytes != t.bytes || charge != t.charge {
		return fmt.Errorf("%s: totals %d bytes %d charge, extents sum to %d and %d", name, t.bytes, t.charge, bytes, charge)
	}
	for _, l := range lists {
		if err := checkList(name, l, in); err != nil {
			return err
		}
	}
	return nil
}

// checkList checks that l links exactly the extents of in, with
// consistent back links, the age list (i = 1) in birth order.
func checkList(name string, l *list, in map[*extent]bool) error {
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
	if l.tail != prev || m != len(in) {
		return fmt.Errorf("%s: list %d holds %d extents, tree %d", name, l.i, m, len(in))
	}
	return nil
}

// checkEpochs checks the live counts of each flush epoch against the
// dirty extents and destages in flight.
func (c *Cache) checkEpochs() error {
	counts := map[uint64]int{}
	c.dirty.ascend(func(e *extent) bool { counts[e.epoch]++; return true })
	c.busy.ascend(func(e *extent) bool {
		if e.destage {
			counts[e.epoch]++
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
	return nil
}

// checkDestages checks the counters of destages in flight and of
// reserved room.
func (c *Cache) checkDestages() error {
	var destaging, destBytes int64
	outstanding := 0
	c.busy.ascend(func(e *extent) bool {
		if e.destage {
			outstanding++
			if !e.orphan {
				destaging += c.busy.chargeOf(e.off, e.end)
				destBytes += e.end - e.off
			}
		}
		return true
	})
	if outstanding != c.outstanding || destaging != c.destaging || destBytes != c.destBytes {
		return fmt.Errorf("destages in flight: %d, %d charge, %d bytes; counters say %d, %d, %d",
			outstanding, destaging, destBytes, c.outstanding, c.destaging, c.destBytes)
	}
	if c.reserved < 0 || c.outstanding > c.cfg.MaxOutstandingDestages {
		return fmt.Errorf("reserved %d, outstanding %d", c.reserved, c.outstanding)
	}
	return nil
}

// checkWrites checks that every absorbed write is accounted for: the
// shares held by dirty extents, carried below by destages
// (Stats.CoalescedWrites) and dropped sum to Stats.WritesAbsorbed.
func (c *Cache) checkWrites() error {
	var dirty float64
	var err error
	c.dirty.ascend(func(e *extent) bool {
		if !(e.writes > 0) {
			err = fmt.Errorf("dirty extent [%d, %d) stands for %g writes", e.off, e.end, e.writes)
		}
		dirty += e.writes
		return err == nil
	})
	if err != nil {
		return err
	}
	absorbed := float64(c.st.WritesAbsorbed)
	if sum := dirty + c.st.CoalescedWrites + c.droppedWrites; math.Abs(sum-absorbed) > 1e-9*max(1, absorbed) {
		return fmt.Errorf("%g writes absorbed, but %g dirty + %g destaged + %g dropped = %g",
			absorbed, dirty, c.st.CoalescedWrites, c.droppedWrites, sum)
	}
	return nil
}

// countLong counts t's extents of t.longAt bytes or more (none when
// longAt is zero).
func countLong(t *extentTree) int {
	n := 0
	t.ascend(func(e *extent) bool {
		if t.longAt > 0 && e.end-e.off >= t.longAt {
			n++
		}
		return true
	})
	return n
}

// checkIndex checks that the btree, the offset-order links and the
// region map of x agree: the links visit the btree's items in order,
// and exactly the regions some extent touches are marked.
func checkIndex(name string, x *extentIndex) error {
	e := x.head
	var prev *extent
	var err error
	want := make([]uint64, len(x.near.bits))
	x.t.Ascend(func(it item) bool {
		switch {
		case e != it.e:
			err = fmt.Errorf("%s: links reach %p, btree holds %p at %d", name, e, it.e, it.off)
		case it.off != e.off:
			err = fmt.Errorf("%s: btree key %d for an extent at %d", name, it.off, e.off)
		case e.ord.prev != prev:
			err = fmt.Errorf("%s: broken back link at %d", name, e.off)
		}
		for r := x.near.region(e.off); r <= x.near.region(e.end-1) && int(r>>6) < len(want); r++ {
			want[r>>6] |= 1 << (r & 63)
		}
		if int(x.near.region(e.end-1)>>6) >= len(want) {
			err = fmt.Errorf("%s: extent [%d, %d) past the region map", name, e.off, e.end)
		}
		prev, e = e, e.ord.next
		return err == nil
	})
	if err != nil {
		return err
	}
	if e != nil {
		return fmt.Errorf("%s: links go on past the btree's last item, to %d", name, e.off)
	}
	for w, bits := range x.near.bits {
		if bits != want[w] {
			return fmt.Errorf("%s: regions %d-%d marked %064b, touched %064b", name, w*64, w*64+63, bits, want[w])
		}
	}
	return nil
}

// Debug describes the cache's queues, for a stalled test.
func (c *Cache) Debug() string {
	return fmt.Sprintf("dirty %d (%d B) busy %d clean %d (%d B) reserved %d destaging %d outstanding %d stalled %d blocked %d flushes %d misses %d parked %d journal busy=%v keys=%d waiting=%d flying=%d used %d size %d maxdirty %d",
		c.dirty.len(), c.dirty.charge, c.busy.len(), c.clean.len(), c.clean.charge, c.reserved, c.destaging, c.outstanding, len(c.stalled), len(c.blocked),
		len(c.flushes), len(c.misses), len(c.parked), c.jr.busy, c.jr.keys, len(c.jr.waiting), len(c.jr.flying), c.used(), c.cfg.Size, c.cfg.MaxDirty)
}
