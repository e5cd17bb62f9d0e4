package exact

// This file maps LBNs to physical sectors as DiskSim 4.0's G1 layout
// does (diskmodel/layout_g1.c and layout_g1_load.c). Where that source
// and the manual differ, the source is followed, quirks included: they
// are what DiskSim's validated numbers mean. Each such place names the
// source function it follows.

// Results of the layout's translations that are not LBNs
// (dm_ptol_result_t in diskmodel/dm.h).
const (
	slipped  = -1 // a slipped sector or an unused spare
	remapped = -2 // a defective sector whose data live elsewhere
)

// Sparing schemes (layout_g1.h).
const (
	noSparing            = 0
	trackSparing         = 1
	sectPerCyl           = 2
	sectPerTrack         = 3
	sectPerCylSlipToEnd  = 4
	sectPerCylAtFront    = 5
	sectPerCylFrontToEnd = 6
	sectAtEnd            = 7
	sectPerRange         = 8
	sectPerZone          = 9
	sectPerZoneSlipToEnd = 10
)

// pbn is a physical sector: cylinder, surface, sector slot on the track.
type pbn struct{ cyl, head, sector int }

// band is one zone of the layout as DiskSim keeps it
// (struct dm_layout_g1_band).
type band struct {
	startCyl, endCyl int
	bpt              int // blocks (sector slots) per track
	deadSpace        int // slots at the zone front holding no LBN
	firstAngle       uint32
	cylSkew          uint32
	trackSkew        uint32
	blocks           int // LBNs in the band
	spares           int // "Number of spares", per the scheme's region
	slips            []int
	defects, remaps  []int
	num              int
	sectorWidth      uint32 // 2^32 / bpt, truncated
	trkSpace         uint32 // 2^32 mod bpt: the angle left over per track
}

// layout is the G1 layout of one disk.
type layout struct {
	scheme    int
	rangeSize int
	mapping   int // 0 conventional, 1 and 2 serpentine
	surfaces  int
	cylinders int // dm_cyls, "Number of cylinders"
	bands     []band
	firstLBN  []int // first LBN of each band
	sectors   int   // LBNs on the disk (dm_sectors)
}

func (l *layout) perCyl() bool {
	switch l.scheme {
	case sectPerCyl, sectPerCylSlipToEnd, sectPerCylAtFront, sectPerCylFrontToEnd:
		return true
	}
	return false
}

func (l *layout) slipToEnd() bool {
	return l.scheme == sectPerCylSlipToEnd || l.scheme == sectPerCylFrontToEnd || l.scheme == sectAtEnd
}

func (l *layout) spareAtFront() bool {
	return l.scheme == sectPerCylAtFront || l.scheme == sectPerCylFrontToEnd
}

// bandBlocks counts the LBNs of band b as DiskSim does
// (dm_layout_g1_compute_blksinband): every scheme takes its spares off
// the band's slots in its own way; a range scheme gives no spares to a
// band's last, shorter range; the end-of-disk scheme takes off the
// band's slips only. ok is false for a scheme DiskSim rejects there.
func (l *layout) bandBlocks(b *band) (n int, ok bool) {
	cyls := b.endCyl - b.startCyl + 1
	n = cyls*b.bpt*l.surfaces - b.deadSpace
	switch {
	case l.scheme == trackSparing:
		n -= b.spares * b.bpt
	case l.scheme == sectPerTrack:
		n -= b.spares * cyls * l.surfaces
	case l.scheme == sectAtEnd:
		n -= len(b.slips)
	case l.scheme == sectPerZone:
		n -= b.spares
	case l.scheme == sectPerZoneSlipToEnd:
		n -= b.spares + len(b.slips)
	case l.perCyl() && !l.slipToEnd():
		n -= b.spares * cyls
	case l.perCyl():
		n -= b.spares*cyls + len(b.slips)
	case l.scheme == sectPerRange:
		n -= b.spares * (cyls / l.rangeSize)
	default:
		return 0, false
	}
	return n, true
}

