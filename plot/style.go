package plot

import (
	"image/color"

	gplot "gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// newPlot returns a plot with the title, axis labels and a light grid
// behind the data.
func newPlot(title, xLabel, yLabel string, grid bool) *gplot.Plot {
	p := gplot.New()
	p.Title.Text = title
	p.Title.TextStyle.Font.Size = 12
	p.X.Label.Text = xLabel
	p.Y.Label.Text = yLabel
	p.Legend.TextStyle.Font.Size = legendFontSize
	p.Legend.Padding = vg.Points(3)
	if grid {
		g := plotter.NewGrid()
		g.Vertical.Color = color.Gray{Y: 220}
		g.Horizontal.Color = color.Gray{Y: 220}
		p.Add(g)
	}
	return p
}

// seriesStyle returns the line style of the i-th series: the palette's
// colors first, then the same colors dashed.
func seriesStyle(i int) draw.LineStyle {
	n := len(plotutil.DefaultColors)
	return draw.LineStyle{
		Color:  plotutil.Color(i),
		Width:  vg.Points(1.5),
		Dashes: plotutil.Dashes(i / n),
	}
}

// legendFontSize is the size of legend text, in points.
const legendFontSize = 10

// legendExtra returns how much wider, in points, a figure should be to
// hold a legend of names in a column to the right of the plot.
func legendExtra(p *gplot.Plot, names []string) float64 {
	var w vg.Length
	for _, n := range names {
		w = max(w, p.Legend.TextStyle.Width(n))
	}
	if w == 0 {
		return 0
	}
	return float64(w + p.Legend.ThumbnailWidth + 16)
}

// drawWithLegend draws p with its legend, if it has entries, in a column
// to the right of the plot, top aligned with the data area, so the legend
// never hides a curve.
func drawWithLegend(p *gplot.Plot, dc draw.Canvas, hasLegend bool) {
	if !hasLegend {
		p.Draw(dc)
		return
	}
	l := p.Legend
	p.Legend = gplot.NewLegend()
	l.Top, l.Left = true, false
	r := l.Rectangle(dc)
	main := draw.Crop(dc, 0, -(r.Max.X - r.Min.X + 12), 0, 0)
	p.Draw(main)
	da := p.DataCanvas(main)
	l.YOffs = da.Max.Y - dc.Max.Y
	l.Draw(dc)
}
