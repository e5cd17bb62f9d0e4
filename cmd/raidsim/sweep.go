package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/spf13/pflag"
	"go.yaml.in/yaml/v3"

	"github.com/raidsim/raidsim"
	"github.com/raidsim/raidsim/internal/outfile"
	"github.com/raidsim/raidsim/metrics"
	"github.com/raidsim/raidsim/plot"
	"github.com/raidsim/raidsim/spec"
	"github.com/raidsim/raidsim/sweep"
)

// sweepOptions are the flags of `raidsim sweep`.
type sweepOptions struct {
	config     string
	workers    int
	shard      string
	csv, json  bool
	list       bool
	metric     string        // the --metric flag
	figures    []sweepMetric // the total's columns, from --metric
	perPhase   []sweepMetric // the columns repeated per phase
	plot       string
	cdf        string
	progress   string
	trace      sweepTrace // --trace-events of one point
	force      bool       // replace existing output files
	out        outfile.Policy
	barAfter   time.Duration // the progress bar appears once the sweep has run this long (1s)
	barRefresh time.Duration // and is redrawn this often
}

// sweepHelp introduces `raidsim sweep --help`.
const sweepHelp = `Usage: raidsim sweep --config FILE [flags]

Runs every combination of the values listed in the config's sweep section
(the cartesian product, first axis slowest) in parallel and prints one row
per point: its index, each swept value, and the run's figures. The output
is the same whatever --workers is. Paths are the key paths of raidsim run's
flags (raidsim run --help), dotted keys with [i] list indices; a null value
removes the field:

  sweep:
    stack.raid.stripe_unit: [16KiB, 64KiB, 256KiB]
    stack.cache: [null, {size: 64MiB}]     # without, then with a volume cache
    phases[0].iodepth: [1, 32]

--shard I/N runs the I-th of N contiguous slices of the points (I from 1),
for batch engines: every shard prints the CSV header, so keep the first
file's header and drop the others' (head -n 1 / tail -n +2) when joining
them in shard order.
`

func sweepFlags(o *sweepOptions) *pflag.FlagSet {
	fs := newFlags("sweep")
	fs.StringVar(&o.config, "config", "", "sweep file: a config (YAML or JSON) with a sweep: section mapping field paths to lists of values")
	fs.IntVar(&o.workers, "workers", runtime.NumCPU(), "points run at the same time")
	fs.StringVar(&o.shard, "shard", "", "run only slice I of N of the points, as I/N with I from 1 (e.g. 2/8)")
	fs.BoolVar(&o.csv, "csv", false, "print CSV")
	fs.BoolVar(&o.json, "json", false, "print JSON Lines: one object per point with its values and full report")
	fs.BoolVar(&o.list, "list", false, "list the points (index and values) and check their configs, without running them")
	fs.StringVar(&o.metric, "metric", "", "the figures to print, comma-separated (default all); --plot draws the first (default iops). From: "+strings.Join(metricNames(), ", "))
	fs.StringVar(&o.cdf, "cdf", "", "also draw the latency CDF of every point (configuration) as FILE.svg or FILE.png")
	fs.StringVar(&o.plot, "plot", "", "also draw the first --metric as FILE.svg or FILE.png: a heat map for two axes, else a curve against the last axis per combination of the others")
	fs.StringVar(&o.trace.path, "trace-events", "", "also write one point's requests and drive commands as a Chrome trace-event file (Perfetto): FILE.json, with --trace-point")
	fs.StringVar(&o.trace.pointFlag, "trace-point", "", "with --trace-events: the point to record, by its index")
	fs.BoolVar(&o.force, "force", false, forceUsage)
	fs.StringVar(&o.progress, "progress", "auto", "progress bar on stderr: auto (when stderr is a terminal and the sweep takes over a second), on or off")
	return fs
}

// sweepMetric is one figure of a point's report, as a column.
type sweepMetric struct {
	key, header string
	value       func(metrics.Summary) float64
	format      func(float64) string
}

