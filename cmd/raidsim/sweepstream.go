package main

import (
	"io"
	"slices"
	"strconv"

	"github.com/raidsim/raidsim"
	"github.com/raidsim/raidsim/internal/outfile"
	"github.com/raidsim/raidsim/metrics"
	"github.com/raidsim/raidsim/spec"
	"github.com/raidsim/raidsim/sweep"
)

// sweepChunk is how many points a sweep builds, checks and runs at a
// time: memory stays constant whatever the grid's size (a million-point
// --list runs in tens of MB; BenchmarkSweepListMillion), and the rows
// of a chunk are written as soon as it is done.
const sweepChunk = 1024

// checkAxes builds and checks point first and, for each value of each
// axis, the point that takes it with first's other values: one point
// per value, not per combination. It returns how many it checked.
func (o *sweepOptions) checkAxes(grid *sweep.Grid, first int) (int, error) {
	axes := grid.Axes()
	pick := make([]int, len(axes)) // first's value index on each axis
	stride := make([]int, len(axes))
	for a, i, s := len(axes)-1, first, 1; a >= 0; a-- {
		n := len(axes[a].Values)
		pick[a], stride[a] = i%n, s
		i, s = i/n, s*n
	}
	checked := map[int]bool{first: true}
	for a := range axes {
		for j := range axes[a].Values {
			checked[first+(j-pick[a])*stride[a]] = true
		}
	}
	idx := make([]int, 0, len(checked))
	for i := range checked {
		idx = append(idx, i)
	}
	slices.Sort(idx)
	for _, i := range idx {
		p, err := grid.Point(i)
		if err != nil {
			return 0, o.fileErr(err)
		}
		if _, err := parsePoint(p, o.config); err != nil {
			return 0, pointErr(&sweep.PointError{Point: p, Err: err})
		}
	}
	return len(idx), nil
}

// chunks builds and checks points lo to hi-1 a chunk at a time and
// hands each chunk, with its experiments, to do (nil: only check).
func (o *sweepOptions) chunks(grid *sweep.Grid, lo, hi int, do func([]sweep.Point, []*spec.Experiment) error) error {
	for from := lo; from < hi; from += sweepChunk {
		points, err := grid.Points(from, min(from+sweepChunk, hi))
		if err != nil {
			return o.fileErr(err)
		}
		cfgs, err := sweep.Run(points, o.workers, func(p sweep.Point) (*spec.Experiment, error) {
			return parsePoint(p, o.config)
		}, nil)
		if err != nil {
			return pointErr(err)
		}
		if do == nil {
			continue
		}
		if err := do(points, cfgs); err != nil {
			return err
		}
	}
	return nil
}

// checkOutputs checks every file the sweep writes against the output
// policy before any point runs (rather than failing after the whole
// sweep), and opens the trace-event file. The inputs are the sweep file
// and the first point's traces.
func (o *sweepOptions) checkOutputs(grid *sweep.Grid) error {
	inputs := []outfile.Input{{Name: "--config", Path: o.config}}
	if p, err := grid.Point(0); err == nil {
		if x, err := parsePoint(p, o.config); err == nil {
			inputs = append(inputs, experimentInputs(nil, x)...)
		}
	}
	o.out = outfile.Policy{Force: o.force, Inputs: inputs}
	var targets []outfile.Target
	if o.plot != "" {
		targets = append(targets, outfile.Target{Name: "--plot", Path: o.plot, Exts: plotExts})
	}
	if o.cdf != "" {
		targets = append(targets, outfile.Target{Name: "--cdf", Path: o.cdf, Exts: plotExts})
	}
	if o.trace.path != "" {
		targets = append(targets, outfile.Target{Name: "--trace-events", Path: o.trace.path, Exts: traceEventExts})
	}
	if err := o.out.Check(targets...); err != nil {
		return err
	}
	return o.trace.out.open(o.out)
}

// plotMetric is the metric --plot draws: the first --metric, else iops.
func (o *sweepOptions) plotMetric() sweepMetric {
	if len(o.figures) > 0 && o.metric != "" {
		return o.figures[0]
	}
	return sweepMetrics[0]
}

// sweepWriter prints a sweep's rows a chunk at a time: the header with
// the first, and in a text table every chunk aligned like the first
// (value columns as wide as the widest value of the grid's points,
// figure columns widening if a later chunk needs it).
type sweepWriter struct {
	o      *sweepOptions
	w      io.Writer
	grid   *sweep.Grid
	lo, hi int
	phases []string

	started bool
	widths  []int
	align   []metrics.Align
}

// write prints points and their results (nil for --list).
func (s *sweepWriter) write(points []sweep.Point, results []*raidsim.Report) error {
	o := s.o
	if o.json {
		return writeSweepJSON(s.w, points, results)
	}
	figures := !o.list
	t := metrics.Table{}
	if !s.started {
		t.Header = o.header(s.grid, s.phases, figures)
	}
	for i, p := range points {
		t.Rows = append(t.Rows, s.row(p, results, i, figures))
	}
	if o.csv {
		s.started = true
		return t.WriteCSV(s.w)
	}
	if !s.started {
		s.started = true
		s.widths = s.valueWidths()
		t.Align = make([]metrics.Align, 1+len(s.grid.Paths()))
		for i := 1; i < len(t.Align); i++ {
			t.Align[i] = metrics.AlignLeft // a value column stays left even when it is all numbers
		}
		t.Align[0] = metrics.AlignRight
	} else {
		t.Align = s.align
	}
	t.MinWidths = s.widths
	s.widths, s.align = t.Widths(), t.Alignment()
	return t.WriteText(s.w)
}

// row is point p's cells: its index, its values and (with figures) the
// figures of results[i].
func (s *sweepWriter) row(p sweep.Point, results []*raidsim.Report, i int, figures bool) []string {
	row := []string{strconv.Itoa(p.Index)}
	for _, v := range p.Values {
		row = append(row, sweep.FormatValue(v))
	}
	if !figures {
		return row
	}
	rep := results[i]
	for _, m := range s.o.figures {
		row = append(row, m.format(m.value(rep.Total.Summary)))
	}
	for k := range s.phases {
		for _, m := range s.o.perPhase {
			if k < len(rep.Phases) {
				row = append(row, m.format(m.value(rep.Phases[k].Summary)))
			} else {
				row = append(row, "-")
			}
		}
	}
	return row
}

// valueWidths returns the widths of the index and value columns over
// points lo to hi-1, computed from the axes without building the points:
// the widest index and, per axis, the widest of the values those points
// take.
func (s *sweepWriter) valueWidths() []int {
	axes := s.grid.Axes()
	w := make([]int, 1+len(axes))
	if s.hi > s.lo {
		w[0] = len(strconv.Itoa(s.hi - 1))
	}
	stride := 1 // points between changes of axis a's value
	for a := len(axes) - 1; a >= 0; a-- {
		n := len(axes[a].Values)
		for k, seen := s.lo/stride, 0; s.hi > s.lo && k <= (s.hi-1)/stride && seen < n; k, seen = k+1, seen+1 {
			w[1+a] = max(w[1+a], len([]rune(sweep.FormatValue(axes[a].Values[k%n]))))
		}
		stride *= n
	}
	return w
}
