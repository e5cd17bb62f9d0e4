// Command ssd-cache answers the question a small-business or home-lab
// storage user asks most today: is an SSD cache worth it in front of my
// RAID 6? On one workload, a small office file server's (random 70/30
// reads and writes, zipfian over the share, 4 to 64 KiB requests, 16
// outstanding), it compares:
//
//   - 4 hard disks in RAID 6 alone;
//   - the same with a 256 MiB RAM write-back cache (a controller's);
//   - the same with an SSD cache tier (an Intel X25-M G2, as bcache puts
//     one in front of an array) in writeback, writethrough and
//     writearound modes;
//   - a RAM cache over the SSD tier over the RAID 6;
//   - 4 SSDs in RAID 5 instead.
//
// For each it prints IOPS, median and 99th-percentile latency, the
// cache's read hit ratio, the disks' mean utilization and the data at
// risk if the power failed mid-run; then the writeback tier with and
// without power-loss protection; then, with --plot FILE, the hit ratio
// and p99 latency against the SSD tier's size. The test (main_test.go)
// asserts the directions a storage engineer expects.
//
//	go run ./examples/ssd-cache [--plot ssd-cache.svg]
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/raidsim/raidsim"
	"github.com/raidsim/raidsim/metrics"
	"github.com/raidsim/raidsim/plot"
	"github.com/raidsim/raidsim/sim"
	"github.com/raidsim/raidsim/spec"
)

// Presets of the comparison.
const (
	HDD = "deskstar-7k1000"
	SSD = "intel-x25m-g2"
)

// Sizes scale the runs; the test uses smaller ones.
type Sizes struct {
	// IOs is the requests of the measured phase, Warm those of the
	// phase before it, which fills the caches and is left out.
	IOs, Warm int64
	// Share is the file server's share the workload addresses, bytes.
	Share int64
	// RAM is the RAM cache; SSDCache the SSD tier's data, bytes.
	RAM, SSDCache int64
	// PowerLossAt is when, in the measured phase, the power fails for
	// the data-at-risk column.
	PowerLossAt time.Duration
}

// FullSizes are what `go run` uses: a 64 GiB share, 8 GiB of SSD cache,
// 256 MiB of RAM.
var FullSizes = Sizes{IOs: 60_000, Warm: 60_000, Share: 64 << 30, RAM: 256 << 20, SSDCache: 8 << 30, PowerLossAt: 30 * time.Second}

// Setup is one column of the comparison.
type Setup struct {
	// Label names it.
	Label string
	// Stack builds its stack for sizes sz.
	Stack func(sz Sizes) spec.Stack
}

func raid6() spec.Stack {
	return spec.Stack{Drive: spec.Drive{Preset: HDD}, Disks: 4, RAID: &spec.RAID{Level: "6"}}
}

// ssdTier returns RAID 6 behind an SSD cache tier in mode, with
// power-loss protection plp on the SSD.
func ssdTier(mode string, plp bool) func(Sizes) spec.Stack {
	return func(sz Sizes) spec.Stack {
		s := raid6()
		s.Cache = &spec.Cache{Size: spec.Size(sz.SSDCache), Mode: mode, Device: &spec.CacheDevice{Preset: SSD, PowerLossProtection: &plp}}
		return s
	}
}

// Setups are the comparison's columns, in order. "RAM over SSD" is
// built in Go (two caches stacked), not from one spec; see runRAMOverSSD.
var Setups = []Setup{
	{"RAID 6", func(Sizes) spec.Stack { return raid6() }},
	{"+ RAM cache", func(sz Sizes) spec.Stack { s := raid6(); s.Cache = &spec.Cache{Size: spec.Size(sz.RAM)}; return s }},
	{"+ SSD writeback", ssdTier("writeback", false)},
	{"+ SSD writethrough", ssdTier("writethrough", false)},
	{"+ SSD writearound", ssdTier("writearound", false)},
	{"4 SSDs RAID 5", func(Sizes) spec.Stack {
		return spec.Stack{Drive: spec.Drive{Preset: SSD}, Disks: 4, RAID: &spec.RAID{Level: "5"}}
	}},
}

// Workload is the file server's: random 70/30, zipfian over the share,
// 4 to 64 KiB requests, 16 outstanding.
func Workload(sz Sizes, ios int64) spec.Job {
	mix := 70
	return spec.Job{RW: "randrw", RWMixRead: &mix, BSSplit: "4KiB/50:16KiB/30:64KiB/20", IODepth: 16,
		RandomDistribution: "zipf:1.1", Size: spec.Size(sz.Share), IOs: ios}
}

// Experiment is setup's run: Warm requests of warm-up (left out of the
// report, as cache studies do) and IOs measured ones, with the power
// failing PowerLossAt into the run.
func Experiment(st spec.Stack, sz Sizes) *spec.Experiment {
	at := spec.Duration(sz.PowerLossAt)
	return &spec.Experiment{
		Name: "ssd-cache", Seed: 1, Stack: st,
		PowerLossAt: &at,
		Warmup:      fmt.Sprint(sz.Warm),
		Phases:      []spec.Phase{{Name: "file server", Job: Workload(sz, sz.Warm+sz.IOs)}},
	}
}

// Row is what the table shows for one setup.
type Row struct {
	Label string
	// IOPS, P50MS and P99MS are the measured phase's.
	IOPS, P50MS, P99MS float64
	// HitRatio is the cache's read hit ratio after the warm-up (0
	// without a cache); DiskUtil the drives' mean utilization over the
	// whole run.
	HitRatio, DiskUtil float64
	// WritesAbsorbed counts writes the cache acknowledged itself.
	WritesAbsorbed int64
	// AtRiskBytes is what a power failure at PowerLossAt would lose.
	AtRiskBytes int64
	// Report is the whole run.
	Report *raidsim.Report
}

