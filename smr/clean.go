package smr

import (
	"fmt"

	"github.com/raidsim/raidsim/sim"
)

// cleanJob is the cleaning of one band: read-modify-write. The drive
// reads the band's valid data from the band, reads the band's extents
// from the media cache (one platter read per fragment, so fragmented
// data costs a seek each), then rewrites the band from its start past
// the last byte either held; the band's extents then leave the map and
// the log's tail moves on (Skylight, FAST 2015, section 5: a band is
// cleaned by reading it and the cached data and rewriting it, in FIFO
// order of the persistent cache; Aghayev et al., FAST 2017, section 2:
// once the cache is full the drive cleans in the foreground, the
// "continuous period of low throughput").
type cleanJob struct {
	d       *Drive
	active  bool
	idle    bool // started by the idle timer, not by a full cache
	band    int64
	end     int64 // bytes of the band the rewrite covers
	writing bool
	pending int
	started sim.Time
	err     error
}

// start cleans the band of the oldest entry in the media cache log;
// it does nothing when the log is empty.
func (c *cleanJob) start(idle bool) {
	d := c.d
	b, ok := d.log.tailBand()
	if !ok {
		return
	}
	*c = cleanJob{d: d, active: true, idle: idle, band: b, started: d.eng.Now()}
	base := d.p.bandStart(b)
	lba := b * d.p.BandBytes
	wp := d.bands[b]
	c.end = wp
	if wp > 0 {
		c.read(base, wp)
	}
	var runOff, runLen int64
	for _, e := range d.log.overlapping(lba, d.p.bandLen(b)) {
		c.end = max(c.end, e.lba+e.n-lba)
		d.st.CleanFragments++
		if runLen > 0 && runOff+runLen == e.phys {
			runLen += e.n
			continue
		}
		if runLen > 0 {
			c.read(runOff, runLen)
		}
		runOff, runLen = e.phys, e.n
	}
	if runLen > 0 {
		c.read(runOff, runLen)
	}
	if c.pending == 0 {
		c.write()
	}
}

// read issues one platter read of the clean.
func (c *cleanJob) read(off, n int64) {
	c.d.st.CleanReadBytes += n
	c.submit(sim.Read, off, n)
}

func (c *cleanJob) submit(op sim.Op, off, n int64) {
	d := c.d
	q := d.getKid()
	// The rewrite is forced to the platter (FUA): the band's cached
	// extents may leave the map only once their data is home.
	q.Op, q.Offset, q.Length, q.Ctx, q.FUA = op, off, n, c, op == sim.Write
	c.pending++
	if err := d.media.Submit(q); err != nil {
		panic(fmt.Sprintf("smr: %s: platter refused cleaning %v: %v", d.name, q, err)) // a bug: the layout is checked
	}
}

// write rewrites the band, merged, from its start.
func (c *cleanJob) write() {
	c.writing = true
	if c.end == 0 {
		c.finish()
		return
	}
	c.d.st.CleanWriteBytes += c.end
	c.submit(sim.Write, c.d.p.bandStart(c.band), c.end)
}

// childDone counts one finished platter request of the clean.
func (c *cleanJob) childDone(err error) {
	if err != nil && c.err == nil {
		c.err = err
	}
	c.pending--
	if c.pending > 0 {
		return
	}
	if !c.writing {
		c.write()
		return
	}
	c.finish()
}

// finish retires the band's extents and goes on: cleaning the next
// band while the drive stays idle (or while the queue's head still
// does not fit), serving the host otherwise.
func (c *cleanJob) finish() {
	d := c.d
	if c.err == nil {
		d.st.CachedBytesCleaned += d.log.unmap(c.band*d.p.BandBytes, d.p.bandLen(c.band))
		d.bands[c.band] = max(d.bands[c.band], c.end)
	} else {
		d.st.CleanErrors++
	}
	d.st.BandCleans++
	if c.idle {
		d.st.IdleCleans++
	} else {
		d.st.ForegroundCleans++
	}
	d.st.CleanTime += d.eng.Now().Sub(c.started)
	c.active = false
	d.sample()
	failed := c.err != nil
	if d.qHead < len(d.queue) {
		if failed && !c.idle {
			d.failHead(c.err)
		}
		d.pump()
		return
	}
	if c.idle && !failed {
		c.start(true)
	}
}

// failHead fails the write at the head of the queue: cleaning, which
// it waits for, met a platter error (the drive cannot make room).
func (d *Drive) failHead(err error) {
	r := d.queue[d.qHead]
	d.queue[d.qHead] = nil
	d.qHead++
	o := d.getOp(r)
	o.err = fmt.Errorf("smr: %s: media cache full and cleaning failed: %w", d.name, err)
	d.busy++
	d.eng.After(0, &d.evZero, o)
}
