package exact

// The disk's bus side: reconnections, data transfers, disconnections
// and completions (src/disksim_diskctlr.c).

// requestComplete sends the completion of d up the path
// (disk_request_complete).
func (s *Sim) requestComplete(d *diskreq, e *event) {
	dk := &s.d
	first := d.ioreqs
	if e.blkno != first.blkno {
		s.release(e)
		e = s.copyOf(first)
	}
	dk.lastFlags = e.flags
	d.flags |= completionSent
	if first.flags&flagRead != 0 {
		for r := first; r != nil; r = r.next {
			if d.flags&hdaOwned == 0 && dk.queue.getSpecific(r, s.now) == nil {
				s.fail("completing read not found in the disk's queue")
				return
			}
			if !dk.queue.done(r) {
				s.fail("completing read not pending in the disk's queue")
				return
			}
		}
		if s.p.KeepRequestData == -1 && d.seg.reqs.segNext == nil {
			d.seg.startBlk = d.outBlk
		}
		if d == dk.effectiveHDA || d == dk.currentHDA {
			if d.seg.access.typ == evNone {
				s.releaseHDA(d)
			} else if s.p.Preseek != preseekNone {
				s.checkPrefetchSwap()
			}
		}
	} else if d == dk.effectiveHDA || d == dk.currentHDA {
		if d.seg.access.typ == evNone {
			s.releaseHDA(d)
		}
	}
	e.time = s.now
	e.typ = evInterruptArrive
	e.cause = causeCompletion
	delay := s.p.WriteCompletion
	if e.flags&flagRead != 0 {
		delay = s.p.ReadCompletion
	}
	s.sendUp(e, s.scaled(delay))
	dk.outState = diskWaitForCtlr
}

// findReq returns the request of d starting at blkno.
func findReq(d *diskreq, blkno int) *event {
	for r := d.ioreqs; r != nil; r = r.next {
		if r.blkno == blkno {
			return r
		}
	}
	return nil
}

// reconnectOrTransferDone is disk_reconnection_or_transfer_complete:
// the disk has the bus again, or a bus transfer ended; it starts the
// next transfer, disconnects, or completes.
func (s *Sim) reconnectOrTransferDone(e *event) {
	dk := &s.d
	d := dk.effectiveBus
	if d == nil {
		d = dk.currentBus
		dk.effectiveBus = d
	}
	if d == nil {
		s.fail("reconnection with no request on the bus")
		return
	}
	r := findReq(d, e.blkno)
	if r == nil {
		s.fail("reconnection for a request not on the bus")
		return
	}
	if dk.outState != diskWaitForCtlr && dk.outState != diskTransfering {
		s.fail("disk not waiting to transfer (state %d)", dk.outState)
		return
	}
	dk.effectiveBus = d
	dk.outState = diskTransfering
	e.typ = evDataTransferComplete
	e = s.transferSize(d, e)
	switch {
	case e.bcount == -2:
		if dk.outWait != nil {
			s.fail("a second bus wait")
			return
		}
		dk.outWait = e
	case e.bcount == -1:
		e.typ = evInterruptArrive
		e.cause = causeDisconnect
		var delay float64
		switch {
		case r.flags&flagRead != 0 && dk.lastFlags&flagRead != 0:
			delay = s.p.ReadDisconnectAfterRead
		case r.flags&flagRead != 0:
			delay = s.p.ReadDisconnectAfterWrite
		case d.flags&extraWriteDisc != 0:
			delay = s.p.ExtraDisconnect2
		default:
			delay = s.p.WriteDisconnect
		}
		s.sendUp(e, s.scaled(delay))
		dk.outState = diskWaitForCtlr
	case e.bcount == 0:
		s.requestComplete(d, e)
	default:
		dk.startTrans = s.now
		dk.blksDone = 0
		s.sendUp(e, 0)
	}
}

// findNewSegOwner gives an unowned segment to the first read holding
// the arm that is not the effective one, else to the first appending
// write, else to the effective request if it uses seg
// (disk_find_new_seg_owner).
func (s *Sim) findNewSegOwner(seg *segment) {
	dk := &s.d
	var best *diskreq
	for d := seg.reqs; d != nil; d = d.segNext {
		if d.flags&segOwned != 0 {
			return
		}
		if best == nil && d != dk.effectiveHDA && d.flags&hdaOwned != 0 && d.ioreqs != nil && d.ioreqs.flags&flagRead != 0 {
			best = d
		}
	}
	if best == nil {
		for d := seg.reqs; d != nil; d = d.segNext {
			if d.hitType == hitAppend {
				best = d
				break
			}
		}
	}
	switch {
	case best != nil:
		s.attemptSegOwnership(best)
	case dk.effectiveHDA != nil && dk.effectiveHDA.seg == seg:
		s.attemptSegOwnership(dk.effectiveHDA)
	}
}

