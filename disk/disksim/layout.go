package disksim

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/raidsim/raidsim/disk"
)

// model reads a dm_disk block.
func (l *loader) model(b *Block, p *disk.Params) error {
	if b.Type != "dm_disk" {
		return errAt(b.Pos, "Model: want a dm_disk block, got %s", b.Type)
	}
	var surfaces, cyls, blocks int64 = -1, -1, -1
	var mech, layout *Block
	err := params(b, func(k string, pr Param) (bool, error) {
		var err error
		switch k {
		case "number of data surfaces":
			surfaces, err = pr.Value.Int()
		case "number of cylinders":
			cyls, err = pr.Value.Int()
		case "block count":
			blocks, err = pr.Value.Int()
		case "mechanical model":
			if pr.Value.Kind != BlockValue || pr.Value.Block.Type != "dm_mech_g1" {
				return true, errAt(pr.Value.Pos, "Mechanical Model: want a dm_mech_g1 block")
			}
			mech = pr.Value.Block
		case "layout model":
			if pr.Value.Kind != BlockValue || pr.Value.Block.Type != "dm_layout_g1" {
				return true, errAt(pr.Value.Pos, "Layout Model: want a dm_layout_g1 block (g2 layouts are not supported)")
			}
			layout = pr.Value.Block
		default:
			return false, nil
		}
		return true, err
	})
	if err != nil {
		return err
	}
	switch {
	case surfaces < 1 || surfaces > 256:
		return errAt(b.Pos, "dm_disk %s: Number of data surfaces must be in 1..256, got %d", b.Name, surfaces)
	case cyls < 1:
		return errAt(b.Pos, "dm_disk %s: Number of cylinders must be positive, got %d", b.Name, cyls)
	case blocks < 1:
		return errAt(b.Pos, "dm_disk %s: Block count must be positive, got %d", b.Name, blocks)
	case mech == nil:
		return errAt(b.Pos, "dm_disk %s: no Mechanical Model", b.Name)
	case layout == nil:
		return errAt(b.Pos, "dm_disk %s: no Layout Model", b.Name)
	}
	p.Surfaces = int(surfaces)
	if cyls >= 1<<24 {
		return errAt(b.Pos, "dm_disk %s: Number of cylinders must be below %d, got %d", b.Name, 1<<24, cyls)
	}
	if err := l.layout(layout, p); err != nil {
		return err
	}
	// The seek curve spans the Number of cylinders, which may differ
	// from what the zones cover: cylinders beyond the zones hold no data
	// and zones beyond the count are mapped as given (DiskSim maps by its
	// zone table).
	p.CylinderCount = int(cyls)
	// The manual: the Block count "is compared to a similar value
	// computed from other disk parameters. A warning is reported if the
	// values differ." A count beyond the layout cannot be addressed: the
	// layout's is used (DiskSim's source does so in either direction; a
	// smaller count is kept here, as the capacity the drive exports).
	if s := p.Sectors(); blocks > s {
		l.ignore(b.Type, "Block count", fmt.Sprintf("%d exceeds the %d blocks the layout maps; the layout's count is used", blocks, s))
		blocks = s
	}
	p.Capacity = blocks * 512
	return l.mech(mech, p, max(cyls, zonesEnd(p)))
}

// zonesEnd returns one past the highest cylinder p's zones cover.
func zonesEnd(p *disk.Params) int64 {
	var n int64
	for _, z := range p.Zones {
		n = max(n, int64(z.LastCylinder)+1)
	}
	return n
}

