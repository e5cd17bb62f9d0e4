package raid

import (
	"errors"
	"fmt"
	"slices"

	"github.com/raidsim/raidsim/sim"
)

// ErrLostInRebuild reports a read of data a rebuild could not recover:
// a member read failed while no redundancy was left (a URE during a
// RAID 5 rebuild). It wraps ErrDataLost.
var ErrLostInRebuild = fmt.Errorf("lost during a rebuild: %w", ErrDataLost)

// Extent is a range of logical bytes: Length bytes from Offset.
type Extent struct{ Offset, Length int64 }

// End returns Offset + Length.
func (e Extent) End() int64 { return e.Offset + e.Length }

// lostSet is the array's logical ranges lost in rebuilds, sorted and
// merged.
type lostSet []Extent

// add records [off, off+n), merging with neighbours.
func (l *lostSet) add(off, n int64) {
	s := *l
	i, _ := slices.BinarySearchFunc(s, off, func(e Extent, t int64) int { return cmpInt(e.End(), t) })
	j := i
	lo, hi := off, off+n
	for j < len(s) && s[j].Offset <= hi {
		lo, hi = min(lo, s[j].Offset), max(hi, s[j].End())
		j++
	}
	*l = slices.Replace(s, i, j, Extent{lo, hi - lo})
}

// overlaps reports whether [off, end) touches a lost range.
func (l lostSet) overlaps(off, end int64) bool {
	i, _ := slices.BinarySearchFunc(l, off, func(e Extent, t int64) int { return cmpInt(e.End(), t+1) })
	return i < len(l) && l[i].Offset < end
}

func cmpInt(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// LostRanges returns the logical ranges lost in rebuilds (unreadable
// source sectors met with no redundancy left), in order. Reads touching
// them complete with ErrLostInRebuild.
func (a *Array) LostRanges() []Extent { return slices.Clone(a.lostRanges) }

// LostBytes is the total length of LostRanges.
func (a *Array) LostBytes() int64 {
	var n int64
	for _, e := range a.lostRanges {
		n += e.Length
	}
	return n
}

// repairable reports whether a failed member read belongs to a plain
// foreground read that redundancy can serve instead.
func (a *Array) repairable(c *child, q *sim.Request) bool {
	return c.so == nil && c.o.kind == kRead && q.Op == sim.Read && a.m.Level != RAID0
}

// repair serves a member read that failed (an unreadable sector) from
// the redundancy, as md does on a read error: RAID 5 XORs the stripe's
// other members, a mirror reads another copy; the bytes go to the
// parent and are written back to the member, which remaps the sector.
// It reports false, changing nothing, when no redundancy is left there.
func (a *Array) repair(c *child, q *sim.Request) bool {
	o, m := c.o, c.member
	row := q.Offset / a.u
	a.cand = a.cand[:0]
	switch a.m.Level {
	case RAID5:
		for p := range a.n {
			if p != m {
				if !a.avail(p, row) {
					return false
				}
				a.cand = append(a.cand, p)
			}
		}
	case RAID6:
		if !a.sources6(m, row) {
			return false
		}
	case RAID1:
		for p := range a.n {
			if p != m && a.avail(p, row) {
				a.cand = append(a.cand, p)
				break
			}
		}
	case RAID10:
		if a.avail(m^1, row) {
			a.cand = append(a.cand, m^1)
		}
	}
	if len(a.cand) == 0 {
		return false
	}
	so := a.getSO(o, soRepair)
	so.stripe, so.target, so.moff, so.mlen, so.member = row, q.Data, q.Offset, q.Length, m
	o.pending++
	a.ct.repairs++
	for _, p := range a.cand {
		var buf []byte
		if q.Data != nil {
			so.bufs[p] = a.getBuf()
			buf = so.bufs[p][:q.Length]
		}
		a.issue(o, so, p, sim.Read, q.Offset, q.Length, buf)
	}
	return true
}

// repairAdvance moves a repair on when its reads or its write are done.
func (a *Array) repairAdvance(so *stripeOp) bool {
	if so.phase != 0 || so.failed {
		if so.phase == 1 && !so.failed {
			a.ct.repairedBytes += so.mlen
		}
		return false
	}
	so.phase = 1
	if so.target != nil && a.m.Level == RAID6 {
		a.solveRow6(so, so.stripe, so.mlen, a.unread6(so))
		copy(so.target, so.bufs[so.member][:so.mlen])
	} else if so.target != nil {
		clear(so.target)
		for p, b := range so.bufs {
			if p != so.member && b != nil {
				xorInto(so.target, b[:so.mlen])
			}
		}
	}
	a.issue(so.o, so, so.member, sim.Write, so.moff, so.mlen, so.target)
	return so.pending > 0
}

// rebuildReadFailed records a rebuild step whose source read failed:
// with no redundancy left the failed member's unit of the row and the
// unreadable source unit are lost (md's bad block log records them and
// the rebuild goes on). It reports whether the failure was absorbed so.
func (a *Array) rebuildReadFailed(c *child, q *sim.Request) bool {
	so := c.so
	if so == nil || so.kind != soRebuild || q.Op != sim.Read || errors.Is(q.Err, ErrDataLost) {
		return false
	}
	if a.m.Level == RAID6 { // P and Q may still solve the row: rebuildWrite6 decides
		so.bad = append(so.bad, c.member)
		return true
	}
	so.lost = true
	for _, m := range []int{so.member, c.member} {
		if off, ok := a.m.Logical(Addr{Member: m, Offset: so.stripe * a.u}); ok && a.m.Level != RAID1 {
			a.lostRanges.add(off, a.u)
		} else if a.m.Level == RAID1 {
			a.lostRanges.add(so.stripe*a.u, a.u)
		}
	}
	return true
}

// checkLost fails a read that touches data lost in a rebuild.
func (a *Array) checkLost(o *op) bool {
	r := o.r
	if len(a.lostRanges) == 0 || !a.lostRanges.overlaps(r.Offset, r.End()) {
		return false
	}
	o.fail(fmt.Errorf("raid: %s: %v: %w", a.name, r, ErrLostInRebuild))
	return true
}
