package exact

// The disk's buffer segments, as src/disksim_diskcache.c manages them.

// segmentWrap drops the oldest blocks of seg beyond its size
// (disk_buffer_segment_wrap).
func segmentWrap(seg *segment, endBlk int) {
	seg.startBlk = max(seg.startBlk, endBlk-seg.size)
}

// overlap reports whether request r overlaps seg's blocks
// (disk_buffer_overlap).
func overlap(seg *segment, r *event) bool {
	if r.blkno >= seg.startBlk && r.blkno < seg.endBlk {
		return true
	}
	end := r.blkno + r.bcount
	if end > seg.startBlk && end <= seg.endBlk {
		return true
	}
	return r.blkno <= seg.startBlk && end >= seg.endBlk
}

// removeFromSeg takes d off its segment's list
// (disk_buffer_remove_from_seg).
func (s *Sim) removeFromSeg(d *diskreq) {
	seg := d.seg
	if seg == nil {
		s.fail("request without a segment")
		return
	}
	found := false
	for p := &seg.reqs; *p != nil; p = &(*p).segNext {
		if *p == d {
			*p = d.segNext
			found = true
			break
		}
	}
	if !found {
		s.fail("request not on its segment")
		return
	}
	d.seg = nil
}

// segOwner returns seg's owner, or with effective the read that is
// furthest behind on a read segment (disk_buffer_seg_owner).
func segOwner(seg *segment, effective bool) *diskreq {
	var owner *diskreq
	for d := seg.reqs; d != nil; d = d.segNext {
		if d.flags&segOwned != 0 {
			owner = d
			break
		}
	}
	if effective && seg.access != nil && seg.access.flags&flagRead != 0 {
		for d := seg.reqs; d != nil; d = d.segNext {
			if seg.recycleReq != d && (d.ioreqs == nil || d.ioreqs.flags&flagRead != 0) {
				if owner == nil || d.outBlk < owner.outBlk {
					owner = d
				}
			}
		}
	}
	return owner
}

// reusable is disk_buffer_reusable_segment_check, and recyclableSegment
// disk_buffer_recyclable_segment: both require a negative constant
// access time, which DiskSim's disk never sets (its field stays 0), so
// no segment is ever reusable or recyclable.
func (s *Sim) reusable(*segment) bool { return false }

func (s *Sim) recyclableSegment(bool) *segment { return nil }

// blockAvailable reports whether the buffer can take (reading) or has
// ready for the media (writing) block blkno (disk_buffer_block_available).
func (s *Sim) blockAvailable(seg *segment, blkno int) bool {
	dk := &s.d
	if blkno < 0 {
		return false
	}
	switch seg.state {
	case segReading:
		if blkno < seg.endBlk && blkno >= seg.startBlk {
			return false
		}
		if blkno < seg.startBlk && (!s.p.ReadAnyFree || seg.endBlk != seg.startBlk) {
			return false
		}
		owner := segOwner(seg, true)
		if owner != nil && owner.flags&completionSent == 0 && blkno-owner.outBlk >= seg.size {
			return false
		}
	case segWriting:
		eh := dk.effectiveHDA
		if blkno < eh.inBlk || blkno >= seg.endBlk {
			return false
		}
		if eh.ioreqs != nil && s.p.ExtraWriteDisconnect {
			if eh.ioreqs.bcount < 45 {
				if seg.endBlk-seg.startBlk < min(eh.ioreqs.bcount, 10) {
					return false
				}
			} else if seg.endBlk-seg.startBlk < 15 {
				return false
			}
		}
	default:
		s.fail("buffer not in use")
		return false
	}
	return true
}

// selectSegment sets d.seg and d.hitType to the segment best suited
// to d, or nil (disk_buffer_select_segment); with setExtraDisc it may
// mark a write for an extra disconnect.
func (s *Sim) selectSegment(d *diskreq, setExtraDisc bool) *segment {
	var seg *segment
	if d.ioreqs.flags&flagRead != 0 {
		seg = s.selectReadSegment(d)
		if s.d.writeSeg != nil && seg == s.d.writeSeg {
			s.fail("read request about to use the write segment")
			return nil
		}
	} else {
		seg = s.selectWriteSegment(d)
	}
	if setExtraDisc && s.p.ExtraWriteDisconnect && !s.p.NeverDisconnect && s.d.extraDiscReq == nil &&
		d.ioreqs.flags&flagRead == 0 && seg != nil && seg.next == nil && seg.access != nil &&
		seg.access.flags&flagRead == 0 && d.ioreqs.blkno != seg.endBlk {
		d.flags |= extraWriteDisc
	}
	return seg
}

