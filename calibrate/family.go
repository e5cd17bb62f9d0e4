package calibrate

import (
	"fmt"
	"math"
	"time"

	"github.com/raidsim/raidsim/disk"
)

// Param is one free parameter of a Family, with its physical bounds.
type Param struct {
	// Name names the parameter in snake_case ("read_overhead").
	Name string
	// Unit is "ms" for a time in milliseconds or "x" for a factor.
	Unit string
	// Min and Max bound the parameter (Min < Max); Fit never proposes a
	// value outside them.
	Min, Max float64
	// Log spreads the search evenly over the logarithm of the value
	// (for factors, whose 0.5 and 2 are as far from 1); Min must then be
	// positive.
	Log bool
}

// Family is a family of drive models indexed by a few free parameters:
// what Fit searches.
type Family interface {
	// Params lists the free parameters.
	Params() []Param
	// Start returns the parameters' values of the starting model, one
	// per Param, within their bounds.
	Start() []float64
	// Model returns the drive model for the values x (one per Param,
	// within bounds), its defaults filled. It need not validate it.
	Model(x []float64) (disk.Params, error)
}

// dur converts milliseconds to a time.Duration, rounded to the
// nanosecond.
func dur(ms float64) time.Duration { return time.Duration(math.Round(ms * 1e6)) }

// msOf converts a time.Duration to milliseconds.
func msOf(d time.Duration) float64 { return float64(d) / 1e6 }

// SpecFamily fits the figures of a data sheet that are unpublished or
// loosely given (see the package doc). Base is the starting data sheet,
// such as a preset's (disk.PresetSpec).
type SpecFamily struct {
	Base disk.Spec
	// Preset names the preset Base came from, "" if none; WriteConfig
	// names it in the config it writes.
	Preset string
}

// The parameters of SpecFamily, in order. The seek curve is three
// points: track-to-track, then the average and the full stroke as
// increments over the point before, so that every candidate curve rises.
var specParams = []Param{
	{Name: "read_overhead", Unit: "ms", Min: 0.001, Max: 5},
	{Name: "write_overhead", Unit: "ms", Min: 0.001, Max: 5},
	{Name: "track_to_track", Unit: "ms", Min: 0.05, Max: 10},
	{Name: "average_seek_minus_track_to_track", Unit: "ms", Min: 0.05, Max: 25},
	{Name: "full_stroke_minus_average_seek", Unit: "ms", Min: 0, Max: 40},
	// A zero switch time would mean "derive it" to a Spec: 1 µs is the
	// least.
	{Name: "head_switch", Unit: "ms", Min: 0.001, Max: 5},
	{Name: "write_settle", Unit: "ms", Min: 0.001, Max: 5},
}

// Params returns the free parameters: read and write overhead, the seek
// curve's three points, head switch and write settle.
func (f SpecFamily) Params() []Param { return specParams }

// Start returns Base's figures; a head switch Base leaves to be derived
// from its media rates is the derived one.
func (f SpecFamily) Start() []float64 {
	s := f.Base
	hs := s.HeadSwitch
	if p, err := s.Derive(); err == nil {
		hs = p.HeadSwitch
	}
	wo := s.WriteOverhead
	if wo == 0 {
		wo = s.ReadOverhead
	}
	return clampAll(specParams, []float64{
		msOf(s.ReadOverhead), msOf(wo), msOf(s.TrackToTrack),
		msOf(s.AverageSeek - s.TrackToTrack), msOf(s.FullStroke - s.AverageSeek),
		msOf(hs), msOf(s.WriteSettle),
	})
}

// Spec returns Base with the figures x.
func (f SpecFamily) Spec(x []float64) disk.Spec {
	s := f.Base
	s.ReadOverhead, s.WriteOverhead = dur(x[0]), dur(x[1])
	s.TrackToTrack = dur(x[2])
	s.AverageSeek = s.TrackToTrack + dur(x[3])
	s.FullStroke = s.AverageSeek + dur(x[4])
	s.HeadSwitch, s.WriteSettle = dur(x[5]), dur(x[6])
	return s
}

// Model derives the drive from Spec(x).
func (f SpecFamily) Model(x []float64) (disk.Params, error) {
	p, err := f.Spec(x).Derive()
	if err != nil {
		return disk.Params{}, err
	}
	p.FillDefaults()
	return p, nil
}

// ParamsFamily fits scale factors and switch times on a complete model
// (see the package doc). Base is the starting model, such as one
// disk/disksim loaded.
type ParamsFamily struct {
	Base disk.Params
}

