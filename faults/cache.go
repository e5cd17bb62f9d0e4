package faults

import (
	"slices"

	"github.com/raidsim/raidsim/sim"
)

// Extent is a byte range of the device: Length bytes from Offset.
type Extent struct{ Offset, Length int64 }

// cacheWrite takes a write into the volatile cache: acknowledged now, a
// copy of its bytes sent below. A Flush waits while cached writes are
// on their way. It reports whether it handled the request.
func (d *Device) cacheWrite(c *child, r *sim.Request) bool {
	switch {
	case r.Op == sim.Flush && len(d.cached) > 0:
		c.refs++
		d.flushWait = append(d.flushWait, c)
		return true
	case r.Op == sim.Read && d.overlapsWriting(r.Offset, r.End()):
		// The cache serves reads of what it holds: here, the read waits
		// until those bytes are below, which returns the same bytes.
		c.refs++
		d.readWait = append(d.readWait, c)
		return true
	case r.Op != sim.Write:
		return false
	}
	overlaps := d.overlapsWriting(r.Offset, r.End())
	d.writing = append(d.writing, c)
	c.req.Op, c.req.Offset, c.req.Length = r.Op, r.Offset, r.Length
	if r.FUA || overlaps || d.eng.Now() < d.busyUntil {
		// A FUA write goes through; so does one overlapping a write on its
		// way, so that the one acknowledged last is the one stored; and a
		// drive busy in error recovery answers no command, its write cache
		// included: the write waits with the rest.
		return false
	}
	c.cached = true
	if r.Data != nil {
		c.copy = slices.Clone(r.Data)
	}
	d.cached = append(d.cached, c)
	d.later(c, 0) // acknowledged at once
	d.start(c)
	return true
}

// persisted notes a cached write that reached the device below, and
// lets waiting flushes go once none is left.
func (d *Device) persisted(c *child) {
	if i := slices.Index(d.cached, c); i >= 0 {
		d.cached = slices.Delete(d.cached, i, i+1)
	}
	d.written(c)
	c.cached, c.copy = false, nil
	d.release(c)
	if len(d.cached) > 0 {
		return
	}
	waiting := d.flushWait
	d.flushWait = nil
	for _, f := range waiting {
		f.refs--
		if f.done { // timed out while waiting
			d.release(f)
			continue
		}
		d.start(f)
	}
}

// Unpersisted returns the writes acknowledged from the volatile write
// cache (Config.WriteCache) that have not reached the device below:
// what a power loss now would lose, in acknowledgement order.
func (d *Device) Unpersisted() []Extent {
	out := make([]Extent, 0, len(d.cached))
	for _, c := range d.cached {
		out = append(out, Extent{c.req.Offset, c.req.Length})
	}
	return out
}

// overlapsWriting reports whether a write on its way below touches
// [lo, hi).
func (d *Device) overlapsWriting(lo, hi int64) bool {
	return slices.ContainsFunc(d.writing, func(w *child) bool {
		return w.req.Offset < hi && lo < w.req.End()
	})
}

// written forgets c among the writes on their way below and starts the
// reads that waited for it.
func (d *Device) written(c *child) {
	i := slices.Index(d.writing, c)
	if i < 0 {
		return
	}
	d.writing = slices.Delete(d.writing, i, i+1)
	for j := 0; j < len(d.readWait); {
		w := d.readWait[j]
		if !w.done && d.overlapsWriting(w.parent.Offset, w.parent.End()) {
			j++
			continue
		}
		d.readWait = slices.Delete(d.readWait, j, j+1)
		w.refs--
		if w.done { // timed out while waiting
			d.release(w)
			continue
		}
		d.start(w)
	}
}