// releaseHDA lets the arm go to the next request if d's work allows it
// (disk_release_hda): a pure read-ahead ends; a read lets go as the
// preseeking level allows; a write that the host has acknowledged (or
// that the preseeking level allows) lets go, leaving its segment dirty
// if another write in it still has data for the media.
func (s *Sim) releaseHDA(d *diskreq) {
	dk := &s.d
	seg := d.seg
	var next *diskreq
	release, free := false, false
	preseekOK := s.p.Preseek == preseekBeforeCompletion ||
		(s.p.Preseek == preseekDuringCompletion && d.flags&completionSent != 0)
	switch {
	case d.ioreqs == nil:
		release, free = true, true
		if s.p.Caching || seg.reqs.segNext != nil {
			seg.state = segClean
		} else {
			seg.state = segEmpty
		}
	case d.ioreqs.flags&flagRead != 0:
		if preseekOK {
			release = true
			// The source assigns a logical OR of nonzero values here,
			// which is 1: BUFFER_EMPTY.
			seg.state = segEmpty
		}
	case d.flags&completionRecvd != 0 || preseekOK:
		release = true
		free = d.flags&completionRecvd != 0
		next = s.writeSegState(d, seg)
	}
	if free {
		s.removeFromSeg(d)
		if seg.recycleReq != nil {
			next = seg.recycleReq
			s.setSegment(seg.recycleReq)
			s.attemptSegOwnership(seg.recycleReq)
			seg.recycleReq = nil
		} else if seg.reqs != nil {
			s.findNewSegOwner(seg)
		}
	}
	if release {
		if dk.currentHDA == dk.effectiveHDA {
			dk.currentHDA = nil
		}
		dk.effectiveHDA = nil
		if seg.access.typ != evNone {
			s.fail("segment access still scheduled when the arm is released")
			return
		}
		s.checkHDA(next, true)
	}
}

// writeSegState sets the state of a write's segment as its write-back
// ends (the write branch of disk_release_hda) and returns the appending
// write to serve next under fast write level 1, if any.
func (s *Sim) writeSegState(d *diskreq, seg *segment) *diskreq {
	dk := &s.d
	var next *diskreq
	for t := seg.reqs; t != nil; t = t.segNext {
		if t == d {
			continue
		}
		r := t.ioreqs
		if r.flags&flagRead != 0 {
			continue
		}
		last := t.lastReq()
		if t.inBlk < last.blkno+last.bcount {
			seg.state = segDirty
			if t.hitType == hitAppend && s.p.FastWrite == fastWriteLimited {
				dl := d.lastReq()
				if t.ioreqs.blkno == dl.blkno+dl.bcount {
					next = t
				}
			}
			return next
		}
	}
	switch {
	case seg.reqs.segNext != nil:
		seg.state = segClean
	case s.p.Caching && s.p.ReadHitsOnWrites:
		seg.state = segClean
	default:
		seg.state = segEmpty
	}
	dk.numDirty--
	return next
}

// needsBus returns the bus request d needs now, with its transfer size
// in bcount, or nil (disk_request_needs_bus).
func (s *Sim) needsBus(d *diskreq, checkWM bool) *event {
	dk := &s.d
	if dk.outState != diskIdle && dk.outWait == nil {
		return nil
	}
	if d.flags&finalWriteReconn1 != 0 && d.flags&finalWriteReconn2 == 0 {
		return nil
	}
	seg := d.seg
	r := d.ioreqs
	if seg == nil || d == seg.recycleReq || r == nil || d.flags&completionSent != 0 {
		return nil
	}
	for r != nil && r.next != nil {
		if d.outBlk < r.blkno+r.bcount {
			break
		}
		r = r.next
	}
	end := r.blkno + r.bcount
	if d.ioreqs.flags&flagRead != 0 {
		if seg.endBlk > d.outBlk && seg.startBlk <= d.outBlk &&
			(!checkWM || seg.endBlk >= end || seg.endBlk-d.outBlk >= d.watermark) {
			b := s.busRequest(r)
			b.bcount = min(seg.endBlk, end) - d.outBlk
			return b
		}
		return nil
	}
	owner := segOwner(seg, false)
	if owner == nil {
		owner = d
	}
	fresh := d.outBlk == d.ioreqs.blkno && d.hitType != hitAppend
	if d.inBlk >= end || fresh ||
		(seg.endBlk == d.outBlk && seg.endBlk < end && seg.endBlk-owner.inBlk < seg.size &&
			(!checkWM || seg.endBlk-d.inBlk <= d.watermark)) {
		b := s.busRequest(r)
		if fresh {
			b.bcount = min(r.bcount, seg.size)
		} else {
			b.bcount = min(end-d.outBlk, seg.size-seg.endBlk+owner.inBlk)
		}
		return b
	}
	return nil
}

