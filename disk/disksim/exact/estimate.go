package exact

// The disk's estimates for the positional scheduling policies: what
// device_get_servtime, device_get_seektime, device_get_acctime and
// device_get_distance return for a disk (src/disksim_diskctlr.c, "FUNCTIONS
// FOR USE BY QUEUING ALGORITHMS"). Both the disk's queue and the driver's
// queue ask the same disk, from its mechanical state as last recorded
// (mech_state: the angle is the one at the disk's last update, not now).

// Estimated service times of buffer hits (disk_initialize_diskinfo):
// a partial hit 1e-9 ms, a whole hit or an append 0.
const (
	partialHitServTime = 0.000000001
	wholeHitServTime   = 0.0
)

// estimator is what a queue under a positional policy asks of its
// device. The arguments are the fields the source copies into its test
// request: the first block, the block count and the flags.
type estimator interface {
	// simTime is the current time, ms.
	simTime() float64
	// servTime is disk_get_servtime: the estimated positioning time,
	// ms, or maxTime+1 once the seek alone reaches maxTime.
	servTime(blkno, bcount, flags int, checkCache bool, maxTime float64) float64
	// seekTime is disk_get_seektime without the cache check.
	seekTime(blkno, flags int, maxTime float64) float64
	// accTime is disk_get_acctime: DiskSim 4.0 asserts there.
	accTime() float64
	// distance is disk_get_distance without head switches: the
	// cylinders from block from (or, for -1, the arm) to blkno.
	distance(blkno, from int) int
}

func (s *Sim) simTime() float64 { return s.now }

// servTime is disk_buffer_estimate_servtime. Like the source it sets
// the disk's zero-latency flag for the request's direction whenever it
// gets past the seek test.
func (s *Sim) servTime(blkno, bcount, flags int, checkCache bool, maxTime float64) float64 {
	if checkCache {
		// the figures for a segment still reading equal the others
		switch hit, _ := s.checkSegments(blkno, bcount, flags); hit {
		case hitAppend:
			return 0
		case hitWhole:
			return wholeHitServTime
		case hitPartial:
			return partialHitServTime
		}
	}
	dk := &s.d
	read := flags&flagRead != 0
	dest, _ := s.lay.toPhys(blkno)
	if seek := s.estimatedSeek(dest, read); !(seek < maxTime) {
		return maxTime + 1.0
	}
	_, last, _ := s.lay.trackBounds(dest, false)
	n := min(bcount, last+1-blkno)
	p, _ := s.lay.toPhys(blkno)
	dk.immed = s.p.ImmedWrite
	if read {
		dk.immed = s.p.ImmedRead
	}
	// dm_acctime less dm_xfertime: the "non-transfer" time
	ps := s.accTimeG1(dk.mechState, p, n, read, dk.immed) - s.mech.xferTime(p, n)
	return s.writeFloor(psToMs(ps), read)
}

// seekTime is disk_buffer_estimate_seektime with checkcache false.
func (s *Sim) seekTime(blkno, flags int, maxTime float64) float64 {
	read := flags&flagRead != 0
	p, _ := s.lay.toPhys(blkno)
	t := s.estimatedSeek(p, read)
	if !(t < maxTime) {
		return maxTime + 1.0
	}
	return s.writeFloor(t, read)
}

// estimatedSeek is the seek time, ms, from the arm's last recorded
// position to sector p.
func (s *Sim) estimatedSeek(p pbn, read bool) float64 {
	st := s.d.mechState
	return psToMs(s.mech.seek(st.cyl, st.head, p.cyl, p.head, read))
}

// writeFloor raises a write's estimate t, ms, to the disk's Minimum
// seek delay, as both estimates in the source do.
func (s *Sim) writeFloor(t float64, read bool) float64 {
	if !read && t < s.p.MinimumSeekDelay {
		return s.p.MinimumSeekDelay
	}
	return t
}

// accTime is disk_buffer_estimate_acctime, which opens with
// ddbg_assert(FALSE): every policy that asks for an access time stops
// DiskSim at its first choice between two requests.
func (s *Sim) accTime() float64 {
	abortf("the policy asks the disk for an access-time estimate, and disk_buffer_estimate_acctime asserts FALSE (acctime estimation is not supported)")
	return 0
}

// distance is disk_get_distance with direction false.
func (s *Sim) distance(blkno, from int) int {
	c1 := s.d.mechState.cyl
	if from != -1 {
		p, _ := s.lay.toPhys(from)
		c1 = p.cyl
	}
	p, _ := s.lay.toPhys(blkno)
	return absInt(c1 - p.cyl)
}

