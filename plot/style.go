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
