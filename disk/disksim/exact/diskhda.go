package exact

// The disk's mechanical side: which request holds the arm ("hda"), and
// the seek, sector-by-sector media access and read-ahead
// (src/disksim_diskctlr.c).

// fpLimit is the source's forward-progress check: this many sectors
// passing the head without a new positioning is taken for a loop.
const fpLimit = 6000

// checkPrefetchSwap lets the next queued request take the arm from a
// read-ahead if it can (disk_check_prefetch_swap).
func (s *Sim) checkPrefetchSwap() {
	dk := &s.d
	eh := dk.effectiveHDA
	if eh == nil || eh.seg == nil {
		s.fail("prefetch swap with no active read-ahead")
		return
	}
	if a := eh.seg.access; a.flags&flagBackground == 0 || a.flags&flagRead == 0 {
		s.fail("prefetch swap while not prefetching")
		return
	}
	r := dk.queue.showNext()
	if r == nil {
		return
	}
	n := r.dr
	setseg := false
	if n.seg == nil {
		setseg = true
		s.selectSegment(n, false)
	}
	if r.flags&flagRead != 0 {
		s.activateRead(n, setseg, true)
	} else {
		s.activateWrite(n, setseg, true)
	}
}

// initiateSeek starts positioning for the access e of segment seg
// (disk_initiate_seek): after delay, and at least mintime of seek. A
// read-ahead that must leave its track (or cylinder) for scheme 1 (2)
// is not started: it returns false.
func (s *Sim) initiateSeek(seg *segment, e *event, first bool, delay, mintime float64) bool {
	dk := &s.d
	e.typ = evNone
	seg.time = addX87(s.now, delay)
	dest, remap := s.lay.toPhys(e.blkno)
	dist := dest.cyl - dk.mechState.cyl
	if dist < 0 {
		dist = -dist
	}
	e.cause = dest.sector
	seek := psToMs(s.mech.seek(dk.mechState.cyl, dk.mechState.head, dest.cyl, dest.head, e.flags&flagRead != 0))
	if seek < mintime {
		seg.time += mintime - seek
	}
	e.time = addX87(seg.time, seek)
	if e.flags&flagBackground != 0 && e.flags&flagRead != 0 {
		if s.p.ContRead == contCylEnd && dist != 0 {
			return false
		}
		if s.p.ContRead == contTrackEnd && (dist != 0 || dk.mechState.head != dest.head) {
			return false
		}
	}
	e.typ = evSeekDone
	if remap {
		s.getRemappedSector(e)
	}
	s.schedule(e)
	return true
}

// getRemappedSector times the access to a remapped LBN's spare
// (disk_get_remapped_sector).
func (s *Sim) getRemappedSector(e *event) {
	dk := &s.d
	d := dk.effectiveHDA
	if d == nil {
		s.fail("remapped sector with no request on the arm")
		return
	}
	seg := d.seg
	p, _ := s.lay.toPhys(e.blkno)
	e.cause = p.sector
	acc := psToMs(s.mech.accessOne(dk.mechState, s.backAndForth(p), e.flags&flagRead != 0))
	e.time = s.now + acc
	if (d != seg.recycleReq && s.blockAvailable(seg, e.blkno)) || (e.flags&flagRead != 0 && !s.p.ReadDirect) {
		e.typ = evGotRemapped
		return
	}
	spt := s.lay.bptOfLBN(e.blkno)
	rot := s.mech.period
	// The source subtracts 1/(spt*period) with the period in
	// picoseconds: a nearly nil amount.
	e.time -= 1 / (float64(spt) * float64(rot))
	e.typ = evGotoRemapped
}

// backAndForth returns the physical sector dm_acctime_g1 accesses for
// p: it translates p to its LBN and back.
func (s *Sim) backAndForth(p pbn) pbn {
	lbn, _ := s.lay.toLogical(p)
	if lbn < 0 {
		s.fail("access to a sector holding no LBN")
		return p
	}
	q, _ := s.lay.toPhys(lbn)
	return q
}

// gotoRemapped waits a revolution at a time until the buffer can take
// the remapped sector (disk_goto_remapped_sector).
func (s *Sim) gotoRemapped(e *event) {
	dk := &s.d
	d := dk.effectiveHDA
	if d == nil {
		s.fail("remapped sector with no request on the arm")
		return
	}
	seg := d.seg
	if seg.outState == outPreempt {
		s.releaseHDA(d)
		return
	}
	rot := psToMs(s.mech.period)
	if d != seg.recycleReq && s.blockAvailable(seg, e.blkno) {
		spt := s.lay.bptOfLBN(e.blkno)
		e.time += 1 / (float64(spt) * float64(s.mech.period))
		e.typ = evGotRemapped
	} else {
		seg.time += rot
		e.time += rot
		e.typ = evGotoRemapped
	}
	s.schedule(e)
}

// gotRemapped is disk_got_remapped_sector: the remapped sector has been
// accessed; the access continues with the next LBN.
func (s *Sim) gotRemapped(e *event) {
	dk := &s.d
	d := dk.effectiveHDA
	if d == nil {
		s.fail("remapped sector with no request on the arm")
		return
	}
	seg := d.seg
	if seg.outState == outPreempt {
		seg.access.typ = evNone
		s.releaseHDA(d)
		return
	}
	if d == seg.recycleReq || !s.blockAvailable(seg, e.blkno) {
		rot := psToMs(s.mech.period)
		seg.time += rot
		e.time += rot
		e.typ = evGotRemapped
		s.schedule(e)
		return
	}
	if seg.state == segReading {
		if e.blkno != seg.endBlk+1 {
			s.fail("remapped sector not next to the read")
			return
		}
		seg.endBlk++
	} else {
		if e.blkno != d.inBlk {
			s.fail("remapped sector not next to the write")
			return
		}
		d.inBlk++
	}
	if !s.bufferRequestComplete(d) {
		e.blkno++
		if !s.initiateSeek(seg, e, false, 0, 0) {
			s.releaseHDA(d)
		}
	}
}
