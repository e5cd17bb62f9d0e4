package disksim

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/raidsim/raidsim/disk/disksim/exact"
)

// exactModelBlock reads a dm_disk block into m's layout and mechanics
// and returns the disk's block count as DiskSim computes it (the sum of
// its zones', whatever "Block count" says).
func (l *loader) exactModelBlock(b *Block, m *exact.Model) (int, error) {
	if b.Type != "dm_disk" {
		return 0, errAt(b.Pos, "Model: want a dm_disk block, got %s", b.Type)
	}
	var mech, lay *Block
	err := readBlock(b, dmDiskSpecs, func(name string, p Param) error {
		n, _ := p.Value.Int()
		switch name {
		case "Number of data surfaces":
			m.Layout.Surfaces = int(n)
			return ranged(p, float64(n), 1, 1<<16)
		case "Number of cylinders":
			m.Layout.Cylinders = int(n)
			return ranged(p, float64(n), 1, 1<<24)
		case "Block count":
			l.ignore(b.Type, "Block count", "DiskSim counts the blocks of the zones instead")
		case "Mechanical Model":
			if p.Value.Block.Type != "dm_mech_g1" {
				return errAt(p.Value.Pos, "Mechanical Model: want a dm_mech_g1 block, got %s", p.Value.Block.Type)
			}
			mech = p.Value.Block
		case "Layout Model":
			if p.Value.Block.Type != "dm_layout_g1" {
				return errAt(p.Value.Pos, "Layout Model: exact mode reads dm_layout_g1 only, got %s", p.Value.Block.Type)
			}
			lay = p.Value.Block
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	if mech == nil {
		return 0, errAt(b.Pos, "dm_disk %s: no Mechanical Model (DiskSim cannot run without one)", b.Name)
	}
	if err := l.exactMech(mech, &m.Mech); err != nil {
		return 0, err
	}
	if err := l.exactLayout(lay, &m.Layout); err != nil {
		return 0, err
	}
	n, err := m.Sectors()
	if err != nil {
		return 0, errAt(lay.Pos, "%v", err)
	}
	return n, nil
}

// Seek type names, as DiskSim's loader numbers them.
var seekTypes = map[string]int{"constant": 0, "linear": 1, "curve": 2, "hpl": 3, "hplplus10": 4, "extracted": 5}

// exactMech reads a dm_mech_g1 block as dm_mech_g1_loadparams does. The
// seek-time figures other than the curve and the HPL and ten-first
// values are stored into picosecond fields without conversion, as the
// source does; the seek type is kept in the same field as the constant
// seek time, so the later of the two wins.
func (l *loader) exactMech(b *Block, m *exact.Mech) error {
	seekField := int64(0) // the source's seektime field
	fn := -1
	err := readBlock(b, mechSpecs, func(name string, p Param) error {
		v := p.Value
		f, _ := v.Float()
		switch name {
		case "Access time type":
			switch v.Word {
			case "constant", "averageRotation", "trackSwitchPlusRotation":
				// DiskSim stores it and never reads it back.
			default:
				return errAt(v.Pos, "Access time type %q: unknown (DiskSim asserts)", v.Word)
			}
		case "Seek type":
			t, ok := seekTypes[v.Word]
			if !ok {
				return errAt(v.Pos, "Seek type %q: unknown (DiskSim asserts)", v.Word)
			}
			seekField, fn = int64(t), t
		// dm_mech_g1's loaders test their ranges and do nothing when a
		// value is out of range: negative times are taken as given
		case "Constant seek time":
			seekField = int64(f)
		case "Average seek time":
			m.Average = int64(f)
		case "Single cylinder seek time":
			m.Single = int64(f)
		case "Full strobe seek time":
			m.Full = int64(f)
		case "Constant access time":
		case "Full seek curve":
			seekField = 5
			return l.exactCurve(p, m)
		case "Add. write settling delay":
			m.WriteSettle = msPs(f)
		case "Head switch time":
			m.HeadSwitch = msPs(f)
		case "Rotation speed (in rpms)":
			m.RPM = int(f)
			if f < 1 {
				return errAt(p.Pos, "Rotation speed (in rpms) = %g: DiskSim stops (no rotation: disk_buffer_sector_done loops until its forward-progress assertion)", f)
			}
		case "Percent error in rpms":
			// DiskSim 4.0 reads it and never applies it
			// (dm_mech_g1_set_period is empty)
		case "First ten seek times":
			return l.firstTen(p, seekField, m)
		case "HPL seek equation values":
			return l.hplValues(p, seekField, m)
		}
		return nil
	})
	if err != nil {
		return err
	}
	if fn == 0 {
		// The constant seek function returns the field itself.
		m.SeekTime = seekField
	}
	m.SeekType = fn
	return nil
}

// msPs is dm_time_dtoi: milliseconds to picoseconds, truncated after
// the x87 product (11.46595 ms is 11,465,949,999 ps in DiskSim, as the
// extracted seek curve of a generated model showed; the double product
// rounds up to 11,465,950,000).
func msPs(ms float64) int64 { return exact.Picoseconds(ms) }

// firstTen reads "First ten seek times" as do_1st10_seeks does: ignored
// (with a warning) unless the seek type is hplplus10.
func (l *loader) firstTen(p Param, seekField int64, m *exact.Mech) error {
	if seekField != 4 {
		l.ignore("dm_mech_g1", p.Key, "DiskSim ignores it unless the seek type is hplplus10")
		return nil
	}
	if len(p.Value.List) < 10 {
		return errAt(p.Pos, "First ten seek times: want 10 values, got %d (DiskSim rejects it)", len(p.Value.List))
	}
	for i := 0; i < 10; i++ {
		e := p.Value.List[i]
		f, err := e.Float()
		if err != nil || e.Kind != Word || intWord.MatchString(e.Word) || f < 0 {
			return errAt(e.Pos, "First ten seek times: want non-negative floats (DiskSim rejects %q)", e.Word)
		}
		m.First10[i] = msPs(f)
	}
	return nil
}

// hplValues reads "HPL seek equation values" as do_hpl_seek does.
func (l *loader) hplValues(p Param, seekField int64, m *exact.Mech) error {
	if seekField != 3 && seekField != 4 {
		l.ignore("dm_mech_g1", p.Key, "DiskSim ignores it unless the seek type is hpl or hplplus10")
		return nil
	}
	vs := p.Value.List
	if len(vs) < 6 {
		return errAt(p.Pos, "HPL seek equation values: want 6 values, got %d (DiskSim rejects it)", len(vs))
	}
	if vs[0].Kind != Word || !intWord.MatchString(vs[0].Word) {
		return errAt(vs[0].Pos, "HPL seek equation values: V1 is in cylinders, an integer (DiskSim rejects %q)", vs[0].Word)
	}
	v1, _ := vs[0].Int()
	if v1 < 0 {
		return errAt(vs[0].Pos, "HPL seek equation values: V1 must not be negative (DiskSim rejects it)")
	}
	m.HPLV1 = int(v1)
	for i := 1; i < 6; i++ {
		e := vs[i]
		f, err := e.Float()
		if err != nil || e.Kind != Word || intWord.MatchString(e.Word) {
			return errAt(e.Pos, "HPL seek equation values: V2..V6 must be floats (DiskSim rejects %q)", e.Word)
		}
		if f < 0 && i != 5 {
			return errAt(e.Pos, "HPL seek equation values: V2..V5 must not be negative (DiskSim rejects it)")
		}
		if i == 5 && f == -1 {
			m.HPL[5] = -1
			continue
		}
		m.HPL[i] = msPs(f)
	}
	if m.HPL[5] != -1 {
		m.Single = m.HPL[5]
	}
	return nil
}

// exactCurve reads an extracted seek curve as
// dm_mech_g1_read_extracted_seek_curve does: after a "Seek distances
// measured: N" header its entries are stored after N empty ones (the
// count is not reset), lines that do not parse are skipped.
func (l *loader) exactCurve(p Param, m *exact.Mech) error {
	path := resolve(p.Value.Pos.File, p.Value.Word)
	src, err := l.read(path)
	if err != nil {
		return errAt(p.Value.Pos, "Full seek curve: %v", errors.Unwrap(err))
	}
	dists, times, err := parseExactCurve(filepath.Clean(path), src)
	if err != nil {
		return err
	}
	m.CurveDist, m.CurveTime = dists, times
	m.CurveBeforeDist, m.CurveBeforeTime = beforeCurve(src, len(dists))
	return nil
}

func parseExactCurve(name string, src []byte) ([]int, []int64, error) {
	sc := bufio.NewScanner(bytes.NewReader(src))
	var dists []int
	var times []int64
	first := true
	for sc.Scan() {
		line := sc.Text()
		if first {
			first = false
			if rest, ok := strings.CutPrefix(strings.TrimSpace(line), "Seek distances measured:"); ok {
				n, err := strconv.Atoi(strings.TrimSpace(rest))
				if err != nil || n < 1 || n > 1<<20 {
					return nil, nil, errAt(Pos{name, 1}, "bad number of seek distances %q", strings.TrimSpace(rest))
				}
				dists = make([]int, n)
				times = make([]int64, n)
				continue
			}
		}
		d, t, ok := curveLine(line)
		if ok {
			dists = append(dists, d)
			times = append(times, msPs(t))
		}
	}
	if err := sc.Err(); err != nil {
		return nil, nil, fmt.Errorf("disksim: %s: %w", name, err)
	}
	return dists, times, nil
}

// curveLine parses "%d, %lf" (a third field is allowed) as sscanf does:
// leading space, an integer, a comma, a float prefix.
func curveLine(s string) (int, float64, bool) {
	ds, rest, ok := strings.Cut(s, ",")
	if !ok {
		return 0, 0, false
	}
	d, err := strconv.Atoi(strings.TrimLeft(ds, " \t"))
	if err != nil {
		return 0, 0, false
	}
	rest = strings.TrimLeft(rest, " \t")
	end := 0
	for end < len(rest) && strings.IndexByte("0123456789+-.eE", rest[end]) >= 0 {
		end++
	}
	for end > 0 {
		if t, err := strconv.ParseFloat(rest[:end], 64); err == nil {
			return d, t, true
		}
		end--
	}
	return 0, 0, false
}

// exactLayout reads a dm_layout_g1 block as dm_layout_g1_loadparams
// does.
func (l *loader) exactLayout(b *Block, lay *exact.Layout) error {
	revs := false
	return readBlock(b, layoutSpecs, func(name string, p Param) error {
		v := p.Value
		n, _ := v.Int()
		switch name {
		case "LBN-to-PBN mapping scheme":
			lay.Mapping = int(n)
			return ranged(p, float64(n), 0, 2)
		case "Sparing scheme used":
			lay.Sparing = int(n)
			if n < 1 || n > 10 {
				return errAt(p.Pos, "Sparing scheme used = %d: DiskSim 4.0 rejects it (dm_layout_g1_compute_blksinband: unknown sparing scheme)", n)
			}
		case "Rangesize for sparing":
			lay.RangeSize = int(n)
		case "Skew units":
			var err error
			revs, err = skewUnits(v)
			return err
		case "Zones":
			for _, zv := range v.List {
				if zv.Kind != BlockValue || zv.Block.Type != "dm_layout_g1_zone" {
					return errAt(zv.Pos, "Zones: want dm_layout_g1_zone blocks")
				}
				z, err := exactZone(zv.Block, revs)
				if err != nil {
					return err
				}
				lay.Zones = append(lay.Zones, z)
			}
		}
		return nil
	})
}

// exactZone reads a dm_layout_g1_zone block: offsets and skews given in
// sectors are truncated to whole sectors and multiplied by the sector
// width (2^32 / blocks per track); in revolutions they are converted
// directly (dm_angle_dtoi).
func exactZone(b *Block, revs bool) (exact.Zone, error) {
	var z exact.Zone
	var width uint32
	angle := func(f float64) uint32 {
		if revs {
			a := f
			if a > 1 {
				a -= float64(int64(a))
			}
			return uint32(int64(a * (1 << 32)))
		}
		return uint32(int32(f)) * width
	}
	err := readBlock(b, zoneSpecs, func(name string, p Param) error {
		v := p.Value
		f, _ := v.Float()
		n := int(f)
		switch name {
		case "First cylinder number":
			z.FirstCyl = n
		case "Last cylinder number":
			z.LastCyl = n
		case "Blocks per track":
			z.BlocksPerTrack = n
			if n < 1 {
				return errAt(p.Pos, "Blocks per track = %d: must be positive (DiskSim rejects it)", n)
			}
			width = uint32((int64(1) << 32) / int64(n))
		case "Offset of first block":
			z.FirstBlockAngle = angle(f)
		case "Skew units":
			var err error
			revs, err = skewUnits(v)
			return err
		case "Empty space at zone front":
			z.EmptySpace = n
		case "Skew for track switch":
			z.TrackSkew = angle(f)
		case "Skew for cylinder switch":
			z.CylSkew = angle(f)
		case "Number of spares":
			z.Spares = n
		case "slips":
			s, err := intList(v, "slips")
			z.Slips = s
			return err
		case "defects":
			s, err := intList(v, "defects")
			if err != nil {
				return err
			}
			if len(s)%2 != 0 {
				return errAt(v.Pos, "defects: must have an even number of values (DiskSim rejects it)")
			}
			for i := 0; i < len(s); i += 2 {
				z.Defects = append(z.Defects, s[i])
				z.Remaps = append(z.Remaps, s[i+1])
			}
		}
		return nil
	})
	return z, err
}

// intList reads a list of non-negative integers, as getslips and
// getdefects require.
func intList(v Value, what string) ([]int, error) {
	var out []int
	for _, e := range v.List {
		if e.Kind != Word || !intWord.MatchString(e.Word) {
			return nil, errAt(e.Pos, "%s: must be integers (DiskSim rejects %s)", what, describe(e))
		}
		n, _ := e.Int()
		if n < 0 || n >= 1<<31 {
			return nil, errAt(e.Pos, "%s: must be non-negative integers (DiskSim rejects %d)", what, n)
		}
		out = append(out, int(n))
	}
	return out, nil
}
