package raid

import (
	"crypto/subtle"
	"fmt"
	"time"

	"github.com/raidsim/raidsim/sim"
)

type soKind uint8

const (
	soWrite soKind = iota
	soReconstruct
	soRebuild
	soRepair
	soWrite6
	soReconstruct6
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
	hole    bool // data and parity writes in flight (the write hole)
	data    bool
	sp      StripePlan // RAID 5 write: the plan being carried out
	bufs    [][]byte
	target  []byte // reconstructing read: the parent's data
	moff    int64  // reconstructing read: member offset and length
	mlen    int64
	member  int   // reconstructing read: the failed member; rebuild: the slot rebuilt; repair: the member rewritten; RAID 5 write: the member whose pre-read failed (at moff, mlen)
	lost    bool  // rebuild: a source read failed, the row's data is lost
	bad     []int // RAID 6 rebuild: sources whose read failed; RAID 5 write: the member whose pre-read failed
	reads   int   // RAID 6 rebuild: sources read
	retried bool  // RAID 6 write: the stripe's other units were read after a read error; RAID 5 write: planned again
}

func (a *Array) getSO(o *op, kind soKind) *stripeOp {
	var so *stripeOp
	if n := len(a.freeSOs); n > 0 {
		so = a.freeSOs[n-1]
		a.freeSOs = a.freeSOs[:n-1]
	} else {
		so = &stripeOp{a: a, bufs: make([][]byte, a.n)}
	}
	so.o, so.kind = o, kind
	return so
}

func (a *Array) putSO(so *stripeOp) {
	for i, b := range so.bufs {
		a.putBuf(b)
		so.bufs[i] = nil
	}
	sp, bufs, bad := so.sp, so.bufs, so.bad[:0]
	*so = stripeOp{a: a, bufs: bufs, bad: bad, sp: StripePlan{Data: sp.Data, Read: sp.Read, Write: sp.Write}}
	a.freeSOs = append(a.freeSOs, so)
}

// startParity splits a RAID 5 or 6 request: reads chunk by chunk
// (reconstructing what a failed member held), writes stripe by stripe.
func (a *Array) startParity(o *op) {
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
		if a.m.Level == RAID6 {
			a.writeStripe6(o, s)
		} else {
			a.writeStripe(o, s)
		}
	}
}

