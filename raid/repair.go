package raid

import (
	"errors"
	"fmt"
	"slices"

	"github.com/raidsim/raidsim/sim"
)

// ErrLostInRebuild reports a read of data lost to a read error met with
// no redundancy left (a URE during a RAID 5 rebuild, or while a member
// is missing): the ranges are in Array.LostRanges. It wraps ErrDataLost.
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

// remove takes [off, end) out of the set, splitting a range it cuts.
func (l *lostSet) remove(off, end int64) {
	var out lostSet
	for _, e := range *l {
		if e.End() <= off || end <= e.Offset {
			out = append(out, e)
			continue
		}
		if e.Offset < off {
			out = append(out, Extent{e.Offset, off - e.Offset})
		}
		if end < e.End() {
			out = append(out, Extent{end, e.End() - end})
		}
	}
	*l = out
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

// LostRanges returns the logical ranges lost to read errors met with no
// redundancy left (unreadable sectors during a rebuild or while a member
// is missing), as md's bad block log records them, in order, until a
// write succeeds over them (md clears a bad block a write makes good
// again). Reads touching them complete with ErrLostInRebuild. Data on
// members missing
// beyond what the level survives (a second RAID 5 failure) is not
// listed: Failed names those members.
func (a *Array) LostRanges() []Extent { return slices.Clone(a.lostRanges) }

// LostBytes is the total length of LostRanges.
func (a *Array) LostBytes() int64 {
	var n int64
	for _, e := range a.lostRanges {
		n += e.Length
	}
	return n
}

// repairAt is what a repair rewrites: member bytes [off, off+n) and the
// parent's bytes they fill.
type repairAt struct {
	member int
	off, n int64
	dst    []byte
}

// repair serves a plain member read that failed (an unreadable sector,
// a timeout) while the member is still in the array, as md does on a
// read error: RAID 5 XORs the stripe's other members, RAID 6 solves
// with P and Q, a mirror reads another copy; the bytes go to the parent
// and are written back to the member, which remaps the sector (a
// rewrite that fails fails the member). The repair is an op of its own,
// ordered with the writes to its range (md freezes the array while it
// fixes a read error), so the bytes it rewrites are never older than a
// write acknowledged meanwhile: it waits for the writes in flight, and
// later ones wait for it (when the read itself is ordered, it already
// is). It reports that it took the read over.
func (a *Array) repair(c *child) bool {
	q := &c.req
	ro := a.getOp()
	ro.kind, ro.parent = kRepair, c.o
	ro.rep = repairAt{member: c.member, off: q.Offset, n: q.Length, dst: c.dst}
	ro.lo, ro.hi = q.Offset, q.End()
	if a.m.Level != RAID1 {
		l, _ := a.m.Logical(Addr{Member: c.member, Offset: q.Offset})
		ro.lo, ro.hi = l, l+q.Length
	}
	c.o.pending++
	if c.o.tracked {
		// The read is in the ordering list: the writes before it are
		// done and those after it wait for it, repair included.
		a.start(ro)
	} else {
		a.track(ro)
	}
	return true
}

// startRepair reads the redundancy for repair op o, once no write to its
// range is in flight; with no redundancy left there the data is lost:
// the ranges are recorded (md's bad block log) and the read fails.
func (a *Array) startRepair(o *op) {
	m, off, n := o.rep.member, o.rep.off, o.rep.n
	row := off / a.u
	a.cand = a.cand[:0]
	switch a.m.Level {
	case RAID5:
		for p := range a.n {
			if p != m && a.source(p, row) {
				a.cand = append(a.cand, p)
			}
		}
		if len(a.cand) < a.n-1 {
			a.cand = a.cand[:0]
		}
	case RAID6:
		if !a.sources6(m, row) {
			a.cand = a.cand[:0]
		}
	case RAID1:
		for p := range a.n {
			if p != m && a.source(p, row) {
				a.cand = append(a.cand, p)
				break
			}
		}
	case RAID10:
		if a.source(m^1, row) {
			a.cand = append(a.cand, m^1)
		}
	}
	if len(a.cand) == 0 {
		a.loseRow(o, m, row, off, n, -1)
		return
	}
	so := a.getSO(o, soRepair)
	so.stripe, so.target, so.moff, so.mlen, so.member = row, o.rep.dst, off, n, m
	o.pending++
	a.ct.repairs++
	for _, p := range a.cand {
		a.repairRead(so, p)
	}
}

// repairRead reads so's range from source member p.
func (a *Array) repairRead(so *stripeOp, p int) {
	var buf []byte
	if so.target != nil {
		so.bufs[p] = a.getBuf()
		buf = so.bufs[p][:so.mlen]
	}
	a.issue(so.o, so, p, sim.Read, so.moff, so.mlen, buf)
}

// loseRow records as lost (md's bad block log) the bytes [off, off+n)
// of member m, of member also when it is not -1, and of every member
// unavailable at row that shares m's redundancy (a RAID 10 pair, else
// every member), and fails o with ErrLostInRebuild: a read error met
// with no redundancy left there.
func (a *Array) loseRow(o *op, m int, row, off, n int64, also int) {
	for p := range a.n {
		if a.m.Level == RAID10 && p^1 != m && p != m {
			continue
		}
		if p == m || p == also || !a.avail(p, row) {
			a.recordLost(p, off, n)
		}
	}
	o.fail(a.unrecoverable(o, m, off, n))
}

// repairChildFailed handles a repair's member request that failed: the
// rewrite (the member is failed for it; the parent already has its
// bytes), or a source read (a mirror tries another copy; RAID 6 goes on
// with one unit fewer; otherwise the data is lost).
func (a *Array) repairChildFailed(c *child, gone bool) bool {
	so := c.so
	if so.phase == 1 {
		return true
	}
	so.bufs[c.member] = nil // a failed read's buffer holds nothing useful
	switch a.m.Level {
	case RAID6:
		so.bad = append(so.bad, c.member)
		return true
	case RAID1, RAID10:
		for p := range a.n {
			if p != so.member && p != c.member && !slices.Contains(so.bad, p) && a.avail(p, so.stripe) && (a.m.Level == RAID1 || p == so.member^1) {
				so.bad = append(so.bad, c.member)
				a.repairRead(so, p)
				return true
			}
		}
	}
	so.failed = true
	a.loseRow(so.o, so.member, so.stripe, so.moff, so.mlen, c.member)
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
	if a.m.Level == RAID6 && a.missing6(so, so.member) > 2 {
		so.failed = true
		for _, p := range so.bad {
			a.recordLost(p, so.moff, so.mlen)
		}
		a.loseRow(so.o, so.member, so.stripe, so.moff, so.mlen, -1)
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
	if !a.avail(so.member, so.stripe) {
		return false // failed meanwhile: nothing to rewrite
	}
	a.issue(so.o, so, so.member, sim.Write, so.moff, so.mlen, so.target)
	return so.pending > 0
}

// rebuildChildFailed handles a rebuild step's member request that
// failed. A spare write that fails has failed the spare, which stops the
// rebuild. A source read: a mirror tries another copy; RAID 6 goes on
// with one unit fewer (rebuildWrite6 decides); with no redundancy left
// an unreadable source loses that row's units of the failed and the
// unreadable member (md's bad block log records them and the rebuild
// goes on); a source that failed outright stops the rebuild.
func (a *Array) rebuildChildFailed(c *child, gone bool, err error) bool {
	so := c.so
	if c.req.Op != sim.Read {
		return gone
	}
	if errors.Is(err, ErrDataLost) {
		return false
	}
	so.bufs[c.member] = nil
	switch a.m.Level {
	case RAID6:
		so.bad = append(so.bad, c.member)
		return true
	case RAID1:
		for p := range a.n {
			if p != so.member && p != c.member && !slices.Contains(so.bad, p) && a.avail(p, so.stripe) {
				so.bad = append(so.bad, c.member)
				var buf []byte
				if a.cfg.RebuildData {
					so.bufs[p] = a.getBuf()
					buf = so.bufs[p]
				}
				a.issue(so.o, so, p, sim.Read, so.stripe*a.u, a.u, buf)
				return true
			}
		}
	}
	if gone {
		return false
	}
	so.lost = true
	for _, m := range []int{so.member, c.member} {
		a.recordLost(m, so.stripe*a.u, a.u)
	}
	a.markBad(so.member, so.stripe) // never computed: its parity is not to be trusted either
	return true
}

// reconstructReadFailed handles a degraded read's source that failed:
// RAID 6 solves with one unit fewer if it can (reconstruct6Done); on
// RAID 5 the bytes are gone: an unreadable source loses that range of
// both members (md's bad block log records them).
func (a *Array) reconstructReadFailed(c *child, gone bool) bool {
	so := c.so
	so.bufs[c.member] = nil
	if a.m.Level == RAID6 {
		so.bad = append(so.bad, c.member)
		return true
	}
	so.failed = true
	if gone {
		so.o.fail(a.lost(so.o, so.stripe))
		return true
	}
	a.loseRow(so.o, so.member, so.stripe, so.moff, so.mlen, c.member)
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
