package exact

// LBN <-> PBN translation and track boundaries for each sparing scheme,
// as diskmodel/layout_g1.c computes them (the g1_ltop_*, g1_ptol_* and
// g1_track_boundaries_* families). Slips and defects are kept in file
// order, as the source loops over them.

// mapType is dm_layout_maptype (diskmodel/dm_types.h), the translation
// dm_translate_ltop makes: the g1_ltop_* functions apply a zone's
// slips under MAP_ADDSLIPS (3) and MAP_FULL (4), its defects under
// MAP_FULL only; every other value translates without either.
type mapType int

const (
	mapAddSlips mapType = 3
	mapFull     mapType = 4
)

func (m mapType) slips() bool   { return m == mapAddSlips || m == mapFull }
func (m mapType) defects() bool { return m == mapFull }

// toPhys returns the physical sector holding lbn (dm_translate_ltop with
// MAP_FULL) and whether lbn's data live in a remapped spare.
func (l *layout) toPhys(lbn int) (pbn, bool) { return l.toPhysAs(lbn, mapFull) }

// toPhysAs is dm_translate_ltop of lbn under map type mt.
func (l *layout) toPhysAs(lbn int, mt mapType) (pbn, bool) {
	b := l.bandOfLBN(lbn)
	rel := lbn - l.firstLBN[b.num] + b.deadSpace
	switch {
	case l.scheme == trackSparing:
		return l.toPhysTrack(b, rel, mt), false
	case l.scheme == sectPerTrack:
		return l.toPhysPerTrack(b, rel, mt)
	case l.perCyl() || l.scheme == sectAtEnd:
		return l.toPhysPerCyl(b, rel, mt)
	case l.scheme == sectPerRange:
		return l.toPhysPerRange(b, rel, mt)
	default: // sectPerZone, sectPerZoneSlipToEnd
		return l.toPhysPerZone(b, rel, mt)
	}
}

// place fills cyl and head from a track index within the band
// (zone-relative cylinder and rank of the track on it).
func (l *layout) place(b *band, cyl, rank, sector int) pbn {
	p := pbn{cyl: cyl + b.startCyl, head: rank, sector: sector}
	p.head = l.logicalHead(b, p.cyl, p.head)
	return p
}

// toPhysTrack follows g1_ltop_trackspare: slipped tracks push later
// tracks along; a defective track moves to its spare track (the remap
// is not reported).
func (l *layout) toPhysTrack(b *band, rel int, mt mapType) pbn {
	track := rel / b.bpt
	for _, s := range b.slips {
		if s <= track && mt.slips() {
			track++
		}
	}
	for i, d := range b.defects {
		if d == track && mt.defects() {
			track = b.remaps[i]
			break
		}
	}
	return l.place(b, track/l.surfaces, track%l.surfaces, rel%b.bpt)
}

// toPhysPerTrack follows g1_ltop_sectpertrackspare: slips on the LBN's
// track push it along the track; defects on it move it to their spare,
// every matching defect in turn.
func (l *layout) toPhysPerTrack(b *band, rel int, mt mapType) (pbn, bool) {
	perTrack := b.bpt - b.spares
	track := rel / perTrack
	rel %= perTrack
	first := b.bpt * track
	for _, s := range b.slips {
		if mt.slips() && s >= first && s-first <= rel {
			rel++
		}
	}
	remap := false
	for i, d := range b.defects {
		if mt.defects() && d == first+rel {
			remap = true
			track = b.remaps[i] / b.bpt
			first = b.bpt * track
			rel = b.remaps[i] % b.bpt
		}
	}
	return l.place(b, track/l.surfaces, track%l.surfaces, rel), remap
}

// toPhysPerCyl follows g1_ltop_sectpercylspare (schemes 2, 4, 5, 6 and
// 7): the LBN's cylinder holds lbnsPerCyl LBNs from its first slot (the
// source puts no spares before them even when they are "at the front");
// slips before the LBN on its cylinder, and under slip-to-end schemes
// every slip on earlier cylinders, push it along.
func (l *layout) toPhysPerCyl(b *band, rel int, mt mapType) (pbn, bool) {
	perCyl := b.bpt * l.surfaces
	lbnsPerCyl := perCyl - b.spares
	cyl := rel / lbnsPerCyl
	rel %= lbnsPerCyl
	first := cyl * perCyl
	slips := 0
	for _, s := range b.slips {
		if mt.slips() && ((l.slipToEnd() && s/perCyl < cyl) || (s >= first && s-first <= rel+slips)) {
			slips++
		}
	}
	rel += slips
	for i, d := range b.defects {
		if mt.defects() && d == first+rel && b.remaps[i] != d {
			rel = b.remaps[i]
			return l.place(b, rel/perCyl, (rel%perCyl)/b.bpt, rel%b.bpt), true
		}
	}
	cyl += rel / lbnsPerCyl
	rel %= lbnsPerCyl
	return l.place(b, cyl, rel/b.bpt, rel%b.bpt), false
}

