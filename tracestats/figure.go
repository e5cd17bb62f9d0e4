package tracestats

import (
	"fmt"
	"math"

	"github.com/raidsim/raidsim/plot"
	"github.com/raidsim/raidsim/trace"
)

// Figure draws the statistics on one page, titled title: the request
// sizes, the inter-arrival times' distribution, the request rate over
// time, the LRU miss-ratio curve and the hot spots (requests by time
// and offset).
func (s *Stats) Figure(title string) (plot.PageFigure, error) {
	if s.Records == 0 {
		return plot.PageFigure{}, errNoRecords
	}
	page := plot.PageFigure{Title: title, Columns: 2}
	if p, ok := s.sizePanel(); ok {
		page.Panels = append(page.Panels, p)
	}
	if p, ok := s.gapPanel(); ok {
		page.Panels = append(page.Panels, p)
	}
	if len(s.Timeline) > 0 {
		rate := plot.LineSeries{Name: "requests/s"}
		for _, tp := range s.Timeline {
			rate.X = append(rate.X, tp.StartS)
			rate.Y = append(rate.Y, tp.IOPS)
		}
		page.Panels = append(page.Panels, plot.LinesFigure{Title: "Request rate over time",
			XLabel: "time from the first record (s)", YLabel: "requests/s", Series: []plot.LineSeries{rate}})
	}
	if p, ok := s.reusePanel(); ok {
		page.Panels = append(page.Panels, p)
	}
	if p, ok := s.heatPanel(); ok {
		page.Panels = append(page.Panels, p)
	}
	if len(page.Panels) == 0 {
		return plot.PageFigure{}, fmt.Errorf("tracestats: nothing to draw in %d records", s.Records)
	}
	return page, nil
}

func (s *Stats) sizePanel() (plot.Panel, bool) {
	var labels []string
	var reads, writes, trims []float64
	for _, b := range s.Sizes {
		if b.Reads+b.Writes+b.Trims == 0 {
			continue
		}
		l := "larger"
		if b.UpTo > 0 {
			l = trace.FormatSize(b.UpTo)
		}
		labels = append(labels, l)
		reads, writes, trims = append(reads, float64(b.Reads)), append(writes, float64(b.Writes)), append(trims, float64(b.Trims))
	}
	var series []plot.LineSeries
	for _, c := range []struct {
		name string
		y    []float64
		n    int64
	}{{"reads", reads, s.Ops.Read.Count}, {"writes", writes, s.Ops.Write.Count}, {"trims", trims, s.Ops.Trim.Count}} {
		if c.n > 0 {
			series = append(series, plot.LineSeries{Name: c.name, Labels: labels, Y: c.y})
		}
	}
	return plot.LinesFigure{Title: "Request sizes", XLabel: "size up to", YLabel: "requests", Series: series}, len(series) > 0
}

func (s *Stats) gapPanel() (plot.Panel, bool) {
	n := s.gaps.Count()
	if n == 0 {
		return nil, false
	}
	cdf := plot.LineSeries{Name: "inter-arrival time"}
	var seen int64
	for b := range s.gaps.Buckets() {
		seen += b.Count
		cdf.X = append(cdf.X, max(float64(b.Upper)/1e6, 1e-6))
		cdf.Y = append(cdf.Y, float64(seen)/float64(n))
	}
	return plot.LinesFigure{Title: "Inter-arrival times", XLabel: "gap to the previous record (ms, log scale)",
		YLabel: "fraction of gaps ≤ x", LogX: true, Series: []plot.LineSeries{cdf}}, true
}

func (s *Stats) reusePanel() (plot.Panel, bool) {
	if s.Reuse == nil || len(s.Reuse.Curves) == 0 {
		return nil, false
	}
	var series []plot.LineSeries
	for _, c := range s.Reuse.Curves {
		ls := plot.LineSeries{Name: c.Policy + " (" + c.Method + ")"}
		for _, p := range c.Points {
			ls.X = append(ls.X, float64(p.Bytes)/(1<<20))
			ls.Y = append(ls.Y, p.MissRatio)
		}
		if len(ls.Y) > 0 {
			series = append(series, ls)
		}
	}
	return plot.LinesFigure{Title: "Reuse: LRU miss ratio", XLabel: "cache size (MiB, log scale)", YLabel: "miss ratio",
		LogX: true, Series: series}, len(series) > 0
}

func (s *Stats) heatPanel() (plot.Panel, bool) {
	h := s.HotSpots
	if len(h.Counts) == 0 || len(h.Counts[0]) == 0 {
		return nil, false
	}
	rows, cols := len(h.Counts), len(h.Counts[0])
	values := make([][]float64, rows)
	for r, row := range h.Counts {
		values[r] = make([]float64, cols)
		for c, n := range row {
			values[r][c] = math.Log10(1 + float64(n))
		}
	}
	xt := make([]string, cols)
	for c := range cols {
		if c%max(cols/6, 1) == 0 {
			xt[c] = fmt.Sprintf("%.3g", float64(c)*h.BinS)
		}
	}
	yt := make([]string, rows)
	for r := range rows {
		if r%max(rows/6, 1) == 0 {
			yt[r] = trace.FormatSize(int64(r) * h.BinBytes)
		}
	}
	return plot.HeatMapFigure{Title: "Hot spots: requests by time and offset", XLabel: "time from the first record (s)",
		YLabel: "offset", XTicks: xt, YTicks: yt, Values: values, ValueLabel: "log10(1 + requests)", HideValues: true,
		Width: 432, Height: 324}, true
}
