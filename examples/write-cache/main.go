// Command write-cache is scenario S1 of ../shared/SCENARIOS.md: a
// Hitachi Travelstar 7K500 notebook drive running the phases of Windows'
// "winsat disk" assessment three times, with (a) the drive's write cache
// on, (b) the write cache on and the operating system's cache flushes
// turned off, and (c) the write cache off.
//
// The article gave no figures, only directions: turning the write cache
// off made the maximum latency far lower (no long stall behind a full
// write cache) but the flush phases several times slower, with sequential
// throughput about the same; turning flushes off changed little. The
// table puts the three runs side by side so each direction can be read
// off it; the test (main_test.go) asserts them on smaller runs.
//
// Each run is one spec.Experiment: one drive, eight phases run in order
// on it, so whatever the drive's cache holds at the end of one phase is
// still there at the start of the next.
//
//	go run ./examples/write-cache
package main

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/raidsim/raidsim"
	"github.com/raidsim/raidsim/metrics"
	"github.com/raidsim/raidsim/spec"
	"github.com/raidsim/raidsim/ssd"
)

// Setting is one of the article's three runs.
type Setting struct {
	// Label heads the setting's column.
	Label string
	// WriteCache is the drive's write cache.
	WriteCache bool
	// HostFlushes false drops FLUSH CACHE at the host, as Windows' "turn
	// off write-cache buffer flushing" does.
	HostFlushes bool
}

// Settings are the article's runs, in its order.
var Settings = []Setting{
	{"cache on", true, true},
	{"on, no flushes", true, false},
	{"cache off", false, true},
}

// Sizes scale the phases; the test runs smaller ones.
type Sizes struct {
	// SeqBytes is the region read and written by the sequential phases.
	SeqBytes int64
	// RandIOs is the number of random reads of the random read phase.
	RandIOs int64
	// MixIOs is the number of requests of the desktop mix.
	MixIOs int64
	// FlushWrites is the number of writes of each flush phase.
	FlushWrites int64
	// ReadsBeside is the number of reads of each reads-beside-writes
	// phase.
	ReadsBeside int64
}

// FullSizes are the sizes `go run` uses.
var FullSizes = Sizes{SeqBytes: 256 << 20, RandIOs: 1000, MixIOs: 3000, FlushWrites: 2000, ReadsBeside: 500}

// Phase names, in the order they run.
const (
	PhaseSeqRead    = "sequential read 64KiB"
	PhaseRandRead   = "random read 16KiB"
	PhaseMix        = "desktop mix"
	PhaseSeqWrite   = "sequential write 64KiB"
	PhaseSeqFlush   = "sequential write 64KiB + flush"
	PhaseRandFlush  = "random write 16KiB + flush"
	PhaseReadSeqW   = "reads beside sequential writes"
	PhaseReadRandW  = "reads beside random writes"
	seqWriteOffset  = 100 << 30 // the write phases stay clear of the read regions
	flushSeqOffset  = 120 << 30
	flushRandOffset = 140 << 30
	// guard caps the reads-beside-writes phases' virtual time (fio
	// runtime), should the writes beside the reads never finish.
	guard = spec.Duration(600 * time.Second)
)

// Experiment returns the run of one setting: the drive, the host, and the
// winsat-like phases.
//
// Modelling choices, since winsat's exact I/O pattern is not published:
// the plain sequential phases keep 8 requests outstanding (overlapped
// I/O, as a benchmark issues it), so a drive without write cache can
// still stream writes from its queue; the flush phases write one request
// at a time and flush every 16 sequential or every 32 random writes (the
// random ones within 1 GiB, a file's worth), as an
// application that waits for its writes does. Two last phases measure
// winsat's "average read time with sequential (random) writes": random
// 4 KiB reads one at a time while the same writes (with their flushes)
// run beside them as a background job.
func Experiment(s Setting, sz Sizes) *spec.Experiment { return ExperimentOn(Disk, s, sz) }

// Disk is the article's drive; SSD answers its readers' question, "how
// would this setting affect an SSD?", with the SATA MLC SSD of the era.
const (
	Disk = "travelstar-7k500"
	SSD  = "intel-x25m-g2"
)

