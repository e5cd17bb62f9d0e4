package exact

// The media access, one sector at a time (disk_buffer_seekdone,
// disk_buffer_sector_done and disk_buffer_request_complete in
// src/disksim_diskctlr.c).

// seekDone is disk_buffer_seekdone: the head is on the track; the
// access waits for its first sector (the first of the track under the
// head for zero-latency accesses).
func (s *Sim) seekDone(e *event) {
	dk := &s.d
	d := dk.effectiveHDA
	seg := d.seg
	p, _ := s.lay.toPhys(e.blkno)
	dk.mechState.cyl, dk.mechState.head = p.cyl, p.head
	e.time = s.now
	if seg.outState == outPreempt {
		e.typ = evNone
		s.releaseHDA(d)
		return
	}
	immed := dk.immed
	first, last, _ := s.lay.trackBounds(p, true)
	dk.trackLow, dk.trackHigh = first, last
	e.bcount = last - first + 1
	last++
	if e.blkno < first || e.blkno > last {
		s.fail("mapping problem: block %d not within track [%d, %d]", e.blkno, first, last)
		return
	}
	if s.p.ReadAnyFree && e.flags&flagRead != 0 && e.blkno != first {
		e.blkno = first
		immed = true
	}
	seg.time = s.now
	resid := (msToPs(seg.time) - dk.currTimeI) % s.mech.period
	st := dk.mechState
	st.theta += s.mech.rotate(resid)
	lat, _ := s.mech.latency(st, e.cause, e.bcount, immed)
	start := s.mech.accessBlock(st, e.cause, e.bcount, immed)
	e.time = addX87(seg.time, psToMs(lat))
	dk.immedStart = last
	dk.immedEnd = last
	lbn, _ := s.lay.toLogical(pbn{cyl: dk.mechState.cyl, head: dk.mechState.head, sector: start})
	if lbn < 0 || lbn < dk.trackLow || lbn > dk.trackHigh {
		s.fail("first sector read holds no LBN of the track")
		return
	}
	e.blkno = lbn
	e.cause = start
	e.typ = evSectorDone
	e.bcount = 0
	s.schedule(e)
}

// sectorDone is disk_buffer_sector_done: a sector has passed under the
// head. e.bcount says what it was: 0 the first after positioning, 1 a
// sector of the access, 2 one to skip (slipped, remapped, or with no
// room in the buffer).
func (s *Sim) sectorDone(e *event) {
	dk := &s.d
	dk.fpcheck--
	if dk.fpcheck == 0 {
		s.fail("forward progress check: the controller is looping")
		return
	}
	d := dk.effectiveHDA
	seg := d.seg
	first, last := dk.trackLow, dk.trackHigh
	if e.blkno < first || e.blkno > last {
		s.fail("sector %d outside its track", e.blkno)
		return
	}
	next := last + 1
	cur := last
	if e.blkno > first {
		cur = e.blkno - 1
	}
	_, remap := s.lay.toPhys(cur)
	if remap || cur < 0 {
		cur = -1
		if e.bcount != 0 {
			e.bcount = 2
		}
	}
	if e.bcount == 0 {
		e.time = s.now
		diff := (msToPs(seg.time) - dk.currTimeI) % s.mech.period
		dk.mechState.theta += s.mech.rotate(diff)
	}
	dk.mechState.theta += s.mech.rotate(msToPs(s.now - seg.time))
	dk.currTime = s.now
	dk.currTimeI = msToPs(s.now)
	if !s.p.ReadDirect && e.flags&flagRead != 0 && e.bcount == 1 && !s.blockAvailable(seg, cur) {
		e.bcount = 2
	}
	var firstBlk, lastBlk int
	switch {
	case seg.recycleReq == d:
		e.bcount = 2
		firstBlk = d.inBlk
		l := d.lastReq()
		lastBlk = min(l.blkno+l.bcount, next)
	case seg.state == segReading:
		firstBlk = seg.endBlk
		if e.flags&flagBackground != 0 {
			lastBlk = min(seg.maxRA, next)
		} else {
			l := d.lastReq()
			lastBlk = min(l.blkno+l.bcount, next)
		}
	default:
		firstBlk = d.inBlk
		lastBlk = min(seg.endBlk, next)
	}
	if e.bcount == 1 {
		firstBlk = s.accountSector(d, seg, cur, firstBlk, lastBlk, next)
	}
	if s.err != nil {
		return
	}
	if d != seg.recycleReq && seg.outState == outTransfering {
		s.updateOutBuffer(seg)
	}
	if d != seg.recycleReq {
		if seg.state == segReading {
			seg.endBlk = firstBlk
		} else {
			d.inBlk = firstBlk
		}
		segmentWrap(seg, seg.endBlk)
		if s.bufferRequestComplete(d) {
			return
		}
	}
	if firstBlk >= next {
		e.blkno = next
		if !s.initiateSeek(seg, e, false, 0, 0) {
			s.releaseHDA(d)
		}
		return
	}
	s.nextSector(d, seg, e, cur, firstBlk, first, last, next, remap)
}

