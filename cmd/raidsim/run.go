package main

import (
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/raidsim/raidsim"
	"github.com/raidsim/raidsim/cache"
	"github.com/raidsim/raidsim/disk"
	"github.com/raidsim/raidsim/metrics"
	"github.com/raidsim/raidsim/raid"
	"github.com/raidsim/raidsim/trace"
)

// sizeFlag is a byte count given as 4KiB, 4k, 1MiB or 512.
type sizeFlag struct{ v *int64 }

func (s sizeFlag) String() string {
	if s.v == nil {
		return "0"
	}
	return trace.FormatSize(*s.v)
}

func (s sizeFlag) Set(text string) error {
	n, err := trace.ParseSize(text)
	if err != nil {
		return err
	}
	*s.v = n
	return nil
}

// runOptions are the flags of `raidsim run`.
type runOptions struct {
	drive, writeCache, scheduler string
	ncq                          int
	rw, bssplit, dist            string
	rwmixread, iodepth           int
	bs, offset, size             int64
	ios                          int64
	seed                         uint64
	json                         bool
	timeline                     int
	powerLossAt                  time.Duration
	raidLevel, layout, r5write   string
	disks                        int
	stripe                       int64
	failures                     failureFlag
	tracePath, format, mapMode   string
	traceDevice, reorder         int
	speed                        float64
	traceCapacity                int64
	cacheSize, maxDirty          int64
	cacheMode, destage, order    string
	cacheAlign                   string
	highWater, lowWater          float64
	flushInterval                time.Duration
	cacheNV                      bool
	config                       string
	set                          map[string]bool // flags given on the command line
}

// failureFlag collects --fail-disk I@TIME flags.
type failureFlag []raid.Failure

func (f *failureFlag) String() string {
	parts := make([]string, len(*f))
	for i, x := range *f {
		parts[i] = x.String()
	}
	return strings.Join(parts, ",")
}

func (f *failureFlag) Set(text string) error {
	x, err := raid.ParseFailure(text)
	if err != nil {
		return err
	}
	*f = append(*f, x)
	return nil
}