func fixed(d int) func(float64) string {
	return func(v float64) string { return metrics.FormatFixed(v, d) }
}
func sig4(v float64) string { return metrics.FormatSig(v, 4) }

// sweepMetrics are the total's columns, in order. Their keys name them
// in CSV headers and for --metric.
var sweepMetrics = []sweepMetric{
	{"iops", "IOPS", func(s metrics.Summary) float64 { return s.All.IOPS }, fixed(1)},
	{"mb_per_s", "MB/s", func(s metrics.Summary) float64 { return s.All.MBPerS }, fixed(2)},
	{"mean_ms", "mean ms", func(s metrics.Summary) float64 { return s.All.LatencyMS.Mean }, sig4},
	{"p50_ms", "p50 ms", func(s metrics.Summary) float64 { return s.All.LatencyMS.P50 }, sig4},
	{"p95_ms", "p95 ms", func(s metrics.Summary) float64 { return s.All.LatencyMS.P95 }, sig4},
	{"p99_ms", "p99 ms", func(s metrics.Summary) float64 { return s.All.LatencyMS.P99 }, sig4},
	{"max_ms", "max ms", func(s metrics.Summary) float64 { return s.All.LatencyMS.Max }, sig4},
	{"read_iops", "read IOPS", func(s metrics.Summary) float64 { return s.Read.IOPS }, fixed(1)},
	{"write_iops", "write IOPS", func(s metrics.Summary) float64 { return s.Write.IOPS }, fixed(1)},
	{"sim_s", "sim s", func(s metrics.Summary) float64 { return s.SimSeconds }, fixed(3)},
}

// metricAliases are the metric keys of reports before schema_version 2.
var metricAliases = map[string]string{"sim_seconds": "sim_s"}

// phaseMetrics are the columns repeated per phase when a config has more
// than one, keyed "PHASE.iops" and so on.
var phaseMetrics = []string{"iops", "mb_per_s", "p99_ms"}

func metricNames() []string {
	names := make([]string, len(sweepMetrics))
	for i, m := range sweepMetrics {
		names[i] = m.key
	}
	return names
}

func findMetric(key string) (sweepMetric, bool) {
	if k, ok := metricAliases[key]; ok {
		key = k
	}
	for _, m := range sweepMetrics {
		if m.key == key {
			return m, true
		}
	}
	return sweepMetric{}, false
}

// sweepGCPercent is the garbage collector's target raidsim sweep runs
// with unless GOGC is set.
const sweepGCPercent = 400

func runSweep(args []string, stdout, stderr io.Writer) error {
	o := sweepOptions{barAfter: time.Second, barRefresh: 200 * time.Millisecond}
	fs := sweepFlags(&o)
	rest, err := parseFlags(fs, args, stdout, func(w io.Writer) { writeHelp(w, sweepHelp, fs) }, nil)
	if err != nil {
		return err
	}
	if err := noArgs(rest); err != nil {
		return err
	}
	return o.run(stdout, stderr)
}

// check reports every bad flag at once.
func (o *sweepOptions) check() (sweep.Shard, error) {
	var errs []string
	if o.config == "" {
		errs = append(errs, "--config: a sweep file is required")
	}
	if o.workers < 1 {
		errs = append(errs, fmt.Sprintf("--workers: must be at least 1, got %d", o.workers))
	}
	shard, err := sweep.ParseShard(o.shard)
	if err != nil {
		errs = append(errs, "--shard: "+strings.TrimPrefix(err.Error(), "sweep: "))
	}
	if o.csv && o.json {
		errs = append(errs, "--csv and --json: choose one")
	}
	o.figures, o.perPhase = sweepMetrics, nil
	for _, k := range phaseMetrics {
		m, _ := findMetric(k)
		o.perPhase = append(o.perPhase, m)
	}
	if o.metric != "" {
		o.figures = nil
		for _, k := range strings.Split(o.metric, ",") {
			m, ok := findMetric(strings.TrimSpace(k))
			if !ok {
				errs = append(errs, fmt.Sprintf("--metric: unknown %q; want some of %s", k, strings.Join(metricNames(), ", ")))
				continue
			}
			o.figures = append(o.figures, m)
		}
		o.perPhase = o.figures
		if o.json {
			errs = append(errs, "--metric selects columns, and --json prints whole reports: drop one")
		}
	}
	if o.cdf != "" {
		if o.list {
			errs = append(errs, "--cdf needs results: drop --list")
		}
	}
	if o.plot != "" {
		if o.shard != "" {
			errs = append(errs, "--plot needs every point: drop --shard")
		}
		if o.list {
			errs = append(errs, "--plot needs results: drop --list")
		}
	}
	errs = append(errs, o.trace.check()...)
	switch o.progress {
	case "auto", "on", "off":
	default:
		errs = append(errs, fmt.Sprintf("--progress: want auto, on or off, got %q", o.progress))
	}
	if len(errs) > 0 {
		return shard, &usageError{lines: errs}
	}
	return shard, nil
}