// busRequest returns the event for a bus request about r: the waiting
// transfer if there is one, else a new reconnection.
func (s *Sim) busRequest(r *event) *event {
	dk := &s.d
	if dk.outWait != nil {
		b := dk.outWait
		dk.outWait = nil
		b.time = s.now
		return b
	}
	b := s.copyOf(r)
	b.time = s.now
	b.typ = evInterruptArrive
	b.cause = causeReconnect
	return b
}

// selectBusRequest picks the waiting request to use the bus next
// (disk_select_bus_request): a request holding the arm first, then
// (by the options) appending fast writes, sneaky read hits and write
// prebuffering.
func (s *Sim) selectBusRequest() (*diskreq, *event) {
	dk := &s.d
	var best *diskreq
	var bestReq *event
	bestVal := -99
	bestSet := false
	for d := dk.pendXfer; d != nil; d = d.busNext {
		val := -100
		set := false
		var cur *event
		switch {
		case d.seg != nil && d.seg.recycleReq == d:
		case d.flags&hdaOwned != 0:
			if cur = s.needsBus(d, true); cur != nil {
				switch d {
				case dk.effectiveHDA:
					val = 9
				case dk.currentHDA:
					val = 8
				default:
					val = 10
				}
			}
		case bestVal <= 7 && s.p.FastWrite == fastWriteLimited && d.hitType == hitAppend:
			if cur = s.needsBus(d, true); cur != nil {
				val = 7
			}
		case bestVal <= 6 && s.p.SneakyIntermediateHits && d.ioreqs.flags&flagRead != 0:
			cur, val, set = s.sneakyRead(d, bestVal)
		case bestVal <= 2 && s.p.WritePrebuffering && d.ioreqs.flags&flagRead == 0:
			cur, val, set = s.prebufferWrite(d, bestVal)
		}
		if val >= bestVal {
			if bestReq != nil {
				s.release(bestReq)
				if bestSet {
					best.seg = nil
					best.hitType = hitNone
				}
			}
			bestVal, bestSet, best, bestReq = val, set, d, cur
		} else if set {
			d.seg = nil
			d.hitType = hitNone
		}
	}
	if bestSet {
		s.setSegment(best)
	}
	return best, bestReq
}

// sneakyRead rates a queued read for an intermediate bus transfer.
func (s *Sim) sneakyRead(d *diskreq, bestVal int) (cur *event, val int, set bool) {
	val = -100
	if d.seg != nil {
		if cur = s.needsBus(d, true); cur != nil {
			last := d.lastReq()
			val = 5
			if d.seg.endBlk >= last.blkno+last.bcount {
				val = 6
			}
		} else if d.outBlk == d.ioreqs.blkno {
			if c := s.needsBus(d, false); c != nil {
				s.release(c)
			} else {
				s.removeFromSeg(d)
			}
		}
	}
	if d.seg == nil && bestVal <= 4 {
		s.selectSegment(d, false)
		if d.seg != nil {
			if d.hitType == hitNone {
				d.seg = nil
			} else {
				d.watermark = s.readWatermark(d.seg, d.ioreqs)
				cur = s.needsBus(d, true)
				if cur == nil {
					d.seg = nil
					d.hitType = hitNone
				} else {
					val = 3
					if d.hitType == hitWhole {
						val = 4
					}
					set = true
				}
			}
		}
	}
	return cur, val, set
}

