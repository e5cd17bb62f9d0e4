package disk

import (
	"math"
	"time"
)

// Figures are a drive's headline numbers, derived from its Params by the
// model (not copied from a data sheet), for `raidsim drives` and for
// checking a preset against its sources.
type Figures struct {
	// Name is Params.Name.
	Name string
	// Capacity is the addressable size in bytes.
	Capacity int64
	// RPM is the spindle speed.
	RPM int
	// Surfaces, Cylinders and Zones describe the geometry.
	Surfaces, Cylinders, Zones int
	// Revolution is the time of one revolution.
	Revolution time.Duration
	// MeanRotationalLatency is half a revolution.
	MeanRotationalLatency time.Duration
	// TrackToTrack and FullStroke are the seek curve at one cylinder and
	// across all cylinders.
	TrackToTrack, FullStroke time.Duration
	// AverageSeek is the mean read seek over uniformly random start and
	// end cylinders, computed from the curve.
	AverageSeek time.Duration
	// SeekFit names the seek curve: "lee" (the three-point curve),
	// "linear" or "sqrt" (its fallbacks), or "table".
	SeekFit string
	// RandomAccess4K is the mean time of a random 4 KiB read at queue
	// depth 1: overhead + average seek + half a revolution + media and
	// bus transfer (at the capacity-weighted mean media rate).
	RandomAccess4K time.Duration
	// OuterInstant and InnerInstant are the one-track media rates of the
	// outer and inner zones in bytes/s.
	OuterInstant, InnerInstant float64
	// OuterSustained and InnerSustained are the whole-cylinder media
	// rates in bytes/s, head and cylinder switches (and any revolution a
	// switch misses) included.
	OuterSustained, InnerSustained float64
	// InterfaceRate is the host interface rate in bytes/s.
	InterfaceRate float64
	// BufferSize is the buffer size in bytes.
	BufferSize int64
}

// ComputeFigures derives p's Figures (defaults filled first).
func ComputeFigures(p Params) (Figures, error) {
	p.FillDefaults()
	if err := p.Validate(); err != nil {
		return Figures{}, err
	}
	g := newGeometry(&p)
	sk := newSeekModel(&p, g.cylinders)
	rev := float64(unitsPerRev) / float64(p.RPM) // ns
	f := Figures{
		Name:                  p.Name,
		RPM:                   p.RPM,
		Surfaces:              p.Surfaces,
		Cylinders:             int(g.cylinders),
		Zones:                 len(p.Zones),
		Revolution:            time.Duration(rev),
		MeanRotationalLatency: time.Duration(rev / 2),
		TrackToTrack:          time.Duration(sk.ns(1, false)),
		FullStroke:            time.Duration(sk.ns(g.cylinders-1, false)),
		AverageSeek:           sk.mean(g.cylinders),
		SeekFit:               sk.fit(),
		InterfaceRate:         p.InterfaceRate,
		BufferSize:            p.BufferSize,
	}
	f.Capacity = g.sectors * int64(p.SectorSize)
	if p.Capacity > 0 {
		f.Capacity = p.Capacity
	}
	cylSwitch := float64(p.CylinderSwitch)
	if cylSwitch == 0 {
		cylSwitch = float64(sk.ns(1, false))
	}
	ss := float64(p.SectorSize)
	inst := func(z Zone) float64 { return ss * float64(z.SectorsPerTrack) * 1e9 / rev }
	sust := func(z Zone) float64 {
		secT := rev / float64(z.SectorsPerTrack)
		switchCost := func(sw float64, skew int) float64 {
			return sw + math.Mod(math.Mod(float64(skew)*secT-sw, rev)+rev, rev)
		}
		h := float64(p.Surfaces)
		t := h*rev + (h-1)*switchCost(float64(p.HeadSwitch), z.TrackSkew) + switchCost(cylSwitch, z.CylinderSkew)
		return ss * float64(z.SectorsPerTrack) * h * 1e9 / t
	}
	outer, inner := p.Zones[0], p.Zones[len(p.Zones)-1]
	f.OuterInstant, f.InnerInstant = inst(outer), inst(inner)
	f.OuterSustained, f.InnerSustained = sust(outer), sust(inner)
	// Capacity-weighted mean sectors per track.
	var num, den float64
	for _, z := range p.Zones {
		w := float64(z.Cylinders()) * float64(z.SectorsPerTrack)
		num += w * float64(z.SectorsPerTrack)
		den += w
	}
	meanSpt := num / den
	n4k := 4096 / ss
	media := n4k * rev / meanSpt
	bus := 4096 * 1e9 / p.InterfaceRate
	f.RandomAccess4K = p.ReadOverhead + f.AverageSeek + time.Duration(rev/2+media+bus)
	return f, nil
}
