package host

import (
	"errors"
	"fmt"

	"github.com/raidsim/raidsim/sim"
)

// Volume is one storage device of a host with several: its device (the
// top of its stack) and what the host needs to know about it.
type Volume struct {
	Dev     sim.Device
	Storage Storage
}

// volumeGap is the unaddressed space the host leaves between volumes in
// its page cache's address space: more than any read-ahead or writeback
// (at most 1 GiB each), so none crosses from one volume to the next.
const volumeGap = 1 << 30

// AttachVolumes makes vols the host's storage, as one computer with
// several disks: one CPU, one page cache (with one dirty limit) over all
// of them. Volume(i) is the device programs read and write vols[i]
// through. With one volume it is Attach. All volumes must have the same
// sector size. It is called once, before the first Submit.
func (h *Host) AttachVolumes(vols ...Volume) error {
	if len(vols) == 1 {
		return h.Attach(vols[0].Dev, vols[0].Storage)
	}
	if h.top != nil {
		return errors.New("host: Attach called twice")
	}
	if len(vols) == 0 || len(vols) > 256 {
		return fmt.Errorf("host: AttachVolumes needs 1 to 256 volumes, got %d", len(vols))
	}
	c := &concat{h: h}
	c.ev = concatHandler{c}
	c.done = c.partDone
	var base int64
	readAhead := h.p.PageCache.ReadAhead
	for i, v := range vols {
		if v.Dev == nil {
			return fmt.Errorf("host: volume %d has no device", i)
		}
		if err := v.Storage.validate(); err != nil {
			return fmt.Errorf("volume %d: %w", i, err)
		}
		if ss := v.Dev.SectorSize(); i > 0 && ss != c.ss {
			return fmt.Errorf("host: volume %d has %d-byte sectors, volume 0 %d", i, ss, c.ss)
		}
		c.ss = v.Dev.SectorSize()
		// One page cache serves every volume; Linux keeps a read-ahead
		// window per block device, here the largest one any volume asks.
		readAhead = max(readAhead, h.p.ReadAheadFor(v.Storage))
		s := &shim{h: h, below: v.Dev, kind: shimStorage, name: fmt.Sprintf("%s-storage%d", h.name, i), st: v.Storage}
		s.ev = shimHandler{s}
		n := v.Dev.Capacity()
		if n <= 0 || n > 1<<60 {
			return fmt.Errorf("host: volume %d has capacity %d", i, n)
		}
		c.vols = append(c.vols, vol{base: base, end: base + n, dev: s})
		h.views = append(h.views, &view{h: h, base: base, cap: n})
		base = (base+n+volumeGap-1)/volumeGap*volumeGap + volumeGap
	}
	return h.attachTop(c, c.vols[len(c.vols)-1].end, c.ss, readAhead)
}

// Volume returns the device of volume i as the host serves it (after
// AttachVolumes), or the host itself for volume 0 of a single Attach.
func (h *Host) Volume(i int) sim.Device {
	if len(h.views) == 0 && i == 0 {
		return h
	}
	if i < 0 || i >= len(h.views) {
		return nil
	}
	return h.views[i]
}

// view is one volume of a host with several: requests to it go through
// the host at the volume's base in the page cache's address space.
type view struct {
	h         *Host
	base, cap int64
}

// Capacity returns the volume's capacity in bytes.
func (v *view) Capacity() int64 { return v.cap }

// SectorSize returns the volume's sector size in bytes.
func (v *view) SectorSize() int { return v.h.ss }

// Submit serves r through the host.
func (v *view) Submit(r *sim.Request) error { return v.h.submit(r, v.base, v.cap) }

// vol is one volume in the concatenated address space.
type vol struct {
	base, end int64
	dev       sim.Device
}

// concat puts several volumes in one address space, with gaps between
// them, for the page cache above. A read that runs from a volume into
// the gap after it (read-ahead past the end) reads zeros there at no
// cost; a flush goes to every volume.
type concat struct {
	h    *Host
	vols []vol
	ss   int
	free []*cjob
	ev   concatHandler
	done func(*sim.Request)
}

// cjob is a request to the concatenation and the parts it sent below.
type cjob struct {
	up      *sim.Request
	pending int
	err     error
	parts   []cpart
}

// cpart is one part of a cjob sent to a volume.
type cpart struct {
	sim.Request
	job *cjob
}