// collide marks d as colliding with seg's data unless seg is reusable.
func (s *Sim) collide(d *diskreq, seg *segment) {
	for r := d.ioreqs; r != nil; r = r.next {
		if overlap(seg, r) {
			if !s.reusable(seg) {
				d.hitType = hitCollision
				d.seg = nil
			}
			return
		}
	}
}

// selectReadSegment rates every segment for read d
// (disk_buffer_select_read_segment): whole hits on write data first,
// then hits on read-ahead and clean data, partial hits, then empty and
// clean segments to reuse, last a read-ahead to preempt.
func (s *Sim) selectReadSegment(d *diskreq) *segment {
	r := d.ioreqs
	d.seg = nil
	d.hitType = hitNone
	best := 0
	for seg := s.d.segs; seg != nil; seg = seg.next {
		val, hit := -1, hitNone
		switch {
		case d.hitType == hitCollision:
		case seg.recycleReq != nil:
		case s.d.writeSeg != nil && seg == s.d.writeSeg:
			if seg.state == segDirty || seg.state == segWriting {
				s.collide(d, seg)
			}
		case seg.state == segEmpty:
			val = 3
		case r.blkno < seg.startBlk || r.blkno >= seg.endBlk:
			switch {
			case seg.state == segClean && seg.reqs == nil:
				val = 2
			case seg.state == segReading:
				if seg.endBlk == r.blkno && s.p.AlmostReadHits {
					hit, val = hitPartial, 5
				} else if seg.reqs.ioreqs == nil {
					val = 1
				}
			case r.blkno < seg.startBlk && (seg.state == segDirty || seg.state == segWriting):
				s.collide(d, seg)
			}
		default:
			val = s.readHitValue(d, seg, best)
			if seg.endBlk >= r.blkno+r.bcount {
				hit = hitWhole
			} else {
				hit = hitPartial
				val -= 4
			}
		}
		if val > best {
			d.seg = seg
			d.hitType = hit
			best = val
		}
	}
	if best == 1 && !s.stopableAccess(d) {
		d.seg = nil
	}
	return d.seg
}

// readHitValue rates a segment holding the read's first block.
func (s *Sim) readHitValue(d *diskreq, seg *segment, best int) int {
	switch seg.state {
	case segDirty, segWriting:
		if !s.p.Caching {
			return -1
		}
		if s.p.ReadHitsOnWrites && best < 10 {
			if seg.state == segDirty {
				return 11
			}
			return 10
		}
		if !s.reusable(seg) {
			d.hitType = hitCollision
			d.seg = nil
		}
	case segReading:
		if s.p.Caching {
			return 9
		}
	case segClean:
		if s.p.ReadHitsOnWrites || (seg.access != nil && seg.access.flags&flagRead != 0) {
			return 8
		}
	}
	return -1
}

// selectWriteSegment rates every segment for write d
// (disk_buffer_select_write_segment): appending to a write stream
// first, then prepending, then clean overlapping, empty and clean
// segments, last a read-ahead to preempt.
func (s *Sim) selectWriteSegment(d *diskreq) *segment {
	dk := &s.d
	d.seg = nil
	d.hitType = hitNone
	best := 0
	writable := dk.numDirty < s.p.WriteSegments
	for seg := dk.segs; seg != nil; seg = seg.next {
		val, hit := -1, hitNone
		switch {
		case d.hitType == hitCollision:
		case seg.recycleReq != nil:
		case dk.writeSeg != nil && seg != dk.writeSeg:
			if (seg.state == segClean && seg.reqs != nil) ||
				(seg.state == segReading && (seg.reqs.ioreqs != nil || seg.reqs.segNext != nil || !s.stopableAccess(d))) {
				s.collide(d, seg)
			}
		case seg.state == segEmpty:
			if writable {
				val = 3
			}
		case seg.state == segReading:
			if seg.reqs.ioreqs == nil && seg.reqs.segNext == nil {
				if writable {
					val = 1
				}
			} else {
				s.collide(d, seg)
			}
		case seg.state == segClean:
			if seg.reqs == nil {
				if writable {
					val = 2
					for r := d.ioreqs; r != nil; r = r.next {
						if overlap(seg, r) {
							val = 4
							break
						}
					}
				}
			} else {
				s.collide(d, seg)
			}
		case !s.p.CombineWrites || seg.outState == outTransfering:
			s.collide(d, seg)
		default:
			val, hit = s.writeCombineValue(d, seg)
			if hit == hitNone {
				s.collide(d, seg)
			}
		}
		if val > best {
			d.seg = seg
			d.hitType = hit
			best = val
		}
	}
	if best == 1 && !s.stopableAccess(d) {
		// The source tests the collision against the loop's segment
		// pointer, which is nil by then: DiskSim crashes.
		for r := d.ioreqs; r != nil; r = r.next {
			if overlap(d.seg, r) {
				s.fail("write overlapping a segment being read ahead that cannot be stopped: DiskSim dereferences a null segment (disk_buffer_select_write_segment)")
				break
			}
		}
		d.seg = nil
	}
	return d.seg
}

