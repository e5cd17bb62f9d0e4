package raid

import "github.com/raidsim/raidsim/internal/testhooks"

// Compute carries out p's arithmetic on real bytes. bufs holds, by
// column, a buffer of at least one stripe unit in which the bytes p.Read
// names hold that member's old contents; data holds the write's bytes
// for logical [off, off+len(data)), which must include the part of the
// stripe planned. On return the bytes p.Write names hold what to write:
// for data columns their pages with the new bytes laid over the old,
// for P and Q the new parity, for an unreadable member its solved
// contents. Every other byte of bufs is scratch. Compute does nothing
// for PlanLost.
//
// Per row group: read-modify-write adds the old data to the old parity
// and the new data to that (Q weighting data index d by g^d: md's
// partial syndrome update); reconstruct-write solves the missing pages
// first when the group needs them, then computes P (and Q) from the new
// data pages; data-only only lays the new bytes over the old.
func (p *StripePlan) Compute(bufs [][]byte, data []byte, off int64) {
	if p.Method == PlanLost {
		return
	}
	for _, g := range p.Rows {
		x := Span{g.Lo, g.Hi}
		switch g.Method {
		case PlanRMW:
			if !testhooks.BrokenParity.Load() {
				p.addWritten(bufs, x)
			}
			p.overlay(bufs, data, off, x)
			p.addWritten(bufs, x)
		case PlanRCW, PlanFullStripe:
			if g.Solve {
				p.solve(bufs, x)
			}
			p.overlay(bufs, data, off, x)
			p.parity(bufs, x)
		case PlanDataOnly:
			p.overlay(bufs, data, off, x)
		}
	}
}

// addWritten adds, over x, the data pages the write touches into P (and
// g^d times them into Q).
func (p *StripePlan) addWritten(bufs [][]byte, x Span) {
	D := len(p.Data)
	for d := range D {
		if p.coverOf(d, x.Lo) == coverNone {
			continue
		}
		src := bufs[d][x.Lo:x.Hi]
		xorInto(bufs[D][x.Lo:x.Hi], src)
		if D+1 < len(bufs) && p.QMember >= 0 {
			gfMulAdd(bufs[D+1][x.Lo:x.Hi], src, gfPow(d))
		}
	}
}

// overlay copies the write's bytes over x into the data columns.
func (p *StripePlan) overlay(bufs [][]byte, data []byte, off int64, x Span) {
	u := p.Mapping.StripeUnit
	for d, s := range p.Data {
		lo, hi := max(s.Lo, x.Lo), min(s.Hi, x.Hi)
		if lo >= hi {
			continue
		}
		at := p.Base + int64(d)*u + lo - off
		copy(bufs[d][lo:hi], data[at:at+hi-lo])
	}
}

// parity computes P (and Q) over x from the data columns.
func (p *StripePlan) parity(bufs [][]byte, x Span) {
	D := len(p.Data)
	units := p.units[:D]
	for d := range D {
		units[d] = bufs[d][x.Lo:x.Hi]
	}
	if p.QMember >= 0 {
		Syndromes(units, bufs[D][x.Lo:x.Hi], bufs[D+1][x.Lo:x.Hi])
		return
	}
	pb := bufs[D][x.Lo:x.Hi]
	clear(pb)
	for _, d := range units {
		xorInto(pb, d)
	}
}

// solve recomputes, over x, the old contents of the columns that could
// not be read (down or unreadable) from every other column.
func (p *StripePlan) solve(bufs [][]byte, x Span) {
	n := len(bufs[:len(p.Read)])
	var mbuf [2]int
	missing := mbuf[:0]
	for c := range n {
		if p.Down[c] || p.Unreadable[c] {
			missing = append(missing, c)
		}
	}
	units := p.units[:n]
	for c := range n {
		units[c] = bufs[c][x.Lo:x.Hi]
	}
	if p.QMember >= 0 {
		solve6(units, missing)
		return
	}
	for _, m := range missing { // RAID 5: one missing, the XOR of the rest
		clear(units[m])
		for c := range n {
			if c != m {
				xorInto(units[m], units[c])
			}
		}
	}
}
