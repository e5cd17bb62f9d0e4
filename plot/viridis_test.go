package plot

import (
	"image/color"
	"testing"

	"gonum.org/v1/plot/plotter"
)

// TestViridis: the ends are viridis' violet and yellow, lightness rises
// all the way (a perceptual map reads in grey scale), no colour is the
// white of the background, and out-of-range values are errors.
func TestViridis(t *testing.T) {
	cm := Viridis()
	cm.SetMin(100)
	cm.SetMax(200)
	lum := func(c color.Color) float64 {
		r, g, b, _ := c.RGBA()
		return 0.299*float64(r) + 0.587*float64(g) + 0.114*float64(b)
	}
	prev := -1.0
	for v := 100.0; v <= 200; v += 2.5 {
		c, err := cm.At(v)
		if err != nil {
			t.Fatalf("At(%g): %v", v, err)
		}
		if l := lum(c); l <= prev {
			t.Errorf("At(%g): lightness %g not above %g", v, l, prev)
		} else {
			prev = l
		}
		if r, g, b, _ := c.RGBA(); r > 0xf000 && g > 0xf000 && b > 0xf000 {
			t.Errorf("At(%g) = %v is nearly white", v, c)
		}
	}
	for v, want := range map[float64]color.NRGBA{100: {0x44, 0x01, 0x54, 0xff}, 200: {0xfd, 0xe7, 0x25, 0xff}} {
		if c, _ := cm.At(v); c != want {
			t.Errorf("At(%g) = %v, want %v", v, c, want)
		}
	}
	if _, err := cm.At(201); err == nil {
		t.Error("At(201) outside [100, 200]: want an error")
	}
	if got := len(cm.Palette(5).Colors()); got != 5 {
		t.Errorf("Palette(5) has %d colours", got)
	}
}

// TestDodge: series are set apart symmetrically around each category
// and stay inside it.
func TestDodge(t *testing.T) {
	xy := []float64{0, 1, 2}
	for n := 1; n <= 12; n++ {
		var sum float64
		for i := range n {
			pts := dodge(toXYs(xy), i, n)
			off := pts[1].X - 1
			if off <= -0.5 || off >= 0.5 {
				t.Errorf("n=%d i=%d: offset %g leaves the category", n, i, off)
			}
			sum += off
		}
		if sum > 1e-9 || sum < -1e-9 {
			t.Errorf("n=%d: offsets sum to %g, want 0 (centred)", n, sum)
		}
	}
}

func toXYs(xs []float64) (out plotter.XYs) {
	for _, x := range xs {
		out = append(out, plotter.XY{X: x})
	}
	return out
}
