package raid

import (
	"errors"
	"fmt"

	"github.com/raidsim/raidsim/sim"
)

// errMemberFailed is what a request in flight on a member gets when the
// member fails: the array goes on without waiting for the member.
var errMemberFailed = errors.New("member failed")

// abandon ends every request in flight on member m now, as a drive that
// fails ends its queued and in-flight commands with errors: each is
// completed by an abort event at this instant (never from inside Fail),
// and its parent is served by the redundancy (childEnded). The member's
// own Done for it, whenever it comes, only recycles it. The member is
// told to leave the request's Data alone (drives and MemDevice touch it
// when they complete), and a stripe operation's buffer it was reading
// into is replaced, so that a late answer lands nowhere in use.
func (a *Array) abandon(m int) {
	ms := &a.mem[m]
	for len(ms.open) > 0 {
		c := ms.open[len(ms.open)-1]
		a.leave(c)
		c.abandoned = true
		if c.so != nil && c.req.Op == sim.Read && c.req.Data != nil {
			c.so.replaceBuf(c.req.Data)
		}
		c.req.Data = nil
		a.eng.After(0, &a.hAbort, c)
	}
}

// aborted is the abort event of a request abandoned by abandon.
func (a *Array) aborted(c *child) {
	c.aborted = true
	a.childEnded(c, fmt.Errorf("raid: %s: %w at %v", a.name, errMemberFailed, a.mem[c.member].failedAt))
	if c.devDone {
		a.putChild(c)
	}
}

// replaceBuf gives so a fresh buffer in place of the one holding b (a
// read its member may still fill), keeping what it held.
func (so *stripeOp) replaceBuf(b []byte) {
	for i, x := range so.bufs {
		if sameBuf(x, b) {
			fresh := make([]byte, len(x), cap(x))
			copy(fresh, x)
			so.bufs[i] = fresh
			return
		}
	}
}

// sameBuf reports whether a and b are slices of one buffer that both
// run to its end (as every slice of a stripe buffer the array takes
// does).
func sameBuf(a, b []byte) bool {
	if cap(a) == 0 || cap(b) == 0 {
		return false
	}
	return &a[:cap(a)][cap(a)-1] == &b[:cap(b)][cap(b)-1]
}

// tolerance returns how many members a stripe survives losing: 0 for
// RAID 0, 1 for RAID 5 and RAID 10 (per pair), 2 for RAID 6, all but one
// for RAID 1.
func (a *Array) tolerance() int {
	switch a.m.Level {
	case RAID5, RAID10:
		return 1
	case RAID6:
		return 2
	case RAID1:
		return a.n - 1
	}
	return 0
}

// memberError applies md's rule for a member request that failed: a
// write (or flush) that fails fails the member (md_error; with no
// redundancy, RAID 0, there is nothing to fail over to and the error
// goes up). A read error is answered from the redundancy and the data
// rewritten (repair); the member fails if that rewrite fails. So a
// drive whose commands time out is kicked: the host's timer fails the
// read, and the rewrite meets the drive still busy (the "timeout
// mismatch" of desktop drives without ERC, Linux RAID wiki).
func (a *Array) memberError(c *child, err error) {
	if a.m.Level == RAID0 || errors.Is(err, errMemberFailed) || a.mem[c.member].failed && !a.rebuilding(c.member) {
		return
	}
	if op := c.req.Op; op != sim.Write && op != sim.Flush {
		return
	}
	a.mem[c.member].kicked = true
	_ = a.Fail(c.member)
}

// rebuilding reports whether m is the slot a rebuild is filling.
func (a *Array) rebuilding(m int) bool { return a.rb != nil && a.rb.active && a.rb.member == m }

// absorb serves c's share of its parent some other way after c failed
// with err, and reports whether it could (otherwise the parent fails).
func (a *Array) absorb(c *child, err error) bool {
	gone := !a.avail(c.member, c.req.Offset/a.u)
	if c.so == nil {
		return a.plainFailed(c, gone)
	}
	switch c.so.kind {
	case soWrite:
		return a.writeChildFailed(c, gone)
	case soReconstruct, soReconstruct6:
		return a.reconstructReadFailed(c, gone)
	case soRepair:
		return a.repairChildFailed(c, gone)
	case soRebuild:
		return a.rebuildChildFailed(c, gone, err)
	}
	return false
}

// plainFailed handles a failed member request that is not part of a
// stripe operation: a read is served from the redundancy (and, when the
// member is still in, rewritten there); a write, flush or trim to a
// member now out of the array is dropped, the write standing on the
// copies left.
func (a *Array) plainFailed(c *child, gone bool) bool {
	q := &c.req
	row := q.Offset / a.u
	switch {
	case a.m.Level == RAID0:
		return false
	case q.Op == sim.Read && !gone:
		return a.repair(c)
	case q.Op == sim.Read:
		a.retryRead(c)
		return true
	case q.Op == sim.Write && gone:
		if !a.copiesLeft(c.member, row) {
			c.o.fail(a.lost(c.o, row))
		}
		return true
	}
	return gone // a flush or trim to a member that is out
}

// copiesLeft reports whether a mirrored chunk of member m at row still
// has a live copy elsewhere.
func (a *Array) copiesLeft(m int, row int64) bool {
	if a.m.Level == RAID10 {
		return a.avail(m^1, row)
	}
	for p := range a.n {
		if p != m && a.avail(p, row) {
			return true
		}
	}
	return false
}

// retryRead serves a plain read whose member is now out of the array:
// from another copy, or reconstructed from the parity.
func (a *Array) retryRead(c *child) {
	q := &c.req
	row := q.Offset / a.u
	o := c.o
	o.degraded = true
	switch a.m.Level {
	case RAID5, RAID6:
		a.reconstruct(o, c.member, row, q.Offset, q.Length, c.dst)
		return
	}
	first := c.member
	if a.m.Level == RAID10 {
		first &^= 1
	}
	if a.liveCopies(Addr{Member: first, Offset: q.Offset}, row) == 0 {
		o.fail(a.lost(o, row))
		return
	}
	a.issue(o, nil, a.pickCopy(q.Offset), sim.Read, q.Offset, q.Length, c.dst)
}

// recordLost enters member m's bytes [off, off+n) in the lost ranges
// (md's bad block log) when they hold data.
func (a *Array) recordLost(m int, off, n int64) {
	if a.m.Level == RAID1 {
		a.lostRanges.add(off, n)
		return
	}
	if l, ok := a.m.Logical(Addr{Member: m, Offset: off}); ok {
		a.lostRanges.add(l, n)
	}
}

// unrecoverable returns the error of a read whose data a read error
// made unrecoverable, the ranges recorded as lost.
func (a *Array) unrecoverable(o *op, m int, off, n int64) error {
	return fmt.Errorf("raid: %s: %s: member %d unreadable at %d+%d with no redundancy left: %w", a.name, o.what(), m, off, n, ErrLostInRebuild)
}
