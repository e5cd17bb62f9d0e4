package disk

import (
	"fmt"
	"sort"
)

// SpareRegion says where a layout keeps spare sectors other than those
// at the end of each zone (Zone.SpareSectors). The zero value keeps none.
type SpareRegion uint8

const (
	// SpareNone keeps spares only at the end of each zone.
	SpareNone SpareRegion = iota
	// SparePerTrack keeps Zone.RegionSpares spare sectors on every
	// track (DiskSim's sparing scheme 3).
	SparePerTrack
	// SparePerCylinder keeps Zone.RegionSpares spare sectors on every
	// cylinder (schemes 2, 4, 5 and 6).
	SparePerCylinder
	// SparePerRange keeps Zone.RegionSpares spare sectors in every range
	// of Sparing.RangeCylinders cylinders, counted from the zone's first
	// cylinder; the zone's last range may be shorter (scheme 8).
	SparePerRange
	numSpareRegions
)

// Sparing says how a layout sets spare sectors aside and how slipped
// sectors use them (DiskSim's G1 "Sparing scheme used"). The zero value
// keeps spares only at the end of each zone, which slips use.
//
// A zone's sector slots are numbered in the mapping's track order. The
// spares of each region (track, cylinder or range of cylinders) are its
// last Zone.RegionSpares slots, or its first with AtFront. A slipped slot
// holds no LBA: the LBAs after it shift by one slot. Without SlipToEnd
// they shift within the region into its spares (a region may hold no
// more slips than spares); with SlipToEnd (or SpareNone) they shift
// along the whole zone, past the region spares, into the zone's end
// spares (Zone.SpareSectors). Zone.ReservedSectors are the first slots
// that would hold LBAs; they hold none.
//
// This follows DiskSim's manual. Its source differs in places the manual
// does not describe, which are not followed: with spares at the front of
// each cylinder a slip there leaves the cylinder's last LBA numbers
// unmapped (here the slip takes one of the cylinder's spares, as the
// manual says slips do); under per-track and per-cylinder sparing the
// slips before a track also shift its skew (here skews are the manual's:
// physical sector 0 of every track at the same angle, plus the zone's
// offset and skews); and a zone's last, shorter range of cylinders gets
// no spares (here every range does).
type Sparing struct {
	// Region is where the region spares are.
	Region SpareRegion
	// RangeCylinders is the number of cylinders in a range, for
	// SparePerRange (DiskSim's "Rangesize for sparing").
	RangeCylinders int
	// AtFront puts the region spares at the front of each region instead
	// of its end (schemes 5 and 6).
	AtFront bool
	// SlipToEnd makes slips shift LBAs along the zone instead of using
	// the region's spares (schemes 4, 6 and 10).
	SlipToEnd bool
	// TrackUnits makes Zone.Slips and Zone.Remaps count whole tracks
	// (zone-relative track numbers in mapping order) instead of sector
	// slots (scheme 1, spare tracks). Only with SpareNone.
	TrackUnits bool
}

// Remap is a defective location whose data lives in a spare location
// instead (DiskSim's G1 "defects" pairs). Both are zone-relative slot
// numbers in mapping order, or track numbers under Sparing.TrackUnits.
type Remap struct {
	// Defect is the defective slot (or track), which would hold data.
	Defect int64
	// Spare is the slot (or track) holding the data instead; it must
	// hold no LBA of its own.
	Spare int64
}

// run is n slots from start.
type run struct{ start, n int64 }

// remapRun moves the n slots from `from` to `to`.
type remapRun struct{ from, n, to int64 }

// regionSpareSlots returns the region spare slots of zone z.
func (z Zone) regionSpareSlots(surfaces int, sp *Sparing) int64 {
	k := int64(z.RegionSpares)
	cyls := int64(z.Cylinders())
	switch sp.Region {
	case SparePerTrack:
		return k * cyls * int64(surfaces)
	case SparePerCylinder:
		return k * cyls
	case SparePerRange:
		if sp.RangeCylinders > 0 {
			r := int64(sp.RangeCylinders)
			return k * ((cyls + r - 1) / r)
		}
	}
	return 0
}

// regionLen returns the slots in each region of the zone (0 for none),
// and in its last one.
func (z *zoneInfo) regionLens(sp *Sparing, cyls int64) (full, last int64) {
	switch sp.Region {
	case SparePerTrack:
		return z.spt, z.spt
	case SparePerCylinder:
		return z.perCyl, z.perCyl
	case SparePerRange:
		r := int64(sp.RangeCylinders)
		full = r * z.perCyl
		last = (cyls - (cyls-1)/r*r) * z.perCyl
		return full, last
	}
	return 0, 0
}

