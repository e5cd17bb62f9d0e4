package plot

import (
	"errors"
	"fmt"
	"io"
	"math"

	gplot "gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// LineSeries is one curve of a LinesFigure: a metric of one configuration
// at each value of the swept parameter. Give either X (a numeric
// parameter: queue depth, MiB of cache) or Labels (a categorical one:
// "16KiB", "write-back"), one entry per Y; every series of a figure must
// be of the same kind.
type LineSeries struct {
	// Name labels the curve in the legend; empty leaves it out.
	Name string
	// X are the parameter values, for a numeric axis.
	X []float64
	// Labels are the parameter values, for a categorical axis: each
	// distinct label gets one evenly spaced, labelled tick, in the order
	// the labels first appear across the series.
	Labels []string
	// Y are the metric values, finite.
	Y []float64
}

// LinesFigure plots a metric against one swept parameter, one curve with
// point markers per series; on a categorical axis the series are points
// only, set slightly apart at each category, with no line joining
// categories. The y axis starts at 0 unless ZoomY is set. The legend
// goes below the plot, in as many columns as fit.
type LinesFigure struct {
	// Title is printed above the plot; XLabel and YLabel name the axes
	// (with units).
	Title, XLabel, YLabel string
	// Series are the curves, drawn in order; at least one.
	Series []LineSeries
	// LogX and LogY make an axis logarithmic (base 10); the values on it
	// must then be positive. LogX does not apply to labelled series.
	LogX, LogY bool
	// ZoomY starts the y axis at the smallest value rather than at 0
	// (where it starts by default, so differences are seen at scale).
	ZoomY bool
	// Width and Height are the figure size in points (1/72 inch); zero
	// takes DefaultWidth and, for Height, DefaultHeight plus the room the
	// legend takes below the plot.
	Width, Height float64
}

// Lines saves a plot of each series' Y against its X or Labels to path
// (.svg or .png), on linear axes.
func Lines(path, title, xLabel, yLabel string, series []LineSeries) error {
	return LinesFigure{Title: title, XLabel: xLabel, YLabel: yLabel, Series: series}.Save(path)
}

// Save writes the figure to path in the format its extension names (.svg
// or .png).
func (f LinesFigure) Save(path string) error { return save(path, f.Render) }

// Render writes the figure to w in format ("svg" or "png").
func (f LinesFigure) Render(w io.Writer, format string) error {
	if _, err := normFormat(format); err != nil {
		return err
	}
	width, height, paint, err := f.layout()
	if err != nil {
		return err
	}
	return render(w, format, width, height, paint)
}

// layout checks the figure and returns its size and what draws it.
func (f LinesFigure) layout() (vg.Length, vg.Length, func(draw.Canvas), error) {
	width, height, err := size(f.Width, f.Height, DefaultWidth, DefaultHeight)
	if err != nil {
		return 0, 0, nil, err
	}
	curves, categories, err := f.curves()
	if err != nil {
		return 0, 0, nil, err
	}
	p := newPlot(f.Title, f.XLabel, f.YLabel, true)
	if categories != nil {
		ticks := make(gplot.ConstantTicks, len(categories))
		for i, c := range categories {
			ticks[i] = gplot.Tick{Value: float64(i), Label: c}
		}
		p.X.Tick.Marker = ticks
		p.X.Min, p.X.Max = -0.5, float64(len(categories))-0.5
	} else if f.LogX {
		p.X.Scale = gplot.LogScale{}
		p.X.Tick.Marker = gplot.LogTicks{Prec: -1}
	}
	if f.LogY {
		p.Y.Scale = gplot.LogScale{}
		p.Y.Tick.Marker = gplot.LogTicks{Prec: -1}
	}
	lg := newLegend(p)
	for i, xy := range curves {
		if categories != nil {
			xy = dodge(xy, i, len(curves))
		}
		l, pts, err := plotter.NewLinePoints(xy)
		if err != nil {
			return 0, 0, nil, fmt.Errorf("plot: Lines: series %d (%s): %w", i, f.Series[i].Name, err)
		}
		l.LineStyle = seriesStyle(i)
		pts.Shape = plotutil.Shape(i)
		pts.Color = l.LineStyle.Color
		pts.Radius = vg.Points(3)
		thumbs := []gplot.Thumbnailer{l, pts}
		if categories != nil { // categories are not a continuum: no line joins them
			thumbs = thumbs[1:]
			p.Add(pts)
		} else {
			p.Add(l, pts)
		}
		if name := f.Series[i].Name; name != "" {
			lg.add(name, thumbs...)
		}
	}
	if f.Height == 0 {
		height += lg.height(width)
	}
	if !f.ZoomY && !f.LogY {
		p.Y.Min = min(p.Y.Min, 0)
	}
	if p.Y.Min == p.Y.Max { // a flat line: give it some room
		p.Y.Min, p.Y.Max = widen(p.Y.Min, f.LogY)
	}
	if categories == nil && p.X.Min == p.X.Max {
		p.X.Min, p.X.Max = widen(p.X.Min, f.LogX)
	}
	return width, height, func(dc draw.Canvas) { lg.draw(p, dc) }, nil
}

// dodge shifts series i of n sideways within its categories, so the
// points of different series at one category do not hide each other.
func dodge(xy plotter.XYs, i, n int) plotter.XYs {
	if n < 2 {
		return xy
	}
	step := min(0.5/float64(n), 0.12)
	off := (float64(i) - float64(n-1)/2) * step
	out := make(plotter.XYs, len(xy))
	for j, p := range xy {
		out[j] = plotter.XY{X: p.X + off, Y: p.Y}
	}
	return out
}

// curves checks the series and returns their points; for labelled series
// x is the label's category index and categories lists the labels.
func (f LinesFigure) curves() (curves []plotter.XYs, categories []string, err error) {
	if len(f.Series) == 0 {
		return nil, nil, errors.New("plot: Lines: no series to plot")
	}
	labelled := len(f.Series[0].Labels) > 0
	index := map[string]int{}
	var errs []error
	bad := func(i int, s LineSeries, format string, args ...any) {
		errs = append(errs, fmt.Errorf("plot: Lines: series %d (%q): %s", i, s.Name, fmt.Sprintf(format, args...)))
	}
	for i, s := range f.Series {
		switch {
		case len(s.Y) == 0:
			bad(i, s, "no points")
			continue
		case len(s.X) > 0 && len(s.Labels) > 0:
			bad(i, s, "has both X and Labels: give one")
			continue
		case len(s.X) == 0 && len(s.Labels) == 0:
			bad(i, s, "has neither X nor Labels")
			continue
		case (len(s.Labels) > 0) != labelled:
			bad(i, s, "mixes labelled and numeric series in one figure")
			continue
		case labelled && len(s.Labels) != len(s.Y):
			bad(i, s, "%d labels for %d values", len(s.Labels), len(s.Y))
			continue
		case !labelled && len(s.X) != len(s.Y):
			bad(i, s, "%d x values for %d y values", len(s.X), len(s.Y))
			continue
		}
		xy := make(plotter.XYs, len(s.Y))
		ok := true
		for j, y := range s.Y {
			x := 0.0
			if labelled {
				k, seen := index[s.Labels[j]]
				if !seen {
					k = len(categories)
					index[s.Labels[j]] = k
					categories = append(categories, s.Labels[j])
				}
				x = float64(k)
			} else {
				x = s.X[j]
			}
			switch {
			case !finite(x) || !finite(y):
				bad(i, s, "point %d is (%g, %g): values must be finite", j, x, y)
				ok = false
			case f.LogX && !labelled && x <= 0:
				bad(i, s, "point %d has x = %g: a log axis needs positive values", j, x)
				ok = false
			case f.LogY && y <= 0:
				bad(i, s, "point %d has y = %g: a log axis needs positive values", j, y)
				ok = false
			}
			xy[j] = plotter.XY{X: x, Y: y}
		}
		if ok {
			curves = append(curves, xy)
		}
	}
	if len(errs) > 0 {
		return nil, nil, errors.Join(errs...)
	}
	return curves, categories, nil
}

// widen returns a range around v for an axis whose data is all v: a
// factor of 2 either side on a log axis, 10% (at least 1) on a linear one.
func widen(v float64, log bool) (lo, hi float64) {
	if log {
		return v / 2, v * 2
	}
	d := max(math.Abs(v)*0.1, 1)
	return v - d, v + d
}