// accountSector updates the access for sector cur having passed
// under the head (the bcount 1 case of disk_buffer_sector_done) and
// returns the new first block still to access.
func (s *Sim) accountSector(d *diskreq, seg *segment, cur, firstBlk, lastBlk, next int) int {
	dk := &s.d
	switch {
	case cur == firstBlk:
		firstBlk++
		if firstBlk == dk.immedStart {
			firstBlk = dk.immedEnd
			dk.immedStart = next + 1
			dk.immedEnd = dk.immedStart
		}
	case cur < seg.startBlk:
		if seg.state != segReading || !s.p.ReadAnyFree {
			s.fail("sector read before the segment's data")
			return firstBlk
		}
		seg.startBlk = cur
		firstBlk = cur + 1
	case dk.immed && dk.immedStart >= next:
		if cur >= lastBlk {
			if seg.state == segReading && s.p.ContRead != contNone && cur < d.inBlk {
				dk.immedStart = cur
				dk.immedEnd = cur + 1
			}
		} else if cur > firstBlk {
			dk.immedStart = cur
			dk.immedEnd = cur + 1
		}
	case cur == dk.immedEnd && (cur < lastBlk || cur < d.inBlk):
		dk.immedEnd++
		segmentWrap(seg, dk.immedEnd)
	case cur > dk.immedEnd && cur < lastBlk:
		dk.immedStart = cur
		dk.immedEnd = cur + 1
	}
	return firstBlk
}

// nextSector schedules the next sector of the track (the end of
// disk_buffer_sector_done).
func (s *Sim) nextSector(d *diskreq, seg *segment, e *event, cur, firstBlk, first, last, next int, remap bool) {
	dk := &s.d
	if e.blkno < last {
		e.blkno++
	} else {
		e.blkno = first
	}
	p, r := s.lay.toPhys(e.blkno)
	remap = remap || r
	passed := e.cause
	e.cause = p.sector
	seg.time = s.now
	e.time = addPsX87(seg.time, s.mech.xferTime(pbn{cyl: dk.mechState.cyl, head: dk.mechState.head}, 1))
	held, r2 := s.lay.toLogical(pbn{cyl: dk.mechState.cyl, head: dk.mechState.head, sector: passed})
	if remap || r2 {
		held = slipped
	}
	if d != seg.recycleReq && held == remapped && seg.state == segReading && d.ioreqs != nil &&
		s.p.ReadAnyFree && cur >= 0 && cur == seg.endBlk-1 && seg.endBlk < d.ioreqs.blkno && e.cause > 0 {
		seg.startBlk = d.ioreqs.blkno
		seg.endBlk = seg.startBlk
		held = slipped
	}
	if held == remapped && cur >= 0 && cur == firstBlk-1 {
		e.blkno--
		if e.cause == 0 {
			e.blkno = next
		}
		s.getRemappedSector(e)
	} else {
		e.bcount = 1
		if ((s.p.ReadDirect || e.flags&flagRead == 0) && (d == seg.recycleReq || !s.blockAvailable(seg, held))) || held < 0 {
			e.bcount = 2
		}
	}
	s.schedule(e)
}

// bufferRequestComplete checks whether d's media access is done
// (disk_buffer_request_complete), reconnecting to the bus at the
// watermark and letting the arm go when it may. It reports whether
// the access stopped.
func (s *Sim) bufferRequestComplete(d *diskreq) bool {
	dk := &s.d
	seg := d.seg
	last := d.lastReq()
	background := seg.access.flags&flagBackground != 0
	reading := seg.state == segReading
	if w := dk.outWait; w != nil {
		w.time = s.now
		w.bcount = 0
		s.schedule(w)
		dk.outWait = nil
	}
	done, wm := false, false
	switch {
	case reading && background:
		done = seg.endBlk >= seg.maxRA
	case reading:
		wm = seg.endBlk-d.outBlk >= d.watermark
		done = seg.endBlk >= last.blkno+last.bcount
	case background:
		done = seg.endBlk == d.inBlk
	default:
		wm = seg.endBlk-d.inBlk <= d.watermark && seg.endBlk < last.blkno+last.bcount
		done = d.inBlk >= last.blkno+last.bcount
	}
	if (background && done && reading) || seg.outState == outPreempt {
		seg.access.typ = evNone
		s.releaseHDA(d)
		return true
	}
	if !background && seg.outState == outIdle && (done || wm) {
		s.checkBus(d)
	}
	preseekOK := s.p.Preseek == preseekBeforeCompletion || d.flags&completionRecvd != 0 ||
		(s.p.Preseek == preseekDuringCompletion && d.flags&completionSent != 0)
	swap := func() bool {
		hold := seg.access.typ
		seg.access.typ = evNone
		s.checkPrefetchSwap()
		if seg.outState == outPreempt || dk.effectiveHDA != d {
			return true
		}
		seg.access.typ = hold
		return false
	}
	if background && reading && seg.endBlk == seg.minRA && preseekOK {
		if swap() {
			return true
		}
	} else if (!background || !reading) && done {
		if !reading || s.p.ContRead == contNone || seg.endBlk >= seg.maxRA {
			seg.access.typ = evNone
		} else {
			seg.access.flags |= flagBackground
			done = false
		}
		if !done && preseekOK && swap() {
			return true
		}
	}
	if done {
		if !reading {
			for r := d.ioreqs; r != nil; r = r.next {
				if !dk.queue.done(r) {
					s.fail("written request for block %d not pending in the disk's queue (disk_buffer_request_complete)", r.blkno)
					return true
				}
			}
			if d.flags&completionSent == 0 && seg.outState == outIdle {
				s.checkBus(d)
			}
		}
		seg.access.typ = evNone
		s.releaseHDA(d)
	}
	return done
}