func (o *sweepOptions) run(stdout, stderr io.Writer) error {
	shard, err := o.check()
	if err != nil {
		return err
	}
	data, err := os.ReadFile(o.config)
	if err != nil {
		return err
	}
	tree, err := decodeSweepFile(data, o.config)
	if err != nil {
		return err
	}
	base, axes, err := sweep.Split(tree)
	if err != nil {
		return o.fileErr(err)
	}
	grid, err := sweep.NewGrid(base, axes)
	if err != nil {
		return o.fileErr(err)
	}
	lo, hi := shard.Range(grid.Len())
	if o.trace.out != nil && (o.trace.point < lo || o.trace.point >= hi) {
		return usagef("--trace-point %d: this run has points %d to %d", o.trace.point, lo, hi-1)
	}
	if err := o.checkOutputs(grid); err != nil {
		return err
	}
	defer o.trace.out.abort()
	// Check every axis value before running any point, so a bad value
	// fails at once; a point whose values are each fine but clash fails
	// when its chunk is built, naming it. (Checking every point first
	// kept a million-point sweep silent for 43 s before its first row.)
	// A listing checks each chunk of points as it prints it.
	if !o.list && hi > lo {
		if _, err := o.checkAxes(grid, lo); err != nil {
			return err
		}
	}
	phases, err := phaseNames(grid, o.config)
	if err != nil {
		return err
	}
	out := &sweepWriter{o: o, w: stdout, grid: grid, lo: lo, hi: hi, phases: phases}
	if o.list {
		err = o.chunks(grid, lo, hi, func(points []sweep.Point, _ []*spec.Experiment) error {
			return out.write(points, nil)
		})
	} else {
		err = o.runPoints(grid, lo, hi, out, stderr)
	}
	if err != nil || out.started {
		return err
	}
	return out.write(nil, nil) // an empty shard still prints the header
}

// runPoints runs points lo to hi-1 a chunk at a time, writing each
// chunk's rows as it completes, then draws the plots.
func (o *sweepOptions) runPoints(grid *sweep.Grid, lo, hi int, out *sweepWriter, stderr io.Writer) error {
	bar := o.startBar(stderr, hi-lo)
	if os.Getenv("GOGC") == "" {
		// The simulations keep a few MB live and allocate little, but the
		// collector's default pace steals CPU from the workers: at 400
		// two workers on two cores take 0.52x the one-worker time
		// instead of 0.62x (BenchmarkSweep). GOGC overrides this. The
		// old target comes back after the sweep, for callers that go on
		// (the tests run every command in one process).
		defer debug.SetGCPercent(debug.SetGCPercent(sweepGCPercent))
	}
	var (
		plotted []float64        // the plotted metric of every point, for --plot
		cdfs    []plot.CDFSeries // every point's latency, for --cdf
		title   string           // the first report's name
		pm      = o.plotMetric()
	)
	err := o.chunks(grid, lo, hi, func(points []sweep.Point, cfgs []*spec.Experiment) error {
		first := points[0].Index
		results, err := sweep.Run(points, o.workers, func(p sweep.Point) (*raidsim.Report, error) {
			return raidsim.RunWith(cfgs[p.Index-first], raidsim.RunOptions{Observer: o.trace.observer(p.Index)})
		}, func(done, _ int) { bar.update(first-lo+done, hi-lo) })
		if err != nil {
			return pointErr(err)
		}
		if title == "" {
			title = results[0].Name
		}
		for i, rep := range results {
			if o.plot != "" {
				plotted = append(plotted, pm.value(rep.Total.Summary))
			}
			if o.cdf != "" {
				cdfs = append(cdfs, plot.CDFSeries{Name: pointWords(points[i]), Hist: rep.Total.Latency.All().Latency()})
			}
		}
		return out.write(points, results)
	})
	bar.stop()
	if err != nil {
		return err
	}
	if err := o.trace.write(lo, hi, stderr); err != nil {
		return err
	}
	if o.cdf != "" {
		fig := plot.CDFFigure{Title: "Latency CDF per configuration", Series: cdfs}
		if err := writeFigure(o.out, outfile.Target{Name: "--cdf", Path: o.cdf}, fig); err != nil {
			return err
		}
	}
	if o.plot != "" {
		return o.drawPlot(grid, title, plotted)
	}
	return nil
}