// appendsAt reports whether a write starting at blkno continues the
// last write of the dirty or writing segment seg within its size (the
// APPEND test of disk_buffer_check_write_segments and
// disk_buffer_get_segment's write combining).
func appendsAt(seg *segment, blkno int) bool {
	hold := seg.reqs
	for d := seg.reqs; d.segNext != nil; {
		d = d.segNext
		if d.ioreqs.flags&flagRead == 0 {
			hold = d
		}
	}
	last := hold.lastReq()
	owner := segOwner(seg, false)
	return blkno == last.blkno+last.bcount && blkno == seg.endBlk && seg.size > blkno-owner.inBlk
}

// writeCombineValue rates a dirty or writing segment for appending or
// prepending write d.
func (s *Sim) writeCombineValue(d *diskreq, seg *segment) (int, int) {
	if appendsAt(seg, d.ioreqs.blkno) {
		if seg.state == segWriting {
			return 7, hitAppend
		}
		return 6, hitAppend
	}
	if seg.state != segDirty {
		return -1, hitNone
	}
	total := 0
	last := d.ioreqs
	for r := d.ioreqs; r != nil; r = r.next {
		total += r.bcount
		last = r
	}
	h := seg.reqs
	for h.ioreqs.flags&flagRead != 0 {
		h = h.segNext
	}
	f := h.ioreqs
	if f.blkno == last.blkno+last.bcount && f.blkno == seg.startBlk &&
		(seg.startBlk == seg.endBlk || seg.holdCount == 0) &&
		seg.size >= seg.endBlk-seg.startBlk+total &&
		(s.d.extraDiscReq == nil || s.d.extraDiscReq.seg != seg) {
		return 5, hitPrepend
	}
	return -1, hitNone
}

// setSegment attaches d to its chosen segment (disk_buffer_set_segment):
// the segment becomes the most recently used, clean segments a write
// overlaps are emptied, and d's watermark is set.
func (s *Sim) setSegment(d *diskreq) {
	dk := &s.d
	seg := d.seg
	if seg == nil {
		s.fail("request has no segment to set")
		return
	}
	isRead := d.ioreqs.flags&flagRead != 0
	if !s.segmentUsable(d, seg, isRead) {
		return
	}
	// Move seg to the end of the list (LRU at the tail).
	if seg.next != nil {
		if seg.prev != nil {
			seg.prev.next = seg.next
		} else {
			dk.segs = seg.next
		}
		seg.next.prev = seg.prev
		t := dk.segs
		for t.next != nil {
			t = t.next
		}
		t.next = seg
		seg.prev = t
		seg.next = nil
	}
	if !isRead {
		for t := dk.segs; t != nil; t = t.next {
			if t == seg {
				continue
			}
			for r := d.ioreqs; r != nil; r = r.next {
				if t.state != segEmpty && overlap(t, r) && t.state == segClean && t.reqs == nil {
					t.state = segEmpty
				}
			}
		}
	}
	if seg.reqs == nil {
		if seg.access == nil {
			a := s.copyOf(d.ioreqs)
			a.typ = evNone
			a.next = nil
			seg.access = a
		}
		seg.reqs = d
		d.segNext = nil
	} else {
		var prev *diskreq
		t := seg.reqs
		for ; t != nil; t = t.segNext {
			if t.ioreqs != nil && d.ioreqs.blkno < t.ioreqs.blkno {
				d.segNext = t
				if seg.reqs == t {
					seg.reqs = d
				} else {
					prev.segNext = d
				}
				break
			}
			prev = t
		}
		if t == nil {
			prev.segNext = d
			d.segNext = nil
		}
	}
	if isRead {
		d.watermark = s.readWatermark(seg, d.ioreqs)
	} else {
		d.watermark = s.writeWatermark(seg, d.ioreqs)
	}
}