// The parameters of ParamsFamily, in order.
var paramsParams = []Param{
	{Name: "overhead_scale", Unit: "x", Min: 0.05, Max: 20, Log: true},
	{Name: "seek_scale_short", Unit: "x", Min: 0.1, Max: 10, Log: true},
	{Name: "seek_scale_long", Unit: "x", Min: 0.1, Max: 10, Log: true},
	{Name: "head_switch", Unit: "ms", Min: 0, Max: 5},
	{Name: "write_settle", Unit: "ms", Min: 0, Max: 5},
}

// Params returns the free parameters: a factor on every command overhead,
// factors on the seek curve at one cylinder and at the full stroke
// (interpolated on the logarithm of the distance between), head switch
// and write settle.
func (f ParamsFamily) Params() []Param { return paramsParams }

// Start returns factors of 1 and Base's switch times.
func (f ParamsFamily) Start() []float64 {
	return clampAll(paramsParams, []float64{1, 1, 1, msOf(f.Base.HeadSwitch), msOf(f.Base.WriteSettle)})
}

// Model returns Base with the factors applied and the switch times set.
func (f ParamsFamily) Model(x []float64) (disk.Params, error) {
	p := f.Base
	p.FillDefaults()
	scaleOverheads(&p, x[0])
	scaleSeek(&p, x[1], x[2])
	p.HeadSwitch, p.WriteSettle = dur(x[3]), dur(x[4])
	return p, nil
}

// scaleOverheads multiplies every command overhead of p by k.
func scaleOverheads(p *disk.Params, k float64) {
	sc := func(d *time.Duration) { *d = time.Duration(math.Round(float64(*d) * k)) }
	sc(&p.ReadOverhead)
	sc(&p.WriteOverhead)
	o := &p.Overheads
	for _, d := range []*time.Duration{&o.ReadHitAfterRead, &o.ReadHitAfterWrite, &o.ReadMissAfterRead, &o.ReadMissAfterWrite,
		&o.WriteHitAfterRead, &o.WriteHitAfterWrite, &o.WriteMissAfterRead, &o.WriteMissAfterWrite, &o.ReadCompletion, &o.WriteCompletion} {
		sc(d)
	}
}

// seekFactor returns the factor at distance d cylinders: short at 1,
// long at maxD, linear in log(d) between.
func seekFactor(d, maxD int, short, long float64) float64 {
	if maxD <= 1 || d <= 1 {
		return short
	}
	t := math.Log(float64(d)) / math.Log(float64(maxD))
	return short + (long-short)*min(t, 1)
}

// scaleSeek scales p's seek curve, its table or its three figures, by
// seekFactor.
func scaleSeek(p *disk.Params, short, long float64) {
	maxD := max(p.Cylinders()-1, 1)
	sc := func(t time.Duration, d int) time.Duration {
		return time.Duration(math.Round(float64(t) * seekFactor(d, maxD, short, long)))
	}
	if len(p.SeekTable) > 0 {
		tab := make([]disk.SeekPoint, len(p.SeekTable))
		for i, pt := range p.SeekTable {
			tab[i] = disk.SeekPoint{Distance: pt.Distance, Time: sc(pt.Time, pt.Distance)}
		}
		p.SeekTable = tab
		if p.CylinderSwitch > 0 {
			p.CylinderSwitch = sc(p.CylinderSwitch, 1)
		}
		return
	}
	// The average seek is over random pairs of cylinders: a third of the
	// stroke on average.
	p.TrackToTrack = sc(p.TrackToTrack, 1)
	p.AverageSeek = sc(p.AverageSeek, max(maxD/3, 1))
	p.FullStroke = sc(p.FullStroke, maxD)
	if p.CylinderSwitch > 0 {
		p.CylinderSwitch = sc(p.CylinderSwitch, 1)
	}
}

// clampAll moves each x[i] inside its parameter's bounds.
func clampAll(ps []Param, x []float64) []float64 {
	for i, p := range ps {
		x[i] = min(max(x[i], p.Min), p.Max)
	}
	return x
}

// checkFamily reports a Family whose parameters are unusable.
func checkFamily(f Family) error {
	ps, x := f.Params(), f.Start()
	if len(ps) == 0 || len(x) != len(ps) {
		return fmt.Errorf("calibrate: a family of %d parameters started from %d values", len(ps), len(x))
	}
	for i, p := range ps {
		if !(p.Min < p.Max) || (p.Log && !(p.Min > 0)) {
			return fmt.Errorf("calibrate: parameter %s: bounds %g..%g are not usable", p.Name, p.Min, p.Max)
		}
		if !(x[i] >= p.Min && x[i] <= p.Max) {
			return fmt.Errorf("calibrate: parameter %s starts at %g, outside %g..%g", p.Name, x[i], p.Min, p.Max)
		}
	}
	return nil
}
