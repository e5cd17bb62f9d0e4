package disksim

import (
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
	if err := l.layout(layout, p); err != nil {
		return err
	}
	if got := p.Cylinders(); int64(got) != cyls {
		return errAt(b.Pos, "dm_disk %s: Number of cylinders is %d but the zones cover %d", b.Name, cyls, got)
	}
	if s := p.Sectors(); blocks > s {
		return errAt(b.Pos, "dm_disk %s: Block count %d exceeds the %d blocks the layout maps", b.Name, blocks, s)
	}
	p.Capacity = blocks * 512
	return l.mech(mech, p, cyls)
}

// layout reads a dm_layout_g1 block: the LBN-to-PBN mapping, the sparing
// scheme and the zones.
func (l *loader) layout(b *Block, p *disk.Params) error {
	var scheme, sparing int64 = -1, -1
	schemePos, sparingPos := b.Pos, b.Pos
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
			l.ignore(b.Type, pr.Key, "only zone and track sparing are supported")
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
	default:
		return errAt(schemePos, "LBN-to-PBN mapping scheme = %d: cannot honour (0 and 1 are supported)", scheme)
	}
	switch sparing {
	case 0, 1, 9:
	default:
		return errAt(sparingPos, "Sparing scheme used = %d: cannot honour (0 none, 1 spare tracks and 9 spare sectors at the end of each zone are supported)", sparing)
	}
	if zones == nil || len(zones.List) == 0 {
		return errAt(b.Pos, "dm_layout_g1: no Zones")
	}
	for _, zv := range zones.List {
		if zv.Kind != BlockValue || zv.Block.Type != "dm_layout_g1_zone" {
			return errAt(zv.Pos, "Zones: want dm_layout_g1_zone blocks")
		}
		z, err := l.zone(zv.Block, revs, sparing, p.Surfaces)
		if err != nil {
			return err
		}
		p.Zones = append(p.Zones, z)
	}
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
			if len(v.List) > 0 {
				return true, errAt(v.Pos, "defects: cannot honour (remapped defects are not modelled)")
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
// surfaces surfaces, whose spares follow sparing scheme sparing.
func (l *loader) zone(b *Block, revs bool, sparing int64, surfaces int) (disk.Zone, error) {
	var z disk.Zone
	in, err := readZone(b, revs)
	if err != nil {
		return z, err
	}
	first, last, spt := in.first, in.last, in.spt
	if first < 0 || last < first || spt < 1 || spt > 1<<16 || last >= 1<<24 {
		return z, errAt(b.Pos, "zone: need 0 <= First cylinder number <= Last cylinder number < %d and Blocks per track in 1..%d, got %d, %d, %d", 1<<24, 1<<16, first, last, spt)
	}
	z = disk.Zone{FirstCylinder: int(first), LastCylinder: int(last), SectorsPerTrack: int(spt)}
	if z.FirstBlockOffset, err = in.sectors(in.offset, in.offPos, "Offset of first block"); err != nil {
		return z, err
	}
	if z.TrackSkew, err = in.sectors(in.tskew, in.tPos, "Skew for track switch"); err != nil {
		return z, err
	}
	if z.CylinderSkew, err = in.sectors(in.cskew, in.cPos, "Skew for cylinder switch"); err != nil {
		return z, err
	}
	slots := (last - first + 1) * spt * int64(surfaces)
	empty, spares, slips := in.empty, in.spares, in.slips
	switch sparing {
	case 0:
		spares = 0
	case 1:
		spares *= spt
	}
	if empty < 0 || spares < 0 || empty+spares >= slots {
		return z, errAt(b.Pos, "zone: empty space (%d) and spares (%d sectors) must be non-negative and leave room in the zone's %d sectors", empty, spares, slots)
	}
	if int64(len(slips)) > spares {
		return z, errAt(b.Pos, "zone: %d slips but only %d spare sectors", len(slips), spares)
	}
	sort.Slice(slips, func(i, j int) bool { return slips[i] < slips[j] })
	for i, s := range slips {
		if s < 0 || s >= slots || (i > 0 && s == slips[i-1]) {
			return z, errAt(b.Pos, "zone: slip %d is outside the zone's %d sectors or repeated", s, slots)
		}
	}
	z.ReservedSectors = int(empty)
	z.SpareSectors = int(spares)
	z.Slips = slips
	return z, nil
}
