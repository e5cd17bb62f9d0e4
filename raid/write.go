package raid

import (
	"fmt"
	"time"

	"github.com/raidsim/raidsim/sim"
)

// writeStripe plans o's write to RAID 5 or 6 stripe s and starts its
// pre-reads.
func (a *Array) writeStripe(o *op, s int64) {
	r := o.r
	so := a.getSO(o, soWrite)
	so.stripe, so.data = s, r.Data != nil
	if !a.planWrite(so) {
		a.putSO(so)
		return
	}
	p := &so.sp
	switch p.Method {
	case PlanFullStripe:
		a.ct.fullStripe++
	case PlanRMW:
		a.ct.rmw++
	case PlanRCW:
		a.ct.rcw++
	}
	if p.Degraded() {
		a.ct.degradedWrites++
	}
	o.pending++
	if so.data {
		for c := range a.n {
			so.bufs[c] = a.getBuf()
		}
	}
	a.preread(so)
	if so.pending == 0 {
		so.advance()
	}
}

// planWrite plans so's stripe write with the members unavailable now
// and those whose pre-read failed; it reports false, failing the op,
// when the stripe's data is lost.
func (a *Array) planWrite(so *stripeOp) bool {
	o, s := so.o, so.stripe
	for m := range a.n {
		a.down[m] = !a.avail(m, s)
	}
	policy := a.cfg.Raid5Write
	if a.m.Level == RAID6 {
		policy = a.cfg.Raid6Write
	}
	p := &so.sp
	err := PlanStripeWrite(StripeWrite{Mapping: a.m, Stripe: s, Offset: o.r.Offset, End: o.r.End(),
		Failed: a.down, Unreadable: so.unread, Policy: policy, Page: a.cfg.Page}, p)
	switch {
	case err != nil:
		o.fail(fmt.Errorf("raid: %s: %v: %w", a.name, o.r, err))
		return false
	case p.Method == PlanLost:
		o.fail(a.lostWrite(so))
		return false
	}
	a.notePlan(o.r, p)
	return true
}

// lostWrite returns the error of a stripe write that found too many
// members failed or unreadable.
func (a *Array) lostWrite(so *stripeOp) error {
	var failed, unread []int
	for m := range a.n {
		switch {
		case !a.avail(m, so.stripe):
			failed = append(failed, m)
		case so.unread[m]:
			unread = append(unread, m)
		}
	}
	return fmt.Errorf("raid: %s: %v: stripe %d: members %v have failed, %v are unreadable there: %w", a.name, so.o.r, so.stripe, failed, unread, ErrDataLost)
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

// writeAdvance moves a stripe write on when its pre-reads or its writes
// are done; it reports whether it has more in flight.
func (a *Array) writeAdvance(so *stripeOp) bool {
	if so.hole {
		so.hole = false
		a.updatesInFlight--
	}
	if so.phase != 0 || so.failed {
		return false
	}
	if so.replan {
		if a.replanWrite(so) {
			return true
		}
		if so.failed {
			return false
		}
	}
	so.phase = 1
	if d := a.parityDelay(so); d > 0 {
		a.eng.After(d, &a.hParity, so)
		return true
	}
	so.writePhase()
	return true
}

// replanWrite plans so's stripe write again once a pre-read has failed:
// its member, failed now or unreadable there, is left out of the reads
// (what the plan needs of it is solved from the others and, when the
// member is still in, written back: md's answer to a read error in a
// stripe it updates). It reports whether new pre-reads went out; it
// fails the op when the stripe's data is lost.
func (a *Array) replanWrite(so *stripeOp) bool {
	so.replan = false
	so.replans++
	if !a.planWrite(so) || so.replans > a.n {
		so.failed = true
		if so.replans > a.n {
			so.o.fail(a.lost(so.o, so.stripe))
		}
		return false
	}
	a.preread(so)
	return so.pending > 0
}

// writeChildFailed handles a stripe write's member request that failed.
// A pre-read: its member is left out when the write is planned again
// (replanWrite). A write: its member has been failed for it (md_error),
// and the stripe stands on the others, parity included, unless too few
// are left.
func (a *Array) writeChildFailed(c *child, gone bool) bool {
	so := c.so
	if so.phase == 0 {
		if !gone {
			so.unread[c.member] = true
		}
		so.replan = true
		return true
	}
	if !gone {
		return false
	}
	if a.goneAt(so.stripe) > a.tolerance() {
		so.failed = true
		so.o.fail(a.lost(so.o, so.stripe))
	}
	return true
}

// parityDelay returns the parity engine's time for so's work: the bytes
// it reads through (Config.ParityRate), per parity computed.
func (a *Array) parityDelay(so *stripeOp) time.Duration {
	p := &so.sp
	if a.cfg.ParityRate <= 0 {
		return 0
	}
	D := int64(len(p.Data))
	var b int64
	for _, g := range p.Rows {
		n := g.Hi - g.Lo
		switch g.Method {
		case PlanFullStripe, PlanRCW:
			b += D * n
		case PlanRMW:
			w := int64(1)
			for d := range p.Data {
				if p.coverOf(d, g.Lo) != coverNone {
					w += 2
				}
			}
			b += w * n
		}
		if g.Solve {
			b += int64(a.n) * n
		}
	}
	b *= int64(p.ParityColumns())
	return time.Duration(float64(b) * 1e9 / float64(a.cfg.ParityRate))
}

// writePhase computes the new data pages and parity and writes them,
// skipping members that have failed since the plan was made (the
// parity covers them).
func (so *stripeOp) writePhase() {
	a, o, p := so.a, so.o, &so.sp
	s := so.stripe
	if a.goneAt(s) > a.tolerance() {
		o.fail(a.lost(o, s))
		a.putSO(so)
		a.opDone(o)
		return
	}
	if so.data {
		p.Compute(so.bufs, o.r.Data, o.r.Offset)
	}
	parity := false
	D := len(p.Data)
	for c := range p.Write {
		m := p.Member(c)
		if !a.avail(m, s) {
			continue
		}
		for _, x := range p.Write[c].List() {
			var buf []byte
			if so.data {
				buf = so.bufs[c][x.Lo:x.Hi]
			}
			if c >= D {
				parity = true
			} else if p.Unreadable[c] && p.coverOf(c, x.Lo) == coverNone {
				a.ct.repairs++
				a.ct.repairedBytes += x.Len()
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
