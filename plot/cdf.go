package plot

import (
	"errors"
	"fmt"
	"io"
	"math"

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
	width, height, err := size(f.Width, f.Height, DefaultWidth, DefaultHeight)
	if err != nil {
		return err
	}
	curves, lo, hi, err := f.curves()
	if err != nil {
		return err
	}
	logX := false
	switch f.XScale {
	case ScaleLog:
		logX = true
	case ScaleAuto:
		logX = hi > 100*lo
	case ScaleLinear:
	default:
		return fmt.Errorf("plot: CDF: unknown XScale %d", f.XScale)
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
	var names []string
	for i, xy := range curves {
		if logX {
			xy = positive(xy)
		}
		l, err := plotter.NewLine(xy)
		if err != nil {
			return fmt.Errorf("plot: CDF: series %d (%s): %w", i, f.Series[i].Name, err)
		}
		l.LineStyle = seriesStyle(i)
		p.Add(l)
		if name := f.Series[i].Name; name != "" {
			p.Legend.Add(name, l)
			names = append(names, name)
		}
	}
	if f.Width == 0 {
		width += vg.Length(legendExtra(p, names))
	}
	return render(w, format, width, height, func(dc draw.Canvas) { drawWithLegend(p, dc, len(names) > 0) })
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
