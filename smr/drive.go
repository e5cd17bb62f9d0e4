package smr

import (
	"fmt"

	"github.com/raidsim/raidsim/disk"
	"github.com/raidsim/raidsim/drive"
	"github.com/raidsim/raidsim/sim"
)

// Drive is a drive-managed SMR drive: a sim.Device whose shingle
// translation layer maps host LBAs to its media cache or its bands and
// sends the resulting platter requests to a disk.Drive (the platter:
// zones, seek, rotation, buffer and write cache, NCQ). Build it with
// Model.NewDrive. Not safe for concurrent use.
type Drive struct {
	eng   *sim.Engine
	name  string
	p     Params
	media *disk.Drive
	ss    int64

	bands []int64 // each band's write pointer: bytes from its start holding valid data
	log   *cacheLog

	queue []*sim.Request // host requests not yet dispatched, in arrival order
	qHead int
	busy  int // host requests dispatched and not done

	clean    cleanJob
	idleGen  uint64 // bumped by every host arrival: an idle timer of an older generation is stale
	idleArmd bool

	stallSince sim.Time // when the queue's head began waiting for cache space
	stalled    bool

	ops    []*hostOp // free list
	kids   []*sim.Request
	segs   [][2]int64
	hDone  func(*sim.Request)
	evIdle idleHandler
	evZero zeroHandler

	st      Stats
	series  series
	created sim.Time
}

// hostOp is a host request in service: the platter requests it waits
// for.
type hostOp struct {
	r       *sim.Request
	pending int
	err     error
}

type idleHandler struct{ d *Drive }
type zeroHandler struct{ d *Drive }

func (h *idleHandler) HandleEvent(_ sim.Time, arg any) { h.d.idleFired(arg.(uint64)) }
func (h *zeroHandler) HandleEvent(_ sim.Time, arg any) { h.d.finishOp(arg.(*hostOp)) }

// newDrive builds the translation layer over the platter media.
func newDrive(eng *sim.Engine, p Params, media *disk.Drive, name string) *Drive {
	d := &Drive{eng: eng, name: name, p: p, media: media, ss: int64(media.SectorSize()), created: eng.Now()}
	d.hDone = d.childDone
	d.evIdle.d, d.evZero.d = d, d
	d.bands = make([]int64, p.Bands())
	d.log = newCacheLog(0, p.MediaCacheBytes, p.MediaCacheExtents)
	d.clean.d = d
	d.series.init(defaultSeriesPoints)
	return d
}

// Name returns the drive's name.
func (d *Drive) Name() string { return d.name }

// Capacity returns the host-visible size in bytes.
func (d *Drive) Capacity() int64 { return d.p.Capacity }

// SectorSize returns the sector size in bytes.
func (d *Drive) SectorSize() int { return int(d.ss) }

// Params returns the drive's parameters.
func (d *Drive) Params() Params { return d.p }

// Platter returns the disk drive under the translation layer, which
// sees the platter requests (media cache appends, band reads and
// writes, cleaning) rather than the host's.
func (d *Drive) Platter() *disk.Drive { return d.media }

// DirtyBytes is the data the platter's volatile write cache holds
// unwritten: the media cache itself is persistent.
func (d *Drive) DirtyBytes() int64 { return d.media.DirtyBytes() }

// Submit queues r (see sim.Device). Requests are dispatched in arrival
// order; a write that finds the media cache full waits, and everything
// behind it with it, while the drive cleans bands.
func (d *Drive) Submit(r *sim.Request) error {
	if err := sim.CheckRequest(r, d.p.Capacity, int(d.ss)); err != nil {
		return fmt.Errorf("smr: %s: %w", d.name, err)
	}
	r.Issued = d.eng.Now()
	r.Err = nil
	d.idleGen++
	d.idleArmd = false
	d.queue = append(d.queue, r)
	d.pump()
	return nil
}

// pump dispatches queued host requests until one must wait.
func (d *Drive) pump() {
	for d.qHead < len(d.queue) && !d.clean.active {
		r := d.queue[d.qHead]
		if r.Op == sim.Write && !d.writeFits(r) {
			d.beginStall()
			if d.busy == 0 {
				d.clean.start(false)
			}
			return
		}
		d.endStall()
		d.queue[d.qHead] = nil
		d.qHead++
		d.dispatch(r)
	}
	if d.qHead == len(d.queue) {
		d.queue, d.qHead = d.queue[:0], 0
		d.armIdle()
	}
}

