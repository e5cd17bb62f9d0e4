package plot

import (
	"errors"
	"fmt"
	"image/color"
	"io"
	"strings"

	gplot "gonum.org/v1/plot"
	"gonum.org/v1/plot/palette"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/raidsim/raidsim/metrics"
)

// HeatMapFigure plots a metric over two categorical parameters: one
// colored cell per pair (viridis: dark violet for the lowest value,
// yellow for the highest, never the background's white), a frame around
// the grid, a color bar on the right, and the values written in the cells
// when they fit (at 7 points or larger).
type HeatMapFigure struct {
	// Title is printed above the plot; XLabel and YLabel name the
	// parameters.
	Title, XLabel, YLabel string
	// XTicks label the columns, left to right; YTicks the rows, bottom to
	// top. Both must be non-empty.
	XTicks, YTicks []string
	// Values[i][j] is the value at row YTicks[i], column XTicks[j]: one
	// row per y tick, each as long as XTicks, every value finite.
	Values [][]float64
	// ValueLabel names the metric, with its unit, beside the color bar.
	ValueLabel string
	// Format writes a value in its cell; nil uses three significant
	// digits (metrics.FormatSig).
	Format func(float64) string
	// HideValues leaves the cells unlabelled even when the values fit.
	HideValues bool
	// Width and Height are the figure size in points (1/72 inch); zero
	// takes a size that grows with the grid, at least 432 x 324 (6 x 4.5
	// inches).
	Width, Height float64
}

// HeatMap saves a heat map of values over two parameters to path (.svg or
// .png): values[i][j] is the cell at yTicks[i], xTicks[j].
func HeatMap(path, title, xLabel, yLabel string, xTicks, yTicks []string, values [][]float64, valueLabel string) error {
	return HeatMapFigure{
		Title: title, XLabel: xLabel, YLabel: yLabel,
		XTicks: xTicks, YTicks: yTicks, Values: values, ValueLabel: valueLabel,
	}.Save(path)
}

// Save writes the figure to path in the format its extension names (.svg
// or .png).
func (f HeatMapFigure) Save(path string) error { return save(path, f.Render) }

