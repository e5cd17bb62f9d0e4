package plot

import (
	"errors"
	"fmt"
	"io"

	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Panel is a figure a PageFigure can lay out: LinesFigure, CDFFigure
// and HeatMapFigure.
type Panel interface {
	layout() (width, height vg.Length, paint func(draw.Canvas), err error)
}

var (
	_ Panel = LinesFigure{}
	_ Panel = CDFFigure{}
	_ Panel = HeatMapFigure{}
)

// PageFigure lays several figures out on one page, in rows of Columns
// cells, each cell the size of the largest panel, under a title: a
// dashboard of one subject (a trace's statistics) in one file.
type PageFigure struct {
	// Title is printed across the top; empty for none.
	Title string
	// Columns is the number of panels a row; zero means 2.
	Columns int
	// Panels are drawn left to right, top to bottom; at least one.
	Panels []Panel
}

// maxPanels bounds a page's panels (each at least 72 points a side,
// within the 7200-point page).
const maxPanels = 100

// Save writes the page to path in the format its extension names (.svg
// or .png).
func (f PageFigure) Save(path string) error { return save(path, f.Render) }

// Render writes the page to w in format ("svg" or "png").
func (f PageFigure) Render(w io.Writer, format string) error {
	if _, err := normFormat(format); err != nil {
		return err
	}
	cols := f.Columns
	if cols == 0 {
		cols = 2
	}
	switch {
	case len(f.Panels) == 0:
		return errors.New("plot: Page: no panels")
	case len(f.Panels) > maxPanels:
		return fmt.Errorf("plot: Page: %d panels, more than %d", len(f.Panels), maxPanels)
	case cols < 1:
		return fmt.Errorf("plot: Page: %d columns", cols)
	}
	cols = min(cols, len(f.Panels))
	rows := (len(f.Panels) + cols - 1) / cols
	var cellW, cellH vg.Length
	paints := make([]func(draw.Canvas), len(f.Panels))
	for i, p := range f.Panels {
		if p == nil {
			return fmt.Errorf("plot: Page: panel %d is nil", i)
		}
		w, h, paint, err := p.layout()
		if err != nil {
			return fmt.Errorf("plot: Page: panel %d: %w", i, err)
		}
		cellW, cellH = max(cellW, w), max(cellH, h)
		paints[i] = paint
	}
	var sty text.Style
	var titleH vg.Length
	if f.Title != "" {
		sty = newPlot(f.Title, "", "", false).Title.TextStyle
		sty.Font.Size = 14
		titleH = sty.FontExtents().Height * 2
	}
	width, height := cellW*vg.Length(cols)+2*margin, cellH*vg.Length(rows)+titleH+2*margin
	if width > 7200 || height > 7200 {
		return fmt.Errorf("plot: Page: %d panels of %.0fx%.0f points make a %.0fx%.0f-point page, more than 7200 a side",
			len(f.Panels), float64(cellW), float64(cellH), float64(width), float64(height))
	}
	return render(w, format, width, height, func(dc draw.Canvas) {
		if f.Title != "" {
			sty.XAlign, sty.YAlign = draw.XCenter, draw.YTop
			dc.FillText(sty, vg.Point{X: (dc.Min.X + dc.Max.X) / 2, Y: dc.Max.Y}, f.Title)
		}
		top := dc.Max.Y - titleH
		for i, paint := range paints {
			r, c := i/cols, i%cols
			x0 := dc.Min.X + vg.Length(c)*cellW
			y1 := top - vg.Length(r)*cellH
			cell := draw.Canvas{Canvas: dc.Canvas, Rectangle: vg.Rectangle{
				Min: vg.Point{X: x0 + margin, Y: y1 - cellH + margin},
				Max: vg.Point{X: x0 + cellW - margin, Y: y1 - margin}}}
			paint(cell)
		}
	})
}
