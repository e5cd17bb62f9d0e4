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
// Writes are reconstruct-writes over whole units: the data units the
// write leaves partly or wholly alone are read (all the stripe's live
// units when one it needs is missing, to solve for it), the new P and Q
// computed, and the written ranges, P and Q written. (md also has a
// read-modify-write for RAID 6 since Linux 4.x; it is not modelled.)

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

// reconstruct6Done solves a degraded read's unit into the parent.
func (a *Array) reconstruct6Done(so *stripeOp) {
	if so.failed || so.target == nil {
		return
	}
	if a.solveRow6(so, so.stripe, so.mlen, a.unread6(so)) {
		copy(so.target, so.bufs[so.member][:so.mlen])
	}
}

// writeStripe6 starts o's write to stripe s: its pre-reads, or at once
// its writes when the write covers the stripe.
func (a *Array) writeStripe6(o *op, s int64) {
	fs := a.m.FullStripe()
	r := o.r
	lo, hi := max(r.Offset, s*fs), min(r.End(), (s+1)*fs)
	gone := a.goneAt(s)
	if gone > 2 {
		o.fail(a.lost(o, s))
		return
	}
	so := a.getSO(o, soWrite6)
	so.stripe, so.moff, so.mlen = s, lo, hi-lo
	o.pending++
	// The old bytes needed: data units the write does not cover whole;
	// if one of them is gone, every live unit, to solve for it.
	needAll := false
	for d := range a.n - 2 {
		ulo := s*fs + int64(d)*a.u
		if (lo > ulo || hi < ulo+a.u) && !a.avail(DataMember6(a.n, s, d), s) {
			needAll = true
		}
	}
	if gone > 0 {
		a.ct.degradedWrites++
	}
	reads := 0
	for m := range a.n {
		d := DataIndex6(a.n, s, m)
		ulo := s*fs + int64(d)*a.u
		whole := d >= 0 && lo <= ulo && hi >= ulo+a.u
		if !a.avail(m, s) || !needAll && (d < 0 || whole) {
			continue
		}
		var buf []byte
		if r.Data != nil {
			so.bufs[m] = a.getBuf()
			buf = so.bufs[m]
		}
		reads++
		a.ct.prereads++
		a.ct.prereadBytes += a.u
		a.issue(o, so, m, sim.Read, s*a.u, a.u, buf)
	}
	if reads == 0 {
		a.ct.fullStripe++
	} else {
		a.ct.rcw++
	}
	if so.pending == 0 {
		so.advance()
	}
}

// write6Advance computes a RAID 6 stripe's new P and Q once its reads
// are in and sends the writes; it reports whether writes are pending.
func (a *Array) write6Advance(so *stripeOp) bool {
	if so.hole {
		so.hole = false
		a.updatesInFlight--
	}
	if so.phase != 0 || so.failed {
		return false
	}
	if len(so.bad) > 0 && !so.retried && a.readRest6(so) {
		return true
	}
	so.phase = 1
	s, r := so.stripe, so.o.r
	fs := a.m.FullStripe()
	if r.Data != nil {
		a.newUnits6(so)
	}
	so.hole = true
	a.updatesInFlight++
	for m := range a.n {
		if !a.avail(m, s) {
			continue
		}
		d := DataIndex6(a.n, s, m)
		if d < 0 {
			a.issue(so.o, so, m, sim.Write, s*a.u, a.u, so.bufs[m])
			continue
		}
		ulo := s*fs + int64(d)*a.u
		wlo, whi := max(so.moff, ulo), min(so.moff+so.mlen, ulo+a.u)
		switch {
		case slices.Contains(so.bad, m): // rewrite the unit a read error hit
			a.ct.repairs++
			a.ct.repairedBytes += a.u
			a.issue(so.o, so, m, sim.Write, s*a.u, a.u, so.bufs[m])
		case wlo < whi:
			a.issue(so.o, so, m, sim.Write, s*a.u+wlo-ulo, whi-wlo, dataSlice(r, wlo, whi-wlo))
		}
	}
	return so.pending > 0
}

// write6ReadFailed absorbs a RAID 6 write's pre-read that failed (an
// unreadable sector): the unit counts as missing, the stripe's other
// units are read (readRest6) and it is solved and rewritten, as md
// treats a read error in a stripe it is updating.
func (a *Array) write6ReadFailed(c *child, q *sim.Request) bool {
	so := c.so
	if so == nil || so.kind != soWrite6 || q.Op != sim.Read || len(so.bad) >= 2 {
		return false
	}
	so.bad = append(so.bad, c.member)
	if so.bufs[c.member] != nil {
		a.putBuf(so.bufs[c.member])
		so.bufs[c.member] = nil
	}
	return true
}

// readRest6 reads every live unit of so's stripe not read yet and not
// unreadable, so that the missing ones can be solved; it reports
// whether reads went out. With more than two units missing it fails
// the write.
func (a *Array) readRest6(so *stripeOp) bool {
	so.retried = true
	s, r := so.stripe, so.o.r
	if len(so.bad)+a.goneAt(s) > 2 {
		so.failed = true
		so.o.fail(a.lost(so.o, s))
		return false
	}
	for m := range a.n {
		if !a.avail(m, s) || slices.Contains(so.bad, m) || so.bufs[m] != nil {
			continue
		}
		var buf []byte
		if r.Data != nil {
			so.bufs[m] = a.getBuf()
			buf = so.bufs[m]
		}
		a.ct.prereads++
		a.ct.prereadBytes += a.u
		a.issue(so.o, so, m, sim.Read, s*a.u, a.u, buf)
	}
	return so.pending > 0
}

// newUnits6 fills so.bufs with the stripe's new contents: old bytes
// (solved for where a member is gone), the write's bytes over them, and
// the new P and Q.
func (a *Array) newUnits6(so *stripeOp) {
	s, r := so.stripe, so.o.r
	fs := a.m.FullStripe()
	k := a.n - 2
	// A unit not read whose old bytes the write keeps was gone when the
	// write started, and then every live unit was read: solve for it.
	unread := a.unread6(so)
	for _, m := range unread {
		d := DataIndex6(a.n, s, m)
		ulo := s*fs + int64(d)*a.u
		if d >= 0 && (so.moff > ulo || so.moff+so.mlen < ulo+a.u) {
			a.solveRow6(so, s, a.u, unread)
			break
		}
	}
	for m := range a.n { // units not read: wholly rewritten, or P and Q
		if so.bufs[m] == nil {
			so.bufs[m] = a.getBuf()
		}
	}
	data := a.units6[:k]
	for m := range a.n {
		d := DataIndex6(a.n, s, m)
		if d < 0 {
			continue
		}
		data[d] = so.bufs[m]
		ulo := s*fs + int64(d)*a.u
		wlo, whi := max(so.moff, ulo), min(so.moff+so.mlen, ulo+a.u)
		if wlo < whi {
			copy(so.bufs[m][wlo-ulo:whi-ulo], dataSlice(r, wlo, whi-wlo))
		}
	}
	p, q := so.bufs[ParityMember(LeftSymmetric, a.n, s)], so.bufs[QMember(a.n, s)]
	Syndromes(data, p, q)
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
	a.issue(so.o, so, f, sim.Write, row*a.u, a.u, so.bufs[f])
	for _, m := range so.bad {
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
