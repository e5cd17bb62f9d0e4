package disk

import "github.com/raidsim/raidsim/sim"

// Buffer hits and read-ahead: serving reads from the buffer and from data
// still arriving, and reading ahead a track at a time.

// prefetch is the read-ahead in progress: one chunk (the rest of a track)
// at a time, each ending with an event.
type prefetch struct {
	seg    int  // segment being filled, -1 none
	active bool // a chunk is under way: the arm belongs to read-ahead
	front  int64
	limit  int64
	// The current chunk: sectors [cLBA, cLBA+cN) pass under the head from
	// cStart to cEnd.
	cLBA, cN     int64
	cZone        int
	cStart, cEnd sim.Time
	minEnd       int64 // read-ahead must reach this LBA before another command starts (Params.MinReadAheadBytes)
	keepFrom     int64 // with Params.ReadAheadKeepsRequest, the latest read's first LBA, which read-ahead must not push out
}

// bufferHit reports whether [lba, lba+n) is wholly in the buffer: in a
// read segment (including what read-ahead has read so far), in dirty
// data, or in the extent being destaged.
func (d *Drive) bufferHit(lba, n int64, now sim.Time) bool {
	return d.held(lba, n) || d.arriving(lba, n, now)
}

// held reports whether [lba, lba+n) is wholly in a read segment's
// recorded range or in one dirty extent.
func (d *Drive) held(lba, n int64) bool {
	return d.inSegment(lba, n) || (len(d.dirty.ext) > 0 && d.dirty.covers(lba, n))
}

// inSegment reports whether [lba, lba+n) is wholly in a segment's
// recorded range (never with Params.NoBufferCache).
func (d *Drive) inSegment(lba, n int64) bool {
	return !d.p.NoBufferCache && d.rc.filled && d.rc.holding(lba, n) >= 0
}

// arriving reports whether [lba, lba+n) is in the buffer by what
// changes without them: read-ahead's progress in the segment it fills,
// and the extent being destaged.
func (d *Drive) arriving(lba, n int64, now sim.Time) bool {
	if d.ra.seg >= 0 && !d.p.NoBufferCache && d.rc.filled && d.rc.frontHolds(d.ra.seg, lba, n, d.frontAt(now)) {
		return true
	}
	return d.destageActive && d.destaging.lba <= lba && lba+n <= d.destaging.lba+d.destaging.n
}

// queuedHit is bufferHit for a queued command, whose answers for the
// segments (inSegment) and for the dirty set (a binary search) are
// remembered while they do not change (rc.ver and dirty.ver; plus one,
// so that zero means not yet): the scheduler asks it of every queued
// read each time it picks while the arm is busy (and enqueue and start
// ask it instead of bufferHit, which it equals). Read-ahead and the
// destage are asked each time.
func (d *Drive) queuedHit(c *cmd, now sim.Time) bool {
	if v := d.rc.ver + 1; c.segVer != v {
		c.inSeg = d.segmentsHold(c)
		c.segVer, c.segGrew, c.segShrank = v, d.rc.grew, d.rc.shrank
	}
	if c.inSeg {
		return true
	}
	if v := d.dirty.ver + 1; c.dirtyVer != v {
		if c.dirtyVer == 0 {
			c.inDirty = len(d.dirty.ext) > 0 && d.dirty.covers(c.lba, c.n)
		} else {
			c.inDirty = d.dirty.stillCovers(c.lba, c.n, c.inDirty, c.dirtyGrew, c.dirtyShrank)
		}
		c.dirtyVer, c.dirtyGrew, c.dirtyShrank = v, d.dirty.grew, d.dirty.shrank
	}
	return c.inDirty || d.arriving(c.lba, c.n, now)
}

