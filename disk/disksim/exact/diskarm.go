package exact

// Handing the arm from request to request (disk_check_hda and its
// helpers, the activation of reads and writes, and the stopping of
// read-ahead), as src/disksim_diskctlr.c does.

// getEffectiveHDA chooses the request to hold the arm
// (disk_get_effectivehda): the current one, else d if the queue's
// enablement allows it, else the queue's next.
func (s *Sim) getEffectiveHDA(d *diskreq) {
	dk := &s.d
	if dk.currentHDA != nil {
		if d != nil && d != dk.currentHDA {
			s.fail("a request other than the current one asks for the arm")
			return
		}
		dk.effectiveHDA = dk.currentHDA
		return
	}
	next := d
	if next != nil && next.ioreqs != nil {
		c := s.copyOf(next.ioreqs)
		c.dr = next
		if !s.enabled(c) {
			next = nil
		}
		s.release(c)
	}
	if next == nil {
		if r := dk.queue.showNext(); r != nil {
			next = r.dr
		}
	}
	if next == nil {
		return
	}
	if next.flags&hdaOwned != 0 {
		s.fail("request already holds the arm")
		return
	}
	if next.seg != nil && next.flags&segOwned == 0 && next.seg.recycleReq != next {
		s.attemptSegOwnership(next)
	}
	if next.seg == nil {
		s.selectSegment(next, false)
		if next.seg != nil {
			s.setSegment(next)
			s.attemptSegOwnership(next)
		} else {
			next.seg = s.recyclableSegment(next.ioreqs.flags&flagRead != 0)
			if next.seg != nil {
				next.seg.recycleReq = next
			}
		}
	}
	if next.seg != nil {
		for r := next.ioreqs; r != nil; r = r.next {
			if dk.queue.getSpecific(r, s.now) == nil {
				s.fail("request for the arm not found in the disk's queue")
				return
			}
		}
	}
	dk.currentHDA, dk.effectiveHDA = next, next
	next.flags |= hdaOwned
}

// checkHDAPending prepares the access of a request with host requests
// (disk_check_hda_pending) and reports whether it must seek, or can
// let go of the arm at once, and the least seek time for writes.
func (s *Sim) checkHDAPending(d *diskreq, seg *segment, checkBusOK bool) (seek, release bool, mintime float64) {
	dk := &s.d
	last := d.lastReq()
	seg.access.flags = last.flags
	if last.flags&flagRead != 0 {
		if seg.access.typ == evNone {
			seg.access.blkno = seg.endBlk
		}
		if seg.recycleReq == nil {
			seg.minRA = max(seg.minRA, min(last.blkno+last.bcount+s.p.MinReadAhead, s.lay.sectors))
			seg.maxRA = max(seg.maxRA, min(s.maxReadAhead(seg, last), s.lay.sectors))
		}
		dk.immed = s.p.ImmedRead
		seg.state = segReading
		switch {
		case seg.recycleReq != nil:
			seg.access.blkno = d.outBlk
			seek = true
		case seg.endBlk < last.blkno+last.bcount || seg.startBlk > d.outBlk:
			seek = true
		case seg.endBlk < max(seg.maxRA, s.maxReadAhead(seg, last)):
			seg.access.flags |= flagBackground
			if s.p.ReadAheadOnIdleHit {
				seek = true
			}
		default:
			release = true
		}
		if seg.access.typ != evNone {
			seek, release = false, false
		}
	} else {
		if seg.access.typ != evNone {
			s.fail("write segment with an access under way")
			return
		}
		a := seg.access
		if d.hitType != hitAppend || a.flags&flagRead != 0 || a.blkno != d.ioreqs.blkno || a.bcount != 1 || a.time != s.now {
			mintime = s.p.MinimumSeekDelay
		}
		a.blkno = d.inBlk
		if d.flags&completionRecvd != 0 {
			a.flags |= flagBackground
		}
		dk.immed = s.p.ImmedWrite
		if seg.state != segWriting && seg.state != segDirty {
			dk.numDirty++
		}
		seg.state = segWriting
		if d.inBlk < last.blkno+last.bcount {
			seek = true
		} else {
			release = true
		}
	}
	if checkBusOK && dk.extraDiscReq != d {
		s.checkBus(d)
	}
	return seek, release, mintime
}

