package playground

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/raidsim/raidsim"
	"github.com/raidsim/raidsim/lifelog"
	"github.com/raidsim/raidsim/spec"
	"github.com/raidsim/raidsim/teach"
)

// Settings are the values of the page's controls, by key path
// ("stack.raid.level": "5"), as a file or `--set` writes them.
type Settings map[string]string

// Defaults are the page's starting settings (small random writes on a
// 4-drive RAID 5).
func Defaults() Settings {
	s := Settings{}
	for _, c := range pageControls {
		s[c.Path] = c.Start
	}
	return s
}

// used returns the controls s sets, in page order: a control whose
// section is left out (its Needs set to None) is not.
func (s Settings) used() []Control {
	var out []Control
	left := map[string]bool{}
	for _, c := range pageControls {
		if left[c.Needs] || c.None != "" && s[c.Path] == c.None {
			left[c.Path] = true
			continue
		}
		out = append(out, c)
	}
	return out
}

// Args are the `raidsim run` flags that describe the same experiment:
// the page shows them, and `raidsim run` with them prints Result.Report.
func (s Settings) Args() []string {
	a := []string{"run"}
	for _, c := range s.used() {
		a = append(a, "--"+c.Flag, s[c.Path])
	}
	return a
}

// check reports what is wrong with s, every problem at once: a key that
// is no control, a choice a select does not offer, a number outside the
// control's bounds.
func (s Settings) check() error {
	var errs []error
	bad := func(format string, args ...any) { errs = append(errs, fmt.Errorf("playground: "+format, args...)) }
	known := map[string]Control{}
	for _, c := range pageControls {
		known[c.Path] = c
	}
	for _, path := range slices.Sorted(maps.Keys(s)) {
		c, ok := known[path]
		v := s[path]
		switch {
		case !ok:
			bad("%s: not a control of the page", path)
		case len(c.Options) > 0 && !slices.ContainsFunc(c.Options, func(o Option) bool { return o.Value == v }):
			bad("%s: %q is not a choice (%s)", path, v, choices(c.Options))
		case c.Kind == "number" || c.Kind == "range":
			if n, err := strconv.ParseFloat(v, 64); err != nil || n < c.Min || n > c.Max {
				bad("%s: %q: want %g to %g", path, v, c.Min, c.Max)
			}
		}
	}
	return errors.Join(errs...)
}

// choices lists the values of options.
func choices(opts []Option) string {
	var b strings.Builder
	for i, o := range opts {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(o.Value)
	}
	return b.String()
}