// segmentUsable applies disk_buffer_set_segment's checks, failing where
// DiskSim exits.
func (s *Sim) segmentUsable(d *diskreq, seg *segment, isRead bool) bool {
	if isRead && s.d.writeSeg != nil && seg == s.d.writeSeg {
		s.fail("read request about to use the write segment")
		return false
	}
	if seg.recycleReq != nil && d != seg.recycleReq {
		s.fail("recycled segment taken by another request")
		return false
	}
	switch seg.state {
	case segClean:
		if isRead && d.hitType != hitNone && !s.p.ReadHitsOnWrites && seg.access != nil && seg.access.flags&flagRead == 0 {
			s.fail("read hit on write data not allowed")
			return false
		}
	case segDirty:
		if d.hitType == hitNone {
			s.fail("attempt to overwrite dirty data")
			return false
		}
		if isRead && !s.p.ReadHitsOnWrites {
			s.fail("read hit on write data not allowed")
			return false
		}
	case segReading:
		if d != seg.recycleReq && (!isRead || d.hitType == hitNone) && !s.stopableAccess(d) {
			s.fail("attempt to re-target an active read segment")
			return false
		}
	case segWriting:
		if d != seg.recycleReq && (d.hitType == hitNone || d.hitType == hitPrepend) {
			s.fail("attempt to re-target an active write segment")
			return false
		}
	}
	return true
}

// attemptSegOwnership makes d its segment's owner if no other request
// owns it (disk_buffer_attempt_seg_ownership), setting the segment up
// for d's access.
func (s *Sim) attemptSegOwnership(d *diskreq) bool {
	dk := &s.d
	seg := d.seg
	if seg == nil || d.flags&segOwned != 0 {
		s.fail("segment ownership attempted twice")
		return false
	}
	var t *diskreq
	for t = seg.reqs; t != nil; t = t.segNext {
		if t.flags&segOwned != 0 {
			if d.hitType != hitPrepend {
				break
			}
			if seg.state != segDirty {
				s.fail("prepend of an active request")
				return false
			}
			t.flags &^= segOwned
			t.hitType = hitAppend
			if seg.endBlk != seg.startBlk {
				if seg.holdCount != 0 {
					s.fail("prepend of a segment already holding data")
					return false
				}
				seg.holdBlk = seg.startBlk
				seg.holdCount = seg.endBlk - seg.startBlk
			}
		}
	}
	if t != nil {
		return false
	}
	d.flags |= segOwned
	r := d.ioreqs
	mine := dk.effectiveHDA == nil || dk.effectiveHDA == d || dk.effectiveHDA.seg != seg
	if r != nil && mine {
		seg.access.flags = r.flags
	}
	if r == nil || r.flags&flagRead != 0 {
		if d.hitType == hitNone {
			if d != seg.recycleReq {
				seg.state = segClean
				seg.access.blkno = d.outBlk
			}
			seg.startBlk, seg.endBlk = d.outBlk, d.outBlk
			seg.minRA, seg.maxRA = -1, -1
			seg.holdCount = 0
		}
		if r != nil {
			last := d.lastReq()
			seg.minRA = max(seg.minRA, min(last.blkno+last.bcount+s.p.MinReadAhead, s.lay.sectors))
			seg.maxRA = max(seg.maxRA, min(s.maxReadAhead(seg, last), s.lay.sectors))
			if seg.endBlk >= last.blkno+last.bcount && dk.effectiveHDA == d {
				seg.access.flags |= flagBackground
			}
		}
		return true
	}
	if mine {
		if d != seg.recycleReq && seg.access.typ == evNone {
			seg.access.blkno = d.inBlk
		}
		if d.flags&completionRecvd != 0 {
			seg.access.flags |= flagBackground
		}
	}
	switch d.hitType {
	case hitNone:
		seg.minRA, seg.maxRA = -1, -1
		seg.holdCount = 0
		seg.startBlk, seg.endBlk = d.inBlk, d.inBlk
		if d != seg.recycleReq {
			seg.state = segDirty
			dk.numDirty++
		}
	case hitPrepend:
		seg.startBlk, seg.endBlk = d.inBlk, d.inBlk
	}
	return true
}

// maxReadAhead returns the end (LBN + 1) to which read r may read ahead
// in seg (disk_buffer_get_max_readahead).
func (s *Sim) maxReadAhead(seg *segment, r *event) int {
	end := r.blkno + r.bcount
	switch s.p.ContRead {
	case contNone:
		return end
	case contDecPrefetch:
		p, _ := s.lay.toPhys(end)
		first, last, _ := s.lay.trackBounds(p, true)
		last++
		if seg.startBlk < first {
			return last + s.lay.bptOfLBN(r.blkno)
		}
		return last
	}
	if s.p.MaxReadAhead != 0 {
		return end + s.p.MaxReadAhead
	}
	if s.p.KeepRequestData > 0 {
		if r.bcount >= seg.size || seg.size-r.bcount < s.p.MinReadAhead {
			return end + s.p.MinReadAhead
		}
		return r.blkno + seg.size
	}
	return end + seg.size
}
