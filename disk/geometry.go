package disk

// zoneInfo is a Zone with the figures the hot path needs precomputed.
//
// Within a zone, physical sector slots are numbered from 0 track by track
// in the order the mapping visits the tracks (zone track index trk: the
// cylinder trk/heads, and the surface trk%heads, reversed on serpentine
// cylinders). LBAs fill the slots in order, skipping the reserved slots
// at the zone's front and the slipped slots; the spare slots at the end
// hold no LBA.
type zoneInfo struct {
	firstLBA, endLBA int64 // LBA range [firstLBA, endLBA)
	firstCyl         int64
	lastCyl          int64
	spt              int64 // sectors per track
	perCyl           int64 // sectors per cylinder
	trackSkew        int64 // sectors
	cylSkew          int64 // sectors
	cylStep          int64 // skew accumulated per whole cylinder, mod spt
	offset           int64 // angular offset of the zone's first slot, sectors
	den              int64 // spt * rpm: k sectors last k*unitsPerRev/den ns
	reserved         int64 // data slots at the zone's front that hold no LBA
	slots            int64 // sector slots in the zone
	serp             bool  // odd cylinders visit surfaces in reverse
	serpAbs          bool  // ... odd counted from cylinder 0, not the zone's first
	general          bool  // anything but the plain layout: locate takes the slow path

	// Sparing (see Sparing and sparing.go).
	slips              []run // slipped slots, sorted (non-spare indices when slips shift past region spares)
	region, lastRegion int64 // slots per spare region, and in the zone's last one; 0: none
	rk                 int64 // spare slots per region
	front              bool  // region spares at the region's front
	local              bool  // slips use their region's spares
	remaps             []remapRun
}

// geometry maps LBAs to physical positions. Layout is the classic one:
// LBAs fill a track, then the next surface of the same cylinder, then the
// next cylinder; zone by zone from the outer edge. Params.Mapping may
// make it serpentine, and zones may reserve, spare and slip sectors.
type geometry struct {
	zones     []zoneInfo
	ends      []int64 // zones[i].endLBA, packed: zoneOf's search reads a few cache lines, not a zone each
	heads     int64
	cylinders int64
	sectors   int64
	rpm       int64
}

func newGeometry(p *Params) geometry {
	g := geometry{heads: int64(p.Surfaces), rpm: int64(p.RPM)}
	var lba int64
	for _, z := range p.Zones {
		spt := int64(z.SectorsPerTrack)
		zi := zoneInfo{
			firstLBA:  lba,
			firstCyl:  int64(z.FirstCylinder),
			lastCyl:   int64(z.LastCylinder),
			spt:       spt,
			perCyl:    spt * g.heads,
			trackSkew: int64(z.TrackSkew),
			cylSkew:   int64(z.CylinderSkew),
			offset:    int64(z.FirstBlockOffset) % spt,
			den:       spt * g.rpm,
			reserved:  int64(z.ReservedSectors),
			slots:     int64(z.Cylinders()) * spt * g.heads,
			serp:      p.Mapping != MapConventional,
			serpAbs:   p.Mapping == MapSerpentineDisk,
		}
		zi.setupSparing(&z, &p.Sparing)
		zi.cylStep = ((g.heads-1)*zi.trackSkew + zi.cylSkew) % spt
		lba += z.lbas(p.Surfaces, &p.Sparing)
		zi.endLBA = lba
		g.zones = append(g.zones, zi)
		g.ends = append(g.ends, lba)
	}
	g.sectors = lba
	g.cylinders = int64(p.Cylinders())
	return g
}