// setupSparing fills z's sparing fields from zone zn of a drive with
// sparing sp; the zone has been checked.
func (z *zoneInfo) setupSparing(zn *Zone, sp *Sparing) {
	cyls := int64(zn.Cylinders())
	z.region, z.lastRegion = z.regionLens(sp, cyls)
	if zn.RegionSpares == 0 {
		z.region = 0
	}
	z.rk = int64(zn.RegionSpares)
	z.front = sp.AtFront
	z.local = z.region > 0 && !sp.SlipToEnd
	unit := int64(1)
	if sp.TrackUnits {
		unit = z.spt
	}
	for _, s := range zn.Slips {
		z.slips = append(z.slips, run{s * unit, unit})
	}
	sort.Slice(z.slips, func(i, j int) bool { return z.slips[i].start < z.slips[j].start })
	if z.region > 0 && !z.local {
		// Global slips shift along the non-spare slots: keep them as
		// indices among those.
		for i := range z.slips {
			z.slips[i].start, _ = z.nonSpare(z.slips[i].start)
		}
	}
	for _, r := range zn.Remaps {
		z.remaps = append(z.remaps, remapRun{r.Defect * unit, unit, r.Spare * unit})
	}
	sort.Slice(z.remaps, func(i, j int) bool { return z.remaps[i].from < z.remaps[j].from })
	z.general = z.reserved > 0 || z.slips != nil || z.serp || z.region > 0 || z.remaps != nil
}

// regionOf returns the region of slot s and its start and length.
func (z *zoneInfo) regionOf(s int64) (r, base, n int64) {
	r = s / z.region
	base = r * z.region
	n = z.region
	if base+n > z.slots {
		n = z.lastRegion
	}
	return r, base, n
}

// nonSpare returns the index of slot s among the zone's slots that are
// not region spares, and whether s is one.
func (z *zoneInfo) nonSpare(s int64) (int64, bool) {
	if z.region == 0 {
		return s, true
	}
	r, base, n := z.regionOf(s)
	w := s - base
	d := z.region - z.rk
	if z.front {
		if w < z.rk {
			return 0, false
		}
		w -= z.rk
	} else if w >= n-z.rk {
		return 0, false
	}
	return r*d + w, true
}

// bump returns the q-th slot that no run covers.
func bump(q int64, runs []run) int64 {
	for _, s := range runs {
		if s.start > q {
			break
		}
		q += s.n
	}
	return q
}

// slotOf returns the zone slot (in mapping order, before remapping)
// holding the zone's rel-th LBA.
func (z *zoneInfo) slotOf(rel int64) int64 {
	q := rel + z.reserved
	if z.region == 0 {
		return bump(q, z.slips)
	}
	d := z.region - z.rk
	if !z.local {
		n := bump(q, z.slips)
		w := n % d
		if z.front {
			w += z.rk
		}
		return n/d*z.region + w
	}
	r := q / d
	base := r * z.region
	lo, hi := z.slipsBetween(base, base+z.region)
	w := q - r*d
	if z.front {
		// The region's last d slots that are not slipped hold data.
		w += z.rk - int64(hi-lo)
	}
	for _, s := range z.slips[lo:hi] {
		if s.start-base > w {
			break
		}
		w++
	}
	return base + w
}

// slipsBetween returns the index range of the slips starting in [a, b).
func (z *zoneInfo) slipsBetween(a, b int64) (lo, hi int) {
	lo = sort.Search(len(z.slips), func(i int) bool { return z.slips[i].start >= a })
	hi = lo + sort.Search(len(z.slips)-lo, func(i int) bool { return z.slips[lo+i].start >= b })
	return lo, hi
}

// remapped returns the remap run covering slot s, or nil.
func (z *zoneInfo) remapped(s int64) *remapRun {
	if z.remaps == nil {
		return nil
	}
	i := sort.Search(len(z.remaps), func(i int) bool { return z.remaps[i].from+z.remaps[i].n > s })
	if i < len(z.remaps) && z.remaps[i].from <= s {
		return &z.remaps[i]
	}
	return nil
}

// physSlot returns the slot holding the data of logical slot s.
func (z *zoneInfo) physSlot(s int64) int64 {
	if m := z.remapped(s); m != nil {
		return m.to + s - m.from
	}
	return s
}