// reconstruct reads what failed member fm held at [moff, moff+n): on
// RAID 5 the XOR of every other member's bytes there, on RAID 6 solved
// from every live member's.
func (a *Array) reconstruct(o *op, fm int, row, moff, n int64, data []byte) {
	kind, tolerate := soReconstruct, 1
	if a.m.Level == RAID6 {
		kind, tolerate = soReconstruct6, 2
	}
	if a.goneAt(row) > tolerate {
		o.fail(a.lost(o, row))
		return
	}
	so := a.getSO(o, kind)
	so.stripe, so.target, so.moff, so.mlen, so.member = row, data, moff, n, fm
	o.pending++
	o.degraded = true
	a.ct.reconstructed += n
	for m := range a.n {
		if m == fm || !a.avail(m, row) {
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

// writeStripe plans o's write to stripe s and starts its pre-reads.
func (a *Array) writeStripe(o *op, s int64) {
	r := o.r
	so := a.getSO(o, soWrite)
	for m := range a.n {
		a.down[m] = !a.avail(m, s)
	}
	p := &so.sp
	err := PlanStripeWrite(StripeWrite{Mapping: a.m, Stripe: s, Offset: r.Offset, End: r.End(), Failed: a.down, Policy: a.cfg.Raid5Write}, p)
	if err != nil {
		o.fail(fmt.Errorf("raid: %s: %v: %w", a.name, r, err))
		a.putSO(so)
		return
	}
	a.notePlan(r, p)
	switch p.Method {
	case PlanLost:
		o.fail(a.lost(o, s))
		a.putSO(so)
		return
	case PlanFullStripe:
		a.ct.fullStripe++
	case PlanRMW:
		a.ct.rmw++
	case PlanRCW:
		a.ct.rcw++
	}
	o.pending++
	if p.Degraded() {
		a.ct.degradedWrites++
	}
	so.stripe, so.data = s, r.Data != nil
	if so.data && p.Method != PlanDataOnly {
		for c := range a.n {
			so.bufs[c] = a.getBuf()
		}
	}
	a.preread(so)
	if so.pending == 0 {
		so.advance()
	}
}

// preread issues the reads of so's plan.
func (a *Array) preread(so *stripeOp) {
	p, s := &so.sp, so.stripe
	for c := range p.Read {
		m := p.Member(c)
		for _, x := range p.Read[c].List() {
			var buf []byte
			if so.data {
				buf = so.bufs[c][x.Lo:x.Hi]
			}
			a.ct.prereadBytes += x.Len()
			a.ct.prereads++
			a.issue(so.o, so, m, sim.Read, s*a.u+x.Lo, x.Len(), buf)
		}
	}
}

// write5ReadFailed absorbs a RAID 5 write's pre-read that failed (an
// unreadable sector, or its member failing meanwhile), once per stripe
// write: when the stripe's other pre-reads are in, the write is planned
// again the other way round (replanWrite5), as md computes around a
// read error instead of failing the write. It records the failed range
// in so.member, so.moff and so.mlen.
func (a *Array) write5ReadFailed(c *child, q *sim.Request) bool {
	so := c.so
	if so == nil || so.kind != soWrite || so.phase != 0 || q.Op != sim.Read || so.retried || len(so.bad) > 0 {
		return false
	}
	so.bad = append(so.bad, c.member)
	so.member, so.moff, so.mlen = c.member, q.Offset, q.Length
	return true
}

// replanWrite5 plans so's stripe write again after a pre-read failed:
// read-modify-write becomes reconstruct-write and the reverse, which
// reads other bytes. The unreadable range is either rewritten by the
// write (old data or old parity the write replaces) or left for md's
// repair on the next read of it (a data chunk the write leaves alone).
// It reports whether the new pre-reads went out; when the new plan
// would read the failed range again, the write fails.
func (a *Array) replanWrite5(so *stripeOp) bool {
	so.retried = true
	o, s, p := so.o, so.stripe, &so.sp
	policy := WriteRCW
	if p.Method == PlanRCW {
		policy = WriteRMW
	}
	for m := range a.n {
		a.down[m] = !a.avail(m, s)
	}
	err := PlanStripeWrite(StripeWrite{Mapping: a.m, Stripe: s, Offset: o.r.Offset, End: o.r.End(), Failed: a.down, Policy: policy}, p)
	if err == nil && p.Method != PlanLost && !a.rereads(so) {
		a.notePlan(o.r, p)
		a.preread(so)
		return so.pending > 0
	}
	so.failed = true
	o.fail(fmt.Errorf("raid: %s: %v: stripe %d: member %d unreadable at %d+%d and no other plan avoids it: %w",
		a.name, o.r, s, so.member, so.moff, so.mlen, ErrDataLost))
	return false
}

// rereads reports whether so's plan reads the range of so.member that
// failed.
func (a *Array) rereads(so *stripeOp) bool {
	p := &so.sp
	lo, hi := so.moff-so.stripe*a.u, so.moff-so.stripe*a.u+so.mlen
	for c := range p.Read {
		if p.Member(c) != so.member {
			continue
		}
		for _, x := range p.Read[c].List() {
			if x.Lo < hi && lo < x.Hi {
				return true
			}
		}
	}
	return false
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
		if so.phase == 0 && !so.failed && len(so.bad) > 0 && !so.retried && a.replanWrite5(so) {
			return
		}
		if so.phase == 0 && !so.failed {
			so.phase = 1
			if d := a.parityDelay(so); d > 0 {
				a.eng.After(d, &a.hParity, so)
			} else {
				so.writePhase()
			}
			return
		}
	case soRepair:
		if a.repairAdvance(so) {
			return
		}
	case soWrite6:
		if a.write6Advance(so) {
			return
		}
	case soReconstruct6:
		a.reconstruct6Done(so)
	case soRebuild:
		if so.phase == 0 && !so.failed && !so.lost {
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
	p := &so.sp
	if a.cfg.ParityRate <= 0 || p.Method == PlanDataOnly {
		return 0
	}
	D := int64(a.n - 1)
	var b int64
	switch p.Method {
	case PlanFullStripe:
		b = D * a.u
	case PlanRMW:
		b = p.Parity.Total()
		for _, w := range p.Data {
			b += 2 * w.Len()
		}
	case PlanRCW:
		b = D * (p.Parity.Total() + p.Read[D].Total())
	}
	return time.Duration(float64(b) * 1e9 / float64(a.cfg.ParityRate))
}

// newData returns the parent's bytes for chunk offsets x of data index d.
func (so *stripeOp) newData(d int, x Span) []byte {
	return dataSlice(so.o.r, so.sp.Base+int64(d)*so.a.u+x.Lo, x.Len())
}

// writePhase computes the parity and writes data and parity, skipping
// members that have failed since the plan was made.
func (so *stripeOp) writePhase() {
	a, o, p := so.a, so.o, &so.sp
	s := so.stripe
	D := a.n - 1
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
	parity := p.Method != PlanDataOnly && a.avail(p.ParityMember, s)
	if parity && so.data {
		so.computeParity()
	}
	for c := range p.Write {
		m := p.Member(c)
		if (c == D && !parity) || !a.avail(m, s) {
			continue
		}
		for _, x := range p.Write[c].List() {
			var buf []byte
			switch {
			case c < D:
				buf = so.newData(c, x)
			case so.data:
				buf = so.bufs[D][x.Lo:x.Hi]
			}
			a.issue(o, so, m, sim.Write, s*a.u+x.Lo, x.Len(), buf)
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

// computeParity fills bufs[D] over the plan's parity spans with the new
// parity.
func (so *stripeOp) computeParity() {
	p := &so.sp
	D := so.a.n - 1
	pb := so.bufs[D]
	switch p.Method {
	case PlanFullStripe:
		clear(pb)
		for d := range D {
			xorInto(pb, so.newData(d, p.Data[d]))
		}
	case PlanRMW:
		for d, w := range p.Data {
			if w.Empty() {
				continue
			}
			xorInto(pb[w.Lo:w.Hi], so.bufs[d][w.Lo:w.Hi])
			xorInto(pb[w.Lo:w.Hi], so.newData(d, w))
		}
	case PlanRCW:
		if fd := p.FailedData; fd >= 0 {
			// Rebuild the failed member's old bytes first: old parity
			// XOR the other members' old data.
			fb := so.bufs[fd]
			for _, x := range p.Read[D].List() {
				copy(fb[x.Lo:x.Hi], pb[x.Lo:x.Hi])
				for d := range D {
					if d != fd {
						xorInto(fb[x.Lo:x.Hi], so.bufs[d][x.Lo:x.Hi])
					}
				}
			}
		}
		for _, x := range p.Parity.List() {
			clear(pb[x.Lo:x.Hi])
			for d := range D {
				so.xorCurrent(pb, d, x)
			}
		}
	}
}

// xorCurrent XORs into pb over x the new contents of data index d: the
// parent's bytes where the write covers, the old bytes elsewhere.
func (so *stripeOp) xorCurrent(pb []byte, d int, x Span) {
	w := so.sp.Data[d]
	old := so.bufs[d]
	if a := (Span{x.Lo, min(x.Hi, w.Lo)}); !a.Empty() || w.Empty() {
		if w.Empty() {
			a = x
		}
		xorInto(pb[a.Lo:a.Hi], old[a.Lo:a.Hi])
	}
	if w.Empty() {
		return
	}
	if b := (Span{max(x.Lo, w.Lo), min(x.Hi, w.Hi)}); !b.Empty() {
		xorInto(pb[b.Lo:b.Hi], so.newData(d, b))
	}
	if c := (Span{max(x.Lo, w.Hi), x.Hi}); !c.Empty() {
		xorInto(pb[c.Lo:c.Hi], old[c.Lo:c.Hi])
	}
}

// xorInto sets dst[i] ^= src[i] for every i.
func xorInto(dst, src []byte) {
	n := min(len(dst), len(src))
	subtle.XORBytes(dst[:n], dst[:n], src[:n])
}