// zoneOf returns the index of the zone holding lba.
func (g *geometry) zoneOf(lba int64) int {
	ends := g.ends
	lo, hi := 0, len(ends)-1
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if ends[m] <= lba {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// pos is a physical sector address.
type pos struct {
	zone   int
	cyl    int64
	head   int64
	sector int64 // slot within the track
	trk    int64 // zone track index in mapping order
}

// cylHead returns the cylinder and surface of zone track trk.
func (z *zoneInfo) cylHead(trk, heads int64) (cyl, head int64) {
	c := trk / heads
	h := trk - c*heads
	if z.reversed(z.firstCyl + c) {
		h = heads - 1 - h
	}
	return z.firstCyl + c, h
}

// reversed reports whether cylinder cyl of the zone visits its surfaces
// from the last down: odd cylinders of a serpentine layout, counted from
// the zone's first (MapSerpentine) or from cylinder 0 (MapSerpentineDisk).
func (z *zoneInfo) reversed(cyl int64) bool {
	if !z.serp {
		return false
	}
	if z.serpAbs {
		return cyl&1 == 1
	}
	return (cyl-z.firstCyl)&1 == 1
}

func (g *geometry) locate(lba int64) pos {
	zi := g.zoneOf(lba)
	z := &g.zones[zi]
	rel := lba - z.firstLBA
	if !z.general {
		c := rel / z.perCyl
		r := rel - c*z.perCyl
		h := r / z.spt
		return pos{zone: zi, cyl: z.firstCyl + c, head: h, sector: r - h*z.spt, trk: c*g.heads + h}
	}
	p := z.physSlot(z.slotOf(rel))
	trk := p / z.spt
	cyl, head := z.cylHead(trk, g.heads)
	return pos{zone: zi, cyl: cyl, head: head, sector: p - trk*z.spt, trk: trk}
}

// trackLBAs returns how many LBAs from lba (at p) onwards lie on p's
// track.
func (g *geometry) trackLBAs(lba int64, p pos) int64 {
	z := &g.zones[p.zone]
	if z.general {
		return z.generalTrackLBAs(lba-z.firstLBA, z.endLBA-lba)
	}
	return min(z.spt-p.sector, z.endLBA-lba)
}

// slotSpan returns how many slots of p's track the m LBAs from lba (at
// p, all on that track) cover, slipped and spare slots between them
// included.
func (g *geometry) slotSpan(lba int64, p pos, m int64) int64 {
	z := &g.zones[p.zone]
	if !z.general {
		return m
	}
	return z.physSlot(z.slotOf(lba-z.firstLBA+m-1)) - (p.trk*z.spt + p.sector) + 1
}

// skew returns the angular offset, in sectors, of sector 0 of track
// (cyl, head) of zone z in the conventional mapping: skews accumulate
// track by track and cylinder by cylinder from the zone's first track.
func (z *zoneInfo) skew(cyl, head int64) int64 {
	return ((cyl-z.firstCyl)%z.spt*z.cylStep + head*z.trackSkew) % z.spt
}

// trkSkew returns the angular offset, in sectors, of slot 0 of the track
// (cyl, head) of zone z: the zone's first-block offset, a track skew for
// every track crossing and a cylinder skew for every cylinder crossing
// before it along the mapping's track order.
func (z *zoneInfo) trkSkew(cyl, head, heads int64) int64 {
	c := cyl - z.firstCyl
	if z.reversed(cyl) {
		head = heads - 1 - head // the head-th track of the cylinder counts from the top
	}
	return (z.offset + c%z.spt*z.cylStep + head*z.trackSkew) % z.spt
}

// angle returns the rotational position, in units of 1/unitsPerRev of a
// revolution, at which the given slot of track (cyl, head) begins.
func (z *zoneInfo) angle(cyl, head, sector, heads int64) int64 {
	k := (sector + z.trkSkew(cyl, head, heads)) % z.spt
	return k * unitsPerRev / z.spt
}

// Location is the physical address of one sector.
type Location struct {
	// Zone is the index of the zone in Params.Zones.
	Zone int
	// Cylinder counts from 0 at the outer edge.
	Cylinder int
	// Head is the surface, from 0.
	Head int
	// Sector is the sector's index within its track, from 0 (before skew).
	Sector int
}