// layout reads a dm_layout_g1 block: the LBN-to-PBN mapping, the sparing
// scheme and the zones.
func (l *loader) layout(b *Block, p *disk.Params) error {
	var scheme, sparing, rangeSize int64 = -1, -1, -1
	schemePos, sparingPos, rangePos := b.Pos, b.Pos, b.Pos
	var zones *Value
	revs := false
	err := params(b, func(k string, pr Param) (bool, error) {
		var err error
		switch k {
		case "lbn-to-pbn mapping scheme":
			scheme, err = pr.Value.Int()
			schemePos = pr.Pos
		case "sparing scheme used":
			sparing, err = pr.Value.Int()
			sparingPos = pr.Pos
		case "rangesize for sparing":
			rangeSize, err = pr.Value.Int()
			rangePos = pr.Pos
		case "skew units":
			revs, err = skewUnits(pr.Value)
		case "zones":
			if pr.Value.Kind != ListValue {
				return true, errAt(pr.Value.Pos, "Zones: want a list")
			}
			v := pr.Value
			zones = &v
		default:
			return false, nil
		}
		return true, err
	})
	if err != nil {
		return err
	}
	switch scheme {
	case 0:
		p.Mapping = disk.MapConventional
	case 1:
		p.Mapping = disk.MapSerpentine
	case 2:
		p.Mapping = disk.MapSerpentineDisk
	default:
		return errAt(schemePos, "LBN-to-PBN mapping scheme = %d: unknown (0 conventional, 1 and 2 serpentine)", scheme)
	}
	if sparing < 0 || sparing > 10 {
		return errAt(sparingPos, "Sparing scheme used = %d: unknown (the manual defines 0-10)", sparing)
	}
	p.Sparing = sparingOf(sparing)
	if sparing == 8 {
		if rangeSize < 1 || rangeSize >= 1<<24 {
			return errAt(rangePos, "Rangesize for sparing = %d: spares per range of cylinders need a range of 1..%d cylinders", rangeSize, 1<<24-1)
		}
		p.Sparing.RangeCylinders = int(rangeSize)
	} else if rangeSize >= 0 {
		l.ignore(b.Type, "Rangesize for sparing", "used by sparing scheme 8 only")
	}
	if zones == nil || len(zones.List) == 0 {
		return errAt(b.Pos, "dm_layout_g1: no Zones")
	}
	var ins []zoneIn
	for _, zv := range zones.List {
		if zv.Kind != BlockValue || zv.Block.Type != "dm_layout_g1_zone" {
			return errAt(zv.Pos, "Zones: want dm_layout_g1_zone blocks")
		}
		z, in, err := l.zone(zv.Block, revs, sparing, p.Surfaces)
		if err != nil {
			return err
		}
		p.Zones = append(p.Zones, z)
		ins = append(ins, in)
	}
	if sparing == 7 {
		return endOfDiskSpares(p, ins, zones.List[len(zones.List)-1].Pos)
	}
	return nil
}

// sparingOf returns the drive model's sparing for DiskSim's G1 sparing
// scheme n (0-10), as the manual defines them.
func sparingOf(n int64) disk.Sparing {
	switch n {
	case 1: // spare tracks at the end of the zone; slips count tracks
		return disk.Sparing{TrackUnits: true}
	case 2: // spare sectors at the end of each cylinder
		return disk.Sparing{Region: disk.SparePerCylinder}
	case 3: // ... at the end of each track
		return disk.Sparing{Region: disk.SparePerTrack}
	case 4: // ... at the end of each cylinder, slips not using them
		return disk.Sparing{Region: disk.SparePerCylinder, SlipToEnd: true}
	case 5: // ... at the front of each cylinder
		return disk.Sparing{Region: disk.SparePerCylinder, AtFront: true}
	case 6: // ... at the front of each cylinder, slips not using them
		return disk.Sparing{Region: disk.SparePerCylinder, AtFront: true, SlipToEnd: true}
	case 8: // ... at the end of each range of cylinders
		return disk.Sparing{Region: disk.SparePerRange}
	}
	// 0 (none), 7 (end of the disk), 9 and 10 (end of each zone) keep
	// spares at zone ends only (see zone and endOfDiskSpares).
	return disk.Sparing{}
}