func runFlags(o *runOptions, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("raidsim run", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: raidsim run [flags]\n\nRuns one fio-style workload on one simulated drive and prints its report,\nor with --config the phases of a config file.\n\nFlags:\n")
		fs.PrintDefaults()
	}
	fs.StringVar(&o.drive, "drive", "travelstar-7k500", "drive preset ("+strings.Join(disk.PresetNames(), ", ")+")")
	fs.StringVar(&o.writeCache, "write-cache", "on", "the drive's write cache: on (as drives ship) or off")
	fs.StringVar(&o.scheduler, "scheduler", "satf", "the drive's queue scheduler: fcfs, sstf, clook or satf")
	fs.IntVar(&o.ncq, "ncq", 32, "the drive's tagged queue depth, 1 to 32")
	fs.StringVar(&o.rw, "rw", "randread", "access pattern: read, write, randread, randwrite, rw, randrw")
	fs.IntVar(&o.rwmixread, "rwmixread", 50, "percent reads for rw and randrw")
	o.bs = 4096
	fs.Var(sizeFlag{&o.bs}, "bs", "block size, e.g. 4KiB, 64k, 1MiB")
	fs.StringVar(&o.bssplit, "bssplit", "", "block size mix, e.g. 4k/70:64k/30 (overrides --bs)")
	fs.IntVar(&o.iodepth, "iodepth", 1, "requests kept outstanding by the host")
	fs.Int64Var(&o.ios, "ios", 1000, "number of requests")
	fs.Var(sizeFlag{&o.offset}, "offset", "start of the region, in bytes (e.g. 10GiB)")
	fs.Var(sizeFlag{&o.size}, "size", "length of the region; 0 means to the end of the drive")
	fs.StringVar(&o.dist, "random_distribution", "uniform", "random offsets: uniform, zipf:THETA, pareto:H, normal:PCT")
	fs.Uint64Var(&o.seed, "seed", 1, "seed of every random stream; the same seed gives the same report")
	fs.StringVar(&o.raidLevel, "raid", "", "RAID level over the drives: 0, 1, 5 or 10 (default: one drive, no RAID)")
	fs.IntVar(&o.disks, "disks", 0, "number of drives in the array (default: the fewest the level needs)")
	fs.Var(sizeFlag{&o.stripe}, "stripe", "stripe unit (chunk) per member, e.g. 128KiB (default 64KiB)")
	fs.StringVar(&o.layout, "layout", "left-symmetric", "RAID 5 parity layout: left-symmetric, left-asymmetric, right-symmetric, right-asymmetric")
	fs.StringVar(&o.r5write, "raid5-write", "auto", "RAID 5 small writes: auto (fewest reads, as md), rmw or rcw")
	fs.Var(&o.failures, "fail-disk", "fail array member I at virtual time T, as I@T (e.g. 1@1s); repeatable")
	fs.Var(sizeFlag{&o.cacheSize}, "cache", "volume write-back cache on top of the stack, e.g. 64MiB (default: none)")
	fs.StringVar(&o.cacheMode, "cache-mode", "write-back", "volume cache mode: write-back, write-through or off")
	fs.StringVar(&o.destage, "destage", "wm", "destage policy: wm (high/low watermarks), interval, idle or linear")
	fs.StringVar(&o.order, "destage-order", "lba", "destage order: lba (C-SCAN), lrw (oldest first) or wow")
	fs.Var(sizeFlag{&o.maxDirty}, "cache-max-dirty", "most dirty data the volume cache holds, e.g. 8MiB; the rest caches reads (default: the whole cache)")
	fs.Float64Var(&o.highWater, "high-water", 0.5, "destage starts when dirty data exceeds this fraction of the dirty limit")
	fs.Float64Var(&o.lowWater, "low-water", 0.45, "destage stops below this fraction")
	fs.DurationVar(&o.flushInterval, "flush-interval", time.Second, "period of the interval destage policy")
	fs.BoolVar(&o.cacheNV, "cache-nv", false, "the volume cache is non-volatile (battery-backed): a crash loses nothing")
	fs.StringVar(&o.cacheAlign, "cache-align", "", "shape destages to full stripes: stripe or none (default: stripe over RAID, none otherwise)")
	fs.StringVar(&o.tracePath, "trace", "", "replay this trace file instead of a synthetic workload (.gz and .bz2 are read as they are)")
	fs.StringVar(&o.format, "format", "auto", "trace format: auto or one of "+strings.Join(trace.Formats(), ", "))
	fs.IntVar(&o.traceDevice, "trace-device", -1, "replay only this device (disk, volume) number of the trace; -1 replays all")
	fs.Float64Var(&o.speed, "speed", 1, "open-loop speed factor: 2 replays the trace twice as fast")
	fs.StringVar(&o.mapMode, "map", "reject", "trace offsets past the stack's capacity: reject, wrap, or scale (needs --trace-capacity)")
	fs.Var(sizeFlag{&o.traceCapacity}, "trace-capacity", "size of the traced device, for --map scale")
	fs.IntVar(&o.reorder, "reorder", 0, "sort trace records by time within a window of N records (for unsorted traces)")
	fs.StringVar(&o.config, "config", "", "run the stack and phases of this YAML or JSON config file (examples/configs/); only --json, --seed, --timeline and --power-loss-at combine with it")
	fs.BoolVar(&o.json, "json", false, "print the report as JSON")
	fs.IntVar(&o.timeline, "timeline", 0, "also print the life of the first N requests, phase by phase (text only)")
	fs.DurationVar(&o.powerLossAt, "power-loss-at", 0, "also report what a power failure this long after the start would lose in each layer, e.g. 2s")
	return fs
}