// segmentsHold is inSegment for c, asked again after the segments
// changed: a remembered yes holds while no segment shrank, a remembered
// no while none grew, or if every segment that grew is the one that
// grew last, while that one does not hold c.
func (d *Drive) segmentsHold(c *cmd) bool {
	rc := &d.rc
	switch {
	case c.segVer == 0 || d.p.NoBufferCache || !rc.filled:
	case c.inSeg:
		if c.segShrank == rc.shrank {
			return true
		}
	case c.segGrew == rc.grew:
		return false
	case c.segGrew >= rc.soleFrom:
		return rc.holds(rc.lastGrew, c.lba, c.n)
	}
	return d.inSegment(c.lba, c.n)
}

// frontAt returns the LBA up to which read-ahead has read at now.
func (d *Drive) frontAt(now sim.Time) int64 {
	if !d.ra.active {
		return d.ra.front
	}
	if now <= d.ra.cStart {
		return d.ra.cLBA
	}
	k := d.g.zones[d.ra.cZone].sectorsIn(int64(now - d.ra.cStart))
	return d.ra.cLBA + min(k, d.ra.cN)
}

// streamHit serves c from the read-ahead under way if c starts in the
// segment being filled and read-ahead will reach its end: the command
// completes when its last sector arrives (and the bus has carried it).
func (d *Drive) streamHit(c *cmd, now sim.Time, bus int64) bool {
	if !d.canStream(c, now) {
		return false
	}
	c.kind = kReadStream
	c.tBus0 = c.tOver + sim.Time(d.ov.DataPreparation)
	d.ra.keepFrom = c.lba
	d.ra.limit = max(d.ra.limit, d.raLimit(c.lba+c.n), min(c.lba+c.n, d.capSectors))
	d.resolveStream(c, now, bus)
	return true
}

// canStream reports whether c starts in the segment being filled by
// read-ahead, which will reach its end (with Params.NoAlmostHits, whether
// its first sector has been read already). A read longer than a segment
// streams too: the segment passes data on to the host as it arrives, the
// bus being faster than the media, so it never has to hold the whole
// read.
func (d *Drive) canStream(c *cmd, now sim.Time) bool {
	if !d.ra.active || d.ra.seg < 0 {
		return false
	}
	s := &d.rc.segs[d.ra.seg]
	if d.p.NoAlmostHits && c.lba >= d.frontAt(now) {
		return false
	}
	return c.lba >= s.start && c.lba <= d.ra.cLBA+d.ra.cN
}

// raLimit returns the LBA read-ahead stops at after a read ending at end.
func (d *Drive) raLimit(end int64) int64 {
	lim := end + d.raSectors
	switch d.p.ReadAhead {
	case ReadAheadTrack, ReadAheadCylinder, ReadAheadNextTrack:
		if end <= 0 || end > d.capSectors {
			break
		}
		last := end - 1
		p := d.g.locate(last)
		t := last + d.g.trackLBAs(last, p)
		switch d.p.ReadAhead {
		case ReadAheadNextTrack:
			if t < d.g.sectors {
				t += d.g.trackLBAs(t, d.g.locate(t))
			}
		case ReadAheadCylinder:
			for t < d.g.sectors {
				q := d.g.locate(t)
				if q.cyl != p.cyl {
					break
				}
				t += d.g.trackLBAs(t, q)
			}
		}
		lim = min(t, lim)
	}
	if d.p.ReadAheadKeepsRequest {
		lim = min(lim, d.ra.keepFrom+d.rc.size)
	}
	return min(lim, d.capSectors)
}

// minReadAheadWait reports whether read-ahead must go on before another
// command starts (Params.MinReadAheadBytes); if so it arranges to kick
// the drive when the minimum is reached.
func (d *Drive) minReadAheadWait(now sim.Time) bool {
	if d.minRA == 0 || !d.ra.active || d.frontAt(now) >= d.ra.minEnd {
		return false
	}
	if d.ra.minEnd <= d.ra.cLBA+d.ra.cN {
		at := d.ra.cStart + sim.Time(d.g.zones[d.ra.cZone].xferNs(d.ra.minEnd-d.ra.cLBA))
		d.eng.Schedule(max(at, now), &d.hMinRA, nil)
	} // else the chunk's end event kicks the drive
	return true
}

