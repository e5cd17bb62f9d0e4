package raid

import "github.com/raidsim/raidsim/sim"

// startTrim passes a trim (discard) to the members in whole chunks, as
// Linux md does: on RAID 0, 1 and 10 every stripe unit the range covers
// whole goes to each live copy; on RAID 5 only whole stripes go, to every
// member (data and parity chunks alike), so parity stays the XOR of what
// the members return after the trim. Partly covered chunks or stripes
// keep their data. Trims carry no data and need no parity arithmetic.
func (a *Array) startTrim(o *op) {
	r := o.r
	if a.m.Level.parity() {
		fs := a.m.FullStripe()
		for s := (r.Offset + fs - 1) / fs; (s+1)*fs <= r.End(); s++ {
			for m := range a.mem {
				if a.avail(m, s) {
					a.issue(o, nil, m, sim.Trim, s*a.u, a.u, nil)
				}
			}
		}
		return
	}
	for off := (r.Offset + a.u - 1) / a.u * a.u; off+a.u <= r.End(); off += a.u {
		ad := a.m.Locate(off)
		a.liveCopies(ad, ad.Offset/a.u)
		for _, m := range a.cand {
			a.issue(o, nil, m, sim.Trim, ad.Offset, a.u, nil)
		}
	}
}
