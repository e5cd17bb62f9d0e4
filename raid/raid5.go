package raid

import (
	"crypto/subtle"
	"time"

	"github.com/raidsim/raidsim/sim"
)

// span is a byte range [lo, hi) inside one stripe unit.
type span struct{ lo, hi int64 }

func (s span) empty() bool { return s.hi <= s.lo }
func (s span) len() int64  { return max(0, s.hi-s.lo) }

// spans is a small sorted set of disjoint spans. Within one stripe a
// contiguous write leaves at most a few pieces, so a fixed array avoids
// allocation.
type spans struct {
	s [4]span
	n int
}

func (ss *spans) list() []span { return ss.s[:ss.n] }

func (ss *spans) total() int64 {
	var t int64
	for _, x := range ss.list() {
		t += x.len()
	}
	return t
}

// add merges x into the set.
func (ss *spans) add(x span) {
	if x.empty() {
		return
	}
	var out spans
	placed := false
	for _, y := range ss.list() {
		switch {
		case y.hi < x.lo:
			out.s[out.n] = y
			out.n++
		case x.hi < y.lo:
			if !placed {
				out.s[out.n] = x
				out.n++
				placed = true
			}
			out.s[out.n] = y
			out.n++
		default:
			x = span{min(x.lo, y.lo), max(x.hi, y.hi)}
		}
	}
	if !placed {
		out.s[out.n] = x
		out.n++
	}
	// Keep sorted: x may have been appended after larger spans only when
	// it merged; re-sort by insertion.
	for i := 1; i < out.n; i++ {
		for j := i; j > 0 && out.s[j].lo < out.s[j-1].lo; j-- {
			out.s[j], out.s[j-1] = out.s[j-1], out.s[j]
		}
	}
	*ss = out
}

// minus returns ss without x.
func (ss spans) minus(x span) spans {
	var out spans
	for _, y := range ss.list() {
		if x.empty() || y.hi <= x.lo || x.hi <= y.lo {
			out.add(y)
			continue
		}
		out.add(span{y.lo, x.lo})
		out.add(span{x.hi, y.hi})
	}
	return out
}

// union returns ss with every span of o.
func (ss spans) union(o spans) spans {
	for _, y := range o.list() {
		ss.add(y)
	}
	return ss
}

type soKind uint8

const (
	soWrite soKind = iota
	soReconstruct
	soRebuild
)

type planKind uint8

const (
	planFull     planKind = iota // whole stripe: no reads
	planRMW                      // read old data and old parity
	planRCW                      // read the data not written
	planDataOnly                 // parity member failed: write data only
)

// stripeOp is the work of one op on one stripe that needs more than
// plain member requests: a RAID 5 write (reads, parity, writes), a
// reconstructing read, or a rebuild step.
type stripeOp struct {
	a       *Array
	o       *op
	kind    soKind
	phase   uint8
	pending int
	failed  bool
	stripe  int64
	base    int64 // logical offset of the stripe's first data byte
	plan    planKind
	fd      int  // data index of the unavailable data member, or -1
	pf      bool // parity member unavailable at planning
	hole    bool // data and parity writes in flight (the write hole)
	data    bool
	w       []span  // per data index: the bytes written, within the unit
	p       spans   // the parity bytes to update: union of w
	rd      []spans // per column (data 0..D-1, parity D): bytes to pre-read
	bufs    [][]byte
	target  []byte // reconstructing read: the parent's data
	moff    int64  // reconstructing read: member offset and length
	mlen    int64
	member  int // reconstructing read: the failed member; rebuild: the slot rebuilt
}

func (a *Array) getSO(o *op, kind soKind) *stripeOp {
	var so *stripeOp
	if n := len(a.freeSOs); n > 0 {
		so = a.freeSOs[n-1]
		a.freeSOs = a.freeSOs[:n-1]
	} else {
		so = &stripeOp{a: a, w: make([]span, a.n), rd: make([]spans, a.n), bufs: make([][]byte, a.n)}
	}
	so.o, so.kind, so.fd = o, kind, -1
	return so
}

func (a *Array) putSO(so *stripeOp) {
	for i, b := range so.bufs {
		a.putBuf(b)
		so.bufs[i] = nil
	}
	clear(so.w)
	clear(so.rd)
	w, rd, bufs := so.w, so.rd, so.bufs
	*so = stripeOp{a: a, w: w, rd: rd, bufs: bufs}
	a.freeSOs = append(a.freeSOs, so)
}

// start5 splits a RAID 5 request: reads chunk by chunk (reconstructing
// what a failed member held), writes stripe by stripe.
func (a *Array) start5(o *op) {
	r := o.r
	if o.kind == kRead {
		for off := r.Offset; off < r.End(); {
			n := min(r.End()-off, a.u-off%a.u)
			ad := a.m.Locate(off)
			row := ad.Offset / a.u
			data := dataSlice(r, off, n)
			if a.avail(ad.Member, row) {
				a.issue(o, nil, ad.Member, sim.Read, ad.Offset, n, data)
			} else {
				a.reconstruct(o, ad.Member, row, ad.Offset, n, data)
			}
			off += n
		}
		return
	}
	fs := a.m.FullStripe()
	for s := r.Offset / fs; s*fs < r.End(); s++ {
		a.writeStripe(o, s)
	}
}

