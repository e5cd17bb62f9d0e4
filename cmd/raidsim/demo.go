package main

import (
	"fmt"
	"io"

	"github.com/raidsim/raidsim"
	"github.com/raidsim/raidsim/disk"
	"github.com/raidsim/raidsim/metrics"
	"github.com/raidsim/raidsim/spec"
	"github.com/raidsim/raidsim/trace"
)

// demoDrive is the drive of scenario S1: the 2.5-inch Travelstar 7K500.
const demoDrive = "travelstar-7k500"

// demoRow is one workload of the demo.
type demoRow struct {
	label      string
	rw         string
	bs         spec.Size
	iodepth    int
	ios        int64
	writeCache bool
	raid       string // RAID level; "": a single drive
	disks      int
	volCache   spec.Size // volume write-back cache bytes; 0: none
	drive      string    // the drive preset; "": demoDrive
}

const single = ""

// demoCache is the volume write-back cache of the demo's cached rows.
const demoCache = 64 << 20

var demoRows = []demoRow{
	{"sequential 64 KiB reads, depth 1", "read", 64 << 10, 1, 4000, true, single, 1, 0, ""},
	{"random 4 KiB reads, depth 1", "randread", 4 << 10, 1, 2000, true, single, 1, 0, ""},
	{"random 4 KiB reads, depth 32 (NCQ, SATF)", "randread", 4 << 10, 32, 6000, true, single, 1, 0, ""},
	{"random 4 KiB writes, depth 1, write cache on", "randwrite", 4 << 10, 1, 4000, true, single, 1, 0, ""},
	{"random 4 KiB writes, depth 1, write cache off", "randwrite", 4 << 10, 1, 2000, false, single, 1, 0, ""},
	{"RAID 0 x4: random 4 KiB writes, depth 16", "randwrite", 4 << 10, 16, 4000, false, "0", 4, 0, ""},
	{"RAID 5 x4: random 4 KiB writes, depth 16", "randwrite", 4 << 10, 16, 4000, false, "5", 4, 0, ""},
	{"RAID 0 x4: sequential 64 KiB writes, depth 1", "write", 64 << 10, 1, 4000, false, "0", 4, 0, ""},
	{"RAID 0 x4 + 64 MiB volume cache: same", "write", 64 << 10, 1, 4000, false, "0", 4, demoCache, ""},
	{"RAID 5 x4: sequential 64 KiB writes, depth 1", "write", 64 << 10, 1, 4000, false, "5", 4, 0, ""},
	{"RAID 5 x4 + 64 MiB volume cache: same", "write", 64 << 10, 1, 4000, false, "5", 4, demoCache, ""},
	{"SSD: random 4 KiB reads, depth 1", "randread", 4 << 10, 1, 4000, true, single, 1, 0, demoSSD},
	{"SSD: random 4 KiB writes, depth 1, cache off", "randwrite", 4 << 10, 1, 4000, false, single, 1, 0, demoSSD},
}

// demoSSD is the flash drive of the demo's last rows (seed 001's SSD),
// written once end to end before each run (precondition fill) so that
// its reads reach flash.
const demoSSD = "intel-x25m-g2"

// atRisk returns the bytes a run acknowledged that were, when it ended,
// only in volatile memory: the volume cache's dirty data (unless it is
// non-volatile) and every drive's write cache.
func atRisk(rep *raidsim.Report) int64 {
	var n int64
	if c := rep.Cache; c != nil && !c.NonVolatile {
		n += c.DirtyAtEndBytes
	}
	for _, d := range rep.Disks {
		n += d.Common().DirtyAtEndBytes
	}
	return n
}

// experiment is the row's experiment: one phase on the demo drive,
// seed 1.
func (row *demoRow) experiment() spec.Experiment {
	wc := row.writeCache
	drive := spec.Drive{Preset: demoDrive, WriteCache: &wc}
	if row.drive != "" {
		drive.Preset, drive.Precondition = row.drive, "fill"
	}
	x := spec.Experiment{
		Name: row.label, Seed: 1,
		Stack:  spec.Stack{Drive: drive},
		Phases: []spec.Phase{{Job: spec.Job{RW: row.rw, BS: row.bs, IODepth: row.iodepth, IOs: row.ios}}},
	}
	if row.raid != single {
		x.Stack.RAID, x.Stack.Disks = &spec.RAID{Level: row.raid}, row.disks
	}
	if row.volCache > 0 {
		x.Stack.Cache = &spec.Cache{Size: row.volCache, Align: "stripe"}
	}
	return x
}

// demoHelp is `raidsim demo --help`.
const demoHelp = `Usage: raidsim [demo]

Prints the built-in teaching demo: one drive under five workloads, then
RAID 0 against RAID 5, with and without a volume write-back cache, then
an SSD, and what each figure says. It takes no flags.
`