func (d *Drive) beginStall() {
	if !d.stalled {
		d.stalled, d.stallSince = true, d.eng.Now()
	}
}

func (d *Drive) endStall() {
	if d.stalled {
		d.stalled = false
		d.st.StallTime += d.eng.Now().Sub(d.stallSince)
	}
}

// dispatch sends r's platter requests.
func (d *Drive) dispatch(r *sim.Request) {
	o := d.getOp(r)
	d.busy++
	switch r.Op {
	case sim.Read:
		d.st.Reads++
		d.st.ReadBytes += r.Length
		d.forBands(r.Offset, r.Length, func(b, lo, n int64) { d.readPiece(o, b, lo, n) })
	case sim.Write:
		d.st.Writes++
		d.st.WriteBytes += r.Length
		d.st.writeSizes.add(r.Length)
		d.forBands(r.Offset, r.Length, func(b, lo, n int64) { d.writePiece(o, r, b, lo, n) })
		d.sample()
	case sim.Trim:
		d.st.Trims++
		d.forBands(r.Offset, r.Length, d.trimPiece)
		d.sample()
	case sim.Flush:
		d.st.Flushes++
		d.issue(o, sim.Flush, 0, 0)
	}
	if o.pending == 0 {
		d.eng.After(0, &d.evZero, o)
	}
}

// forBands calls f for each band piece of [off, off+n): band b, offset
// lo within it, n bytes. A CMR drive is one band holding everything.
func (d *Drive) forBands(off, n int64, f func(b, lo, n int64)) {
	if d.p.Recording != SMR {
		f(-1, off, n)
		return
	}
	for n > 0 {
		b := off / d.p.BandBytes
		lo := off - b*d.p.BandBytes
		k := min(n, d.p.bandLen(b)-lo)
		f(b, lo, k)
		off += k
		n -= k
	}
}

// writeFits reports whether the media cache can take the pieces of
// write r that must go to it.
func (d *Drive) writeFits(r *sim.Request) bool {
	if d.p.Recording != SMR {
		return true
	}
	var bytes int64
	pieces := 0
	d.forBands(r.Offset, r.Length, func(b, lo, n int64) {
		if !d.direct(b, lo, n) {
			bytes += n
			pieces += 2 // an append may wrap round the region's end
		}
	})
	return pieces == 0 || d.log.fits(bytes, pieces)
}

// direct reports whether a write of band b at [lo, lo+n) goes straight
// to the band: it covers the whole band, or it starts at the band's
// write pointer (nothing valid lies beyond it to be shingled over).
func (d *Drive) direct(b, lo, n int64) bool {
	if lo == 0 && n == d.p.bandLen(b) {
		return true
	}
	return d.p.AppendAtWritePointer && lo == d.bands[b]
}

// writePiece writes band b's [lo, lo+n) of host write r.
func (d *Drive) writePiece(o *hostOp, r *sim.Request, b, lo, n int64) {
	if b < 0 { // CMR
		d.issue(o, sim.Write, lo, n)
		return
	}
	lba := b*d.p.BandBytes + lo
	if d.direct(b, lo, n) {
		d.log.unmap(lba, n)
		d.bands[b] = max(d.bands[b], lo+n)
		d.st.DirectWrites++
		d.st.DirectWriteBytes += n
		d.issue(o, sim.Write, d.p.bandStart(b)+lo, n)
		return
	}
	d.st.CacheWrites++
	d.st.CacheWriteBytes += n
	d.segs = d.log.appendAt(lba, n, b, d.segs[:0])
	for _, s := range d.segs {
		d.issue(o, sim.Write, s[0], s[1])
	}
	if u := d.log.used; u > d.st.CachePeakBytes {
		d.st.CachePeakBytes = u
	}
	d.st.ExtentsPeak = max(d.st.ExtentsPeak, d.log.extents())
}