// accTimeG1 is dm_acctime_g1: the time to access n blocks from sector
// p from state st, track by track (an estimate: it ignores defects
// past the first track), ps.
func (s *Sim) accTimeG1(st state, p pbn, n int, read, immed bool) int64 {
	l, _ := s.lay.toLogical(p)
	last := l + n - 1
	var total int64
	for steps := 0; ; steps++ {
		q, _ := s.lay.toPhys(l)
		_, high, _ := s.lay.trackBounds(q, false)
		if high == slipped || high == remapped {
			abortf("track of block %d ends in a slipped or remapped sector (dm_acctime_g1)", l)
		}
		high = min(high, last)
		if high+1 == l || steps == fpLimit {
			// the track's last LBN precedes l (a slip list at odds
			// with the track boundaries): l never moves
			abortf("dm_acctime_g1 never gets past block %d (its track ends at %d): DiskSim loops forever", l, high)
		}
		t := s.mech.accessTrack(st, q, high-l+1, read, immed)
		total += t
		st = state{cyl: q.cyl, head: q.head, theta: st.theta + s.mech.rotate(t)}
		l = high + 1
		if last <= high {
			return total
		}
	}
}

// accessTrack is dm_acctime_track: seek, rotational latency (for a
// zero-latency access, with the intermediate latency added) and the
// transfer of n sectors from p on one track, from state st, ps.
func (m *mech) accessTrack(st state, p pbn, n int, read, immed bool) int64 {
	seek := m.seek(st.cyl, st.head, p.cyl, p.head, read)
	on := state{cyl: p.cyl, head: p.head, theta: st.theta + m.rotate(seek)}
	lat, extra := m.latency(on, p.sector, n, immed)
	if immed {
		lat += extra
	}
	return seek + lat + m.xferTime(p, n)
}

// checkSegments is disk_buffer_check_segments for a request of bcount
// blocks from blkno with flags: the buffer hit it would find, and for a
// read hit whether the segment is still reading.
func (s *Sim) checkSegments(blkno, bcount, flags int) (hit int, reading bool) {
	r := &s.probe
	r.blkno, r.bcount, r.flags = blkno, bcount, flags
	if flags&flagRead != 0 {
		return s.checkReadSegments(r)
	}
	return s.checkWriteSegments(r), false
}

// checkReadSegments is disk_buffer_check_read_segments.
func (s *Sim) checkReadSegments(r *event) (hit int, reading bool) {
	if !s.p.Caching {
		return hitNone, false
	}
	hit = hitNone
	dirtyHit := false
	for seg := s.d.segs; seg != nil; seg = seg.next {
		switch {
		case seg.recycleReq != nil, seg.state == segEmpty:
		case s.d.writeSeg != nil && seg == s.d.writeSeg:
			if (seg.state == segDirty || seg.state == segWriting) && overlap(seg, r) && !s.reusable(seg) {
				return hitCollision, reading
			}
		case r.blkno < seg.startBlk || r.blkno >= seg.endBlk:
			switch {
			case seg.state == segClean:
			case seg.state == segReading:
				if seg.endBlk == r.blkno && s.p.AlmostReadHits && hit == hitNone {
					reading, hit = true, hitPartial
				}
			case r.blkno < seg.startBlk:
				if overlap(seg, r) && !s.reusable(seg) {
					return hitCollision, reading
				}
			}
		default:
			switch seg.state {
			case segDirty, segWriting:
				if dirtyHit || (!s.p.ReadHitsOnWrites && !s.reusable(seg)) {
					return hitCollision, reading
				}
				dirtyHit = true
			case segClean:
				if !s.p.ReadHitsOnWrites && seg.access != nil && seg.access.flags&flagRead == 0 {
					// the source's "continue" skips the step to the
					// next segment: DiskSim never returns
					abortf("disk_buffer_check_read_segments tests the same clean segment of written data forever (its continue skips seg = seg->next): DiskSim hangs")
				}
			}
			if seg.endBlk >= r.blkno+r.bcount {
				hit, reading = hitWhole, seg.state == segReading
			} else if hit != hitWhole {
				hit, reading = hitPartial, seg.state == segReading
			}
		}
	}
	return hit, reading
}

// checkWriteSegments is disk_buffer_check_write_segments.
func (s *Sim) checkWriteSegments(r *event) int {
	if !s.p.CombineWrites {
		return hitNone
	}
	hit := hitNone
	for seg := s.d.segs; seg != nil; seg = seg.next {
		switch {
		case seg.recycleReq != nil, seg.state == segEmpty:
		case seg.state == segReading:
			return hitNone
		case s.d.writeSeg != nil && seg != s.d.writeSeg:
			if seg.state == segClean && seg.reqs != nil && overlap(seg, r) && !s.reusable(seg) {
				return hitCollision
			}
		case seg.state == segClean || seg.state == segDirty:
			if seg.reqs != nil && overlap(seg, r) && !s.reusable(seg) {
				return hitCollision
			}
		case seg.outState == outTransfering:
			if overlap(seg, r) && !s.reusable(seg) {
				return hitCollision
			}
		default:
			if appendsAt(seg, r.blkno) {
				hit = hitAppend
			} else if overlap(seg, r) && !s.reusable(seg) {
				return hitCollision
			}
		}
	}
	return hit
}