// experiment turns the flags into an Experiment, reporting every bad flag.
func (o *runOptions) experiment() (raidsim.Experiment, error) {
	var errs []string
	p, err := disk.Preset(o.drive)
	if err != nil {
		errs = append(errs, err.Error())
	}
	switch o.writeCache {
	case "on":
		p.WriteCache = true
	case "off":
		p.WriteCache = false
	default:
		errs = append(errs, fmt.Sprintf("--write-cache: want on or off, got %q", o.writeCache))
	}
	if s, err := disk.ParseScheduler(o.scheduler); err != nil {
		errs = append(errs, "--scheduler: "+err.Error())
	} else {
		p.Scheduler = s
	}
	if o.ncq < 1 || o.ncq > disk.MaxQueueDepth {
		errs = append(errs, fmt.Sprintf("--ncq: want 1 to %d, got %d", disk.MaxQueueDepth, o.ncq))
	}
	p.QueueDepth = o.ncq
	if o.bs <= 0 && o.bssplit == "" {
		errs = append(errs, fmt.Sprintf("--bs: must be positive, got %d", o.bs))
	}
	w := trace.Workload{RWMixRead: o.rwmixread, BS: o.bs, IODepth: o.iodepth,
		Offset: o.offset, Size: o.size, NumIOs: o.ios}
	if w.RW, err = trace.ParseRW(o.rw); err != nil {
		errs = append(errs, "--rw: "+err.Error())
	}
	if o.bssplit != "" {
		if w.BSSplit, err = trace.ParseBSSplit(o.bssplit); err != nil {
			errs = append(errs, "--bssplit: "+err.Error())
		}
	}
	if w.RandomDistribution, err = trace.ParseDistribution(o.dist); err != nil {
		errs = append(errs, "--random_distribution: "+err.Error())
	}
	if o.ios <= 0 {
		errs = append(errs, fmt.Sprintf("--ios: must be positive, got %d", o.ios))
	}
	if o.iodepth <= 0 {
		errs = append(errs, fmt.Sprintf("--iodepth: must be positive, got %d", o.iodepth))
	}
	if o.timeline < 0 || o.timeline > maxTimeline {
		errs = append(errs, fmt.Sprintf("--timeline: want 0 to %d requests, got %d", maxTimeline, o.timeline))
	}
	if o.timeline > 0 && o.json {
		errs = append(errs, "--timeline prints a table: drop --json or --timeline")
	}
	if o.powerLossAt < 0 {
		errs = append(errs, fmt.Sprintf("--power-loss-at: %v is negative", o.powerLossAt))
	}
	x := raidsim.Experiment{Drive: p, Workload: w, Seed: o.seed, Disks: o.disks, Failures: o.failures, PowerLossAt: o.powerLossAt}
	if o.raidLevel != "" {
		var cfg raid.Config
		var err error
		if cfg.Level, err = raid.ParseLevel(o.raidLevel); err != nil {
			errs = append(errs, "--raid: "+err.Error())
		}
		if cfg.Layout, err = raid.ParseLayout(o.layout); err != nil {
			errs = append(errs, "--layout: "+err.Error())
		}
		if cfg.Raid5Write, err = raid.ParseWritePolicy(o.r5write); err != nil {
			errs = append(errs, "--raid5-write: "+err.Error())
		}
		if o.stripe < 0 {
			errs = append(errs, fmt.Sprintf("--stripe: must be positive, got %d", o.stripe))
		}
		cfg.StripeUnit = o.stripe
		x.RAID = &cfg
	} else if o.disks > 1 || len(o.failures) > 0 || o.stripe != 0 {
		errs = append(errs, "--disks, --stripe and --fail-disk need --raid")
	}
	if o.cacheSize != 0 {
		c, cerrs := o.cacheConfig(x.RAID != nil)
		errs = append(errs, cerrs...)
		x.Cache = c
	} else {
		for _, name := range []string{"cache-mode", "cache-max-dirty", "destage", "destage-order", "high-water", "low-water", "flush-interval", "cache-nv", "cache-align"} {
			if o.set[name] {
				errs = append(errs, fmt.Sprintf("--%s needs a volume cache: add --cache SIZE", name))
			}
		}
	}
	if o.tracePath != "" {
		src := &raidsim.TraceSource{Path: o.tracePath, Format: o.format, Speed: o.speed,
			SourceCapacity: o.traceCapacity, Reorder: o.reorder}
		if o.set["iodepth"] {
			src.IODepth = o.iodepth
		}
		if o.traceDevice >= 0 {
			src.Devices = []int{o.traceDevice}
		}
		if src.Map, err = trace.ParseMapMode(o.mapMode); err != nil {
			errs = append(errs, "--map: "+err.Error())
		}
		if o.speed <= 0 {
			errs = append(errs, fmt.Sprintf("--speed: must be positive, got %g", o.speed))
		}
		if o.reorder < 0 {
			errs = append(errs, fmt.Sprintf("--reorder: must not be negative, got %d", o.reorder))
		}
		for _, name := range []string{"rw", "bs", "bssplit", "ios", "offset", "size", "rwmixread", "random_distribution"} {
			if o.set[name] {
				errs = append(errs, fmt.Sprintf("--%s describes a synthetic workload; it does not apply with --trace", name))
			}
		}
		x.Trace = src
	}
	if len(errs) > 0 {
		return raidsim.Experiment{}, fmt.Errorf("%s", strings.Join(errs, "\n  "))
	}
	return x, nil
}