// generalTrackLBAs returns how many LBAs from the zone's rel-th on lie
// contiguously on one track: the same logical track and no remap
// boundary between them (or, from a remapped one, the rest of its remap
// run). left bounds the answer.
func (z *zoneInfo) generalTrackLBAs(rel, left int64) int64 {
	s0 := z.slotOf(rel)
	m0 := z.remapped(s0)
	trk := s0 / z.spt
	ok := func(j int64) bool { // LBAs rel..rel+j belong together
		s := z.slotOf(rel + j)
		if s/z.spt != trk {
			return false
		}
		if m0 != nil {
			return s < m0.from+m0.n
		}
		m := z.nextRemap(s0)
		return m == nil || m.from > s
	}
	// Largest j in [0, left) with ok(j): ok is monotone.
	lo, hi := int64(0), min(left, z.spt)
	for hi-lo > 1 {
		mid := (lo + hi) / 2
		if ok(mid) {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo + 1
}

// nextRemap returns the first remap run starting after slot s, or nil.
func (z *zoneInfo) nextRemap(s int64) *remapRun {
	i := sort.Search(len(z.remaps), func(i int) bool { return z.remaps[i].from > s })
	if i < len(z.remaps) {
		return &z.remaps[i]
	}
	return nil
}

// holdsLBA reports whether logical slot s of the zone holds an LBA
// (before remapping), given the zone's LBA count.
func (z *zoneInfo) holdsLBA(s, count int64) bool {
	if s < 0 || s >= z.slots {
		return false
	}
	var q int64
	if z.region == 0 || !z.local {
		n, ok := z.nonSpare(s)
		if !ok {
			return false
		}
		for _, r := range z.slips {
			if r.start > n {
				break
			}
			if n < r.start+r.n {
				return false
			}
			q -= r.n
		}
		q += n
	} else {
		r, base, _ := z.regionOf(s)
		lo, hi := z.slipsBetween(base, base+z.region)
		w := s - base
		for _, sl := range z.slips[lo:hi] {
			if sl.start == s {
				return false
			}
			if sl.start < s {
				w--
			}
		}
		if z.front {
			w -= z.rk - int64(hi-lo)
			if w < 0 {
				return false
			}
		} else if w >= z.region-z.rk {
			return false
		}
		q = r*(z.region-z.rk) + w
	}
	return q >= z.reserved && q-z.reserved < count
}

// checkSparing checks the sparing fields of zone z (field prefix f).
func (p *Params) checkSparing(bad complain, f string, z Zone) {
	sp := &p.Sparing
	if sp.Region >= numSpareRegions || (sp.Region == SparePerRange && sp.RangeCylinders < 1) || (sp.TrackUnits && sp.Region != SpareNone) {
		return // checkSparingParams reports it
	}
	if z.RegionSpares < 0 {
		bad(f+".RegionSpares", "must not be negative, got %d", z.RegionSpares)
		return
	}
	if z.RegionSpares > 0 && sp.Region == SpareNone {
		bad(f+".RegionSpares", "needs a Sparing.Region, got %d", z.RegionSpares)
		return
	}
	g := zoneInfo{spt: int64(z.SectorsPerTrack), perCyl: int64(z.SectorsPerTrack) * int64(p.Surfaces)}
	g.slots = int64(z.Cylinders()) * g.perCyl
	if sp.Region != SpareNone {
		full, last := g.regionLens(sp, int64(z.Cylinders()))
		if int64(z.RegionSpares) >= min(full, last) {
			bad(f+".RegionSpares", "must leave room in each region of %d slots, got %d", min(full, last), z.RegionSpares)
			return
		}
	}
	unit := int64(1)
	if sp.TrackUnits {
		unit = g.spt
	}
	g.setupSparing(&z, sp)
	if g.local {
		// Each region holds no more slips than spares.
		for i := 0; i < len(g.slips); {
			_, base, _ := g.regionOf(g.slips[i].start)
			lo, hi := g.slipsBetween(base, base+g.region)
			if int64(hi-lo) > g.rk {
				bad(f+".Slips", "%d slips in the region from slot %d exceed its %d spares", hi-lo, base, g.rk)
				return
			}
			i = hi
		}
	} else if g.region > 0 {
		for _, s := range z.Slips {
			if _, ok := g.nonSpare(s); !ok {
				bad(f+".Slips", "slot %d is a spare, not a data slot", s)
				return
			}
		}
	}
	if len(z.Remaps) > 0 {
		p.checkRemaps(bad, f, z, &g, unit)
	}
}

// checkRemaps checks that each remap moves a data slot (or track) into
// one holding no LBA, no two sharing either end.
func (p *Params) checkRemaps(bad complain, f string, z Zone, g *zoneInfo, unit int64) {
	count := z.lbas(p.Surfaces, &p.Sparing)
	seen := map[int64]bool{}
	for j, r := range z.Remaps {
		ff := fmt.Sprintf("%s.Remaps[%d]", f, j)
		d, s := r.Defect*unit, r.Spare*unit
		if r.Defect < 0 || r.Spare < 0 || d >= g.slots || s >= g.slots {
			bad(ff, "defect %d and spare %d must lie in the zone", r.Defect, r.Spare)
			return
		}
		if !g.holdsLBA(d, count) {
			bad(ff+".Defect", "location %d holds no data to remap", r.Defect)
			return
		}
		for i := int64(0); i < unit; i++ {
			if g.holdsLBA(s+i, count) {
				bad(ff+".Spare", "location %d holds data of its own", r.Spare)
				return
			}
		}
		if seen[d] || seen[-1-s] {
			bad(ff, "defect %d or spare %d used twice", r.Defect, r.Spare)
			return
		}
		seen[d], seen[-1-s] = true, true
	}
}
