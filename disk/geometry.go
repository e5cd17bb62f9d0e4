package disk

// zoneInfo is a Zone with the figures the hot path needs precomputed.
type zoneInfo struct {
	firstLBA, endLBA int64 // LBA range [firstLBA, endLBA)
	firstCyl         int64
	lastCyl          int64
	spt              int64 // sectors per track
	perCyl           int64 // sectors per cylinder
	trackSkew        int64 // sectors
	cylSkew          int64 // sectors
	cylStep          int64 // skew accumulated per whole cylinder, mod spt
	den              int64 // spt * rpm: k sectors last k*unitsPerRev/den ns
}

// geometry maps LBAs to physical positions. Layout is the classic one:
// LBAs fill a track, then the next surface of the same cylinder, then the
// next cylinder; zone by zone from the outer edge.
type geometry struct {
	zones     []zoneInfo
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
			den:       spt * g.rpm,
		}
		zi.cylStep = ((g.heads-1)*zi.trackSkew + zi.cylSkew) % spt
		lba += int64(z.Cylinders()) * zi.perCyl
		zi.endLBA = lba
		g.zones = append(g.zones, zi)
	}
	g.sectors = lba
	g.cylinders = int64(p.Cylinders())
	return g
}

// zoneOf returns the index of the zone holding lba.
func (g *geometry) zoneOf(lba int64) int {
	zs := g.zones
	lo, hi := 0, len(zs)-1
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if zs[m].endLBA <= lba {
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
	sector int64
}

func (g *geometry) locate(lba int64) pos {
	zi := g.zoneOf(lba)
	z := &g.zones[zi]
	rel := lba - z.firstLBA
	c := rel / z.perCyl
	r := rel - c*z.perCyl
	h := r / z.spt
	return pos{zone: zi, cyl: z.firstCyl + c, head: h, sector: r - h*z.spt}
}

// skew returns the angular offset, in sectors, of sector 0 of track
// (cyl, head) of zone z: skews accumulate track by track and cylinder by
// cylinder from the zone's first track.
func (z *zoneInfo) skew(cyl, head int64) int64 {
	return ((cyl-z.firstCyl)%z.spt*z.cylStep + head*z.trackSkew) % z.spt
}

// angle returns the rotational position, in units of 1/unitsPerRev of a
// revolution, at which the given sector of track (cyl, head) begins.
func (z *zoneInfo) angle(cyl, head, sector int64) int64 {
	k := (sector + z.skew(cyl, head)) % z.spt
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
