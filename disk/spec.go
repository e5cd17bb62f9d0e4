package disk

import (
	"errors"
	"fmt"
	"math"
	"time"
)

// Spec holds the figures a drive's data sheet gives. Spec.Params derives
// a zoned geometry and a complete Params from them.
type Spec struct {
	// Name identifies the model.
	Name string
	// Capacity is the addressable size in bytes.
	Capacity int64
	// SectorSize is the sector size in bytes (512 default, or 4096).
	SectorSize int
	// RPM is the spindle speed in revolutions per minute.
	RPM int
	// Heads is the number of data surfaces.
	Heads int
	// Zones is the number of recording zones (default 16).
	Zones int

	// OuterSustained and InnerSustained are the sustained media rates of
	// the outermost and innermost zones in bytes/s: a whole cylinder
	// read, head and cylinder switches included.
	OuterSustained, InnerSustained float64
	// OuterInstant and InnerInstant are the instantaneous (one-track)
	// media rates in bytes/s: SectorSize x sectors per track x rev/s.
	// They fix sectors per track when given; otherwise the sustained
	// rates do. With both pairs and no HeadSwitch, the head switch time
	// is derived from the outer pair.
	OuterInstant, InnerInstant float64

	// TrackToTrack, AverageSeek and FullStroke are the read seek figures.
	TrackToTrack, AverageSeek, FullStroke time.Duration
	// WriteSettle is the extra time a write seek takes.
	WriteSettle time.Duration
	// HeadSwitch is the head switch time.
	HeadSwitch time.Duration

	// ReadOverhead and WriteOverhead are per-command controller times.
	ReadOverhead, WriteOverhead time.Duration
	// InterfaceRate is the host interface rate in bytes/s (default 300e6).
	InterfaceRate float64
	// BufferSize is the buffer size in bytes.
	BufferSize int64
	// Segments is the number of read segments (default 16).
	Segments int
	// WriteCache turns the write cache on.
	WriteCache bool
	// WriteCacheEntries is the most separate writes the write cache
	// holds (default 32; see Params.WriteCacheEntries).
	WriteCacheEntries int
	// QueueDepth is the tagged queue depth (default 32).
	QueueDepth int
	// Scheduler is the queue scheduler (default SATF).
	Scheduler Scheduler
}

// Params derives a drive's Params from s, following the vendor
// conventions:
//
//   - instantaneous rate = SectorSize x sectors/track x rev/s;
//   - sustained rate = SectorSize x sectors per cylinder / (one revolution
//     per surface + the head switches + one cylinder switch), the
//     cylinder switch being the track-to-track seek;
//   - sectors per track fall linearly from the outer zone to the inner;
//   - every zone gets the same number of cylinders, plus one for the
//     first zones until the capacity is reached;
//   - track skew = ceil(head switch / sector time) and cylinder skew =
//     ceil(track-to-track / sector time), so a switch just fits.
func (s Spec) Params() (Params, error) {
	p, err := s.Derive()
	if err != nil {
		return Params{}, err
	}
	if err := p.Validate(); err != nil {
		return Params{}, fmt.Errorf("disk: Spec %s: %w", s.Name, err)
	}
	return p, nil
}

// Derive is Params without the final Validate: the figures are checked
// and turned into zones, and the caller validates the result once, after
// its own overrides (NewModel does).
func (s Spec) Derive() (Params, error) {
	if s.SectorSize == 0 {
		s.SectorSize = 512
	}
	if s.Zones == 0 {
		s.Zones = 16
	}
	if err := s.check(); err != nil {
		return Params{}, err
	}
	hasSust := s.OuterSustained > 0 && s.InnerSustained > 0
	hasInst := s.OuterInstant > 0 && s.InnerInstant > 0
	ss := float64(s.SectorSize)
	h := float64(s.Heads)
	rev := 60 / float64(s.RPM)     // seconds
	cs := s.TrackToTrack.Seconds() // cylinder switch
	hs := s.HeadSwitch.Seconds()
	if hasSust && hasInst && s.HeadSwitch == 0 && s.Heads > 1 {
		// Derive the head switch from the outer pair.
		spt := s.OuterInstant * rev / ss
		perCyl := ss * spt * h / s.OuterSustained
		hs = (perCyl - h*rev - cs) / (h - 1)
		if hs < 0 {
			hs = 0
		}
	}
	spt := func(inst, sust float64) float64 {
		if hasInst {
			return inst * rev / ss
		}
		return sust * (h*rev + (h-1)*hs + cs) / (ss * h)
	}
	outer, inner := spt(s.OuterInstant, s.OuterSustained), spt(s.InnerInstant, s.InnerSustained)
	if outer < 1 || inner < 1 {
		return Params{}, fmt.Errorf("disk: Spec %s: rates give fewer than one sector per track (%.2f outer, %.2f inner)", s.Name, outer, inner)
	}
	spts := zoneSectorsPerTrack(outer, inner, s.Zones)
	sectors := s.Capacity / int64(s.SectorSize)
	cyls := zoneCylinders(spts, s.Heads, sectors)
	p := Params{
		Name:              s.Name,
		SectorSize:        s.SectorSize,
		Capacity:          sectors * int64(s.SectorSize),
		RPM:               s.RPM,
		Surfaces:          s.Heads,
		TrackToTrack:      s.TrackToTrack,
		AverageSeek:       s.AverageSeek,
		FullStroke:        s.FullStroke,
		WriteSettle:       s.WriteSettle,
		HeadSwitch:        time.Duration(math.Round(hs * 1e9)),
		ReadOverhead:      s.ReadOverhead,
		WriteOverhead:     s.WriteOverhead,
		InterfaceRate:     s.InterfaceRate,
		BufferSize:        s.BufferSize,
		Segments:          s.Segments,
		WriteCache:        s.WriteCache,
		WriteCacheEntries: s.WriteCacheEntries,
		QueueDepth:        s.QueueDepth,
		Scheduler:         s.Scheduler,
	}
	p.Zones = specZones(spts, cyls, rev, float64(p.HeadSwitch)/1e9, cs)
	return p, nil
}