// readPiece reads band b's [lo, lo+n): what the map sends to the media
// cache from there, the rest from the band, merging platter ranges that
// follow each other.
func (d *Drive) readPiece(o *hostOp, b, lo, n int64) {
	if b < 0 {
		d.issue(o, sim.Read, lo, n)
		return
	}
	lba := b*d.p.BandBytes + lo
	base := d.p.bandStart(b) - b*d.p.BandBytes // platter offset of LBA x in the band: base+x
	var runOff, runLen int64
	emit := func(phys, k int64) {
		if runLen > 0 && runOff+runLen == phys {
			runLen += k
			return
		}
		if runLen > 0 {
			d.issue(o, sim.Read, runOff, runLen)
		}
		runOff, runLen = phys, k
	}
	pos, end := lba, lba+n
	for _, e := range d.log.overlapping(lba, n) {
		lo2, hi2 := max(e.lba, pos), min(e.lba+e.n, end)
		if lo2 > pos {
			emit(base+pos, lo2-pos)
		}
		emit(e.phys+lo2-e.lba, hi2-lo2)
		d.st.CacheReadPieces++
		pos = hi2
	}
	if pos < end {
		emit(base+pos, end-pos)
	}
	if runLen > 0 {
		d.issue(o, sim.Read, runOff, runLen)
	}
}

// trimPiece drops the mappings of band b's [lo, lo+n); when the range
// reaches the band's write pointer the pointer falls back to its start.
func (d *Drive) trimPiece(b, lo, n int64) {
	if b < 0 {
		return
	}
	d.st.TrimmedCacheBytes += d.log.unmap(b*d.p.BandBytes+lo, n)
	if lo <= d.bands[b] && lo+n >= d.bands[b] {
		d.bands[b] = min(d.bands[b], lo)
	}
}

// issue sends one platter request for o.
func (d *Drive) issue(o *hostOp, op sim.Op, off, n int64) {
	q := d.getKid()
	q.Op, q.Offset, q.Length, q.Ctx = op, off, n, o
	if op == sim.Write {
		q.FUA = o.r.FUA
	}
	o.pending++
	if err := d.media.Submit(q); err != nil {
		panic(fmt.Sprintf("smr: %s: platter refused %v: %v", d.name, q, err)) // a bug: the layout is checked
	}
}

// childDone completes one platter request.
func (d *Drive) childDone(q *sim.Request) {
	err := q.Err
	ctx := q.Ctx
	d.putKid(q)
	switch c := ctx.(type) {
	case *hostOp:
		if err != nil && c.err == nil {
			c.err = err
		}
		c.pending--
		if c.pending == 0 {
			d.finishOp(c)
		}
	case *cleanJob:
		c.childDone(err)
	}
}

// finishOp completes a host request.
func (d *Drive) finishOp(o *hostOp) {
	r := o.r
	r.Err = o.err
	r.Completed = d.eng.Now()
	d.putOp(o)
	d.busy--
	r.Done(r)
	if d.busy == 0 && d.qHead < len(d.queue) && !d.clean.active {
		d.pump() // the head waits for space: clean now that the platter is ours
	} else if d.busy == 0 && d.qHead == len(d.queue) {
		d.armIdle()
	}
}

// armIdle starts the idle timer after which the drive cleans.
func (d *Drive) armIdle() {
	if d.busy > 0 || d.idleArmd || d.clean.active || len(d.log.live()) == 0 {
		return
	}
	d.idleArmd = true
	d.eng.After(d.p.CleanIdleDelay, &d.evIdle, d.idleGen)
}

// idleFired starts idle cleaning if nothing arrived since the timer
// was armed.
func (d *Drive) idleFired(gen uint64) {
	if gen != d.idleGen || d.busy > 0 || d.clean.active || d.qHead < len(d.queue) {
		return
	}
	d.idleArmd = false
	d.clean.start(true)
}

func (d *Drive) getOp(r *sim.Request) *hostOp {
	var o *hostOp
	if n := len(d.ops); n > 0 {
		o, d.ops = d.ops[n-1], d.ops[:n-1]
	} else {
		o = &hostOp{}
	}
	*o = hostOp{r: r}
	return o
}

func (d *Drive) putOp(o *hostOp) { o.r = nil; d.ops = append(d.ops, o) }

func (d *Drive) getKid() *sim.Request {
	if n := len(d.kids); n > 0 {
		q := d.kids[n-1]
		d.kids = d.kids[:n-1]
		return q
	}
	return &sim.Request{Done: d.hDone}
}

func (d *Drive) putKid(q *sim.Request) {
	*q = sim.Request{Done: d.hDone}
	d.kids = append(d.kids, q)
}

var _ drive.Device = (*Drive)(nil)

// FillBands marks every band as holding valid data from start to end,
// as on a drive written over once: a write is then direct only when it
// covers a whole band. A new drive (as built) has every band empty.
// Call it before submitting requests.
func (d *Drive) FillBands() {
	for b := range d.bands {
		d.bands[b] = d.p.bandLen(int64(b))
	}
}
