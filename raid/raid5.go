package raid

import (
	"crypto/subtle"

	"github.com/raidsim/raidsim/sim"
)

type soKind uint8

const (
	soWrite soKind = iota
	soReconstruct
	soRebuild
	soRepair
	soReconstruct6
)

// stripeOp is the work of one op on one stripe that needs more than
// plain member requests: a RAID 5 or 6 write (reads, parity, writes), a
// reconstructing read, a repair, or a rebuild step.
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
	sp      StripePlan // write: the plan being carried out
	bufs    [][]byte   // write: by column; others: by member
	target  []byte     // reconstructing read, repair: the parent's data
	moff    int64      // reconstructing read, repair: member offset and length
	mlen    int64
	member  int    // reconstructing read: the failed member; rebuild: the slot rebuilt; repair: the member rewritten
	lost    bool   // rebuild: a source read failed, the row's data is lost
	bad     []int  // sources whose read failed
	reads   int    // RAID 6 rebuild: sources read
	unread  []bool // write: by member, a pre-read failed there (unreadable)
	replan  bool   // write: a pre-read failed; plan again when the rest are in
	replans int    // write: plans made after the first
}

func (a *Array) getSO(o *op, kind soKind) *stripeOp {
	var so *stripeOp
	if n := len(a.freeSOs); n > 0 {
		so = a.freeSOs[n-1]
		a.freeSOs = a.freeSOs[:n-1]
	} else {
		so = &stripeOp{a: a, bufs: make([][]byte, a.n), unread: make([]bool, a.n)}
	}
	so.o, so.kind = o, kind
	return so
}

func (a *Array) putSO(so *stripeOp) {
	for i, b := range so.bufs {
		a.putBuf(b)
		so.bufs[i] = nil
	}
	sp, bufs, bad, unread := so.sp, so.bufs, so.bad[:0], so.unread
	clear(unread)
	*so = stripeOp{a: a, bufs: bufs, bad: bad, unread: unread, sp: StripePlan{Data: sp.Data, Read: sp.Read, Write: sp.Write,
		Down: sp.Down, Unreadable: sp.Unreadable, Rows: sp.Rows, units: sp.units}}
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
		a.writeStripe(o, s)
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
		if a.writeAdvance(so) {
			return
		}
	case soRepair:
		if a.repairAdvance(so) {
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

// xorInto sets dst[i] ^= src[i] for every i.
func xorInto(dst, src []byte) {
	n := min(len(dst), len(src))
	subtle.XORBytes(dst[:n], dst[:n], src[:n])
}