// fileErr names the sweep file in a sweep package error.
func (o *sweepOptions) fileErr(err error) error {
	return fmt.Errorf("%s: %s", o.config, strings.TrimPrefix(err.Error(), "sweep: "))
}

// pointErr restates a failing point's error without the package prefix.
func pointErr(err error) error {
	var pe *sweep.PointError
	if errors.As(err, &pe) {
		return fmt.Errorf("point %d (%s): %w", pe.Point.Index, pe.Point, pe.Err)
	}
	return err
}

// parsePoint turns a point's tree into a validated experiment. Relative
// trace paths are taken from the sweep file's directory, as spec.Load
// does for a config file.
func parsePoint(p sweep.Point, file string) (*spec.Experiment, error) {
	c, err := spec.ParseTree(p.Tree, file)
	if err != nil {
		return nil, err
	}
	dir := filepath.Dir(file)
	for i := range c.Phases {
		if t := c.Phases[i].Trace; t != nil && t.Path != "" && !filepath.IsAbs(t.Path) {
			t.Path = filepath.Join(dir, t.Path)
		}
	}
	return c, nil
}

// decodeSweepFile decodes YAML or JSON (JSON is YAML) into a tree. A
// sweep section written as a map is rewritten into sweep's list form
// first, so the axes keep the order they have in the file.
func decodeSweepFile(data []byte, name string) (map[string]any, error) {
	if len(data) > spec.MaxBytes {
		return nil, fmt.Errorf("%s: %d bytes, more than %d", name, len(data), spec.MaxBytes)
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("%s: %s", name, strings.TrimPrefix(err.Error(), "yaml: "))
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 || doc.Content[0].Kind != yaml.MappingNode {
		return nil, fmt.Errorf("%s: want a mapping of keys (stack, phases, sweep)", name)
	}
	top := doc.Content[0]
	for i := 0; i+1 < len(top.Content); i += 2 {
		if top.Content[i].Value != sweep.Section || top.Content[i+1].Kind != yaml.MappingNode {
			continue
		}
		m := top.Content[i+1]
		list := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Line: m.Line, Column: m.Column}
		for j := 0; j+1 < len(m.Content); j += 2 {
			list.Content = append(list.Content, &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Content: []*yaml.Node{
				{Kind: yaml.ScalarNode, Tag: "!!str", Value: "path"}, m.Content[j],
				{Kind: yaml.ScalarNode, Tag: "!!str", Value: "values"}, m.Content[j+1],
			}})
		}
		top.Content[i+1] = list
	}
	var tree map[string]any
	if err := doc.Decode(&tree); err != nil {
		return nil, fmt.Errorf("%s: %s", name, strings.TrimPrefix(err.Error(), "yaml: "))
	}
	return tree, nil
}