// Render writes the figure to w in format ("svg" or "png").
func (f HeatMapFigure) Render(w io.Writer, format string) error {
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
func (f HeatMapFigure) layout() (vg.Length, vg.Length, func(draw.Canvas), error) {
	lo, hi, err := f.check()
	if err != nil {
		return 0, 0, nil, err
	}
	cols, rows := len(f.XTicks), len(f.YTicks)
	width, height, err := size(f.Width, f.Height,
		min(max(432, 160+70*float64(cols)), 7200), min(max(324, 110+40*float64(rows)), 7200))
	if err != nil {
		return 0, 0, nil, err
	}
	if lo == hi { // one value everywhere: center it in the color scale
		d := max(abs(lo)*0.05, 1)
		lo, hi = lo-d, hi+d
	}
	cm := Viridis()
	cm.SetMin(lo)
	cm.SetMax(hi)

	g := grid{values: f.Values, cols: cols, rows: rows}
	h := plotter.NewHeatMap(g, cm.Palette(256))
	h.Min, h.Max = lo, hi

	p := newPlot(f.Title, f.XLabel, f.YLabel, false)
	p.Add(h, frame{})
	if !f.HideValues {
		format := f.Format
		if format == nil {
			format = func(v float64) string { return metrics.FormatSig(v, 3) }
		}
		texts := make([][]string, rows)
		for i, row := range f.Values {
			texts[i] = make([]string, cols)
			for j, v := range row {
				texts[i][j] = format(v)
			}
		}
		p.Add(cellText{g: g, texts: texts, cm: cm})
	}
	p.X.Tick.Marker = categoryTicks(f.XTicks)
	p.Y.Tick.Marker = categoryTicks(f.YTicks)
	p.X.Padding, p.Y.Padding = 0, 0
	p.X.Min, p.X.Max = -0.5, float64(cols)-0.5
	p.Y.Min, p.Y.Max = -0.5, float64(rows)-0.5

	bar := gplot.New()
	bar.HideX()
	bar.Y.Padding = 0
	bar.Y.Label.Text = f.ValueLabel
	bar.Add(&plotter.ColorBar{ColorMap: cm, Vertical: true})
	bar.Y.Min, bar.Y.Max = lo, hi
	bar.Y.Tick.Marker = shortTicks{}
	// The bar's strip holds the color bar, its tick labels and its label.
	var tickWidth vg.Length
	for _, t := range bar.Y.Tick.Marker.Ticks(lo, hi) {
		tickWidth = max(tickWidth, bar.Y.Tick.Label.Width(t.Label))
	}
	strip := 16 + tickWidth + bar.Y.Tick.Length + bar.Y.Label.TextStyle.FontExtents().Height + 18

	return width, height, func(dc draw.Canvas) {
		main := draw.Crop(dc, 0, -strip, 0, 0)
		p.Draw(main)
		da := p.DataCanvas(main)
		side := draw.Crop(dc, dc.Max.X-strip+8-dc.Min.X, 0, da.Min.Y-dc.Min.Y, da.Max.Y-dc.Max.Y)
		bar.Draw(side)
	}, nil
}

// check validates the grid and returns its smallest and largest values.
func (f HeatMapFigure) check() (lo, hi float64, err error) {
	var errs []error
	if len(f.XTicks) == 0 {
		errs = append(errs, errors.New("plot: HeatMap: no x ticks (columns)"))
	}
	if len(f.YTicks) == 0 {
		errs = append(errs, errors.New("plot: HeatMap: no y ticks (rows)"))
	}
	if len(f.Values) != len(f.YTicks) {
		errs = append(errs, fmt.Errorf("plot: HeatMap: %d rows of values for %d y ticks", len(f.Values), len(f.YTicks)))
	}
	first := true
	for i, row := range f.Values {
		if len(row) != len(f.XTicks) {
			errs = append(errs, fmt.Errorf("plot: HeatMap: row %d has %d values for %d x ticks", i, len(row), len(f.XTicks)))
			continue
		}
		for j, v := range row {
			if !finite(v) {
				errs = append(errs, fmt.Errorf("plot: HeatMap: value [%d][%d] is %g: values must be finite", i, j, v))
				continue
			}
			if first {
				lo, hi, first = v, v, false
			}
			lo, hi = min(lo, v), max(hi, v)
		}
	}
	if len(errs) > 0 {
		return 0, 0, errors.Join(errs...)
	}
	return lo, hi, nil
}

// categoryTicks puts label i at i.
func categoryTicks(labels []string) gplot.ConstantTicks {
	t := make(gplot.ConstantTicks, len(labels))
	for i, l := range labels {
		t[i] = gplot.Tick{Value: float64(i), Label: l}
	}
	return t
}

// grid is a checked [][]float64 as a plotter.GridXYZ: column c at x = c,
// row r at y = r.
type grid struct {
	values     [][]float64
	cols, rows int
}

func (g grid) Dims() (c, r int)   { return g.cols, g.rows }
func (g grid) Z(c, r int) float64 { return g.values[r][c] }
func (g grid) X(c int) float64    { return float64(c) }
func (g grid) Y(r int) float64    { return float64(r) }

// cellText is a plotter that writes each cell's value at its center, in
// black on light colors and white on dark ones, at the largest size from
// 10 down to 7 points at which every text fits its cell; below that it
// writes nothing.
type cellText struct {
	g     grid
	texts [][]string
	cm    palette.ColorMap
}

// Plot implements plot.Plotter.
func (t cellText) Plot(c draw.Canvas, p *gplot.Plot) {
	trX, trY := p.Transforms(&c)
	cw, ch := trX(0.5)-trX(-0.5), trY(0.5)-trY(-0.5)
	sty := p.X.Tick.Label // a copy: same font family
	sty.XAlign, sty.YAlign = draw.XCenter, draw.YCenter
	sty.Rotation = 0
	fits := false
	for size := vg.Length(10); size >= 7; size-- {
		sty.Font.Size = size
		fits = true
		for _, row := range t.texts {
			for _, s := range row {
				if sty.Width(s) > 0.9*cw || sty.Height(s) > 0.8*ch {
					fits = false
				}
			}
		}
		if fits {
			break
		}
	}
	if !fits {
		return
	}
	for r, row := range t.texts {
		for col, s := range row {
			sty.Color = contrast(t.cm, t.g.values[r][col])
			c.FillText(sty, vg.Point{X: trX(float64(col)), Y: trY(float64(r))}, s)
		}
	}
}

// contrast returns black or white, whichever reads better on v's color.
func contrast(cm palette.ColorMap, v float64) color.Color {
	v = min(max(v, cm.Min()), cm.Max())
	col, err := cm.At(v)
	if err != nil {
		return color.Black
	}
	r, g, b, _ := col.RGBA()
	if luma := 0.299*float64(r) + 0.587*float64(g) + 0.114*float64(b); luma > 0.5*0xffff {
		return color.Black
	}
	return color.White
}

func abs(v float64) float64 { return max(v, -v) }

// shortTicks are gonum's default ticks without trailing zeros in their
// labels ("1250", not "1250.00").
type shortTicks struct{}

// Ticks implements plot.Ticker.
func (shortTicks) Ticks(lo, hi float64) []gplot.Tick {
	ticks := gplot.DefaultTicks{}.Ticks(lo, hi)
	for i, t := range ticks {
		if strings.Contains(t.Label, ".") && !strings.ContainsAny(t.Label, "eE") {
			ticks[i].Label = strings.TrimRight(strings.TrimRight(t.Label, "0"), ".")
		}
	}
	return ticks
}

// frame draws a dark border around the data area, so light cells keep
// an edge against the background.
type frame struct{}

// Plot implements plot.Plotter.
func (frame) Plot(c draw.Canvas, _ *gplot.Plot) {
	r := c.Rectangle
	sty := draw.LineStyle{Color: color.Gray{Y: 40}, Width: vg.Points(1)}
	c.StrokeLines(sty, []vg.Point{r.Min, {X: r.Max.X, Y: r.Min.Y}, r.Max, {X: r.Min.X, Y: r.Max.Y}, r.Min})
}
