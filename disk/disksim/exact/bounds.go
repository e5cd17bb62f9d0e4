package exact

// trackBounds returns the first and last LBN on p's track and whether
// the source flags the track as holding a remapped sector
// (dm_get_track_boundaries, the g1_track_boundaries_* family). wantFirst
// says whether the caller asks for the first LBN: under per-cylinder
// sparing the source's remap test depends on it.
func (l *layout) trackBounds(p pbn, wantFirst bool) (first, last int, remap bool) {
	b := l.bandOfCyl(p.cyl)
	switch {
	case l.scheme == trackSparing:
		first, last = l.boundsTrack(b, p)
		return first, last, false
	case l.scheme == sectPerTrack:
		return l.boundsPerTrack(b, p)
	case l.perCyl() || l.scheme == sectAtEnd:
		return l.boundsPerCyl(b, p, wantFirst)
	case l.scheme == sectPerRange:
		return l.boundsScan(b, p, l.toLogicalPerRange)
	default:
		return l.boundsScan(b, p, l.toLogicalPerZone)
	}
}

// boundsTrack follows g1_track_boundaries_trackspare.
func (l *layout) boundsTrack(b *band, p pbn) (first, last int) {
	lbn := l.firstLBN[b.num]
	h := l.logicalHead(b, p.cyl, p.head)
	track := (p.cyl-b.startCyl)*l.surfaces + h
	for i := len(b.defects) - 1; i >= 0; i-- {
		if track == b.defects[i] {
			lbn = remapped
		}
		if track == b.remaps[i] {
			track = b.defects[i]
			break
		}
	}
	for i := len(b.slips) - 1; i >= 0; i-- {
		if track == b.slips[i] {
			lbn = slipped
		}
		if track > b.slips[i] {
			track--
		}
	}
	if track > (b.blocks+b.deadSpace)/b.bpt {
		lbn = slipped
	}
	s := lbn + track*b.bpt - b.deadSpace
	if lbn < 0 {
		return lbn, lbn
	}
	first = max(s, lbn)
	if s+b.bpt <= lbn {
		first = slipped
	}
	last = s + b.bpt - 1
	if last <= lbn {
		last = slipped
	}
	return first, last
}

// boundsPerTrack follows g1_track_boundaries_sectpertrackspare, which
// ignores slips.
func (l *layout) boundsPerTrack(b *band, p pbn) (first, last int, remap bool) {
	base := l.firstLBN[b.num]
	per := b.bpt - b.spares
	h := l.logicalHead(b, p.cyl, p.head)
	track := (p.cyl-b.startCyl)*l.surfaces + h
	lbn := base + track*per - b.deadSpace
	first = max(base, lbn)
	if lbn+per <= base {
		first = slipped
	}
	last = lbn + per - 1
	if last <= base {
		last = slipped
	}
	return first, last, b.defectOnTrack(track * b.bpt)
}

// defectOnTrack reports whether a defect lies in the bpt slots from s.
func (b *band) defectOnTrack(s int) bool {
	for _, d := range b.defects {
		if s <= d && d < s+b.bpt {
			return true
		}
	}
	return false
}

// boundsPerCyl follows g1_track_boundaries_sectpercylspare: each slot
// of the track is translated back in turn. Its remap test compares the
// zone-relative defect slots with the slot index at which the scan for
// the first LBN stopped (0 when the caller does not ask for it): as
// written.
func (l *layout) boundsPerCyl(b *band, p pbn, wantFirst bool) (first, last int, remap bool) {
	blkno := 0
	if wantFirst {
		first, blkno = l.scanFirst(b, p, l.toLogicalPerCyl)
	}
	last = l.scanLast(b, p, l.toLogicalPerCyl)
	for _, d := range b.defects {
		if blkno <= d && d < blkno+b.bpt {
			remap = true
		}
	}
	return first, last, remap
}

// boundsScan follows the range and zone variants, which test the
// track's own slots for defects.
func (l *layout) boundsScan(b *band, p pbn, ptol func(*band, pbn) (int, bool)) (first, last int, remap bool) {
	first, _ = l.scanFirst(b, p, ptol)
	last = l.scanLast(b, p, ptol)
	h := l.logicalHead(b, p.cyl, p.head)
	return first, last, b.defectOnTrack(((p.cyl-b.startCyl)*l.surfaces + h) * b.bpt)
}

// scanFirst translates p's slots from the first until one holds an LBN;
// it returns that LBN less the remapped slots passed (at least the
// band's first LBN) and the slot index it stopped at (bpt when none
// holds one: then the result is slipped for the range and zone schemes
// and, for the per-cylinder ones, whatever the last slot gave, as the
// source's test of the loop's end never fires there).
func (l *layout) scanFirst(b *band, p pbn, ptol func(*band, pbn) (int, bool)) (int, int) {
	base := l.firstLBN[b.num]
	add := 0
	r := slipped
	for s := 0; s < b.bpt; s++ {
		p.sector = s
		var rs bool
		r, rs = ptol(b, p)
		if r == remapped {
			add++
		}
		if rs {
			r = slipped
		}
		if r >= 0 {
			return max(r-add, base), s
		}
	}
	if l.perCyl() || l.scheme == sectAtEnd {
		return r, b.bpt
	}
	return slipped, b.bpt
}

// scanLast translates p's slots from the last down until one holds an
// LBN, returning it plus the remapped slots passed; slipped when none
// does under the per-cylinder schemes, and whatever the first slot
// gave for the range and zone ones.
func (l *layout) scanLast(b *band, p pbn, ptol func(*band, pbn) (int, bool)) int {
	add := 0
	r := slipped
	for s := b.bpt - 1; s >= 0; s-- {
		p.sector = s
		var rs bool
		r, rs = ptol(b, p)
		if r == remapped {
			add++
		}
		if rs {
			r = slipped
		}
		if r >= 0 {
			return r + add
		}
	}
	if l.perCyl() || l.scheme == sectAtEnd {
		return slipped
	}
	return r
}