// endOfDiskSpares places the spares of sparing scheme 7 ("spare sectors
// are allocated at the end of the disk"): the zones' Number of spares
// add up to the disk's, at the end of the last zone. A slip shifts every
// later LBA towards the end of the disk, so each zone but the last ends
// as many LBAs early as it has slips (its "spares" are the slots its
// slips pushed into the next zone) and the last zone keeps what is left.
func endOfDiskSpares(p *disk.Params, ins []zoneIn, at Pos) error {
	var total, slipsBefore int64
	for i, in := range ins {
		total += in.spares
		if i < len(ins)-1 {
			p.Zones[i].SpareSectors = len(in.slips)
			slipsBefore += int64(len(in.slips))
		}
	}
	last := &p.Zones[len(p.Zones)-1]
	left := total - slipsBefore
	if left < int64(len(ins[len(ins)-1].slips)) || left >= 1<<40 {
		return errAt(at, "zone: the disk's %d spares (scheme 7, at the end of the disk) cannot take its %d slips", total, slipsBefore+int64(len(ins[len(ins)-1].slips)))
	}
	last.SpareSectors = int(left)
	return nil
}

func skewUnits(v Value) (bool, error) {
	switch strings.ToLower(v.Word) {
	case "sectors":
		return false, nil
	case "revolutions":
		return true, nil
	}
	return false, errAt(v.Pos, "Skew units: want sectors or revolutions, got %q", v.Word)
}

// zoneIn is a dm_layout_g1_zone block as read.
type zoneIn struct {
	first, last, spt, empty, spares int64
	offset, tskew, cskew            float64
	slips                           []int64
	defects                         []disk.Remap
	offPos, tPos, cPos              Pos
	revs                            bool // skews in revolutions, not sectors
}

// readZone reads a dm_layout_g1_zone block; revs is the layout's skew
// unit, which the zone may override.
func readZone(b *Block, revs bool) (zoneIn, error) {
	z := zoneIn{first: -1, last: -1, spt: -1, revs: revs}
	err := params(b, func(k string, pr Param) (bool, error) {
		var err error
		v := pr.Value
		switch k {
		case "first cylinder number":
			z.first, err = v.Int()
		case "last cylinder number":
			z.last, err = v.Int()
		case "blocks per track":
			z.spt, err = v.Int()
		case "offset of first block":
			z.offset, err = v.Float()
			z.offPos = v.Pos
		case "empty space at zone front":
			z.empty, err = v.Int()
		case "skew for track switch":
			z.tskew, err = v.Float()
			z.tPos = v.Pos
		case "skew for cylinder switch":
			z.cskew, err = v.Float()
			z.cPos = v.Pos
		case "skew units":
			z.revs, err = skewUnits(v)
		case "number of spares":
			z.spares, err = v.Int()
		case "slips":
			if v.Kind != ListValue {
				return true, errAt(v.Pos, "slips: want a list")
			}
			for _, e := range v.List {
				n, err := e.Int()
				if err != nil {
					return true, err
				}
				z.slips = append(z.slips, n)
			}
		case "defects":
			if v.Kind != ListValue {
				return true, errAt(v.Pos, "defects: want a list")
			}
			if len(v.List)%2 != 0 {
				return true, errAt(v.Pos, "defects: want pairs of defective and replacement locations, got %d numbers", len(v.List))
			}
			for i := 0; i < len(v.List); i += 2 {
				d, err := v.List[i].Int()
				if err != nil {
					return true, err
				}
				r, err := v.List[i+1].Int()
				if err != nil {
					return true, err
				}
				if d < 0 || r < 0 {
					return true, errAt(v.Pos, "defects: locations must not be negative, got %d, %d", d, r)
				}
				z.defects = append(z.defects, disk.Remap{Defect: d, Spare: r})
			}
		default:
			return false, nil
		}
		return true, err
	})
	return z, err
}