// prebufferWrite rates a queued write for prebuffering its data.
func (s *Sim) prebufferWrite(d *diskreq, bestVal int) (cur *event, val int, set bool) {
	dk := &s.d
	val = -100
	if d.seg != nil {
		if cur = s.needsBus(d, true); cur != nil {
			switch {
			case dk.effectiveHDA != nil && dk.effectiveHDA.seg == d.seg:
				val = 2
			case dk.currentHDA != nil && dk.currentHDA.seg == d.seg:
				val = 1
			default:
				val = 0
			}
		}
		return cur, val, false
	}
	if bestVal <= -1 {
		s.selectSegment(d, false)
		if d.seg != nil {
			d.watermark = s.writeWatermark(d.seg, d.ioreqs)
			if cur = s.needsBus(d, true); cur != nil {
				return cur, -1, true
			}
			d.seg = nil
			d.hitType = hitNone
		}
	}
	return nil, val, false
}

// readWatermark returns a read's watermark in blocks.
func (s *Sim) readWatermark(seg *segment, r *event) int {
	if s.p.WaterByRequest {
		return max(1, int(float64(min(seg.size, r.bcount))*s.p.HighWater))
	}
	return int(float64(seg.size)*s.p.HighWater + 0.9999999999)
}

// writeWatermark returns a write's watermark in blocks.
func (s *Sim) writeWatermark(seg *segment, r *event) int {
	if s.p.WaterByRequest {
		return max(1, int(float64(min(seg.size, r.bcount))*s.p.LowWater))
	}
	return int(float64(seg.size)*s.p.LowWater + 0.9999999999)
}

// checkBus starts bus activity if it can (disk_check_bus): for d if it
// is (or may be) the request on the bus, else for the best waiting one.
func (s *Sim) checkBus(d *diskreq) {
	dk := &s.d
	if dk.busWait != nil {
		return
	}
	next := d
	var b *event
	if d != nil {
		if dk.effectiveBus != nil {
			if dk.effectiveBus != d {
				next = nil
			}
		} else if dk.currentBus != nil && dk.currentBus != d {
			next = nil
		}
		if next != nil {
			if b = s.needsBus(next, true); b == nil {
				next = nil
			}
		}
	} else {
		switch {
		case dk.effectiveBus != nil:
			if b = s.needsBus(dk.effectiveBus, true); b != nil {
				next = dk.effectiveBus
			}
		case dk.currentBus != nil:
			if b = s.needsBus(dk.currentBus, true); b != nil {
				next = dk.currentBus
			}
		default:
			next, b = s.selectBusRequest()
		}
	}
	if next == nil {
		return
	}
	if next != dk.currentBus && next != dk.effectiveBus {
		if !removeBusNext(&dk.pendXfer, next) {
			s.fail("next bus request not in the bus queue")
			return
		}
	}
	dk.currentBus, dk.effectiveBus = next, next
	if b.cause != causeReconnect {
		s.fail("unexpected bus request cause %d", b.cause)
		return
	}
	if next.ioreqs.flags&flagRead != 0 {
		s.activateRead(next, false, false)
	} else {
		s.activateWrite(next, false, false)
	}
	var delay float64
	switch {
	case dk.extraDiscReq == next:
		dk.extraDiscReq = nil
		delay = s.p.FirstReselect
	case next.flags&extraWriteDisc != 0:
		delay = s.p.OtherReselect
	default:
		delay = s.p.FirstReselect
	}
	if b.bcount > 0 {
		delay += s.p.DataPreparation
	}
	next.seg.outState = outContacting
	dk.outState = diskWaitForCtlr
	s.sendUp(b, s.scaled(delay))
}

// removeBusNext takes d out of the bus queue at *head.
func removeBusNext(head **diskreq, d *diskreq) bool {
	for p := head; *p != nil; p = &(*p).busNext {
		if *p == d {
			*p = d.busNext
			d.busNext = nil
			return true
		}
	}
	return false
}