func runRun(args []string, stdout, stderr io.Writer) error {
	var o runOptions
	fs := runFlags(&o, stderr)
	if err := fs.Parse(args); err != nil {
		return flagErr(err)
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q (flags start with --)", fs.Arg(0))
	}
	o.set = setFlags(fs)
	if o.config != "" {
		return runConfig(&o, stdout)
	}
	x, err := o.experiment()
	if err != nil {
		return err
	}
	var tl *raidsim.Timeline
	if o.timeline > 0 {
		tl = raidsim.NewTimeline(o.timeline)
		x.Observer = tl.Observer()
	}
	rep, err := x.Run()
	if err != nil {
		return err
	}
	if o.json {
		return rep.WriteJSON(stdout)
	}
	if err := writeRunText(stdout, &x, rep); err != nil {
		return err
	}
	if tl == nil {
		return nil
	}
	fmt.Fprintln(stdout)
	t := tl.Table()
	return t.WriteText(stdout)
}

// maxTimeline bounds --timeline: a timeline is for reading, not storage.
const maxTimeline = 10000

// writeRunText prints a run's report for people.
func writeRunText(w io.Writer, x *raidsim.Experiment, rep *raidsim.Report) error {
	wl := rep.Workload
	d := rep.Disks[0]
	wc := "off"
	if d.WriteCache {
		wc = "on"
	}
	stack := fmt.Sprintf("drive %s", d.Model)
	if r := rep.RAID; r != nil {
		stack = fmt.Sprintf("%s over %d x %s, stripe unit %s", r.Level, r.Members, d.Model, trace.FormatSize(r.StripeUnit))
		if r.Layout != "" {
			stack += ", " + r.Layout
		}
	}
	fmt.Fprintf(w, "%s (drive write cache %s, %s, NCQ depth %d)\n", stack, wc, d.Scheduler, d.QueueDepth)
	if wl != nil {
		bs := "bs=" + trace.FormatSize(wl.BS)
		if wl.BSSplit != "" {
			bs = "bssplit=" + wl.BSSplit
		}
		fmt.Fprintf(w, "workload rw=%s %s iodepth=%d ios=%d seed=%d\n\n", wl.RW, bs, wl.IODepth, wl.IOs, wl.Seed)
	}
	if tr := rep.Trace; tr != nil {
		fmt.Fprintf(w, "trace %s (format %s, %s loop, %d records replayed, %d skipped)\n\n", tr.Path, tr.Format, tr.Mode, tr.Records, tr.Skipped)
	}
	if wl == nil && rep.Trace == nil {
		fmt.Fprintln(w) // a config's total: the phases said what ran
	}
	if err := rep.Summary.WriteText(w); err != nil {
		return err
	}
	if tr := rep.Trace; tr != nil && tr.Measured != nil {
		sim, m := rep.All.LatencyMS, tr.Measured
		t := metrics.Table{
			Title:  "\nLatency, simulated vs recorded in the trace (ms)",
			Header: []string{"", "mean", "p50", "p95", "p99", "max"},
		}
		for _, row := range []struct {
			name string
			l    metrics.LatencySummary
		}{{"simulated", sim}, {"trace", *m}} {
			t.AddRow(row.name, metrics.FormatSig(row.l.Mean, 4), metrics.FormatSig(row.l.P50, 4),
				metrics.FormatSig(row.l.P95, 4), metrics.FormatSig(row.l.P99, 4), metrics.FormatSig(row.l.Max, 4))
		}
		if err := t.WriteText(w); err != nil {
			return err
		}
	}
	if rep.Failed > 0 {
		fmt.Fprintf(w, "failed requests: %d (first: %s)\n", rep.Failed, rep.FirstError)
	}
	if r := rep.RAID; r != nil {
		failed := "none"
		if len(r.FailedMembers) > 0 {
			failed = strings.Trim(fmt.Sprint(r.FailedMembers), "[]")
		}
		t := metrics.Table{
			Title:  "\nArray",
			Header: []string{"full-stripe writes", "rmw writes", "rcw writes", "pre-read", "degraded reads", "failed members"},
		}
		t.AddRow(fmt.Sprint(r.FullStripeWrites), fmt.Sprint(r.RMWWrites), fmt.Sprint(r.RCWWrites),
			trace.FormatSize(r.PrereadBytes), fmt.Sprint(r.DegradedReads), failed)
		if err := t.WriteText(w); err != nil {
			return err
		}
	}
	if c := rep.Cache; c != nil {
		filled := "never"
		if c.FilledAtSeconds != nil {
			filled = metrics.FormatFixed(*c.FilledAtSeconds, 3) + " s"
		}
		t := metrics.Table{
			Title: fmt.Sprintf("\nVolume cache (%s, %s%s)", trace.FormatSize(c.SizeBytes), c.Mode, map[bool]string{true: ", non-volatile"}[c.NonVolatile]),
			Header: []string{"read hits", "absorbed writes", "destages", "coalescing", "full-stripe", "dirty peak",
				"stalls", "stall s", "filled at", "dirty at end"},
		}
		t.AddRow(metrics.FormatFixed(c.ReadHitRatio, 3), fmt.Sprint(c.WritesAbsorbed), fmt.Sprint(c.Destages),
			metrics.FormatFixed(c.CoalescingFactor, 2), metrics.FormatFixed(c.FullStripeDestageFraction, 3),
			trace.FormatSize(c.DirtyPeakBytes), fmt.Sprint(c.Stalls), metrics.FormatFixed(c.StallSeconds, 3), filled,
			trace.FormatSize(c.DirtyBytesAtEnd))
		if err := t.WriteText(w); err != nil {
			return err
		}
	}
	t := metrics.Table{
		Title:  "\nDrives",
		Header: []string{"disk", "IOs", "utilization", "seeks", "mean seek cyl", "buffer hits", "cached writes", "destages", "mean queue", "dirty at end"},
	}
	for _, d := range rep.Disks {
		t.AddRow(d.Name, fmt.Sprint(d.IOs), metrics.FormatFixed(d.Utilization, 3), fmt.Sprint(d.Seeks),
			metrics.FormatFixed(d.MeanSeekCyls, 0), fmt.Sprint(d.ReadHits), fmt.Sprint(d.WriteCacheHits),
			fmt.Sprint(d.Destages), metrics.FormatFixed(d.MeanQueueLength, 2), trace.FormatSize(d.DirtyBytesAtExit))
	}
	if err := t.WriteText(w); err != nil {
		return err
	}
	if pl := rep.PowerLoss; pl != nil {
		return writePowerLoss(w, pl, rep)
	}
	return nil
}