// toPhysPerRange follows g1_ltop_sectperrangespare; a remapped LBN goes
// to its spare's offset within the LBN's own range.
func (l *layout) toPhysPerRange(b *band, rel int, mt mapType) (pbn, bool) {
	perCyl := b.bpt * l.surfaces
	perRange := perCyl * l.rangeSize
	lbnsPerRange := perRange - b.spares
	rng := rel / lbnsPerRange
	rel %= lbnsPerRange
	first := rng * perRange
	slips := 0
	for _, s := range b.slips {
		if mt.slips() && s >= first && s-first <= rel+slips {
			slips++
		}
	}
	rel += slips
	remap := false
	for i, d := range b.defects {
		if mt.defects() && d == first+rel && b.remaps[i] != d {
			remap = true
			rel = b.remaps[i] % perRange
			break
		}
	}
	return l.place(b, rng*l.rangeSize+rel/perCyl, (rel%perCyl)/b.bpt, rel%b.bpt), remap
}

// toPhysPerZone follows g1_ltop_sectperzonespare (schemes 9 and 10).
func (l *layout) toPhysPerZone(b *band, rel int, mt mapType) (pbn, bool) {
	slips := 0
	for _, s := range b.slips {
		if mt.slips() && s <= rel+slips {
			slips++
		}
	}
	rel += slips
	remap := false
	for i, d := range b.defects {
		if mt.defects() && d == rel && b.remaps[i] != d {
			remap = true
			rel = b.remaps[i]
			break
		}
	}
	perCyl := b.bpt * l.surfaces
	return l.place(b, rel/perCyl, (rel%perCyl)/b.bpt, rel%b.bpt), remap
}

// toLogical returns the LBN stored in sector p, or slipped or remapped
// (dm_translate_ptol), and whether p is a spare holding a remapped LBN.
func (l *layout) toLogical(p pbn) (int, bool) {
	b := l.bandOfCyl(p.cyl)
	switch {
	case l.scheme == trackSparing:
		return l.toLogicalTrack(b, p), false
	case l.scheme == sectPerTrack:
		return l.toLogicalPerTrack(b, p)
	case l.perCyl() || l.scheme == sectAtEnd:
		return l.toLogicalPerCyl(b, p)
	case l.scheme == sectPerRange:
		return l.toLogicalPerRange(b, p)
	default:
		return l.toLogicalPerZone(b, p)
	}
}

// ptolChecks are the assertions that open the source's physical-to-
// logical translations but the per-cylinder one, where they are
// commented out (g1_ptol_*): a sector outside the disk's cylinders
// stops DiskSim; one past the last zone, too (find_band_pbn).
func (l *layout) ptolChecks(b *band, p pbn) {
	if b == nil {
		abortf("cylinder %d is in no zone (find_band_pbn)", p.cyl)
	}
	if p.cyl < b.startCyl || p.cyl >= l.cylinders || p.head < 0 || p.head >= l.surfaces || p.sector < 0 || p.sector >= b.bpt {
		abortf("sector %d/%d/%d outside the disk's %d cylinders (the g1_ptol_* assertions)", p.cyl, p.head, p.sector, l.cylinders)
	}
}

// slot returns p's zone-relative slot number in mapping order.
func (l *layout) slot(b *band, p pbn) int {
	h := l.logicalHead(b, p.cyl, p.head)
	return p.sector + (p.cyl-b.startCyl)*b.bpt*l.surfaces + h*b.bpt
}

// undoRemap applies b's defects to slot s (last first, as the source
// loops): a defective slot is remapped; a spare holding a defect's data
// stands for the defect.
func (b *band) undoRemap(s int) (int, bool, bool) {
	for i := len(b.defects) - 1; i >= 0; i-- {
		if s == b.defects[i] {
			return s, false, true
		}
		if s == b.remaps[i] {
			return b.defects[i], true, false
		}
	}
	return s, false, false
}

func nonNegative(lbn int) int {
	if lbn < 0 {
		return slipped
	}
	return lbn
}

