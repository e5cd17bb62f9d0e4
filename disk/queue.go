package disk

import "github.com/raidsim/raidsim/sim"

// cmd is one command in the tagged queue. Its physical target is cached
// at enqueue so the schedulers' inner loops do no address arithmetic.
type cmd struct {
	r                *sim.Request
	lba, n           int64
	cyl, head, angle int64
	write, fua       bool
	flush            bool
	hit              bool   // a buffer hit when enqueued (a hint for ranking)
	inSeg            bool   // Drive.inSegment of the command, remembered (queuedHit)
	segVer           uint64 // readCache.ver+1 when inSeg was found; 0: not yet
	segGrew          uint64 // readCache.grew when inSeg was found
	segShrank        uint64 // readCache.shrank when inSeg was found
	inDirty          bool   // one dirty extent holds the command, remembered (queuedHit)
	dirtyVer         uint64 // dirtySet.ver+1 when inDirty was found; 0: not yet
	dirtyGrew        uint64 // dirtySet.grew when inDirty was found
	dirtyShrank      uint64 // dirtySet.shrank when inDirty was found
	kind             cmdKind
	doneKnown        bool
	seekDist         int64
	free             int64 // sectors before lba read during the rotational wait (ReadAnyFree)
	skip             int64 // a partial hit's sectors at the front, in the buffer already (Params.PartialHits)

	// Timeline, filled as service proceeds.
	tQueue, tStart, tOver, tSeek, tRot, tMedia0, tMedia1, tBus0, tDone sim.Time
}

// cmdKind is how a dispatched command is being served.
type cmdKind uint8

const (
	kNone        cmdKind = iota
	kReadMedia           // read from the platters
	kReadHit             // read wholly in the buffer
	kReadStream          // read whose tail is still arriving from read-ahead
	kWriteCached         // write absorbed by the write cache
	kWriteMedia          // write straight to the platters (cache off, FUA, too large)
	kFlush               // flush cache
)

// enqueue places r in a free tag slot.
func (d *Drive) enqueue(r *sim.Request, now sim.Time) {
	d.nfree--
	slot := d.free[d.nfree]
	c := &d.slots[slot]
	*c = cmd{r: r, tQueue: r.Issued}
	if r.Op == sim.Flush {
		c.flush = true
		d.nFlushQ++
	} else {
		c.lba = r.Offset >> d.ssShift
		c.n = r.Length >> d.ssShift
		c.write = r.Op == sim.Write
		c.fua = r.FUA
		p := d.g.locate(c.lba)
		c.cyl, c.head = p.cyl, p.head
		c.angle = d.g.zones[p.zone].angle(p.cyl, p.head, p.sector, d.g.heads)
		if !c.write {
			c.hit = d.queuedHit(c, now) // bufferHit, remembering its parts
		}
	}
	d.order[d.qlen] = slot
	d.qlen++
}

// removeAt takes the i-th queued command (in arrival order) off the queue.
func (d *Drive) removeAt(i int) uint8 {
	slot := d.order[i]
	copy(d.order[i:d.qlen], d.order[i+1:d.qlen])
	d.qlen--
	if d.slots[slot].flush {
		d.nFlushQ--
	}
	return slot
}

// noArm reports whether c can be served without the arm right now (a
// buffer hit or a write the cache can take). Reads are judged by their
// enqueue-time hint and the segment being filled; exact is set when the
// arm is busy and the answer must be exact.
func (d *Drive) noArm(c *cmd, now sim.Time, exact bool) bool {
	if d.p.FlushBeforeOther && d.waitsFlush(c) {
		return false
	}
	if c.write {
		return d.cacheable(c) && d.fits(c.n)
	}
	if exact {
		return d.queuedHit(c, now)
	}
	if c.hit {
		return true
	}
	if d.ra.seg >= 0 {
		s := &d.rc.segs[d.ra.seg]
		return s.start <= c.lba && c.lba+c.n <= d.frontAt(now)
	}
	return false
}

