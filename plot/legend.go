package plot

import (
	"math"
	"strings"

	gplot "gonum.org/v1/plot"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// legend is a figure's legend, drawn below the plot in as many columns
// as fit the figure's width, so it never covers a curve nor takes width
// from the data; notes (wrapped) follow the entries.
type legend struct {
	sty     text.Style
	entries []legendEntry
	notes   []string
}

type legendEntry struct {
	name   string
	thumbs []gplot.Thumbnailer
}

const (
	legendThumb = vg.Length(22) // thumbnail width, points
	legendGap   = vg.Length(14) // between columns, points
	legendPad   = vg.Length(8)  // above the legend, points
)

func newLegend(p *gplot.Plot) *legend { return &legend{sty: p.Legend.TextStyle} }

func (l *legend) add(name string, thumbs ...gplot.Thumbnailer) {
	l.entries = append(l.entries, legendEntry{name, thumbs})
}

func (l *legend) empty() bool { return len(l.entries) == 0 && len(l.notes) == 0 }

func (l *legend) rowHeight() vg.Length { return l.sty.FontExtents().Height * 1.25 }

// columns returns how many columns of entries fit width, and their
// width.
func (l *legend) columns(width vg.Length) (int, vg.Length) {
	var w vg.Length
	for _, e := range l.entries {
		w = max(w, l.sty.Width(e.name))
	}
	colW := legendThumb + 4 + w + legendGap
	return max(1, min(len(l.entries), int((width-2*legendGap)/colW))), colW
}

// noteLines wraps the notes to width.
func (l *legend) noteLines(width vg.Length) []string {
	var lines []string
	for _, n := range l.notes {
		line := ""
		for _, word := range strings.Fields(n) {
			try := strings.TrimSpace(line + " " + word)
			if line != "" && l.sty.Width(try) > width-2*legendGap {
				lines = append(lines, line)
				try = word
			}
			line = try
		}
		lines = append(lines, line)
	}
	return lines
}

// height returns the legend's height at figure width.
func (l *legend) height(width vg.Length) vg.Length {
	if l.empty() {
		return 0
	}
	cols, _ := l.columns(width)
	rows := int(math.Ceil(float64(len(l.entries)) / float64(cols)))
	return legendPad + vg.Length(rows+len(l.noteLines(width)))*l.rowHeight() + legendPad
}

// draw draws p above the legend on dc.
func (l *legend) draw(p *gplot.Plot, dc draw.Canvas) {
	h := l.height(dc.Max.X - dc.Min.X)
	p.Draw(draw.Crop(dc, 0, 0, h, 0))
	if l.empty() {
		return
	}
	cols, colW := l.columns(dc.Max.X - dc.Min.X)
	rh := l.rowHeight()
	sty := l.sty
	sty.XAlign, sty.YAlign = draw.XLeft, draw.YCenter
	top := dc.Min.Y + h - legendPad
	for i, e := range l.entries {
		x := dc.Min.X + legendGap + vg.Length(i%cols)*colW
		y := top - (vg.Length(i/cols)+0.5)*rh
		tc := draw.Canvas{Canvas: dc.Canvas, Rectangle: vg.Rectangle{
			Min: vg.Point{X: x, Y: y - rh*0.35}, Max: vg.Point{X: x + legendThumb, Y: y + rh*0.35}}}
		for _, t := range e.thumbs {
			t.Thumbnail(&tc)
		}
		dc.FillText(sty, vg.Point{X: x + legendThumb + 4, Y: y}, e.name)
	}
	rows := int(math.Ceil(float64(len(l.entries)) / float64(cols)))
	for j, line := range l.noteLines(dc.Max.X - dc.Min.X) {
		y := top - (vg.Length(rows+j)+0.5)*rh
		dc.FillText(sty, vg.Point{X: dc.Min.X + legendGap, Y: y}, line)
	}
}