// resolveStream schedules a streaming read's completion once the chunk
// holding its last sector is planned.
func (d *Drive) resolveStream(c *cmd, now sim.Time, bus int64) {
	end := c.lba + c.n
	if end > d.ra.cLBA+d.ra.cN {
		return
	}
	arr := d.ra.cStart + sim.Time(d.g.zones[d.ra.cZone].xferNs(end-d.ra.cLBA))
	if end <= d.ra.cLBA {
		arr = now
	}
	c.tDone = max(arr, c.tBus0+sim.Time(bus), now)
	d.scheduleDone(c)
}

// startPrefetch begins read-ahead into segment seg from its end, the head
// having finished the read at from (<= now).
func (d *Drive) startPrefetch(seg int, from, now sim.Time) {
	d.ra.seg = seg
	d.ra.active = false
	s := &d.rc.segs[seg]
	d.ra.front = s.end
	d.ra.limit = d.raLimit(s.end)
	d.ra.minEnd = min(s.end+d.minRA, d.ra.limit)
	if d.ra.front >= d.ra.limit {
		return
	}
	d.ra.active = true
	d.planChunk(from, now)
}

// planChunk plans the next read-ahead chunk from the arm's position at
// time t, catching up with now if t is in the past, and schedules its end.
func (d *Drive) planChunk(t, now sim.Time) {
	for {
		f := d.ra.front
		p := d.g.locate(f)
		var sw int64
		if p.cyl != d.armCyl {
			dist := p.cyl - d.armCyl
			if dist < 0 {
				dist = -dist
			}
			if dist == 1 {
				sw = d.cylSwitch
			} else {
				sw = d.sk.ns(dist, false)
			}
		} else if p.head != d.armHead {
			sw = d.headSwitch
		}
		k := min(d.ra.limit-f, d.g.trackLBAs(f, p))
		first, last := d.transfer(t+sim.Time(sw), f, p, k, false)
		d.ra.cLBA, d.ra.cN, d.ra.cZone = f, k, p.zone
		d.ra.cStart, d.ra.cEnd = first, last
		if last >= now {
			d.eng.Schedule(last, &d.hRA, nil)
			if d.cur >= 0 {
				if c := &d.slots[d.cur]; c.kind == kReadStream && !c.doneKnown {
					d.resolveStream(c, now, d.busNs(c.n))
				}
			}
			return
		}
		// Chunk already over: account it and plan the next.
		if !d.finishChunk() {
			return
		}
		t = last
	}
}

// finishChunk records the current chunk as read; it reports whether
// read-ahead goes on.
func (d *Drive) finishChunk() bool {
	d.ra.front = d.ra.cLBA + d.ra.cN
	d.armFree = d.ra.cEnd
	d.rc.extend(d.ra.seg, d.ra.front)
	d.st.ReadAheadBytes += d.ra.cN * d.ss
	d.ra.cN = 0
	if d.ra.front >= d.ra.limit {
		d.ra.active = false
		return false
	}
	return true
}

// onChunk handles the end of a read-ahead chunk. Stale events (from a
// read-ahead stopped since) are recognised by their time.
func (d *Drive) onChunk(now sim.Time) {
	if !d.ra.active || now != d.ra.cEnd || d.ra.cN == 0 {
		return
	}
	d.accrue(now)
	if d.finishChunk() {
		d.planChunk(now, now)
	}
	d.kick(now)
}

// stopPrefetch ends read-ahead at now, keeping what it has read.
func (d *Drive) stopPrefetch(now sim.Time) {
	if !d.ra.active {
		return
	}
	f := d.frontAt(now)
	d.st.ReadAheadBytes += (f - d.ra.cLBA) * d.ss
	d.armFree = now
	d.ra.front = f
	d.rc.extend(d.ra.seg, f)
	d.ra.active = false
	d.ra.cN = 0
}