// checkHDA starts the arm's next activity if it is free (disk_check_hda).
func (s *Sim) checkHDA(d *diskreq, checkBusOK bool) {
	dk := &s.d
	dk.fpcheck = fpLimit
	if dk.effectiveHDA != nil {
		return
	}
	s.getEffectiveHDA(d)
	if dk.effectiveHDA == nil || s.err != nil {
		return
	}
	next := dk.effectiveHDA
	seg := next.seg
	if seg == nil {
		s.fail("request holds the arm without a segment")
		return
	}
	var seek, release bool
	var mintime float64
	if next.ioreqs != nil {
		seek, release, mintime = s.checkHDAPending(next, seg, checkBusOK)
	} else {
		seg.state = segReading
		if seg.endBlk < seg.maxRA {
			if seg.access.typ == evNone {
				seg.access.blkno = seg.endBlk
			}
			seg.access.flags = flagRead | flagBackground
			dk.immed = s.p.ImmedRead
			if seg.access.typ == evNone {
				seek = true
			}
		} else {
			release = true
		}
	}
	if s.err != nil {
		return
	}
	switch {
	case seek:
		var delay float64
		if next.overheadDone > s.now {
			delay += next.overheadDone - s.now
		}
		if dk.seekStopTime > s.now {
			delay += dk.seekStopTime - s.now
		}
		if !s.initiateSeek(seg, seg.access, true, delay, mintime) {
			s.releaseHDA(next)
		}
	case release:
		s.releaseHDA(next)
	}
	if !release && seg.state == segReading && seg.access.flags&flagBackground != 0 {
		s.checkPrefetchSwap()
	}
}

// stopAccess ends a read-ahead early (disk_buffer_stop_access).
func (s *Sim) stopAccess() {
	dk := &s.d
	eh := dk.effectiveHDA
	if eh == nil || eh != dk.currentHDA {
		s.fail("stopping an access not on the arm")
		return
	}
	seg := eh.seg
	if seg.access.typ != evNone {
		if !s.q.remove(seg.access) {
			s.fail("read-ahead access not scheduled")
			return
		}
		seg.access.typ = evNone
	}
	if eh.flags&completionRecvd == 0 || s.p.Caching || seg.reqs.segNext != nil {
		seg.state = segClean
	} else {
		seg.state = segEmpty
	}
	if eh.flags&completionRecvd != 0 {
		s.removeFromSeg(eh)
		if seg.reqs != nil {
			s.findNewSegOwner(seg)
		}
	}
	dk.effectiveHDA, dk.currentHDA = nil, nil
}

// swapForwardOnly is the source's swap_forward_only, always set.
const swapForwardOnly = true

// attemptAccessSwap lets d take over the arm from a read-ahead into the
// same segment (disk_buffer_attempt_access_swap).
func (s *Sim) attemptAccessSwap(d *diskreq) bool {
	dk := &s.d
	eh := dk.effectiveHDA
	seg := eh.seg
	if eh != dk.currentHDA || seg.access.flags&flagBackground == 0 ||
		(swapForwardOnly && eh.ioreqs != nil && eh.ioreqs.blkno >= d.ioreqs.blkno) {
		return false
	}
	if eh.flags&completionRecvd != 0 {
		s.removeFromSeg(eh)
	} else {
		last := d.lastReq()
		seg.access.flags = last.flags
		seg.minRA = max(seg.minRA, min(last.blkno+last.bcount+s.p.MinReadAhead, s.lay.sectors))
		seg.maxRA = max(seg.maxRA, min(s.maxReadAhead(seg, last), s.lay.sectors))
		if seg.endBlk >= last.blkno+last.bcount && seg.endBlk < seg.maxRA {
			seg.access.flags |= flagBackground
		}
	}
	dk.effectiveHDA, dk.currentHDA = nil, nil
	return true
}

// activateRead tries to give the arm to read d (disk_activate_read);
// setseg says d's segment was chosen but not yet taken.
func (s *Sim) activateRead(d *diskreq, setseg, checkBusOK bool) {
	dk := &s.d
	if d.flags&hdaOwned == 0 && dk.effectiveHDA != nil && dk.effectiveHDA != d &&
		d.hitType != hitCollision &&
		(d.seg == nil || d.seg.recycleReq == d || d.seg.state != segDirty) &&
		s.stopableAccess(d) {
		if d.seg != dk.effectiveHDA.seg || d.hitType == hitNone {
			s.stopAccess()
		} else {
			s.attemptAccessSwap(d)
		}
	}
	s.activateTail(d, setseg, checkBusOK)
}

// activateWrite tries to give the arm to write d (disk_activate_write).
func (s *Sim) activateWrite(d *diskreq, setseg, checkBusOK bool) {
	dk := &s.d
	if d.flags&hdaOwned == 0 && dk.effectiveHDA != nil && dk.effectiveHDA != d && s.stopableAccess(d) {
		if d.seg != dk.effectiveHDA.seg || d.hitType != hitAppend {
			s.stopAccess()
		}
	}
	s.activateTail(d, setseg, checkBusOK)
}

