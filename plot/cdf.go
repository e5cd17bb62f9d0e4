package plot

import (
	"cmp"
	"errors"
	"fmt"
	"image/color"
	"io"
	"math"
	"slices"
	"strings"

	gplot "gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/raidsim/raidsim/metrics"
)

// Scale chooses how an axis maps values.
type Scale uint8

const (
	// ScaleAuto lets the figure choose: CDFFigure uses a logarithmic
	// latency axis when the latencies span more than two decades
	// (largest over smallest above 100), linear otherwise.
	ScaleAuto Scale = iota
	// ScaleLinear is a linear axis.
	ScaleLinear
	// ScaleLog is a base-10 logarithmic axis; every value must be
	// positive.
	ScaleLog
)

// CDFSeries is one curve of a CDFFigure: the latencies of one
// configuration.
type CDFSeries struct {
	// Name labels the curve in the legend; empty leaves it out.
	Name string
	// Hist holds the latencies; it must have at least one sample.
	Hist *metrics.Histogram
}

// CDFFigure plots the cumulative distribution of request latency, one
// curve per series: y is the fraction of requests that took at most x
// milliseconds. The curve joins the histogram's bucket bounds, so it is
// exact at each bound and within metrics.QuantileError between them.
type CDFFigure struct {
	// Title is printed above the plot.
	Title string
	// Series are the curves, drawn in order; at least one.
	Series []CDFSeries
	// XScale is the latency axis scale; ScaleAuto picks log for wide
	// ranges (a cache hit in microseconds beside a seek in milliseconds).
	XScale Scale
	// MaxCurves is the most curves drawn in colour and named in the
	// legend (below the plot). With more series, the MaxCurves/2 of
	// lowest and of highest mean latency are; the rest are drawn thin and
	// grey and named in a note under the legend, so many curves stay
	// readable. 0 means DefaultMaxCurves; negative colours every curve.
	MaxCurves int
	// Width and Height are the figure size in points (1/72 inch); zero
	// takes DefaultWidth and DefaultHeight.
	Width, Height float64
}

// CDF saves a latency CDF with one curve per series to path (.svg or
// .png), the latency axis scaled automatically.
func CDF(path, title string, series []CDFSeries) error {
	return CDFFigure{Title: title, Series: series}.Save(path)
}

// Save writes the figure to path in the format its extension names (.svg
// or .png).
func (f CDFFigure) Save(path string) error { return save(path, f.Render) }

// Render writes the figure to w in format ("svg" or "png").
func (f CDFFigure) Render(w io.Writer, format string) error {
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
func (f CDFFigure) layout() (vg.Length, vg.Length, func(draw.Canvas), error) {
	width, height, err := size(f.Width, f.Height, DefaultWidth, DefaultHeight)
	if err != nil {
		return 0, 0, nil, err
	}
	curves, lo, hi, err := f.curves()
	if err != nil {
		return 0, 0, nil, err
	}
	logX := false
	switch f.XScale {
	case ScaleLog:
		logX = true
	case ScaleAuto:
		logX = hi > 100*lo
	case ScaleLinear:
	default:
		return 0, 0, nil, fmt.Errorf("plot: CDF: unknown XScale %d", f.XScale)
	}
	p := newPlot(f.Title, "latency (ms)", "fraction of requests ≤ latency", true)
	p.Y.Min, p.Y.Max = 0, 1
	if logX {
		p.X.Scale = gplot.LogScale{}
		p.X.Tick.Marker = gplot.LogTicks{Prec: -1}
		p.X.Label.Text = "latency (ms, log scale)"
	} else {
		lo = 0
	}
	p.X.Min, p.X.Max = lo, hi
	lg := newLegend(p)
	colored, others := f.pick()
	add := func(i int, sty draw.LineStyle) (*plotter.Line, error) {
		xy := curves[i]
		if logX {
			xy = positive(xy)
		}
		l, err := plotter.NewLine(xy)
		if err != nil {
			return nil, fmt.Errorf("plot: CDF: series %d (%s): %w", i, f.Series[i].Name, err)
		}
		l.LineStyle = sty
		p.Add(l)
		return l, nil
	}
	for _, i := range others { // first, so the named curves are on top
		if _, err := add(i, draw.LineStyle{Color: color.Gray{Y: 185}, Width: vg.Points(0.75)}); err != nil {
			return 0, 0, nil, err
		}
	}
	for k, i := range colored {
		l, err := add(i, seriesStyle(k))
		if err != nil {
			return 0, 0, nil, err
		}
		if name := f.Series[i].Name; name != "" {
			lg.add(name, l)
		}
	}
	if len(others) > 0 {
		names := make([]string, len(others))
		for k, i := range others {
			names[k] = f.Series[i].Name
		}
		lg.notes = append(lg.notes, fmt.Sprintf("In grey, %d more, from lower to higher mean latency: %s.",
			len(others), strings.Join(names, "; ")))
	}
	if f.Height == 0 {
		height += lg.height(width)
	}
	return width, height, func(dc draw.Canvas) { lg.draw(p, dc) }, nil
}

// DefaultMaxCurves is the most CDF curves drawn in colour by default.
const DefaultMaxCurves = 8

// pick returns the series drawn in colour, lowest mean latency first,
// and the others, in the same order: all in colour up to MaxCurves,
// else the MaxCurves/2 best and the MaxCurves/2 worst by mean latency.
func (f CDFFigure) pick() (colored, others []int) {
	n := len(f.Series)
	maxc := f.MaxCurves
	if maxc == 0 {
		maxc = DefaultMaxCurves
	}
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	if maxc < 0 || n <= maxc {
		return idx, nil
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		return cmp.Compare(f.Series[a].Hist.Mean(), f.Series[b].Hist.Mean())
	})
	k := max(1, maxc/2)
	colored = append(append(colored, idx[:k]...), idx[n-k:]...)
	return colored, idx[k : n-k]
}

// curves turns every series into the points of its CDF, in ms, and returns
// the smallest positive and the largest latency over all of them.
func (f CDFFigure) curves() (curves []plotter.XYs, lo, hi float64, err error) {
	if len(f.Series) == 0 {
		return nil, 0, 0, errors.New("plot: CDF: no series to plot")
	}
	var errs []error
	lo, hi = math.Inf(1), 0
	for i, s := range f.Series {
		if s.Hist == nil || s.Hist.Count() == 0 {
			errs = append(errs, fmt.Errorf("plot: CDF: series %d (%q) has no samples", i, s.Name))
			continue
		}
		total := float64(s.Hist.Count())
		var (
			xy  plotter.XYs
			cum int64
		)
		for b := range s.Hist.Buckets() {
			x0, x1 := ms(b.Lower), ms(b.Upper)
			xy = append(xy, plotter.XY{X: x0, Y: float64(cum) / total})
			cum += b.Count
			xy = append(xy, plotter.XY{X: x1, Y: float64(cum) / total})
			if x0 > 0 {
				lo = min(lo, x0)
			}
			lo = min(lo, x1)
			hi = max(hi, x1)
		}
		curves = append(curves, xy)
	}
	if len(errs) > 0 {
		return nil, 0, 0, errors.Join(errs...)
	}
	return curves, lo, hi, nil
}

// positive drops the points a log axis cannot show (zero latency).
func positive(xy plotter.XYs) plotter.XYs {
	out := xy[:0:0]
	for _, p := range xy {
		if p.X > 0 {
			out = append(out, p)
		}
	}
	return out
}

// ms converts nanoseconds to milliseconds.
func ms[T ~int64](d T) float64 { return float64(d) / 1e6 }