// toLogicalTrack follows g1_ptol_trackspare.
func (l *layout) toLogicalTrack(b *band, p pbn) int {
	l.ptolChecks(b, p)
	h := l.logicalHead(b, p.cyl, p.head)
	track := (p.cyl-b.startCyl)*l.surfaces + h
	for i := len(b.defects) - 1; i >= 0; i-- {
		if track == b.defects[i] {
			return remapped
		}
		if track == b.remaps[i] {
			track = b.defects[i]
			break
		}
	}
	for i := len(b.slips) - 1; i >= 0; i-- {
		if track == b.slips[i] {
			return slipped
		}
		if track > b.slips[i] {
			track--
		}
	}
	if track > (b.blocks+b.deadSpace)/b.bpt {
		return slipped
	}
	return nonNegative(l.firstLBN[b.num] + p.sector + track*b.bpt - b.deadSpace)
}

// toLogicalPerTrack follows g1_ptol_sectpertrackspare, whose slip test
// compares a slip's offset within its cylinder with the head number: as
// written.
func (l *layout) toLogicalPerTrack(b *band, p pbn) (int, bool) {
	l.ptolChecks(b, p)
	h := l.logicalHead(b, p.cyl, p.head)
	perCyl := b.bpt * l.surfaces
	s, remap, bad := b.undoRemap(p.sector + (p.cyl-b.startCyl)*perCyl + h*b.bpt)
	if bad {
		return remapped, false
	}
	for i := len(b.slips) - 1; i >= 0; i-- {
		sl := b.slips[i]
		if s == sl {
			return slipped, remap
		}
		if s > sl && sl/perCyl == p.cyl-b.startCyl && sl%perCyl == h {
			s--
		}
	}
	if s%b.bpt >= b.bpt-b.spares {
		return slipped, remap
	}
	per := b.bpt - b.spares
	lbn := l.firstLBN[b.num] + s/perCyl*per*l.surfaces + (s%perCyl)/b.bpt*per + s%b.bpt - b.deadSpace
	return nonNegative(lbn), remap
}

// toLogicalPerCyl follows g1_ptol_sectpercylspare.
func (l *layout) toLogicalPerCyl(b *band, p pbn) (int, bool) {
	perCyl := b.bpt * l.surfaces
	lbnsPerCyl := perCyl - b.spares
	lbn := l.firstLBN[b.num]
	s, remap, bad := b.undoRemap(l.slot(b, p))
	if bad {
		return remapped, false
	}
	for i := len(b.slips) - 1; i >= 0; i-- {
		sl := b.slips[i]
		if s == sl {
			return slipped, remap
		}
		if s > sl {
			if sl/perCyl == p.cyl-b.startCyl {
				s--
			} else if l.slipToEnd() {
				lbn--
			}
		}
	}
	front := l.spareAtFront()
	if (!front && s%perCyl >= lbnsPerCyl) || (front && s%perCyl < b.spares) {
		return slipped, remap
	}
	lbn += s/perCyl*lbnsPerCyl + (s%perCyl)/b.bpt*b.bpt + s%b.bpt - b.deadSpace
	if front {
		lbn -= b.spares
	}
	return nonNegative(lbn), remap
}

// toLogicalPerRange follows g1_ptol_sectperrangespare.
func (l *layout) toLogicalPerRange(b *band, p pbn) (int, bool) {
	l.ptolChecks(b, p)
	perRange := b.bpt * l.surfaces * l.rangeSize
	lbnsPerRange := perRange - b.spares
	rng := (p.cyl - b.startCyl) / l.rangeSize
	s, remap, bad := b.undoRemap(l.slot(b, p))
	if bad {
		return remapped, false
	}
	for i := len(b.slips) - 1; i >= 0; i-- {
		sl := b.slips[i]
		if s == sl {
			return slipped, remap
		}
		if s > sl && sl/perRange == rng {
			s--
		}
	}
	s %= perRange
	if s >= lbnsPerRange {
		return slipped, remap
	}
	return nonNegative(l.firstLBN[b.num] + rng*lbnsPerRange + s - b.deadSpace), remap
}

// toLogicalPerZone follows g1_ptol_sectperzonespare, which counts the
// slots past the band's LBN count as spares from the zone's first slot
// (the empty space at its front included).
func (l *layout) toLogicalPerZone(b *band, p pbn) (int, bool) {
	l.ptolChecks(b, p)
	s, remap, bad := b.undoRemap(l.slot(b, p))
	if bad {
		return remapped, false
	}
	for i := len(b.slips) - 1; i >= 0; i-- {
		if s == b.slips[i] {
			return slipped, remap
		}
		if s > b.slips[i] {
			s--
		}
	}
	if s >= b.blocks {
		return slipped, remap
	}
	return nonNegative(l.firstLBN[b.num] + s - b.deadSpace), remap
}