// updateOutBuffer accounts for the blocks a bus transfer under way has
// moved so far (disk_buffer_update_outbuffer): the controller cannot
// tell, so they are counted by elapsed time.
func (s *Sim) updateOutBuffer(seg *segment) {
	dk := &s.d
	d := dk.effectiveBus
	if d == nil {
		return
	}
	owner := segOwner(seg, false)
	if owner == nil {
		owner = d
	}
	var r *event
	for r = d.ioreqs; r != nil; r = r.next {
		if d.outBlk >= r.blkno && d.outBlk < r.blkno+r.bcount {
			break
		}
	}
	if r == nil {
		s.fail("cannot find the request on the bus")
		return
	}
	if dk.outWait != nil {
		return
	}
	blks := -1
	if s.smart != nil {
		blks = s.smartMoved()
	} else if s.ctlrTransferring() {
		s.undefined("the disk asks the 53C700 how much of its transfer it has moved, which DiskSim reads from memory the controller never set (controller_get_data_transfered)")
		return
	}
	if blks == -1 {
		blks = seg.outCount
		if t := s.diskBlkTime(r); t != 0 {
			blks = int((s.now - dk.startTrans) / t)
		}
	}
	if s.smart != nil {
		// C's int arithmetic: the integer indefinite the controller
		// makes of a NaN wraps
		blks = int(int32(blks) - int32(dk.blksDone))
	} else {
		blks -= dk.blksDone
	}
	blks = min(seg.outCount, blks)
	dk.blksDone += blks
	d.outBlk += blks
	seg.outCount -= blks
	if d.outBlk > seg.endBlk {
		seg.endBlk = d.outBlk
	}
	segmentWrap(seg, seg.endBlk)
	if seg.state == segWriting && (owner.inBlk < seg.startBlk || owner.inBlk > seg.endBlk) {
		s.fail("write's media position outside its segment")
	}
}

// transferSize sets e.bcount to the next bus transfer of d
// (disk_buffer_transfer_size): -2 to wait holding the bus, -1 to
// disconnect, 0 when done, or the blocks to move.
func (s *Sim) transferSize(d *diskreq, e *event) *event {
	seg := d.seg
	if seg == nil {
		if !s.p.NeverDisconnect {
			s.fail("no segment for a bus transfer")
			return e
		}
		e.bcount = -2
		return e
	}
	r := findReq(d, e.blkno)
	if r == nil {
		s.fail("request not on the bus in transfer size")
		return e
	}
	if r.flags&flagRead != 0 {
		return s.readTransferSize(d, e, r)
	}
	return s.writeTransferSize(d, e, r)
}

func (s *Sim) readTransferSize(d *diskreq, e, r *event) *event {
	seg := d.seg
	if seg.outState == outTransfering {
		d.outBlk += seg.outCount
	}
	if d.outBlk >= r.blkno+r.bcount {
		r = r.next
		if r == nil {
			seg.outState = outIdle
			e.bcount = 0
			return e
		}
		if d.outBlk >= r.blkno+r.bcount {
			s.fail("read request skipped")
			return e
		}
		s.release(e)
		e = s.copyOf(r)
	}
	switch {
	case seg.endBlk > d.outBlk:
		seg.outState = outTransfering
		seg.outCount = min(seg.endBlk, r.blkno+r.bcount) - d.outBlk
		e.bcount = seg.outCount
	case s.p.HoldBusRead || s.p.NeverDisconnect:
		seg.outState = outTransfering
		seg.outCount = 0
		e.bcount = -2
	default:
		seg.outState = outIdle
		e.bcount = -1
	}
	return e
}

func (s *Sim) writeTransferSize(d *diskreq, e, r *event) *event {
	seg := d.seg
	if d.outBlk == r.blkno+r.bcount && d.inBlk >= d.outBlk {
		if r.next != nil {
			s.fail("write request skipped (A)")
			return e
		}
		seg.outState = outIdle
		e.bcount = 0
		return e
	}
	owner := segOwner(seg, false)
	if owner == nil {
		owner = d
	}
	if seg.outState == outTransfering {
		d.outBlk += seg.outCount
		if r.blkno < seg.startBlk {
			seg.startBlk = r.blkno
		}
		if d.outBlk > seg.endBlk {
			seg.endBlk = d.outBlk
		}
		if seg.holdCount != 0 && seg.endBlk == seg.holdBlk {
			if r.next != nil || d.outBlk != r.blkno+r.bcount {
				s.fail("error with hold fields (disk_buffer_transfer_size)")
				return e
			}
			seg.endBlk += seg.holdCount
			seg.holdCount = 0
		}
		segmentWrap(seg, seg.endBlk)
		if owner.inBlk < seg.startBlk || owner.inBlk > seg.endBlk {
			s.fail("write's media position %d outside its segment [%d, %d] (disk_buffer_transfer_size)", owner.inBlk, seg.startBlk, seg.endBlk)
			return e
		}
		if d.outBlk >= r.blkno+r.bcount {
			r = r.next
			if r == nil {
				seg.outState = outIdle
				if s.p.FastWrite == fastWriteNone {
					e.bcount = -1
				} else {
					e.bcount = 0
				}
				return e
			}
			s.release(e)
			e = s.copyOf(r)
		}
		if d.outBlk-owner.inBlk > seg.size {
			s.fail("buffer needs to wrap around")
			return e
		}
	}
	seg.outState = outTransfering
	seg.outCount = min(seg.size-(d.outBlk-owner.inBlk), r.blkno+r.bcount-d.outBlk)
	e.bcount = seg.outCount
	if (d.flags&segOwned == 0 && seg.endBlk < d.outBlk) || seg.outCount <= 0 {
		if s.p.HoldBusWrite || s.p.NeverDisconnect {
			seg.outState = outTransfering
			seg.outCount = 0
			e.bcount = -2
		} else {
			seg.outState = outIdle
			e.bcount = -1
		}
	}
	return e
}

