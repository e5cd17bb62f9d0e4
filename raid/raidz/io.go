package raidz

import (
	"fmt"

	"github.com/raidsim/raidsim/raid"
	"github.com/raidsim/raidsim/sim"
)

// task waits for a set of member requests, then runs then.
type task struct {
	pending int
	armed   bool
	err     error
	then    func(error)
}

type zeroHandler struct{ a *Array }

func (h *zeroHandler) HandleEvent(_ sim.Time, arg any) {
	t := arg.(*task)
	t.then(t.err)
}

func (a *Array) newTask(then func(error)) *task { return &task{then: then} }

// armTask lets t finish once its requests are done (at once, through
// an event, when it has none).
func (a *Array) armTask(t *task) {
	t.armed = true
	if t.pending == 0 {
		a.eng.After(0, &a.hZero, t)
	}
}

// io sends one member request for t.
func (a *Array) io(t *task, d sim.Device, op sim.Op, off, n int64, data []byte) {
	q := a.getKid()
	q.Op, q.Offset, q.Length, q.Data, q.Ctx = op, off, n, data, t
	t.pending++
	if err := d.Submit(q); err != nil {
		t.pending--
		if t.err == nil {
			t.err = err
		}
		a.putKid(q)
	}
}

func (a *Array) childDone(q *sim.Request) {
	t := q.Ctx.(*task)
	if q.Err != nil && t.err == nil {
		t.err = q.Err
	}
	a.putKid(q)
	t.pending--
	if t.pending == 0 && t.armed {
		t.then(t.err)
	}
}

func (a *Array) getKid() *sim.Request {
	if n := len(a.kids); n > 0 {
		q := a.kids[n-1]
		a.kids = a.kids[:n-1]
		return q
	}
	return &sim.Request{Done: a.hDone}
}

func (a *Array) putKid(q *sim.Request) {
	*q = sim.Request{Done: a.hDone}
	a.kids = append(a.kids, q)
}

// slotLock queues the operations on one slot: a record is read and
// rewritten by one at a time.
type slotLock struct{ q []func() }

func (a *Array) lockFn(slot int64, run func()) {
	if l := a.locks[slot]; l != nil {
		l.q = append(l.q, run)
		return
	}
	a.locks[slot] = &slotLock{}
	run()
}

func (a *Array) lock(slot int64, o *slotOp) { a.lockFn(slot, o.run) }

func (a *Array) unlock(slot int64) {
	l := a.locks[slot]
	if len(l.q) == 0 {
		delete(a.locks, slot)
		return
	}
	next := l.q[0]
	l.q = l.q[1:]
	next()
}

// slotOp is one host request's part in one slot: bytes [lo, lo+n) of
// the slot, at offset at of the request.
type slotOp struct {
	a         *Array
	h         *hostOp
	slot      int64
	lo, n, at int64
}

func (o *slotOp) done(err error) {
	o.a.unlock(o.slot)
	o.h.finish(o.a, err)
}

func (o *slotOp) run() {
	switch o.h.r.Op {
	case sim.Read:
		o.read()
	case sim.Write:
		o.write(o.h.r.Data)
	case sim.Trim:
		o.trim()
	}
}

// readRecord reads record r's data columns whole (ZFS reads a record
// whole to check its checksum), and the parity columns needed to
// reconstruct those on unusable children; then calls then with the
// record's bytes (nil unless buffers are kept) and an error.
func (a *Array) readRecord(r record, keep bool, then func(buf []byte, err error)) {
	a.readRecordFor(r, keep, true, then)
}

// readRecordFor is readRecord; host says whether a host request reads
// (counted in Stats.DegradedReads when it reconstructs) rather than a
// scan.
func (a *Array) readRecordFor(r record, keep, host bool, then func(buf []byte, err error)) {
	cols := a.g.Map(r.off, r.psize)
	np := a.g.Parity
	var units [][]byte
	var buf []byte
	if keep {
		buf = make([]byte, r.psize)
		units = a.units(cols, buf)
	}
	var missing []int
	for i := np; i < len(cols); i++ {
		if !a.usable(r, cols[i]) {
			missing = append(missing, i)
		}
	}
	need := len(missing)
	var lostPar []int
	t := a.newTask(nil)
	for i := 0; i < np && i < len(cols); i++ {
		if need == 0 || !a.usable(r, cols[i]) {
			lostPar = append(lostPar, i)
			continue
		}
		need--
		a.io(t, a.members[cols[i].Disk], sim.Read, cols[i].Offset, cols[i].Size, unit(units, i))
	}
	if need > 0 {
		a.eng.After(0, &a.hZero, &task{then: func(error) {
			then(nil, fmt.Errorf("raidz: %s: record at %d: children %v unusable: %w", a.name, r.off, a.Failed(), raid.ErrDataLost))
		}})
		return
	}
	for i := np; i < len(cols); i++ {
		if !a.usable(r, cols[i]) {
			continue
		}
		a.io(t, a.members[cols[i].Disk], sim.Read, cols[i].Offset, cols[i].Size, unit(units, i))
	}
	if len(missing) > 0 && host {
		a.ct.degradedReads++
	}
	t.then = func(err error) {
		if err == nil && len(missing) > 0 && keep {
			Reconstruct(units, np, append(missing, lostPar...))
		}
		for _, m := range missing {
			if host {
				a.ct.reconstructed += cols[m].Size
			}
		}
		then(buf, err)
	}
	a.armTask(t)
}