// writePowerLoss prints what a power failure would have lost, layer by
// layer.
func writePowerLoss(w io.Writer, pl *raidsim.PowerLossReport, rep *raidsim.Report) error {
	t := metrics.Table{
		Title:  fmt.Sprintf("\nPower loss at %s s: acknowledged data only in volatile memory", metrics.FormatFixed(pl.AtSeconds, 3)),
		Header: []string{"layer", "lost", "note"},
	}
	if c := rep.Cache; c != nil {
		note := "acknowledged to the host, not yet destaged"
		if c.NonVolatile {
			note = fmt.Sprintf("non-volatile: keeps its %s of dirty data", trace.FormatSize(pl.VolumeCacheKept))
		}
		t.AddRow("volume cache", trace.FormatSize(pl.VolumeCacheBytes), note)
	}
	for i, b := range pl.DriveCacheBytes {
		name, wc := fmt.Sprintf("disk%d", i), true
		if i < len(rep.Disks) {
			name, wc = rep.Disks[i].Name, rep.Disks[i].WriteCache
		}
		note := "write cache off: nothing acknowledged early"
		if wc {
			note = "drive write cache: acknowledged, not on the platters"
		}
		t.AddRow(name, trace.FormatSize(b), note)
	}
	if r := rep.RAID; r != nil {
		t.AddRow("array", fmt.Sprintf("%d updates", pl.RAIDUpdatesInFlight),
			"stripes (or mirrored writes) mid-update: parity or copies may disagree with the data (write hole)")
	}
	t.AddRow("total", trace.FormatSize(pl.LostBytes), "")
	return t.WriteText(w)
}