// header returns the table's columns: point, the axes, then the figures
// (and per-phase figures when the config has several phases) unless the
// sweep only lists its points. CSV and --metric use the keys; the text
// table uses headers for people.
func (o *sweepOptions) header(grid *sweep.Grid, phases []string, figures bool) []string {
	h := []string{"point"}
	h = append(h, grid.Paths()...)
	if !figures {
		return h
	}
	for _, m := range o.figures {
		if o.csv {
			h = append(h, m.key)
		} else {
			h = append(h, m.header)
		}
	}
	for _, name := range phases {
		for _, m := range o.perPhase {
			if o.csv {
				h = append(h, name+"."+m.key)
			} else {
				h = append(h, name+" "+m.header)
			}
		}
	}
	return h
}

// phaseNames returns the names of the phases of the grid's first point
// when it has more than one, else nil. They name the per-phase columns,
// and come from the grid rather than the shard's points so that every
// shard, even an empty one, writes the same header. A sweep that varies
// the phases themselves gets the first point's columns: points with
// fewer phases show "-", extra phases are left out (--json has them).
func phaseNames(grid *sweep.Grid, file string) ([]string, error) {
	p, err := grid.Point(0)
	if err != nil {
		return nil, err
	}
	c, err := parsePoint(p, file)
	if err != nil {
		return nil, pointErr(&sweep.PointError{Point: p, Err: err})
	}
	if len(c.Phases) < 2 {
		return nil, nil
	}
	names := make([]string, len(c.Phases))
	for i, ph := range c.Phases {
		names[i] = ph.Name
		if names[i] == "" {
			names[i] = "phase " + strconv.Itoa(i+1) // the config's default
		}
	}
	return names, nil
}

// writeSweepJSON writes one JSON object per line and point:
// {"point":N,"values":{"PATH":VALUE,...},"report":{...}}, the values in
// axis order. Lines of shards concatenate into the unsharded output.
func writeSweepJSON(w io.Writer, points []sweep.Point, results []*raidsim.Report) error {
	var b bytes.Buffer
	for i, p := range points {
		fmt.Fprintf(&b, `{"point":%d,"values":{`, p.Index)
		for a, v := range p.Values {
			if a > 0 {
				b.WriteByte(',')
			}
			k, _ := json.Marshal(p.Paths[a])
			val, err := json.Marshal(v)
			if err != nil {
				return fmt.Errorf("point %d: %s: %w", p.Index, p.Paths[a], err)
			}
			b.Write(k)
			b.WriteByte(':')
			b.Write(val)
		}
		b.WriteByte('}')
		if results != nil {
			rep, err := json.Marshal(results[i])
			if err != nil {
				return err
			}
			b.WriteString(`,"report":`)
			b.Write(rep)
		}
		b.WriteString("}\n")
	}
	_, err := w.Write(b.Bytes())
	return err
}

// drawPlot draws the first --metric (iops by default) over the whole grid: a heat map for two axes
// (first axis up, second across), otherwise one line per combination of
// the other axes against the last axis.
func (o *sweepOptions) drawPlot(grid *sweep.Grid, name string, values []float64) error {
	m := o.plotMetric()
	axes := grid.Axes()
	value := func(i int) float64 { return values[i] }
	labels := func(a sweep.Axis) []string {
		l := make([]string, len(a.Values))
		for i, v := range a.Values {
			l[i] = valueWords(a.Path, v)
		}
		return l
	}
	title := fmt.Sprintf("%s: %s", name, m.header)
	plotTarget := outfile.Target{Name: "--plot", Path: o.plot}
	if len(axes) == 2 {
		nx := len(axes[1].Values)
		vals := make([][]float64, len(axes[0].Values))
		for r := range vals {
			vals[r] = make([]float64, nx)
			for c := range nx {
				vals[r][c] = value(r*nx + c)
			}
		}
		return writeFigure(o.out, plotTarget, plot.HeatMapFigure{
			Title: title, XLabel: axisWords(axes[1].Path), YLabel: axisWords(axes[0].Path),
			XTicks: labels(axes[1]), YTicks: labels(axes[0]),
			Values: vals, ValueLabel: m.header,
		})
	}
	last := axes[len(axes)-1]
	n := len(last.Values)
	xs, numeric := numbers(last.Values)
	var series []plot.LineSeries
	for s := 0; s < grid.Len()/n; s++ {
		ls := plot.LineSeries{Y: make([]float64, n)}
		if numeric {
			ls.X = xs
		} else {
			ls.Labels = labels(last)
		}
		for j := range n {
			ls.Y[j] = value(s*n + j)
		}
		if len(axes) > 1 {
			p, err := grid.Point(s * n)
			if err != nil {
				return err
			}
			p.Values, p.Paths = p.Values[:len(axes)-1], p.Paths[:len(axes)-1]
			ls.Name = pointWords(p)
		}
		series = append(series, ls)
	}
	return writeFigure(o.out, plotTarget, plot.LinesFigure{Title: title, XLabel: axisWords(last.Path), YLabel: m.header, Series: series})
}