// units returns the columns' buffers: parity columns fresh, data columns
// slices of the record's bytes in order.
func (a *Array) units(cols []Column, buf []byte) [][]byte {
	u := make([][]byte, len(cols))
	off := int64(0)
	for i, c := range cols {
		if i < a.g.Parity {
			u[i] = make([]byte, c.Size)
			continue
		}
		u[i] = buf[off : off+c.Size : off+c.Size]
		off += c.Size
	}
	return u
}

func unit(units [][]byte, i int) []byte {
	if units == nil {
		return nil
	}
	return units[i]
}

func (o *slotOp) read() {
	a, r := o.a, o.h.r
	rec := a.slots.get(o.slot)
	if rec.psize == 0 || o.lo >= rec.psize {
		if r.Data != nil {
			clear(r.Data[o.at : o.at+o.n])
		}
		a.eng.After(0, &a.hZero, &task{then: o.done})
		return
	}
	a.readRecord(rec, r.Data != nil, func(buf []byte, err error) {
		if err == nil && r.Data != nil {
			dst := r.Data[o.at : o.at+o.n]
			k := copy(dst, buf[min(o.lo, int64(len(buf))):])
			clear(dst[k:])
		}
		o.done(err)
	})
}

// write rewrites the slot's record with data (nil: no bytes, or zeroes
// when the array keeps bytes) in [lo, lo+n): copy-on-write, reading the
// old record first when the write covers it in part.
func (o *slotOp) write(data []byte) {
	a := o.a
	rec := a.slots.get(o.slot)
	sector := a.g.sector()
	psize := max(rec.psize, roundUp(o.lo+o.n, sector))
	keep := a.cfg.Data || data != nil
	needOld := rec.psize > 0 && (o.lo > 0 || o.lo+o.n < rec.psize)
	build := func(old []byte) {
		var buf []byte
		if keep {
			buf = make([]byte, psize)
			copy(buf, old)
			if data != nil {
				copy(buf[o.lo:], data[o.at:o.at+o.n])
			} else {
				clear(buf[o.lo : o.lo+o.n])
			}
		}
		a.writeRecord(o.slot, psize, buf, o.done)
	}
	if !needOld {
		build(nil)
		return
	}
	a.ct.rmwReads++
	a.readRecord(rec, keep, func(old []byte, err error) {
		if err != nil {
			o.done(err)
			return
		}
		build(old)
	})
}

// writeRecord allocates psize bytes for slot, writes the record (buf, or
// no bytes) with its parity to every usable child, then frees the old
// record and maps the new one.
func (a *Array) writeRecord(slot, psize int64, buf []byte, then func(error)) {
	asize := a.g.AllocSize(psize)
	u, ok := a.alloc.alloc(asize / a.unit)
	if !ok {
		a.eng.After(0, &a.hZero, &task{then: func(error) {
			then(fmt.Errorf("raidz: %s: %d bytes for slot %d: %w", a.name, asize, slot, ErrNoSpace))
		}})
		return
	}
	nr := record{off: u * a.unit, psize: psize}
	cols := a.g.Map(nr.off, psize)
	var units [][]byte
	if buf != nil {
		units = a.units(cols, buf)
		Generate(units, a.g.Parity)
	}
	t := a.newTask(nil)
	for i, c := range cols {
		if a.usable(nr, c) {
			a.io(t, a.members[c.Disk], sim.Write, c.Offset, c.Size, unit(units, i))
		}
	}
	t.then = func(err error) {
		if err == nil {
			a.free(a.slots.get(slot))
			a.slots.set(slot, nr)
		} else {
			a.free(nr)
		}
		then(err)
	}
	a.armTask(t)
}

// free returns r's space.
func (a *Array) free(r record) {
	if r.psize > 0 {
		a.alloc.release(r.off/a.unit, a.g.AllocSize(r.psize)/a.unit)
	}
}

// trim frees the slot's record when the trim covers all of it, and
// writes zeroes over the part it covers otherwise.
func (o *slotOp) trim() {
	a := o.a
	rec := a.slots.get(o.slot)
	if rec.psize == 0 || o.lo >= rec.psize {
		a.eng.After(0, &a.hZero, &task{then: o.done})
		return
	}
	if o.lo == 0 && o.lo+o.n >= rec.psize {
		a.free(rec)
		a.slots.set(o.slot, record{})
		a.eng.After(0, &a.hZero, &task{then: o.done})
		return
	}
	o.n = min(o.n, rec.psize-o.lo)
	o.write(nil)
}
