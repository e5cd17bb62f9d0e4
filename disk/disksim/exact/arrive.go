package exact

// Requests arriving at the disk, and the queue's enablement function
// (disk_request_arrive, disk_read_arrive, disk_write_arrive and
// disk_enablement_function in src/disksim_diskctlr.c).

// requestArrive takes a new request into the disk (disk_request_arrive).
func (s *Sim) requestArrive(e *event) {
	dk := &s.d
	if e.blkno < 0 || e.bcount <= 0 || e.blkno+e.bcount > s.lay.sectors {
		s.fail("invalid blocks requested: %d+%d of %d", e.blkno, e.bcount, s.lay.sectors)
		return
	}
	dk.busOwned = s.diskBus.id
	intr := s.copyOf(e)
	intr.typ = evInterruptArrive
	dk.outState = diskWaitForCtlr
	d := &diskreq{ioreqs: e, outBlk: e.blkno, inBlk: e.blkno}
	dk.effectiveBus = d
	e.dr = d
	if !s.enqueue(dk.queue, e) {
		return
	}
	seg := s.selectSegment(d, true)
	if e.id >= 0 && e.id < len(s.res) {
		s.res[e.id].Hit = (e.flags&flagRead != 0 && d.hitType == hitWhole) ||
			(e.flags&flagRead == 0 && s.p.FastWrite != fastWriteNone)
	}
	if e.flags&flagRead != 0 {
		s.readArrive(e, d, seg, intr)
	} else {
		s.writeArrive(e, d, seg, intr)
	}
}

// readArrive is disk_read_arrive: a read that hits the buffer (enough
// of it, or wholly) and may have the bus gets the read-hit overhead and
// transfers at once; otherwise it disconnects after the read-miss
// overhead to wait for the media.
func (s *Sim) readArrive(e *event, d *diskreq, seg *segment, intr *event) {
	dk := &s.d
	p := &s.p
	afterRead := dk.lastFlags&flagRead != 0
	missOv := p.ReadMissAfterWrite
	if afterRead {
		missOv = p.ReadMissAfterRead
	}
	d.overheadDone = s.now + s.scaled(missOv)
	enough := true
	switch d.hitType {
	case hitPartial:
		if !p.ImmedTransferPartial {
			water := s.readWatermark(seg, e)
			if seg.endBlk <= e.blkno || seg.endBlk-e.blkno < min(water, e.bcount) {
				enough = false
			}
		}
	case hitCollision, hitNone:
		enough = false
	case hitWhole:
	default:
		s.fail("invalid read hit type %d", d.hitType)
		return
	}
	now := p.NeverDisconnect || (enough && dk.currentBus == nil &&
		((p.SneakyFullHits && d.hitType == hitWhole) || (p.SneakyPartialHits && d.hitType == hitPartial) ||
			(dk.pendXfer == nil && (dk.effectiveHDA == nil || s.stopableAccess(d)))))
	if now {
		intr.cause = causeReadyToTransfer
		dk.currentBus = d
		if seg != nil {
			s.setSegment(d)
			seg.outState = outContacting
		}
		var delay float64
		switch {
		case d.hitType == hitNone && afterRead:
			delay = p.ReadMissAfterRead
		case d.hitType == hitNone:
			delay = p.ReadMissAfterWrite
		case afterRead:
			delay = p.ReadHitAfterRead
		default:
			delay = p.ReadHitAfterWrite
		}
		delay += p.DataPreparation
		s.sendUp(intr, s.scaled(delay))
		s.activateRead(d, false, true)
		return
	}
	intr.cause = causeDisconnect
	delay := p.ReadMissAfterWrite + p.ReadDisconnectAfterWrite
	if afterRead {
		delay = p.ReadMissAfterRead + p.ReadDisconnectAfterRead
	}
	s.sendUp(intr, s.scaled(delay))
	s.activateRead(d, true, true)
}