// numbers returns vs as float64s when every value is a number.
func numbers(vs []any) ([]float64, bool) {
	xs := make([]float64, len(vs))
	for i, v := range vs {
		switch x := v.(type) {
		case int:
			xs[i] = float64(x)
		case int64:
			xs[i] = float64(x)
		case uint64:
			xs[i] = float64(x)
		case float64:
			xs[i] = x
		default:
			return nil, false
		}
	}
	return xs, true
}

// progressBar draws "[#####.....] 8/16 points  0:04 elapsed  ~0:04 left"
// on a terminal, redrawn a few times a second once the sweep has run for
// barAfter. Its zero value (not a terminal) does nothing.
type progressBar struct {
	w          io.Writer
	total      int
	done       atomic.Int64
	quit, gone chan struct{}
}

// isTerminal reports whether w is a character device (a terminal rather
// than a file or a pipe).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

func (o *sweepOptions) startBar(stderr io.Writer, total int) *progressBar {
	on := o.progress == "on" || o.progress == "auto" && isTerminal(stderr)
	if !on || total == 0 {
		return &progressBar{}
	}
	b := &progressBar{w: stderr, total: total, quit: make(chan struct{}), gone: make(chan struct{})}
	start := time.Now()
	go func() {
		defer close(b.gone)
		delay := time.NewTimer(o.barAfter)
		defer delay.Stop()
		select {
		case <-b.quit:
			if time.Since(start) < o.barAfter {
				return // a short sweep: no bar at all
			}
		case <-delay.C:
			tick := time.NewTicker(o.barRefresh)
			defer tick.Stop()
		loop:
			for {
				b.draw(time.Since(start))
				select {
				case <-b.quit:
					break loop
				case <-tick.C:
				}
			}
		}
		b.draw(time.Since(start))
		fmt.Fprint(b.w, "\r\033[K") // clear the bar's line for the output
	}()
	return b
}

// update is sweep.Run's progress callback.
func (b *progressBar) update(done, total int) { b.done.Store(int64(done)) }

// stop removes the bar (if it was drawn) and waits for its goroutine.
func (b *progressBar) stop() {
	if b.quit == nil {
		return
	}
	close(b.quit)
	<-b.gone
}

func (b *progressBar) draw(elapsed time.Duration) {
	const width = 30
	done := int(b.done.Load())
	fill := done * width / b.total
	left := "?"
	if done > 0 {
		left = "~" + clock(elapsed*time.Duration(b.total-done)/time.Duration(done))
	}
	fmt.Fprintf(b.w, "\r[%s%s] %d/%d points  %s elapsed  %s left\033[K",
		strings.Repeat("#", fill), strings.Repeat(".", width-fill), done, b.total, clock(elapsed), left)
}

// clock formats d as m:ss or h:mm:ss.
func clock(d time.Duration) string {
	s := int(d.Round(time.Second) / time.Second)
	if s >= 3600 {
		return fmt.Sprintf("%d:%02d:%02d", s/3600, s/60%60, s%60)
	}
	return fmt.Sprintf("%d:%02d", s/60, s%60)
}