// pick returns the queue index of the command to serve next, or -1 when
// none can start now (the arm is destaging and every command needs it, or
// a write waits for cache space under FCFS).
func (d *Drive) pick(now sim.Time) int {
	n := d.qlen
	if d.nFlushQ > 0 {
		// A flush is a barrier: commands behind it wait for it.
		if n = d.firstFlush(); n == 0 {
			return 0
		}
	}
	armFree := !d.destageActive
	if d.p.Scheduler == FCFS {
		c := &d.slots[d.order[0]]
		if d.noArm(c, now, !armFree) || (armFree && !d.blockedWrite(c)) {
			return 0
		}
		return -1
	}
	// Commands that need no arm go first, in arrival order.
	for j := 0; j < n; j++ {
		if d.noArm(&d.slots[d.order[j]], now, !armFree) {
			return j
		}
	}
	if !armFree {
		return -1
	}
	if c := &d.slots[d.order[0]]; now-c.tQueue >= d.maxAge && !d.blockedWrite(c) {
		return 0 // starvation guard: the oldest has waited too long
	}
	if d.p.Scheduler != CLOOK {
		// A command that starts where the arm's last transfer ended is
		// the next piece of a sequential stream: serve it next even if
		// its start has just passed under the head, as firmware keeps a
		// stream together (DiskSim's "sequential stream scheme").
		// Otherwise SATF would serve the pieces after it in this
		// revolution and leave it behind the head, where each new piece
		// of the stream beats it until MaxQueueAge.
		for j := 0; j < n; j++ {
			if c := &d.slots[d.order[j]]; c.lba == d.lastLBA && !d.blockedWrite(c) {
				return j
			}
		}
	}
	switch d.p.Scheduler {
	case SSTF:
		return d.pickSSTF(n)
	case CLOOK:
		return d.pickCLOOK(n)
	}
	return d.pickSATF(now, n)
}

// firstFlush returns the queue index of the oldest queued flush, or the
// queue length when there is none.
func (d *Drive) firstFlush() int {
	for j := 0; j < d.qlen; j++ {
		if d.slots[d.order[j]].flush {
			return j
		}
	}
	return d.qlen
}

// pickSSTF returns the index, among the first n queued commands, of the
// one nearest the arm in cylinders (the oldest of equals), or -1.
func (d *Drive) pickSSTF(n int) int {
	best := -1
	var bd int64 = 1 << 62
	for j := 0; j < n; j++ {
		c := &d.slots[d.order[j]]
		if d.blockedWrite(c) {
			continue
		}
		dist := c.cyl - d.armCyl
		if dist < 0 {
			dist = -dist
		}
		if dist < bd {
			bd, best = dist, j
		}
	}
	return best
}

// pickCLOOK returns the index, among the first n queued commands, of the
// lowest LBA at or after the arm's last transfer, else the lowest LBA
// (the sweep wraps), or -1.
func (d *Drive) pickCLOOK(n int) int {
	var ahead, wrap int64 = 1 << 62, 1 << 62
	ba, bw := -1, -1
	for j := 0; j < n; j++ {
		c := &d.slots[d.order[j]]
		if d.blockedWrite(c) {
			continue
		}
		if c.lba >= d.lastLBA {
			if c.lba < ahead {
				ahead, ba = c.lba, j
			}
		} else if c.lba < wrap {
			wrap, bw = c.lba, j
		}
	}
	if ba >= 0 {
		return ba
	}
	return bw
}

// pickSATF returns the index, among the first n queued commands, of the
// one with the shortest estimated positioning time from now, or -1.
func (d *Drive) pickSATF(now sim.Time, n int) int {
	// Queued commands were decoded on arrival (see start), so
	// positioning can begin now.
	a0 := d.angle(now)
	best := -1
	var bc int64 = 1 << 62
	for j := 0; j < n; j++ {
		c := &d.slots[d.order[j]]
		if d.blockedWrite(c) {
			continue
		}
		if e := d.estimate(c.cyl, c.head, c.angle, c.write, a0); e < bc {
			bc, best = e, j
		}
	}
	return best
}

// estimate returns the positioning time in ns (seek or head switch, then
// rotational wait) to reach angle on (cyl, head) from the arm's position,
// starting when the platter is at angle a0.
func (d *Drive) estimate(cyl, head, angle int64, write bool, a0 int64) int64 {
	dist := cyl - d.armCyl
	if dist < 0 {
		dist = -dist
	}
	var s int64
	if dist != 0 {
		s = d.sk.ns(dist, write)
	} else if head != d.armHead {
		s = d.headSwitch
	}
	a := (a0 + s*d.rpm) % unitsPerRev
	w := angle - a
	if w < 0 {
		w += unitsPerRev
	}
	if w > d.lateUnits {
		return s // just reached: the data is passing under the head now
	}
	return s + w/d.rpm
}