// disconnect is disk_disconnect: the host acknowledged a disconnection;
// the disk lets go of the bus and the request waits to use it again.
func (s *Sim) disconnect(e *event) {
	dk := &s.d
	d := dk.effectiveBus
	if d == nil || findReq(d, e.blkno) == nil {
		s.fail("disconnect for a request not on the bus")
		return
	}
	r := findReq(d, e.blkno)
	s.release(e)
	dk.effectiveBus = nil
	if dk.busOwned != -1 {
		s.ownershipRelease(s.diskBus)
		dk.busOwned = -1
		if dk.busWait != nil {
			dk.outState = diskWaitForCtlr
		} else {
			dk.outState = diskIdle
		}
	}
	if d == dk.currentBus {
		if d.flags&extraWriteDisc != 0 && dk.extraDiscReq == d {
			c := s.copyOf(r)
			c.dr = d
			c.typ = evPrepareTransfer
			c.time = s.now + s.p.ExtraInterDisconnect
			s.schedule(c)
			return
		}
		dk.currentBus = nil
	}
	d.busNext = dk.pendXfer
	dk.pendXfer = d
	s.checkBus(nil)
}

// completion is disk_completion: the host acknowledged the completion;
// the disk lets go of the bus and of the request.
func (s *Sim) completion(e *event) {
	dk := &s.d
	d := dk.effectiveBus
	if d == nil || d.flags&completionSent == 0 {
		s.fail("completion for a request not completing")
		return
	}
	seg := d.seg
	r := findReq(d, e.blkno)
	if r == nil {
		s.fail("completion for an unknown request")
		return
	}
	last := d.lastReq()
	d.flags |= completionRecvd
	s.release(e)
	dk.effectiveBus = nil
	if d == dk.currentBus {
		dk.currentBus = nil
	}
	if dk.busOwned != -1 {
		s.ownershipRelease(s.diskBus)
		dk.busOwned = -1
		dk.outState = diskIdle
	}
	if d.ioreqs.flags&flagRead != 0 {
		d.ioreqs = nil
		if d == dk.effectiveHDA || d == dk.currentHDA {
			if seg.access.typ == evNone {
				s.releaseHDA(d)
			} else {
				s.checkPrefetchSwap()
			}
		} else if s.dropFromSeg(d, seg) && !s.p.Caching {
			seg.state = segEmpty
		}
	} else if d.inBlk >= last.blkno+last.bcount {
		if d == dk.effectiveHDA || d == dk.currentHDA {
			s.releaseHDA(d)
		} else {
			d.ioreqs = nil
			s.dropFromSeg(d, seg)
		}
	} else if d.flags&segOwned != 0 {
		seg.access.flags |= flagBackground
	}
	s.checkHDA(nil, true)
	s.checkBus(nil)
}

// dropFromSeg frees d from seg and hands seg on (the shared tail of
// disk_completion's branches); it reports whether seg was left with
// no request at all.
func (s *Sim) dropFromSeg(d *diskreq, seg *segment) bool {
	s.removeFromSeg(d)
	switch {
	case seg.recycleReq != nil:
		r := seg.recycleReq
		s.setSegment(r)
		s.attemptSegOwnership(r)
		seg.recycleReq = nil
	case seg.reqs != nil:
		s.findNewSegOwner(seg)
	default:
		return true
	}
	return false
}