// runDemo prints the built-in teaching demo: one drive under five
// workloads, then RAID 0 against RAID 5, with and without a volume
// write-back cache, then an SSD.
func runDemo(args []string, w, _ io.Writer) error {
	fs := newFlags("demo")
	rest, err := parseFlags(fs, args, w, func(w io.Writer) { writeHelp(w, demoHelp, fs) }, nil)
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		return usagef("the demo takes no arguments (got %q)", rest[0])
	}
	p, err := disk.Preset(demoDrive)
	if err != nil {
		return err
	}
	fig, err := disk.ComputeFigures(p)
	if err != nil {
		return err
	}
	t := metrics.Table{
		Title:  fmt.Sprintf("raidsim demo: one %s (%d rpm, %.0f GB, %d MiB buffer, SATA %.0f MB/s), seed 1", demoDrive, fig.RPM, float64(fig.Capacity)/1e9, fig.BufferSize>>20, fig.InterfaceRate/1e6),
		Header: []string{"workload", "IOPS", "MB/s", "mean ms", "p99 ms", "max ms", "at risk"},
	}
	reps := make([]*raidsim.Report, len(demoRows))
	for i, row := range demoRows {
		x := row.experiment()
		rep, err := raidsim.Run(&x)
		if err != nil {
			return fmt.Errorf("%s: %w", row.label, err)
		}
		reps[i] = rep
		a := rep.Total.All
		t.AddRow(row.label, metrics.FormatFixed(a.IOPS, 1), metrics.FormatFixed(a.MBPerS, 1),
			metrics.FormatFixed(a.LatencyMS.Mean, 2), metrics.FormatFixed(a.LatencyMS.P99, 2),
			metrics.FormatFixed(a.LatencyMS.Max, 2), trace.FormatSize(atRisk(rep)))
	}
	seq, rr1, rr32, wOn, wOff := reps[0].Total.All, reps[1].Total.All, reps[2].Total.All, reps[3].Total.All, reps[4].Total.All
	r0w, r5w := reps[5].Total.All, reps[6].Total.All
	r0s, r0c, r5s, r5c := reps[7], reps[8], reps[9], reps[10]
	sr, sw := reps[11].Total.All, reps[12].Total.All
	perWrite := func(rep *raidsim.Report) float64 {
		var n int64
		for _, d := range rep.Disks {
			n += d.Common().IOs
		}
		return float64(n) / float64(rep.Total.All.IOs)
	}
	t.Notes = []string{
		fmt.Sprintf("Sequential reads stream at the platter's rate: %.1f MB/s against a %.0f MB/s interface. The outer zone's media rate (%.1f MB/s sustained) is the bound, not SATA; read-ahead keeps every revolution busy.",
			seq.MBPerS, fig.InterfaceRate/1e6, fig.OuterSustained/1e6),
		fmt.Sprintf("A random read at depth 1 waits for a seek (%.2f ms on average) and half a revolution (%.2f ms): %.2f ms measured, so about %.0f IOPS whatever the interface speed.",
			ms(fig.AverageSeek), ms(fig.MeanRotationalLatency), rr1.LatencyMS.Mean, rr1.IOPS),
		fmt.Sprintf("With 32 requests queued the drive serves the one it can reach soonest: %.1fx the IOPS of depth 1, but each request waits longer in the queue (mean %.1f ms).",
			rr32.IOPS/rr1.IOPS, rr32.LatencyMS.Mean),
		fmt.Sprintf("The write cache reports a write done once it is in the drive's buffer and writes it back later in its own order: %.1fx the IOPS with the cache off. The price: %s acknowledged but only in volatile memory when the run ended, lost on power failure.",
			wOn.IOPS/wOff.IOPS, trace.FormatSize(reps[3].Disks[0].Common().DirtyAtEndBytes)),
		fmt.Sprintf("RAID rows run with the drives' write caches off, so each I/O reaches the platter. A small RAID 5 write must read two blocks (old data and old parity, or the rest of the stripe) before writing data and parity: %.1f drive I/Os per write against RAID 0's %.1f, so %.0f IOPS against %.0f (%.2fx).",
			perWrite(reps[6]), perWrite(reps[5]), r5w.IOPS, r0w.IOPS, r5w.IOPS/r0w.IOPS),
		fmt.Sprintf("Sequential 64 KiB writes fill a third of a RAID 5 stripe (3 x 64 KiB of data), so each one pre-reads to compute parity (%s read in all): %.1f MB/s against RAID 0's %.1f. A volume write-back cache gathers them into whole stripes (%d full-stripe destages, %s pre-read): %.1f MB/s, and it speeds RAID 0 too (%.1f MB/s) by answering from memory.",
			trace.FormatSize(r5s.RAID.PrereadBytes), r5s.Total.All.MBPerS, r0s.Total.All.MBPerS,
			r5c.Cache.Destages, trace.FormatSize(r5c.RAID.PrereadBytes), r5c.Total.All.MBPerS, r0c.Total.All.MBPerS),
		fmt.Sprintf("The cache's speed is borrowed: when the RAID 5 run ended, %s was acknowledged but only in the volume cache's volatile memory. \"at risk\" counts acknowledged data not yet on a platter, in any cache of the stack.",
			trace.FormatSize(atRisk(r5c))),
		fmt.Sprintf("The %s SSD has no arm and no platter: a random 4 KiB read is a flash page read plus the controller and the link, %.3f ms, %.0fx faster than the disk's seek and rotation. With its write cache off each write waits for a flash program: %.3f ms.",
			demoSSD, sr.LatencyMS.Mean, rr1.LatencyMS.Mean/sr.LatencyMS.Mean, sw.LatencyMS.Mean),
		"Try: raidsim drives, raidsim run --help, raidsim run --rw randwrite --write-cache off --json",
	}
	return t.WriteText(w)
}