// ExperimentOn is Experiment on the drive preset drive. An SSD is filled
// first (precondition fill), so reads find data on flash, as on a used
// notebook's drive.
func ExperimentOn(drive string, s Setting, sz Sizes) *spec.Experiment {
	wc, flushes := s.WriteCache, s.HostFlushes
	mix := 65
	d := spec.Drive{Preset: drive, WriteCache: &wc}
	if drive == SSD {
		d.Precondition = "fill"
	}
	return &spec.Experiment{
		Name: "S1 " + s.Label,
		Seed: 1,
		Stack: spec.Stack{
			Drive: d,
			Host:  spec.Host{Flushes: &flushes},
		},
		Phases: []spec.Phase{
			{Name: PhaseSeqRead, Job: spec.Job{RW: "read", BS: 64 << 10, IODepth: 8, Size: spec.Size(sz.SeqBytes)}},
			{Name: PhaseRandRead, Job: spec.Job{RW: "randread", BS: 16 << 10, IODepth: 1, IOs: sz.RandIOs}},
			{Name: PhaseMix, Job: spec.Job{RW: "randrw", RWMixRead: &mix, BSSplit: "4KiB/55:16KiB/25:64KiB/20", IODepth: 4,
				PercentageRandom: 0, RandomDistribution: "zipf:1.1", Size: 16 << 30, IOs: sz.MixIOs}},
			{Name: PhaseSeqWrite, Job: spec.Job{RW: "write", BS: 64 << 10, IODepth: 8, Offset: seqWriteOffset, Size: spec.Size(sz.SeqBytes)}},
			{Name: PhaseSeqFlush, Job: spec.Job{RW: "write", BS: 64 << 10, IODepth: 1, Offset: flushSeqOffset, IOs: sz.FlushWrites, Fsync: 16}},
			{Name: PhaseRandFlush, Job: spec.Job{RW: "randwrite", BS: 16 << 10, IODepth: 1, Offset: flushRandOffset, Size: 1 << 30, IOs: sz.FlushWrites, Fsync: 32}},
			{Name: PhaseReadSeqW, Runtime: guard, Job: spec.Job{RW: "randread", BS: 4 << 10, IODepth: 1, Size: 80 << 30, IOs: sz.ReadsBeside},
				Background: []spec.Job{{RW: "write", BS: 64 << 10, IODepth: 1, Offset: flushSeqOffset, Fsync: 16}}},
			{Name: PhaseReadRandW, Runtime: guard, Job: spec.Job{RW: "randread", BS: 4 << 10, IODepth: 1, Size: 80 << 30, IOs: sz.ReadsBeside},
				Background: []spec.Job{{RW: "randwrite", BS: 16 << 10, IODepth: 1, Offset: flushRandOffset, Size: 1 << 30, Fsync: 32}}},
		},
	}
}

// Result is what the table shows for one setting.
type Result struct {
	Setting Setting
	// Report is the whole run.
	Report *raidsim.Report
	// Phase maps a phase name to its report.
	Phase map[string]*raidsim.PhaseReport
}

// Run runs every setting at sz on the article's drive.
func Run(sz Sizes) ([]Result, error) { return RunOn(Disk, sz) }

// RunOn runs every setting at sz on drive.
func RunOn(drive string, sz Sizes) ([]Result, error) {
	var out []Result
	for _, s := range Settings {
		x := ExperimentOn(drive, s, sz)
		if err := x.Validate(); err != nil {
			return nil, err
		}
		rep, err := raidsim.Run(x)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", s.Label, err)
		}
		r := Result{Setting: s, Report: rep, Phase: map[string]*raidsim.PhaseReport{}}
		for i := range rep.Phases {
			r.Phase[rep.Phases[i].Name] = &rep.Phases[i]
		}
		out = append(out, r)
	}
	return out, nil
}

// FlushMaxLatency is winsat's "Latency: Maximum": the longest read of
// the two flush assessments ("-flush -seq" and "-flush -ran"), where
// reads run beside writes and their flushes.
func FlushMaxLatency(r Result) float64 {
	return max(r.Phase[PhaseReadSeqW].Read.LatencyMS.Max, r.Phase[PhaseReadRandW].Read.LatencyMS.Max)
}