// bandOfLBN returns the band holding lbn (find_band_lbn), or nil past
// the last band.
func (l *layout) bandOfLBN(lbn int) *band {
	for i := range l.bands {
		b := &l.bands[i]
		if lbn >= 0 && lbn < b.blocks {
			return b
		}
		lbn -= b.blocks
	}
	abortf("block %d past the last zone (find_band_lbn)", lbn)
	return nil
}

// bandOfCyl returns the first band covering cylinder cyl
// (find_band_pbn), or nil.
func (l *layout) bandOfCyl(cyl int) *band {
	for i := range l.bands {
		if cyl >= l.bands[i].startCyl && cyl <= l.bands[i].endCyl {
			return &l.bands[i]
		}
	}
	abortf("cylinder %d is in no zone (find_band_pbn)", cyl)
	return nil
}

// logicalHead returns the track's rank within its cylinder in mapping
// order (g1_surfno_on_cyl): serpentine cylinders count surfaces down.
func (l *layout) logicalHead(b *band, cyl, head int) int {
	switch l.mapping {
	case 1:
		if (cyl-b.startCyl)%2 != 0 {
			return l.surfaces - head - 1
		}
	case 2:
		if cyl%2 != 0 {
			return l.surfaces - head - 1
		}
	}
	return head
}

// addMult adds mult sectors of width q to the angle start, plus x for
// every time the sum passes a whole revolution (layout_g1.c addmult):
// a track's leftover angle is skipped at each wrap.
func addMult(start uint32, mult int, q, x uint32) uint32 {
	sum := int64(start) + int64(mult)*int64(q)
	return start + uint32(mult)*q + uint32(sum>>32)*x
}

// slipsBelow counts b's slips numbered below cutoff.
func (b *band) slipsBelow(cutoff int) int {
	n := 0
	for _, s := range b.slips {
		if s < cutoff {
			n++
		}
	}
	return n
}

// skew returns the angle at which sector p begins (g1_map_pbn_skew):
// the zone's first-block angle, a track skew per track switch and a
// cylinder skew per cylinder switch before p's track, then, under
// per-cylinder and per-track sparing, a sector per slip in earlier
// cylinders (earlier tracks for per-track sparing) — the source's
// assumption that slips push skews forward — and p's sector.
func (l *layout) skew(p pbn) uint32 {
	b := l.bandOfCyl(p.cyl)
	r := b.firstAngle
	cyl := p.cyl - b.startCyl
	lh := l.logicalHead(b, p.cyl, p.head)
	r = addMult(r, lh+(l.surfaces-1)*cyl, b.trackSkew, b.trkSpace)
	r = addMult(r, cyl, b.cylSkew, b.trkSpace)
	if l.perCyl() || l.scheme == sectPerTrack {
		tracks := cyl * l.surfaces
		if l.scheme == sectPerTrack {
			tracks += p.head // the physical head, as the source has it
		}
		r = addMult(r, b.slipsBelow(tracks*b.bpt), b.sectorWidth, b.trkSpace)
	}
	return addMult(r, p.sector, b.sectorWidth, b.trkSpace)
}

// sectorWidth returns the angle of num sectors of p's track, 0 when num
// exceeds the track (g1_get_sector_width).
func (l *layout) sectorWidth(p pbn, num int) uint32 {
	b := l.bandOfCyl(p.cyl)
	if num > b.bpt {
		return 0
	}
	return b.sectorWidth * uint32(num)
}

// bpt returns the sector slots on p's track (g1_st_pbn).
func (l *layout) bptOf(p pbn) int { return l.bandOfCyl(p.cyl).bpt }

// bptOfLBN returns the sector slots per track of lbn's band (g1_st_lbn).
func (l *layout) bptOfLBN(lbn int) int { return l.bandOfLBN(lbn).bpt }
