package playground

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"

	"github.com/raidsim/raidsim"
	"github.com/raidsim/raidsim/disk"
	"github.com/raidsim/raidsim/lifelog"
	"github.com/raidsim/raidsim/spec"
	"github.com/raidsim/raidsim/teach"
)

// Settings are the page's controls.
type Settings struct {
	// Drive is a disk preset (disk.PresetNames).
	Drive string `json:"drive"`
	// WriteCache turns the drives' write cache on.
	WriteCache bool `json:"write_cache"`
	// RAID is "none" (one drive), "0", "1", "5" or "10".
	RAID string `json:"raid"`
	// Disks is the number of drives of an array.
	Disks int `json:"disks"`
	// StripeKiB is the stripe unit in KiB.
	StripeKiB int `json:"stripe_kib"`
	// CacheMiB is the volume write-back cache in MiB; 0 is none.
	CacheMiB int `json:"cache_mib"`
	// Policy is the cache's destage policy: wm, interval, idle, linear.
	Policy string `json:"policy"`
	// RW is the access pattern (fio's rw); BSKiB the block size in KiB;
	// IODepth the requests outstanding; IOs how many.
	RW      string `json:"rw"`
	BSKiB   int    `json:"bs_kib"`
	IODepth int    `json:"iodepth"`
	IOs     int    `json:"ios"`
	// Seed seeds every random stream.
	Seed uint64 `json:"seed"`
}

// MaxIOs bounds a playground run: it runs in a browser tab.
const MaxIOs = 20000

// Defaults are the page's starting settings: small random writes on a
// 4-drive RAID 5.
func Defaults() Settings {
	return Settings{Drive: "deskstar-7k160", WriteCache: true, RAID: "5", Disks: 4, StripeKiB: 64,
		Policy: "wm", RW: "randwrite", BSKiB: 4, IODepth: 4, IOs: 2000, Seed: 1}
}

// Args are the `raidsim run` flags that describe the same experiment:
// the page shows them, and `raidsim run` with them prints Result.Report.
func (s Settings) Args() []string {
	a := []string{"run", "--drive", s.Drive, "--write-cache", onOff(s.WriteCache)}
	if s.RAID != "none" {
		a = append(a, "--raid", s.RAID, "--disks", strconv.Itoa(s.Disks), "--stripe", fmt.Sprintf("%dKiB", s.StripeKiB))
	}
	if s.CacheMiB > 0 {
		a = append(a, "--cache", fmt.Sprintf("%dMiB", s.CacheMiB), "--destage", s.Policy)
	}
	return append(a, "--rw", s.RW, "--bs", fmt.Sprintf("%dKiB", s.BSKiB), "--iodepth", strconv.Itoa(s.IODepth),
		"--ios", strconv.Itoa(s.IOs), "--seed", strconv.FormatUint(s.Seed, 10))
}

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}

// check reports what is wrong with s, every problem at once.
func (s Settings) check() error {
	var errs []error
	bad := func(format string, args ...any) { errs = append(errs, fmt.Errorf("playground: "+format, args...)) }
	if !slices.Contains(disk.PresetNames(), s.Drive) {
		bad("unknown drive %q", s.Drive)
	}
	if !slices.Contains([]string{"none", "0", "1", "5", "10"}, s.RAID) {
		bad("RAID level %q: want none, 0, 1, 5 or 10", s.RAID)
	}
	if s.IOs < 1 || s.IOs > MaxIOs {
		bad("%d requests: want 1 to %d", s.IOs, MaxIOs)
	}
	if s.CacheMiB < 0 || s.CacheMiB > 4096 {
		bad("cache %d MiB: want 0 to 4096", s.CacheMiB)
	}
	return errors.Join(errs...)
}

// Experiment returns the experiment s describes, field by field at the
// key paths the CLI's flags set.
func (s Settings) Experiment() (*spec.Experiment, error) {
	if err := s.check(); err != nil {
		return nil, err
	}
	x := &spec.Experiment{Phases: []spec.Phase{{}}}
	set := [][2]string{
		{"seed", strconv.FormatUint(s.Seed, 10)},
		{"stack.drive.preset", s.Drive}, {"stack.drive.write_cache", onOff(s.WriteCache)},
		{"phases[0].rw", s.RW}, {"phases[0].bs", fmt.Sprintf("%dKiB", s.BSKiB)},
		{"phases[0].iodepth", strconv.Itoa(s.IODepth)}, {"phases[0].ios", strconv.Itoa(s.IOs)},
	}
	if s.RAID != "none" {
		set = append(set, [2]string{"stack.raid.level", s.RAID}, [2]string{"stack.disks", strconv.Itoa(s.Disks)},
			[2]string{"stack.raid.stripe_unit", fmt.Sprintf("%dKiB", s.StripeKiB)})
	}
	if s.CacheMiB > 0 {
		set = append(set, [2]string{"stack.cache.size", fmt.Sprintf("%dMiB", s.CacheMiB)},
			[2]string{"stack.cache.policy", s.Policy})
	}
	var errs []error
	for _, kv := range set {
		errs = append(errs, spec.Set(x, kv[0], kv[1]))
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

// RunJSON runs the settings in JSON and returns the result in JSON, or
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

func joinArgs(a []string) string {
	var b bytes.Buffer
	for i, s := range a {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(s)
	}
	return b.String()
}

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