type concatHandler struct{ c *concat }

// HandleEvent completes a request that needed no volume.
func (e concatHandler) HandleEvent(now sim.Time, arg any) { e.c.finish(now, arg.(*cjob)) }

// Capacity returns the end of the last volume.
func (c *concat) Capacity() int64 { return c.vols[len(c.vols)-1].end }

// SectorSize returns the volumes' sector size.
func (c *concat) SectorSize() int { return c.ss }

// Submit splits r by volume.
func (c *concat) Submit(r *sim.Request) error {
	now := c.h.eng.Now()
	r.Issued = now
	if err := sim.CheckRequest(r, c.Capacity(), c.ss); err != nil {
		return fmt.Errorf("host %s volumes: %w", c.h.name, err)
	}
	j := c.get(r)
	if r.Op == sim.Flush {
		for i := range c.vols {
			j.parts = append(j.parts, cpart{Request: sim.Request{Op: sim.Flush, ID: uint64(i)}})
		}
		return c.send(j)
	}
	for i, v := range c.vols {
		a, b := max(r.Offset, v.base), min(r.End(), v.end)
		if a >= b {
			continue
		}
		p := cpart{Request: sim.Request{Op: r.Op, Offset: a - v.base, Length: b - a, FUA: r.FUA}}
		if r.Data != nil {
			p.Data = r.Data[a-r.Offset : b-r.Offset]
		}
		p.ID = uint64(i)
		j.parts = append(j.parts, p)
	}
	covered := int64(0)
	for i := range j.parts {
		covered += j.parts[i].Length
	}
	if covered < r.Length {
		if r.Op == sim.Write {
			c.put(j)
			return fmt.Errorf("host %s volumes: %v: %w (it reaches the gap between volumes)", c.h.name, r, sim.ErrOutOfRange)
		}
		c.zeroGaps(r)
	}
	return c.send(j)
}

// zeroGaps clears the bytes of a read's Data that lie outside every
// volume.
func (c *concat) zeroGaps(r *sim.Request) {
	if r.Data == nil {
		return
	}
	for k := range r.Data {
		off := r.Offset + int64(k)
		in := false
		for _, v := range c.vols {
			if off >= v.base && off < v.end {
				in = true
				break
			}
		}
		if !in {
			r.Data[k] = 0
		}
	}
}

// send submits j's parts, or completes j at once when it has none.
func (c *concat) send(j *cjob) error {
	if len(j.parts) == 0 {
		c.h.eng.Schedule(c.h.eng.Now(), &c.ev, j)
		return nil
	}
	j.pending = len(j.parts)
	for i := range j.parts {
		p := &j.parts[i]
		p.job, p.Ctx, p.Done = j, p, c.done
		if err := c.vols[p.ID].dev.Submit(&p.Request); err != nil {
			// The volume refused a part the checks above allowed: fail
			// it in its place.
			p.Err, p.Completed = err, c.h.eng.Now()
			c.h.eng.Schedule(c.h.eng.Now(), partFail{c}, p)
		}
	}
	return nil
}

// partFail completes a refused part from the event loop.
type partFail struct{ c *concat }

// HandleEvent completes the part.
func (f partFail) HandleEvent(_ sim.Time, arg any) { f.c.partDone(&arg.(*cpart).Request) }

// partDone counts a part in.
func (c *concat) partDone(q *sim.Request) {
	p := q.Ctx.(*cpart)
	j := p.job
	if q.Err != nil && j.err == nil {
		j.err = q.Err
	}
	if j.pending--; j.pending == 0 {
		c.finish(c.h.eng.Now(), j)
	}
}

// finish completes j's request.
func (c *concat) finish(now sim.Time, j *cjob) {
	r := j.up
	r.Err, r.Completed = j.err, now
	c.put(j)
	r.Done(r)
}

func (c *concat) get(r *sim.Request) *cjob {
	var j *cjob
	if n := len(c.free); n > 0 {
		j, c.free = c.free[n-1], c.free[:n-1]
	} else {
		j = &cjob{parts: make([]cpart, 0, len(c.vols))}
	}
	j.up, j.err, j.pending, j.parts = r, nil, 0, j.parts[:0]
	return j
}

func (c *concat) put(j *cjob) {
	j.up = nil
	c.free = append(c.free, j)
}
