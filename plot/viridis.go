package plot

import (
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot/palette"
)

// viridisStops are matplotlib's viridis colour map (van der Walt and
// Smith, CC0) sampled at every tenth of its range: dark blue-violet at
// the low end, yellow at the high end. It is perceptually uniform, reads
// in grey scale and to the colour blind, and neither end is white, so
// the best cell of a heat map never vanishes into the background.
var viridisStops = [...]color.NRGBA{
	{0x44, 0x01, 0x54, 0xff}, {0x48, 0x24, 0x75, 0xff}, {0x41, 0x44, 0x87, 0xff}, {0x35, 0x5f, 0x8d, 0xff},
	{0x2a, 0x78, 0x8e, 0xff}, {0x21, 0x91, 0x8c, 0xff}, {0x22, 0xa8, 0x84, 0xff}, {0x44, 0xbf, 0x70, 0xff},
	{0x7a, 0xd1, 0x51, 0xff}, {0xbd, 0xdf, 0x26, 0xff}, {0xfd, 0xe7, 0x25, 0xff},
}

// Viridis returns the viridis colour map over [0, 1]; set its range with
// SetMin and SetMax. Between the stops colours are interpolated linearly
// in sRGB.
func Viridis() palette.ColorMap { return &viridis{max: 1, alpha: 1} }

type viridis struct{ min, max, alpha float64 }

func (v *viridis) At(x float64) (color.Color, error) {
	if x < v.min || x > v.max || math.IsNaN(x) {
		return nil, fmt.Errorf("plot: viridis: %g outside [%g, %g]", x, v.min, v.max)
	}
	f := 0.0
	if v.max > v.min {
		f = (x - v.min) / (v.max - v.min) * float64(len(viridisStops)-1)
	}
	i := min(int(f), len(viridisStops)-2)
	t := f - float64(i)
	a, b := viridisStops[i], viridisStops[i+1]
	mix := func(p, q uint8) uint8 { return uint8(math.Round(float64(p) + t*(float64(q)-float64(p)))) }
	return color.NRGBA{mix(a.R, b.R), mix(a.G, b.G), mix(a.B, b.B), uint8(math.Round(255 * v.alpha))}, nil
}

func (v *viridis) Max() float64       { return v.max }
func (v *viridis) SetMax(x float64)   { v.max = x }
func (v *viridis) Min() float64       { return v.min }
func (v *viridis) SetMin(x float64)   { v.min = x }
func (v *viridis) Alpha() float64     { return v.alpha }
func (v *viridis) SetAlpha(a float64) { v.alpha = min(max(a, 0), 1) }

// Palette returns n colours evenly spaced over the map.
func (v *viridis) Palette(n int) palette.Palette {
	cs := make([]color.Color, n)
	for i := range cs {
		x := v.min
		if n > 1 {
			x += (v.max - v.min) * float64(i) / float64(n-1)
		}
		cs[i], _ = v.At(min(x, v.max))
	}
	return plain(cs)
}

type plain []color.Color

func (p plain) Colors() []color.Color { return p }