// Measure runs the experiment and takes its row.
func Measure(label string, x *spec.Experiment) (Row, error) {
	rep, err := raidsim.Run(x)
	if err != nil {
		return Row{}, fmt.Errorf("%s: %w", label, err)
	}
	return rowOf(label, rep), nil
}

func rowOf(label string, rep *raidsim.Report) Row {
	m := rep.Phases[len(rep.Phases)-1]
	r := Row{Label: label, IOPS: m.All.IOPS, P50MS: m.All.LatencyMS.P50, P99MS: m.All.LatencyMS.P99, Report: rep}
	if c := rep.Cache; c != nil {
		r.HitRatio, r.WritesAbsorbed = c.ReadHitRatio, c.WritesAbsorbed
	}
	for _, d := range rep.Disks {
		r.DiskUtil += d.Common().UtilizationRatio / float64(len(rep.Disks))
	}
	if pl := rep.PowerLoss; pl != nil {
		r.AtRiskBytes = pl.LostBytes
	}
	return r
}

// RunRAMOverSSD runs the workload on a RAM cache over the SSD tier over
// the RAID 6, two caches stacked in Go.
func RunRAMOverSSD(sz Sizes) (Row, error) {
	st := ssdTier("writeback", false)(sz)
	eng := sim.NewEngine(1)
	s, err := raidsim.NewStack(eng, st, "", nil)
	if err != nil {
		return Row{}, err
	}
	ram, err := newRAMCache(eng, s.Top, sz.RAM)
	if err != nil {
		return Row{}, err
	}
	return runOn(eng, ram, s, sz)
}

func main() {
	plotPath := flag.String("plot", "", "draw hit ratio and p99 latency against the SSD cache size to FILE (.svg or .png)")
	flag.Parse()
	if err := run(os.Stdout, FullSizes, *plotPath); err != nil {
		fmt.Fprintln(os.Stderr, "ssd-cache:", err)
		os.Exit(1)
	}
}

func run(w io.Writer, sz Sizes, plotPath string) error {
	var rows []Row
	for _, s := range Setups {
		r, err := Measure(s.Label, Experiment(s.Stack(sz), sz))
		if err != nil {
			return err
		}
		rows = append(rows, r)
	}
	r, err := RunRAMOverSSD(sz)
	if err != nil {
		return err
	}
	r.Label = "RAM over SSD"
	rows = append(rows, r)
	for _, plp := range []bool{true} {
		r, err := Measure("+ SSD writeback, PLP", Experiment(ssdTier("writeback", plp)(sz), sz))
		if err != nil {
			return err
		}
		rows = append(rows, r)
	}
	printRows(w, sz, rows)
	if plotPath != "" {
		return Plot(plotPath, sz, []int64{32 << 20, 64 << 20, 128 << 20, 256 << 20, 512 << 20, 1 << 30, 2 << 30})
	}
	return nil
}

func printRows(w io.Writer, sz Sizes, rows []Row) {
	t := metrics.Table{
		Title: fmt.Sprintf("A small office file server (random 70/30, zipf 1.1 over %d GiB, 4-64 KiB, 16 outstanding) on 4 x %s in RAID 6, %d requests measured after %d of warm-up",
			sz.Share>>30, HDD, sz.IOs, sz.Warm),
		Header: []string{"setup", "IOPS", "p50 ms", "p99 ms", "read hits", "disk util", "absorbed", "at risk KiB"},
	}
	for _, r := range rows {
		t.AddRow(r.Label, fmt.Sprintf("%.0f", r.IOPS), fmt.Sprintf("%.2f", r.P50MS), fmt.Sprintf("%.2f", r.P99MS),
			fmt.Sprintf("%.3f", r.HitRatio), fmt.Sprintf("%.2f", r.DiskUtil), fmt.Sprint(r.WritesAbsorbed), fmt.Sprint(r.AtRiskBytes>>10))
	}
	t.WriteText(w)
	fmt.Fprintf(w, "\nAt risk: what a power failure %v into the run would lose. The RAM cache loses its dirty data; the SSD tier\n"+
		"keeps its data and journal on flash and loses only what the SSD's volatile write buffer held, nothing with\n"+
		"power-loss protection (PLP). RAM over SSD: the RAM cache over the writeback tier, two caches stacked in Go.\n", sz.PowerLossAt)
}

// Plot draws the writeback SSD tier's read hit ratio and p99 latency
// against its size.
func Plot(path string, sz Sizes, sizes []int64) error {
	hits := plot.LineSeries{Name: "read hit ratio"}
	p99 := plot.LineSeries{Name: "p99 latency / 100 ms"}
	for _, s := range sizes {
		z := sz
		z.SSDCache = s
		r, err := Measure(fmt.Sprintf("SSD %d MiB", s>>20), Experiment(ssdTier("writeback", true)(z), z))
		if err != nil {
			return err
		}
		x := float64(s) / (1 << 20)
		hits.X, hits.Y = append(hits.X, x), append(hits.Y, r.HitRatio)
		p99.X, p99.Y = append(p99.X, x), append(p99.Y, r.P99MS/100)
	}
	return plot.LinesFigure{Title: "SSD cache tier over RAID 6: read hit ratio and p99 latency", XLabel: "SSD cache size (MiB)",
		YLabel: "hit ratio; p99 latency in units of 100 ms", Series: []plot.LineSeries{hits, p99}, LogX: true}.Save(path)
}
