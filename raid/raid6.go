package raid

import (
	"slices"

	"github.com/raidsim/raidsim/sim"
)

// RAID 6 is md's P+Q in its left-symmetric layout: in stripe s of an
// n-member array, P sits where RAID 5's parity would
// (ParityMember(LeftSymmetric, n, s)), Q on the next member, and the
// n-2 data units follow Q round the members. P is the XOR of the data
// units and Q their GF(2^8) syndrome (see Syndromes), so any two lost
// units of a stripe can be recomputed from the rest.
//
// Writes are planned as RAID 5's are, in pages (PlanStripeWrite), with
// reconstruct-write and read-modify-write (Q updated by the difference
// times g^d, md's partial syndrome update, Linux 4.1 on); Config.
// Raid6Write set to WriteRCW gives the older md's reconstruct-write only.

// QMember returns the member holding the Q syndrome of RAID 6 stripe
// stripe in an array of members members: the member after P.
func QMember(members int, stripe int64) int {
	return (ParityMember(LeftSymmetric, members, stripe) + 1) % members
}

// DataMember6 returns the member holding data index d (0..members-3) of
// RAID 6 stripe stripe: the data follow Q round the members.
func DataMember6(members int, stripe int64, d int) int {
	return (ParityMember(LeftSymmetric, members, stripe) + 2 + d) % members
}

// DataIndex6 is DataMember6's inverse: the data index member holds in
// RAID 6 stripe stripe, -1 for P and -2 for Q.
func DataIndex6(members int, stripe int64, member int) int {
	p := ParityMember(LeftSymmetric, members, stripe)
	switch member {
	case p:
		return -1
	case (p + 1) % members:
		return -2
	}
	return (member - p - 2 + 2*members) % members
}

// role6 is member m's place in stripe s's unit list: data index, then
// k for P and k+1 for Q (k data units).
func (a *Array) role6(s int64, m int) int {
	k := a.n - 2
	switch d := DataIndex6(a.n, s, m); d {
	case -1:
		return k
	case -2:
		return k + 1
	default:
		return d
	}
}

// solveRow6 recomputes, in so.bufs (by member, each n bytes long), the
// units of the members in gone from the others of stripe s. It reports
// false when more than two are gone.
func (a *Array) solveRow6(so *stripeOp, s int64, n int64, gone []int) bool {
	if len(gone) > 2 {
		return false
	}
	units := a.units6
	var missing [2]int
	for m := range a.n {
		if so.bufs[m] == nil {
			so.bufs[m] = a.getBuf()
		}
		units[a.role6(s, m)] = so.bufs[m][:n]
	}
	for i, m := range gone {
		missing[i] = a.role6(s, m)
	}
	return solve6(units, missing[:len(gone)])
}

// unread6 returns the members whose bytes so did not read (nil
// buffers), in a scratch slice.
func (a *Array) unread6(so *stripeOp) []int {
	g := a.gone6[:0]
	for m := range a.n {
		if so.bufs[m] == nil {
			g = append(g, m)
		}
	}
	return g
}

// reconstruct6Done solves a degraded read's unit into the parent; with
// more than two units of the range missing (sources unreadable besides
// the failed members) the bytes are lost and recorded so.
func (a *Array) reconstruct6Done(so *stripeOp) {
	if so.failed {
		return
	}
	if a.missing6(so, -1) > 2 {
		so.failed = true
		for _, m := range so.bad {
			a.recordLost(m, so.moff, so.mlen)
		}
		a.loseRow(so.o, so.member, so.stripe, so.moff, so.mlen, -1)
		return
	}
	if so.target != nil && a.solveRow6(so, so.stripe, so.mlen, a.unread6(so)) {
		copy(so.target, so.bufs[so.member][:so.mlen])
	}
}

// missing6 counts the members whose bytes so cannot have at its row:
// those unavailable, those whose read failed, and also (when not -1).
func (a *Array) missing6(so *stripeOp, also int) int {
	n := 0
	for m := range a.n {
		if m == also || !a.avail(m, so.stripe) || slices.Contains(so.bad, m) {
			n++
		}
	}
	return n
}

// sources6 lists in a.cand the members a RAID 6 rebuild of member f
// reads at row, and reports whether few enough others are gone.
func (a *Array) sources6(f int, row int64) bool {
	gone := 1
	for m := range a.n {
		switch {
		case m == f:
		case a.avail(m, row):
			a.cand = append(a.cand, m)
		default:
			gone++
		}
	}
	return gone <= 2
}

// rebuildWrite6 solves the rebuilt member's unit (and any source whose
// read failed, rewriting it as md's repair does) and writes it; with
// more than two units of the row unreadable, the row's missing data is
// lost.
func (a *Array) rebuildWrite6(so *stripeOp) {
	f, row := so.member, so.stripe
	gone := a.gone6[:0]
	for _, m := range so.bad { // a failed read left garbage: not a source
		if so.bufs[m] != nil {
			a.putBuf(so.bufs[m])
			so.bufs[m] = nil
		}
	}
	if a.cfg.RebuildData {
		gone = a.unread6(so)
	} else if n := a.n - so.reads + len(so.bad); n > 0 {
		gone = append(gone, f) // only the count matters without data
		for range n - 1 {
			gone = append(gone, f)
		}
	}
	if len(gone) > 2 {
		for m := range a.n {
			if m == f || !a.avail(m, row) || slices.Contains(so.bad, m) {
				if off, ok := a.m.Logical(Addr{Member: m, Offset: row * a.u}); ok {
					a.lostRanges.add(off, a.u)
				}
			}
		}
		return
	}
	if a.cfg.RebuildData {
		a.solveRow6(so, row, a.u, gone)
	}
	if a.rebuilding(f) {
		a.issue(so.o, so, f, sim.Write, row*a.u, a.u, so.bufs[f])
	}
	for _, m := range so.bad {
		if !a.avail(m, row) {
			continue
		}
		a.ct.repairs++
		a.ct.repairedBytes += a.u
		a.issue(so.o, so, m, sim.Write, row*a.u, a.u, so.bufs[m])
	}
}

// goneAt counts the members unavailable at row.
func (a *Array) goneAt(row int64) int {
	n := 0
	for m := range a.n {
		if !a.avail(m, row) {
			n++
		}
	}
	return n
}