// reconstruct reads what failed member fm held at [moff, moff+n) as the
// XOR of every other member's bytes there.
func (a *Array) reconstruct(o *op, fm int, row, moff, n int64, data []byte) {
	for m := range a.n {
		if m != fm && !a.avail(m, row) {
			o.fail(a.lost(o, row))
			return
		}
	}
	so := a.getSO(o, soReconstruct)
	so.stripe, so.target, so.moff, so.mlen, so.member = row, data, moff, n, fm
	o.pending++
	o.degraded = true
	a.ct.reconstructed += n
	for m := range a.n {
		if m == fm {
			continue
		}
		var buf []byte
		if data != nil {
			so.bufs[m] = a.getBuf()
			buf = so.bufs[m][:n]
		}
		a.issue(o, so, m, sim.Read, moff, n, buf)
	}
	if so.pending == 0 {
		so.advance()
	}
}

// writeStripe plans and starts o's write to stripe s.
func (a *Array) writeStripe(o *op, s int64) {
	r := o.r
	D := a.n - 1
	u := a.u
	fs := a.m.FullStripe()
	base := s * fs
	lo, hi := max(r.Offset, base), min(r.End(), base+fs)
	so := a.getSO(o, soWrite)
	so.stripe, so.base, so.data = s, base, r.Data != nil
	full := true
	for d := range D {
		cs := base + int64(d)*u
		w := span{max(lo, cs) - cs, min(hi, cs+u) - cs}
		if w.empty() {
			w = span{}
		}
		so.w[d] = w
		so.p.add(w)
		if w.lo != 0 || w.hi != u {
			full = false
		}
	}
	pm := ParityMember(a.cfg.Layout, a.n, s)
	bad := 0
	for d := range D {
		if !a.avail(DataMember(a.cfg.Layout, a.n, s, d), s) {
			so.fd = d
			bad++
		}
	}
	if !a.avail(pm, s) {
		so.pf = true
		bad++
	}
	if bad >= 2 {
		o.fail(a.lost(o, s))
		a.putSO(so)
		return
	}
	o.pending++
	switch {
	case so.pf:
		so.plan = planDataOnly
	case full:
		so.plan = planFull
		a.ct.fullStripe++
	default:
		rmwOK := so.fd < 0 || so.w[so.fd].empty()
		rmwCost := so.p.total()
		for d := range D {
			rmwCost += so.w[d].len()
		}
		var x spans
		if so.fd >= 0 {
			x = so.p.minus(so.w[so.fd])
		}
		rcwCost := x.total()
		for d := range D {
			if d != so.fd {
				t := so.p.minus(so.w[d]).union(x)
				rcwCost += t.total()
			}
		}
		pol := a.cfg.Raid5Write
		if rmwOK && (pol == WriteRMW || (pol == WriteAuto && rmwCost < rcwCost)) {
			so.plan = planRMW
			a.ct.rmw++
			for d := range D {
				if !so.w[d].empty() {
					so.rd[d].add(so.w[d])
				}
			}
			so.rd[D] = so.p
		} else {
			so.plan = planRCW
			a.ct.rcw++
			for d := range D {
				if d != so.fd {
					so.rd[d] = so.p.minus(so.w[d]).union(x)
				}
			}
			so.rd[D] = x
		}
	}
	if so.fd >= 0 || so.pf {
		a.ct.degradedWrites++
	}
	if so.data && so.plan != planDataOnly {
		for c := range a.n {
			so.bufs[c] = a.getBuf()
		}
	}
	for c := 0; c <= D; c++ {
		m := pm
		if c < D {
			m = DataMember(a.cfg.Layout, a.n, s, c)
		}
		for _, x := range so.rd[c].list() {
			var buf []byte
			if so.data {
				buf = so.bufs[c][x.lo:x.hi]
			}
			a.ct.prereadBytes += x.len()
			a.ct.prereads++
			a.issue(o, so, m, sim.Read, s*u+x.lo, x.len(), buf)
		}
	}
	if so.pending == 0 {
		so.advance()
	}
}

// advance runs when every member request of the current phase is done.
func (so *stripeOp) advance() {
	a, o := so.a, so.o
	switch so.kind {
	case soReconstruct:
		if !so.failed && so.target != nil {
			clear(so.target)
			for m, b := range so.bufs {
				if m != so.member && b != nil {
					xorInto(so.target, b[:so.mlen])
				}
			}
		}
	case soWrite:
		if so.hole {
			so.hole = false
			a.updatesInFlight--
		}
		if so.phase == 0 && !so.failed {
			so.phase = 1
			if d := a.parityDelay(so); d > 0 {
				a.eng.After(d, a, so)
			} else {
				so.writePhase()
			}
			return
		}
	case soRebuild:
		if so.phase == 0 && !so.failed {
			so.phase = 1
			a.rebuildWrite(so)
			if so.pending > 0 {
				return
			}
		}
	}
	a.putSO(so)
	a.opDone(o)
}