// cacheConfig builds the volume cache's configuration from the flags.
func (o *runOptions) cacheConfig(overRAID bool) (*cache.Config, []string) {
	var errs []string
	c := &cache.Config{Size: o.cacheSize, MaxDirty: o.maxDirty, HighWater: o.highWater, LowWater: o.lowWater,
		Interval: o.flushInterval, NonVolatile: o.cacheNV}
	var err error
	if o.cacheSize < 0 {
		errs = append(errs, fmt.Sprintf("--cache: must be positive, got %d", o.cacheSize))
	}
	if c.Mode, err = cache.ParseMode(o.cacheMode); err != nil {
		errs = append(errs, "--cache-mode: "+err.Error())
	}
	if c.Policy, err = cache.ParsePolicy(o.destage); err != nil {
		errs = append(errs, "--destage: "+err.Error())
	}
	if c.Order, err = cache.ParseOrder(o.order); err != nil {
		errs = append(errs, "--destage-order: "+err.Error())
	}
	align := o.cacheAlign
	if align == "" {
		align = "none"
		if overRAID {
			align = "stripe" // real controllers gather full stripes
		}
	}
	if c.Align, err = cache.ParseAlign(align); err != nil {
		errs = append(errs, "--cache-align: "+err.Error())
	} else if c.Align == cache.AlignStripe && !overRAID {
		errs = append(errs, "--cache-align stripe needs --raid")
	}
	return c, errs // the cache validates the rest when the stack is built
}

// setFlags returns the names of the flags given on the command line.
func setFlags(fs *flag.FlagSet) map[string]bool {
	set := make(map[string]bool)
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	return set
}

// ms converts a duration to float milliseconds.
func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