// check reports every impossible figure of s (defaults filled) at once.
func (s *Spec) check() error {
	var errs []error
	bad := func(field, format string, args ...any) {
		errs = append(errs, fmt.Errorf("disk: Spec.%s: "+format, append([]any{field}, args...)...))
	}
	if s.SectorSize != 512 && s.SectorSize != 4096 {
		bad("SectorSize", "must be 512 or 4096, got %d", s.SectorSize)
	}
	if s.Capacity <= 0 {
		bad("Capacity", "must be positive, got %d", s.Capacity)
	}
	if s.RPM <= 0 {
		bad("RPM", "must be positive, got %d", s.RPM)
	}
	if s.Heads <= 0 {
		bad("Heads", "must be positive, got %d", s.Heads)
	}
	if s.Zones < 1 || s.Zones > 1000 {
		bad("Zones", "must be in 1..1000, got %d", s.Zones)
	}
	hasSust := s.OuterSustained > 0 && s.InnerSustained > 0
	hasInst := s.OuterInstant > 0 && s.InnerInstant > 0
	if !hasSust && !hasInst {
		bad("OuterSustained", "need outer and inner sustained or instantaneous rates, got %g and %g", s.OuterSustained, s.InnerSustained)
	}
	if s.TrackToTrack <= 0 {
		bad("TrackToTrack", "must be positive, got %v", s.TrackToTrack)
	}
	if s.HeadSwitch < 0 {
		bad("HeadSwitch", "must not be negative, got %v", s.HeadSwitch)
	}
	return errors.Join(errs...)
}

// zoneSectorsPerTrack returns nz zones' sectors per track, falling
// linearly from outer to inner, rounded.
func zoneSectorsPerTrack(outer, inner float64, nz int) []int {
	spts := make([]int, nz)
	for i := range spts {
		f := 0.0
		if nz > 1 {
			f = float64(i) / float64(nz-1)
		}
		spts[i] = int(math.Round(outer + (inner-outer)*f))
	}
	return spts
}

// zoneCylinders gives every zone the same number of cylinders, then one
// more to the first zones until the zones hold sectors.
func zoneCylinders(spts []int, heads int, sectors int64) []int64 {
	var sumSpt int64
	for _, n := range spts {
		sumSpt += int64(n)
	}
	nz := len(spts)
	perRound := sumSpt * int64(heads) // sectors in one cylinder of every zone
	base := sectors / perRound
	cyls := make([]int64, nz)
	total := base * perRound
	for i := range cyls {
		cyls[i] = base
	}
	for i := 0; total < sectors; i = (i + 1) % nz {
		cyls[i]++
		total += int64(spts[i]) * int64(heads)
	}
	return cyls
}

// specZones lays the zones out from cylinder 0, skipping zones given no
// cylinders, each skew the switch time (head switch hs, cylinder switch
// cs, in seconds) rounded up to whole sectors of a revolution of rev
// seconds.
func specZones(spts []int, cyls []int64, rev, hs, cs float64) []Zone {
	var zones []Zone
	first := 0
	for i := range spts {
		if cyls[i] == 0 {
			continue
		}
		secT := rev / float64(spts[i])
		skew := func(sw float64) int {
			k := int(math.Ceil(sw/secT - 1e-9))
			return min(max(k, 0), spts[i]-1)
		}
		zones = append(zones, Zone{
			FirstCylinder:   first,
			LastCylinder:    first + int(cyls[i]) - 1,
			SectorsPerTrack: spts[i],
			TrackSkew:       skew(hs),
			CylinderSkew:    skew(cs),
		})
		first += int(cyls[i])
	}
	return zones
}