// parityDelay returns the parity engine's time for so's XOR work.
func (a *Array) parityDelay(so *stripeOp) time.Duration {
	if a.cfg.ParityRate <= 0 || so.plan == planDataOnly {
		return 0
	}
	D := int64(a.n - 1)
	var b int64
	switch so.plan {
	case planFull:
		b = D * a.u
	case planRMW:
		b = so.p.total()
		for _, w := range so.w[:D] {
			b += 2 * w.len()
		}
	case planRCW:
		b = D * (so.p.total() + so.rd[D].total())
	}
	return time.Duration(float64(b) * 1e9 / float64(a.cfg.ParityRate))
}

// newData returns the parent's bytes for chunk offsets x of data index d.
func (so *stripeOp) newData(d int, x span) []byte {
	return dataSlice(so.o.r, so.base+int64(d)*so.a.u+x.lo, x.len())
}

// writePhase computes the parity and writes data and parity.
func (so *stripeOp) writePhase() {
	a, o := so.a, so.o
	s := so.stripe
	D := a.n - 1
	pm := ParityMember(a.cfg.Layout, a.n, s)
	bad := 0
	for m := range a.n {
		if !a.avail(m, s) {
			bad++
		}
	}
	if bad >= 2 {
		o.fail(a.lost(o, s))
		a.putSO(so)
		a.opDone(o)
		return
	}
	parity := so.plan != planDataOnly && a.avail(pm, s)
	if parity && so.data {
		so.computeParity()
	}
	for d := range D {
		w := so.w[d]
		m := DataMember(a.cfg.Layout, a.n, s, d)
		if !w.empty() && a.avail(m, s) {
			a.issue(o, so, m, sim.Write, s*a.u+w.lo, w.len(), so.newData(d, w))
		}
	}
	if parity {
		for _, x := range so.p.list() {
			var buf []byte
			if so.data {
				buf = so.bufs[D][x.lo:x.hi]
			}
			a.issue(o, so, pm, sim.Write, s*a.u+x.lo, x.len(), buf)
		}
	}
	if so.pending == 0 {
		a.putSO(so)
		a.opDone(o)
		return
	}
	if parity {
		so.hole = true
		a.updatesInFlight++
	}
}

// computeParity fills bufs[D] over so.p with the new parity.
func (so *stripeOp) computeParity() {
	D := so.a.n - 1
	pb := so.bufs[D]
	switch so.plan {
	case planFull:
		clear(pb)
		for d := range D {
			xorInto(pb, so.newData(d, so.w[d]))
		}
	case planRMW:
		for d := range D {
			w := so.w[d]
			if w.empty() {
				continue
			}
			xorInto(pb[w.lo:w.hi], so.bufs[d][w.lo:w.hi])
			xorInto(pb[w.lo:w.hi], so.newData(d, w))
		}
	case planRCW:
		if so.fd >= 0 {
			// Rebuild the failed member's old bytes first: old parity
			// XOR the other members' old data.
			fb := so.bufs[so.fd]
			for _, x := range so.rd[D].list() {
				copy(fb[x.lo:x.hi], pb[x.lo:x.hi])
				for d := range D {
					if d != so.fd {
						xorInto(fb[x.lo:x.hi], so.bufs[d][x.lo:x.hi])
					}
				}
			}
		}
		for _, x := range so.p.list() {
			clear(pb[x.lo:x.hi])
			for d := range D {
				so.xorCurrent(pb, d, x)
			}
		}
	}
}

// xorCurrent XORs into pb over x the new contents of data index d: the
// parent's bytes where the write covers, the old bytes elsewhere.
func (so *stripeOp) xorCurrent(pb []byte, d int, x span) {
	w := so.w[d]
	old := so.bufs[d]
	if a := (span{x.lo, min(x.hi, w.lo)}); !a.empty() || w.empty() {
		if w.empty() {
			a = x
		}
		xorInto(pb[a.lo:a.hi], old[a.lo:a.hi])
	}
	if w.empty() {
		return
	}
	if b := (span{max(x.lo, w.lo), min(x.hi, w.hi)}); !b.empty() {
		xorInto(pb[b.lo:b.hi], so.newData(d, b))
	}
	if c := (span{max(x.lo, w.hi), x.hi}); !c.empty() {
		xorInto(pb[c.lo:c.hi], old[c.lo:c.hi])
	}
}

// xorInto sets dst[i] ^= src[i] for every i.
func xorInto(dst, src []byte) {
	n := min(len(dst), len(src))
	subtle.XORBytes(dst[:n], dst[:n], src[:n])
}