// Experiment returns the experiment s describes, field by field at the
// key paths of its controls (what the CLI's flags set).
func (s Settings) Experiment() (*spec.Experiment, error) {
	if err := s.check(); err != nil {
		return nil, err
	}
	x := &spec.Experiment{Phases: []spec.Phase{{}}}
	var errs []error
	for _, c := range s.used() {
		errs = append(errs, spec.Set(x, c.Path, s[c.Path]))
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return x, x.Validate()
}

// Result is what the page draws.
type Result struct {
	// Command is the equivalent command line.
	Command string `json:"command"`
	// Report is the text report, as `raidsim run` prints it.
	Report string `json:"report"`
	// IOPS, MBps, MeanMS and P99MS summarize all requests.
	IOPS   float64 `json:"iops"`
	MBps   float64 `json:"mbps"`
	MeanMS float64 `json:"mean_ms"`
	P99MS  float64 `json:"p99_ms"`
	// Throughput is requests completed per second over time.
	Throughput []Point `json:"throughput"`
	// CDF is the latency distribution: fraction of requests done within
	// X ms.
	CDF []Point `json:"cdf"`
	// Members is the number of drives; Requests the first requests, with
	// the members each touched (Stripe map) and its explain tree.
	Members  int       `json:"members"`
	Requests []Request `json:"requests"`
}

// Point is one point of a curve.
type Point struct {
	X float64 `json:"x"`
	Y float64 `json:"y"`
}

// Request is one host request of the stripe map.
type Request struct {
	ID        uint64  `json:"id"`
	Op        string  `json:"op"`
	Offset    int64   `json:"offset"`
	Length    int64   `json:"length"`
	LatencyMS float64 `json:"latency_ms"`
	// Touches are the member I/Os it caused, directly or through the
	// destages that carried its data.
	Touches []Touch `json:"touches"`
	// Explain is its life, as `raidsim explain` tells it.
	Explain string `json:"explain"`
}

// Touch is one member I/O.
type Touch struct {
	Member int    `json:"member"`
	Op     string `json:"op"`
	// Later marks an I/O of a destage after the request was
	// acknowledged.
	Later bool `json:"later"`
}

// MapRequests is how many requests the stripe map shows.
const MapRequests = 32

// Run runs s.
func Run(s Settings) (*Result, error) {
	x, err := s.Experiment()
	if err != nil {
		return nil, err
	}
	e, err := teach.Explain(x, MapRequests)
	if err != nil {
		return nil, err
	}
	rep := e.Report
	var b bytes.Buffer
	if err := rep.WriteText(&b); err != nil {
		return nil, err
	}
	all := rep.Total.Summary.All
	r := &Result{Command: "raidsim " + joinArgs(s.Args()), Report: b.String(), IOPS: all.IOPS, MBps: all.MBPerS,
		MeanMS: all.LatencyMS.Mean, P99MS: all.LatencyMS.P99, Members: max(1, len(rep.Disks))}
	r.CDF = cdf(rep)
	r.Throughput = throughput(e.Log)
	for i, l := range e.Requests {
		r.Requests = append(r.Requests, Request{ID: l.ID, Op: l.Op.String(), Offset: l.Offset, Length: l.Length,
			LatencyMS: float64(l.Completed-l.Submitted) / 1e6, Touches: touches(l), Explain: e.RequestText(i)})
	}
	return r, nil
}

// RunJSON runs the settings in JSON (an object of key paths and values;
// a key left out keeps its start) and returns the result in JSON, or
// {"error": "..."}: the page's one call.
func RunJSON(settings string) string {
	s := Defaults()
	var out any
	if err := json.Unmarshal([]byte(settings), &s); err != nil {
		out = map[string]string{"error": fmt.Sprintf("playground: settings: %v", err)}
	} else if r, err := Run(s); err != nil {
		out = map[string]string{"error": err.Error()}
	} else {
		out = r
	}
	j, _ := json.Marshal(out)
	return string(j)
}

func joinArgs(a []string) string { return strings.Join(a, " ") }

// cdf returns the latency CDF at the histogram's bucket bounds.
func cdf(rep *raidsim.Report) []Point {
	h := rep.Total.Latency.All().Latency()
	total := float64(h.Count())
	if total == 0 {
		return nil
	}
	var pts []Point
	var cum int64
	for bk := range h.Buckets() {
		if len(pts) == 0 {
			pts = append(pts, Point{X: float64(bk.Lower) / 1e6, Y: 0})
		}
		cum += bk.Count
		pts = append(pts, Point{X: float64(bk.Upper) / 1e6, Y: float64(cum) / total})
	}
	return pts
}

// throughput buckets host completions into 50 steps of the run.
func throughput(g *lifelog.Log) []Point {
	var ends []int64
	for _, l := range g.Roots {
		if !l.Background && l.Done {
			ends = append(ends, int64(l.Completed))
		}
	}
	if len(ends) == 0 {
		return nil
	}
	last := slices.Max(ends)
	const steps = 50
	width := max(last/steps, 1)
	counts := make([]int, steps)
	for _, t := range ends {
		counts[min(int(t/width), steps-1)]++
	}
	pts := make([]Point, steps)
	for i, c := range counts {
		pts[i] = Point{X: float64(int64(i)*width+width/2) / 1e9, Y: float64(c) / (float64(width) / 1e9)}
	}
	return pts
}

// touches lists the member I/Os of l and of the destages carrying it.
func touches(l *lifelog.Life) []Touch {
	out := []Touch{} // [] in JSON, never null
	var walk func(x *lifelog.Life, later bool)
	walk = func(x *lifelog.Life, later bool) {
		for _, c := range x.Children {
			if c.Member >= 0 {
				out = append(out, Touch{Member: c.Member, Op: c.Op.String(), Later: later})
			}
			walk(c, later)
		}
	}
	walk(l, false)
	for _, d := range l.Destages {
		walk(d, true)
	}
	if len(out) == 0 && len(l.Layers) > 0 && l.Absorb == nil {
		out = append(out, Touch{Member: 0, Op: l.Op.String()}) // one drive, no array
	}
	return out
}