// writeOverhead is the command overhead of a write: the hit overheads
// with fast writes, the miss ones without.
func (s *Sim) writeOverhead() float64 {
	p := &s.p
	afterRead := s.d.lastFlags&flagRead != 0
	switch {
	case p.FastWrite == fastWriteNone && afterRead:
		return p.WriteMissAfterRead
	case p.FastWrite == fastWriteNone:
		return p.WriteMissAfterWrite
	case afterRead:
		return p.WriteHitAfterRead
	}
	return p.WriteHitAfterWrite
}

// writeArrive is disk_write_arrive: a write with a segment and the bus
// free gets its command overhead and takes its data at once (or first
// disconnects, with extra write disconnects); otherwise it disconnects
// and waits.
func (s *Sim) writeArrive(e *event, d *diskreq, seg *segment, intr *event) {
	dk := &s.d
	p := &s.p
	ov := s.writeOverhead()
	d.overheadDone = s.now + s.scaled(ov)
	now := p.NeverDisconnect || (seg != nil && dk.currentBus == nil &&
		(p.WritePrebuffering || (dk.pendXfer == nil && (dk.effectiveHDA == nil || s.stopableAccess(d)))))
	if now {
		var delay float64
		if d.flags&extraWriteDisc != 0 {
			d.overheadDone = s.now + s.scaled(p.ExtraCommand+p.ExtraSeekDelta)
			dk.extraDiscReq = d
			intr.cause = causeDisconnect
			delay = p.ExtraCommand + p.ExtraDisconnect
			if seg != nil {
				seg.outState = outIdle
			}
		} else {
			intr.cause = causeReadyToTransfer
			delay = ov + p.DataPreparation
			if seg != nil {
				seg.outState = outContacting
			}
		}
		dk.currentBus = d
		if seg != nil {
			s.setSegment(d)
		}
		s.sendUp(intr, s.scaled(delay))
		s.activateWrite(d, false, true)
		return
	}
	d.flags &^= extraWriteDisc
	intr.cause = causeDisconnect
	if p.FastWrite == fastWriteNone {
		// The source sends nothing up here: without fast writes such a
		// write waits for a reconnection that its disconnect never
		// asked for.
		s.release(intr)
		return
	}
	s.sendUp(intr, s.scaled(ov+p.WriteDisconnect))
	s.activateWrite(d, true, true)
}

// enabled is the disk queue's enablement function
// (disk_enablement_function): whether request r may get the arm now.
// Like the source it may pick and drop a segment on the way.
func (s *Sim) enabled(r *event) bool {
	d := r.dr
	if r.flags&flagRead != 0 {
		if d.seg != nil {
			if (d.seg.state == segWriting || d.seg.state == segDirty) && !s.reusable(d.seg) {
				return false
			}
			return true
		}
		s.selectSegment(d, false)
		if d.seg != nil {
			bad := (d.seg.state == segWriting || d.seg.state == segDirty) && !s.reusable(d.seg)
			d.hitType = hitNone
			d.seg = nil
			return !bad
		}
		return d.hitType != hitCollision && s.recyclableSegment(true) != nil
	}
	if d.seg != nil {
		if d.flags&segOwned == 0 {
			owner := segOwner(d.seg, false)
			if owner == nil {
				owner = d.seg.reqs
				for owner.ioreqs.flags&flagRead != 0 {
					owner = owner.segNext
				}
			}
			if owner != d {
				last := d.lastReq()
				if last.blkno+last.bcount-owner.inBlk > d.seg.size && owner.inBlk != d.ioreqs.blkno {
					return false
				}
			}
		}
		return true
	}
	s.selectSegment(d, false)
	if d.seg != nil {
		ok := true
		if d.hitType == hitAppend {
			owner := segOwner(d.seg, false)
			last := d.lastReq()
			if last.blkno+last.bcount-owner.inBlk > d.seg.size && owner.inBlk != d.ioreqs.blkno {
				ok = false
			}
		}
		d.hitType = hitNone
		d.seg = nil
		return ok
	}
	return d.hitType != hitCollision && s.recyclableSegment(false) != nil
}