// WriteTable prints the settings side by side.
func WriteTable(w io.Writer, res []Result) error {
	title := "S1: Travelstar 7K500, winsat-like phases (SCENARIOS.md S1; the article gave directions, no figures)"
	if len(res) > 0 && res[0].Report.Disks[0].Common().Kind == ssd.KindName {
		title = "\nS1's question on an SSD: Intel X25-M G2 (filled), the same phases"
	}
	t := metrics.Table{
		Title:  title,
		Header: []string{"measure"},
	}
	for _, r := range res {
		t.Header = append(t.Header, r.Setting.Label)
	}
	row := func(name string, f func(r Result) float64, digits int) {
		cells := []string{name}
		for _, r := range res {
			cells = append(cells, metrics.FormatFixed(f(r), digits))
		}
		t.AddRow(cells...)
	}
	ph := func(r Result, name string) *raidsim.PhaseReport { return r.Phase[name] }
	row("sequential read MB/s", func(r Result) float64 { return ph(r, PhaseSeqRead).Read.MBPerS }, 1)
	row("random read MB/s", func(r Result) float64 { return ph(r, PhaseRandRead).Read.MBPerS }, 2)
	row("desktop mix IOPS", func(r Result) float64 { return ph(r, PhaseMix).All.IOPS }, 1)
	row("sequential write MB/s", func(r Result) float64 { return ph(r, PhaseSeqWrite).Write.MBPerS }, 1)
	row("avg read ms, with sequential writes", func(r Result) float64 { return ph(r, PhaseReadSeqW).Read.LatencyMS.Mean }, 2)
	row("avg read ms, with random writes", func(r Result) float64 { return ph(r, PhaseReadRandW).Read.LatencyMS.Mean }, 2)
	row("writes done beside those reads", func(r Result) float64 {
		return float64(ph(r, PhaseReadSeqW).Write.IOs + ph(r, PhaseReadRandW).Write.IOs)
	}, 0)
	row("p95 read ms, with sequential writes", func(r Result) float64 { return ph(r, PhaseReadSeqW).Read.LatencyMS.P95 }, 2)
	row("p95 read ms, with random writes", func(r Result) float64 { return ph(r, PhaseReadRandW).Read.LatencyMS.P95 }, 2)
	row("max read ms, flush assessments", FlushMaxLatency, 1)
	row("max latency ms (all phases)", func(r Result) float64 { return r.Report.Total.All.LatencyMS.Max }, 1)
	for _, name := range []string{PhaseSeqRead, PhaseRandRead, PhaseMix, PhaseSeqWrite, PhaseSeqFlush, PhaseRandFlush, PhaseReadSeqW, PhaseReadRandW} {
		row("run time s: "+name, func(r Result) float64 { return ph(r, name).SimSeconds }, 3)
	}
	row("flushes sent to the drive", func(r Result) float64 { return float64(r.Report.Total.Flushes) }, 0)
	row("data at risk at end, KiB", func(r Result) float64 { return float64(r.Report.Disks[0].Common().DirtyAtEndBytes) / 1024 }, 0)
	return t.WriteText(w)
}

func main() {
	res, err := Run(FullSizes)
	if err != nil {
		fmt.Fprintln(os.Stderr, "write-cache:", err)
		os.Exit(1)
	}
	if err := WriteTable(os.Stdout, res); err != nil {
		fmt.Fprintln(os.Stderr, "write-cache:", err)
		os.Exit(1)
	}
	ssdRes, err := RunOn(SSD, FullSizes)
	if err == nil {
		err = WriteTable(os.Stdout, ssdRes)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "write-cache:", err)
		os.Exit(1)
	}
	fmt.Print(`
What the article (SCENARIOS.md S1) saw, and where to read it above:
  - write cache off: maximum latency far lower, no long stall behind a full
    write cache ("max read ms, flush assessments": winsat takes its
    "Latency: Maximum" from the reads of its two flush assessments, the
    "reads beside ... writes" phases here);
  - write cache off: the flush phases several times slower ("run time" of
    the two flush phases);
  - sequential throughput about the same with the cache on or off;
  - flushes turned off: little change from cache on, and data at risk.

Why the maximum falls with the cache off: with the cache on, a FLUSH
CACHE is a barrier, and a read that arrives behind it waits until every
write the cache holds is on the platter; between flushes the drive
destages whenever it is idle, so a read arriving then waits for the
destage under way. With the cache off a read waits for at most the write
in progress. Over all phases the longest request is elsewhere: the
desktop mix keeps 4 requests queued and SATF lets a far one wait (last
row), which winsat reports as responsiveness, not as latency.

On an SSD (the article's readers asked; second table, an X25-M G2):
reads do not care about the setting; with the write cache off every
write waits for its page program (0.6-2.6 ms of MLC), so the flush phases
run several times slower; dropping flushes changes little, since flushing
a 1 MiB buffer takes milliseconds; and turning the cache off does not
lower the maximum latency much: the small buffer never builds the long
stall a disk's write cache does. A power loss risks at most the buffer.
`)
}