// sectors converts a zone offset or skew x (in sectors, or revolutions
// when the zone's unit says so) to whole sectors of a track.
func (in *zoneIn) sectors(x float64, at Pos, what string) (int, error) {
	if in.revs {
		x *= float64(in.spt)
	}
	r := math.Round(x)
	if math.Abs(x-r) > 1e-6 || r < 0 || r >= float64(in.spt) {
		return 0, errAt(at, "%s = %g: must be a whole number of sectors in 0..%d", what, x, in.spt-1)
	}
	return int(r), nil
}

// zone reads a dm_layout_g1_zone block into a Zone of a drive with
// surfaces surfaces, whose spares follow sparing scheme sparing; it
// returns the block as read too.
func (l *loader) zone(b *Block, revs bool, sparing int64, surfaces int) (disk.Zone, zoneIn, error) {
	var z disk.Zone
	in, err := readZone(b, revs)
	if err != nil {
		return z, in, err
	}
	first, last, spt := in.first, in.last, in.spt
	if first < 0 || last < first || spt < 1 || spt > 1<<16 || last >= 1<<24 {
		return z, in, errAt(b.Pos, "zone: need 0 <= First cylinder number <= Last cylinder number < %d and Blocks per track in 1..%d, got %d, %d, %d", 1<<24, 1<<16, first, last, spt)
	}
	z = disk.Zone{FirstCylinder: int(first), LastCylinder: int(last), SectorsPerTrack: int(spt)}
	if z.FirstBlockOffset, err = in.sectors(in.offset, in.offPos, "Offset of first block"); err != nil {
		return z, in, err
	}
	if z.TrackSkew, err = in.sectors(in.tskew, in.tPos, "Skew for track switch"); err != nil {
		return z, in, err
	}
	if z.CylinderSkew, err = in.sectors(in.cskew, in.cPos, "Skew for cylinder switch"); err != nil {
		return z, in, err
	}
	slots := (last - first + 1) * spt * int64(surfaces)
	units := slots // slips and defects count sectors ...
	if sparing == 1 {
		units /= spt // ... or tracks
	}
	if in.empty < 0 || in.spares < 0 || in.empty >= slots || in.spares >= slots {
		return z, in, errAt(b.Pos, "zone: Empty space at zone front (%d) and Number of spares (%d) must be in 0..%d", in.empty, in.spares, slots-1)
	}
	slips := append([]int64(nil), in.slips...)
	sort.Slice(slips, func(i, j int) bool { return slips[i] < slips[j] })
	for i, s := range slips {
		if s < 0 || s >= units || (i > 0 && s == slips[i-1]) {
			return z, in, errAt(b.Pos, "zone: slip %d is outside the zone's %d locations or repeated", s, units)
		}
	}
	for _, d := range in.defects {
		if d.Defect >= units || d.Spare >= units {
			return z, in, errAt(b.Pos, "zone: defect %d remapped to %d: outside the zone's %d locations", d.Defect, d.Spare, units)
		}
	}
	z.ReservedSectors = int(in.empty)
	z.Slips = slips
	z.Remaps = in.defects
	k, n := int(in.spares), len(slips)
	switch sparing {
	case 1: // spare tracks at the end of the zone
		z.SpareSectors = k * int(spt)
	case 2, 3, 5, 8: // spares in each region, used by its slips
		z.RegionSpares = k
	case 4, 6: // spares in each cylinder; slips push LBAs to the end
		// of the disk: each zone ends as many LBAs early as it has slips,
		// the next zone starting where they were pushed (DiskSim's source
		// counts a zone's blocks so; the manual leaves the count open).
		z.RegionSpares, z.SpareSectors = k, n
	case 9: // spares at the end of the zone, used by slips
		z.SpareSectors = k
	case 10: // spares at the end of the zone; slips push LBAs past them
		z.SpareSectors = k + n
	}
	// 0: no spares (a slip then has nowhere to go: Validate says so);
	// 7: see endOfDiskSpares.
	return z, in, nil
}