// activateTail is what disk_activate_read and _write share after the
// preemption test.
func (s *Sim) activateTail(d *diskreq, setseg, checkBusOK bool) {
	dk := &s.d
	if s.err != nil {
		return
	}
	if d.seg != nil && setseg {
		if dk.effectiveHDA != nil {
			if d.seg.recycleReq == d {
				d.seg.recycleReq = nil
			}
			d.seg = nil
			d.hitType = hitNone
		} else {
			s.setSegment(d)
		}
	}
	if d.seg != nil && d.flags&segOwned == 0 {
		s.attemptSegOwnership(d)
	}
	if d.flags&hdaOwned == 0 && d.hitType != hitCollision {
		s.checkHDA(d, checkBusOK)
	}
	if d.flags&hdaOwned == 0 && dk.currentBus == d {
		for r := d.ioreqs; r != nil; r = r.next {
			dk.queue.setStartTime(r, s.now)
		}
	}
}

// stopableAccess reports whether the arm's current access can give way
// to d now, or be merged with it (disk_buffer_stopable_access). Like
// the source it may stop a seek in flight, cap a read-ahead, or mark
// the segment preempted.
func (s *Sim) stopableAccess(d *diskreq) bool {
	dk := &s.d
	eh := dk.effectiveHDA
	if eh == nil || eh.seg == nil {
		s.fail("stopping a non-existent access")
		return false
	}
	seg := eh.seg
	if seg.recycleReq != nil {
		return false
	}
	switch seg.state {
	case segReading:
		return s.stopableRead(d, eh, seg)
	case segWriting:
		r := d.ioreqs
		if d.hitType == hitAppend && d.seg == seg && seg.endBlk == r.blkno &&
			(s.p.FastWrite != fastWriteLimited || dk.queue.pending() == 1) {
			if b := dk.queue.showNext(); b == nil || b.dr == d {
				return true
			}
		}
		return false
	}
	s.fail("stopping an inactive access")
	return false
}

func (s *Sim) stopableRead(d, eh *diskreq, seg *segment) bool {
	dk := &s.d
	r := d.ioreqs
	if eh.ioreqs != nil && seg.endBlk < seg.minRA &&
		(r.flags&flagRead == 0 || d.seg != seg || r.blkno < seg.startBlk || r.blkno > seg.endBlk) {
		return false
	}
	if r.flags&flagRead == 0 && s.p.WriteHitStopsReadAhead {
		for t := r; t != nil; t = t.next {
			if overlap(seg, t) {
				seg.maxRA = seg.endBlk
				seg.minRA = seg.endBlk
				break
			}
		}
	}
	if r.flags&flagRead != 0 && s.p.Caching && d.seg == seg && r.blkno >= seg.startBlk &&
		(r.blkno < seg.endBlk || (s.p.AlmostReadHits && r.blkno == seg.endBlk)) {
		best := dk.queue.showNext()
		if best == nil || best.dr == d {
			return true
		}
		best = dk.queue.showNext()
		return best.dr == d
	}
	if (eh.flags&completionSent == 0 && s.p.Preseek != preseekBeforeCompletion) ||
		(eh.flags&completionRecvd == 0 && s.p.Preseek == preseekNone) {
		return false
	}
	if seg.endBlk < seg.minRA {
		seg.maxRA = seg.minRA
		return false
	}
	switch seg.access.typ {
	case evGotRemapped, evGotoRemapped:
		seg.outState = outPreempt
		return false
	case evNone:
		return true
	}
	if !s.p.DisconnectInSeek && (seg.access.typ == evSeekDone || !s.p.StopInSector) {
		if !s.q.remove(seg.access) {
			s.fail("read-ahead access not scheduled")
			return false
		}
		if seg.access.typ == evSeekDone {
			p, _ := s.lay.toPhys(seg.access.blkno)
			seg.access.cause = p.sector
			t := s.mech.seek(dk.mechState.cyl, dk.mechState.head, p.cyl, p.head, seg.access.flags&flagRead != 0)
			dk.mechState.cyl, dk.mechState.head = p.cyl, p.head
			seg.access.time = addPsX87(seg.time, t)
		}
		dk.seekStopTime = seg.access.time
		seg.access.typ = evNone
		return true
	}
	if seg.access.typ == evSeekDone || !s.p.StopInSector {
		seg.outState = outPreempt
		return false
	}
	return true
}
