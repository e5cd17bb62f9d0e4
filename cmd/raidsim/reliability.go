package main

import (
	"encoding/json"
	"fmt"
	"github.com/raidsim/raidsim/benchmark"
	"github.com/raidsim/raidsim/spec"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/raidsim/raidsim/disk"
	"github.com/raidsim/raidsim/drive"
	"github.com/raidsim/raidsim/metrics"
	"github.com/raidsim/raidsim/reliability"
	"github.com/raidsim/raidsim/ssd"
	"github.com/raidsim/raidsim/trace"
)

// reliabilityHelp introduces `raidsim reliability --help`.
const reliabilityHelp = `Usage: raidsim reliability --raid LEVEL [--disks N] --capacity SIZE|--drive PRESET --afr PERCENT|--mttf HOURS [--ure RATE] [flags]

Prints the odds of losing data on an array of N drives: the mean time to
data loss (MTTDL) by the Markov closed form and by a seeded Monte Carlo
simulation of failure and rebuild windows, and the probability of a loss
per year. Drives fail at their AFR; a failed drive is rebuilt in the
rebuild time; data is lost when more drives fail than the level tolerates
before the rebuild ends, or when a rebuild with no redundancy left reads
an unrecoverable sector (--ure, per bit read).

The rebuild time is --rebuild when given; otherwise the capacity over the
rebuild rate: md's speed_limit_max (--rebuild-rate, 200000 KiB/s), or with
--drive the drive's mean sequential rate over its surface (an SSD's
sequential write past its SLC cache) when slower. With an SSD preset
(raidsim drives), its data sheet's MTBF and UBER stand in for --mttf and
--ure when those are not given.
Sizes are powers of 1024 as everywhere in raidsim ("2TB" is 2 TiB); give
a drive label's decimal terabytes as digits (2000000000000).

  raidsim reliability --raid 5 --disks 4 --capacity 2TB --afr 2 --ure 1e-14
`

// reliabilityOptions are the flags of `raidsim reliability`.
type reliabilityOptions struct {
	raid, capacity, drive string
	disks                 int
	afr, mttf, ure        float64
	rebuild               time.Duration
	rebuildRate           string
	cycles                int
	seed                  uint64
	json                  bool
	load, loadBS          string
	loadDepth             int
	loadWindow            time.Duration
	sheet                 []string // figures taken from --drive's data sheet
}

// mdSpeedLimitMax is md's default /proc/sys/dev/raid/speed_limit_max,
// 200000 KiB/s: the fastest md rebuilds when nothing else runs.
const mdSpeedLimitMax = 200000 << 10

// reliabilityReport is the command's output.
type reliabilityReport struct {
	RAID                  int     `json:"raid"`
	Disks                 int     `json:"disks"`
	CapacityBytes         int64   `json:"capacity_bytes"`
	AFR                   float64 `json:"afr,omitempty"`
	MTTFHours             float64 `json:"mttf_hours,omitempty"`
	UREPerBit             float64 `json:"ure_per_bit"`
	RebuildHours          float64 `json:"rebuild_hours"`
	RebuildFrom           string  `json:"rebuild_from"`
	PUREDuringRebuild     float64 `json:"p_ure_during_rebuild"`
	MTTDLHoursMarkov      float64 `json:"mttdl_hours_markov"`
	MTTDLHoursMonteCarlo  float64 `json:"mttdl_hours_monte_carlo"`
	MTTDLMonteCarloStdErr float64 `json:"mttdl_hours_monte_carlo_stderr"`
	PLossPerYear          float64 `json:"p_loss_per_year"`
	PLossPerYearMarkov    float64 `json:"p_loss_per_year_markov"`
	MonteCarloCycles      int     `json:"monte_carlo_cycles"`
	Seed                  uint64  `json:"seed"`
	// DataSheet names the figures taken from an SSD preset's data sheet
	// ("MTBF 1500000 h (as the MTTF)", "UBER 1e-15"), none when the
	// flags gave them.
	DataSheet []string `json:"data_sheet,omitempty"`
	drive     string
}

func runReliability(args []string, stdout, _ io.Writer) error {
	o := reliabilityOptions{rebuildRate: strconv.Itoa(mdSpeedLimitMax), seed: 1, cycles: 100_000}
	fs := newFlags("reliability")
	fs.StringVar(&o.raid, "raid", "", "RAID level: 1, 5, 6 or 10")
	fs.IntVar(&o.disks, "disks", 0, "number of drives (default: the fewest the level needs)")
	fs.StringVar(&o.capacity, "capacity", "", "each drive's capacity, e.g. 2TB (default: the --drive preset's)")
	fs.StringVar(&o.drive, "drive", "", "drive preset: its capacity, and its sequential rate caps the rebuild rate")
	fs.Float64Var(&o.afr, "afr", 0, "annualized failure rate in percent, e.g. 2")
	fs.Float64Var(&o.mttf, "mttf", 0, "mean time to failure in hours, instead of --afr")
	fs.Float64Var(&o.ure, "ure", 0, "unrecoverable read errors per bit read, e.g. 1e-14")
	fs.DurationVar(&o.rebuild, "rebuild", 0, "rebuild time of one drive, e.g. 6h (default: capacity over the rebuild rate)")
	fs.StringVar(&o.rebuildRate, "rebuild-rate", o.rebuildRate, "rebuild rate in bytes/s when --rebuild is not given (md's speed_limit_max)")
	fs.StringVar(&o.load, "load", "", "with --drive: simulate the rebuild under this fio pattern (randrw, randread, write...) and use its time")
	fs.StringVar(&o.loadBS, "load-bs", "4KiB", "the load's block size")
	fs.IntVar(&o.loadDepth, "load-iodepth", 4, "the load's requests outstanding")
	fs.DurationVar(&o.loadWindow, "load-window", 10*time.Minute, "virtual time simulated; the rebuild's rate over it is extrapolated to the whole drive")
	fs.IntVar(&o.cycles, "cycles", o.cycles, "Monte Carlo cycles (failure to full redundancy)")
	fs.Uint64Var(&o.seed, "seed", o.seed, "Monte Carlo seed: the same seed prints the same figures")
	fs.BoolVar(&o.json, "json", false, "print JSON")
	rest, err := parseFlags(fs, args, stdout, func(w io.Writer) { writeHelp(w, reliabilityHelp, fs) }, nil)
	if err != nil {
		return err
	}
	if err := noArgs(rest); err != nil {
		return err
	}
	rep, err := o.compute()
	if err != nil {
		return err
	}
	if o.json {
		b, err := json.MarshalIndent(rep, "", "  ")
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(stdout, "%s\n", b)
		return err
	}
	return rep.writeText(stdout)
}

// params checks the flags and returns the model's parameters and where
// the rebuild time came from; every problem is reported at once.
func (o *reliabilityOptions) params() (reliability.Params, string, error) {
	var errs []string
	var p reliability.Params
	level, err := strconv.Atoi(strings.TrimPrefix(strings.ToLower(o.raid), "raid"))
	switch {
	case o.raid == "":
		errs = append(errs, "--raid: give 1, 5, 6 or 10")
	case err != nil || level != 1 && level != 5 && level != 6 && level != 10:
		errs = append(errs, fmt.Sprintf("--raid: %q: want 1, 5, 6 or 10", o.raid))
	}
	p.Level, p.Disks = level, o.disks
	if p.Disks == 0 {
		p.Disks = map[int]int{1: 2, 5: 3, 6: 4, 10: 4}[level]
	}
	rate, from := float64(mdSpeedLimitMax), "md speed_limit_max"
	if r, err := trace.ParseSize(o.rebuildRate); err != nil || r <= 0 {
		errs = append(errs, fmt.Sprintf("--rebuild-rate: %q is not a positive rate in bytes/s", o.rebuildRate))
	} else if o.rebuildRate != strconv.Itoa(mdSpeedLimitMax) {
		rate, from = float64(r), "--rebuild-rate"
	}
	var uber, mtbf float64
	if o.drive != "" {
		c, dr, u, m, err := driveFacts(o.drive)
		if err != nil {
			errs = append(errs, fmt.Sprintf("--drive: %s", strings.TrimPrefix(err.Error(), "drive: ")))
		}
		p.Capacity, uber, mtbf = c, u, m
		if err == nil && dr < rate {
			rate, from = dr, o.drive+" mean sequential rate"
			if ssd.IsPreset(o.drive) {
				from = o.drive + " sequential write rate"
			}
		}
	}
	if o.capacity != "" {
		c, err := trace.ParseSize(o.capacity)
		if err != nil {
			errs = append(errs, fmt.Sprintf("--capacity: %v", err))
		}
		p.Capacity = c
	} else if o.drive == "" {
		errs = append(errs, "--capacity: give the drives' capacity (or --drive)")
	}
	if o.afr < 0 || o.afr >= 100 || math.IsNaN(o.afr) {
		errs = append(errs, fmt.Sprintf("--afr: %v is not a percentage between 0 and 100", o.afr))
	}
	p.AFR, p.MTTFHours, p.UREPerBit = o.afr/100, o.mttf, o.ure
	// An SSD preset's data sheet gives what the flags leave out: its
	// MTBF (as the MTTF of the failure model) and its UBER.
	if o.afr == 0 && o.mttf == 0 && mtbf > 0 {
		p.MTTFHours = mtbf
		o.sheet = append(o.sheet, fmt.Sprintf("MTBF %s h (as the MTTF)", metrics.FormatSig(mtbf, 3)))
	}
	switch {
	case o.afr != 0 && o.mttf != 0:
		errs = append(errs, fmt.Sprintf("--afr %v and --mttf %v: give the failure rate one way, not both", o.afr, o.mttf))
	case p.AFR == 0 && p.MTTFHours == 0:
		errs = append(errs, "--afr: give the drives' annual failure rate in percent (0 < AFR < 100, e.g. 1.5), or --mttf in hours, or an SSD --drive whose data sheet gives its MTBF")
	case o.mttf != 0 && !(o.mttf > 0 && o.mttf < 1e12):
		errs = append(errs, fmt.Sprintf("--mttf: %v is not a number of hours between 0 and 1e12", o.mttf))
	}
	if o.loadDepth < 1 || o.loadDepth > trace.MaxIODepth {
		errs = append(errs, fmt.Sprintf("--load-iodepth: %d is outside 1..%d", o.loadDepth, trace.MaxIODepth))
	}
	if o.ure == 0 && uber > 0 {
		p.UREPerBit = uber
		o.sheet = append(o.sheet, fmt.Sprintf("UBER %g", uber))
	}
	p.Rebuild = o.rebuild
	switch {
	case o.load != "" && o.drive == "":
		errs = append(errs, "--load needs --drive")
	case o.load != "" && len(errs) == 0:
		d, what, err := o.simulateRebuild(level, p.Disks, rate)
		if err != nil {
			errs = append(errs, "--load: "+err.Error())
		}
		p.Rebuild, from = d, what
	}
	if p.Rebuild == 0 && p.Capacity > 0 {
		p.Rebuild = time.Duration(float64(p.Capacity) / rate * 1e9)
	} else if o.rebuild != 0 {
		from = "--rebuild"
	}
	if err := p.Validate(); err != nil {
		for _, line := range strings.Split(err.Error(), "\n") {
			line = flagOf(line)
			flag, _, _ := strings.Cut(line, ":")
			if flag == "--rebuild" && o.rebuild == 0 || flag == "--afr" || flag == "--mttf" ||
				flag == "--capacity" && slices.ContainsFunc(errs, func(e string) bool { return strings.HasPrefix(e, "--drive:") }) {
				continue // derived from a capacity, or the failure rate, already reported
			}
			if !slices.ContainsFunc(errs, func(e string) bool { return strings.HasPrefix(e, flag+":") }) {
				errs = append(errs, line)
			}
		}
	}
	if o.cycles < 1 || o.cycles > reliability.MaxCycles {
		errs = append(errs, fmt.Sprintf("--cycles: %d is outside 1..%d", o.cycles, reliability.MaxCycles))
	}
	if len(errs) > 0 {
		return p, "", &usageError{lines: errs}
	}
	return p, from, nil
}

// flagOf restates a reliability.Params problem under its flag.
func flagOf(line string) string {
	line = strings.TrimPrefix(line, "reliability: ")
	for field, flag := range map[string]string{"Level": "--raid", "Disks": "--disks", "Capacity": "--capacity",
		"AFR": "--afr", "MTTFHours": "--mttf", "UREPerBit": "--ure", "Rebuild": "--rebuild"} {
		// (AFR and MTTFHours problems are reported in flag terms before Validate.)
		if rest, ok := strings.CutPrefix(line, field+": "); ok {
			return flag + ": " + rest
		}
	}
	return line
}

// surfaceRate is the mean rate of one sequential pass over a drive whose
// rate falls linearly with the address from outer to inner (an
// approximation of zoned recording): capacity over the pass's time,
// (outer - inner) / ln(outer / inner).
func surfaceRate(outer, inner float64) float64 {
	if outer <= inner || inner <= 0 {
		return outer
	}
	return (outer - inner) / math.Log(outer/inner)
}

// compute runs both models.
func (o *reliabilityOptions) compute() (*reliabilityReport, error) {
	p, from, err := o.params()
	if err != nil {
		return nil, err
	}
	m, err := reliability.Markov(p)
	if err != nil {
		return nil, err
	}
	e, err := reliability.MonteCarlo(p, reliability.MonteCarloOptions{Cycles: o.cycles, Seed: o.seed})
	if err != nil {
		return nil, err
	}
	return &reliabilityReport{RAID: p.Level, Disks: p.Disks, CapacityBytes: p.Capacity, AFR: p.AFR, MTTFHours: p.MTTFHours,
		UREPerBit: p.UREPerBit, RebuildHours: p.Rebuild.Hours(), RebuildFrom: from, PUREDuringRebuild: p.RebuildURE(),
		MTTDLHoursMarkov: m, MTTDLHoursMonteCarlo: e.MTTDLHours, MTTDLMonteCarloStdErr: e.StdErrHours,
		PLossPerYear: e.PerYear(), PLossPerYearMarkov: reliability.PerYear(m), MonteCarloCycles: e.Cycles, Seed: o.seed,
		DataSheet: o.sheet, drive: o.drive}, nil
}

// writeText prints the report as a table.
func (r *reliabilityReport) writeText(w io.Writer) error {
	g := func(v float64) string { return metrics.FormatSig(v, 4) }
	t := metrics.Table{Title: fmt.Sprintf("RAID %d of %d drives of %d bytes", r.RAID, r.Disks, r.CapacityBytes),
		Header: []string{"figure", "value"}}
	rate := g(r.AFR*100) + "% a year (AFR)"
	if r.MTTFHours > 0 {
		rate = g(r.MTTFHours) + " h MTTF"
	}
	t.AddRow("drive failures", rate)
	t.AddRow("URE per bit", fmt.Sprintf("%g", r.UREPerBit))
	t.AddRow("rebuild hours", g(r.RebuildHours)+" ("+r.RebuildFrom+")")
	t.AddRow("P(URE) in a rebuild with no redundancy", g(r.PUREDuringRebuild))
	t.AddRow("MTTDL hours, Markov", g(r.MTTDLHoursMarkov))
	t.AddRow("MTTDL hours, Monte Carlo", fmt.Sprintf("%s ± %s", g(r.MTTDLHoursMonteCarlo), g(r.MTTDLMonteCarloStdErr)))
	t.AddRow("P(loss) per year, Monte Carlo", g(r.PLossPerYear))
	t.AddRow("P(loss) per year, Markov", g(r.PLossPerYearMarkov))
	t.Notes = []string{fmt.Sprintf("Monte Carlo: %d cycles, seed %d, rebuild time held constant.", r.MonteCarloCycles, r.Seed)}
	if len(r.DataSheet) > 0 {
		t.Notes = append(t.Notes, fmt.Sprintf("From the %s data sheet: %s.", r.drive, strings.Join(r.DataSheet, ", ")))
	}
	return t.WriteText(w)
}

// simulateRebuild times a rebuild of member 0 of the array on --drive
// under the --load job over --load-window, extrapolated to the whole
// member (benchmark.RebuildUnderLoad), at most at rate bytes/s.
func (o *reliabilityOptions) simulateRebuild(level, disks int, rate float64) (time.Duration, string, error) {
	bs, err := trace.ParseSize(o.loadBS)
	if err != nil {
		return 0, "", fmt.Errorf("--load-bs: %w", err)
	}
	x := &spec.Experiment{Seed: o.seed, Stack: spec.Stack{
		Drive: spec.Drive{Preset: o.drive}, Disks: disks,
		RAID:     &spec.RAID{Level: strconv.Itoa(level), RebuildRate: spec.Size(rate)},
		Failures: []spec.Failure{{Member: 0}}, Rebuild: &spec.Rebuild{Member: 0},
	}, Phases: []spec.Phase{{Job: spec.Job{RW: o.load, BS: spec.Size(bs), IODepth: o.loadDepth}, Runtime: spec.Duration(o.loadWindow)}}}
	s, err := benchmark.RebuildUnderLoad(x, o.loadWindow)
	if err != nil {
		return 0, "", err
	}
	return s.Estimate(), fmt.Sprintf("simulated under %s at depth %d: %.1f%% in %v, foreground %s IOPS", o.load, o.loadDepth,
		100*float64(s.Bytes)/float64(s.Total), s.Elapsed.Round(time.Second), metrics.FormatSig(s.Foreground.All.IOPS, 3)), nil
}

// driveFacts returns a preset's capacity, the sequential rate a rebuild
// can write it at (a disk's mean over its surface; an SSD's sequential
// write past any pseudo-SLC cache, or its read if slower) and, for an
// SSD, its data sheet's UBER and MTBF (0 when not given).
func driveFacts(preset string) (capacity int64, rate, uber, mtbfHours float64, err error) {
	if ssd.IsPreset(preset) {
		p, err := ssd.Preset(preset)
		if err != nil {
			return 0, 0, 0, 0, err
		}
		m, err := ssd.NewModel(p)
		if err != nil {
			return 0, 0, 0, 0, err
		}
		f := m.ComputeFigures()
		return f.Capacity, min(f.SeqWriteNative, f.SeqRead), p.UBER, p.MTBFHours, nil
	}
	if _, err := disk.PresetSpec(preset); err != nil {
		if _, err := drive.Lookup(spec.DriveKinds(), preset); err != nil {
			return 0, 0, 0, 0, err
		}
		return 0, 0, 0, 0, fmt.Errorf("%q is a shingled (SMR) drive: reliability takes disk and SSD presets (raidsim drives), or --capacity", preset)
	}
	c, r, err := diskFacts(preset)
	return c, r, 0, 0, err
}

// diskFacts returns a disk preset's capacity and mean sequential rate
// over its surface.
func diskFacts(preset string) (int64, float64, error) {
	dp, err := disk.Preset(preset)
	if err != nil {
		return 0, 0, err
	}
	f, err := disk.ComputeFigures(dp)
	if err != nil {
		return 0, 0, err
	}
	return f.Capacity, surfaceRate(f.OuterSustained, f.InnerSustained), nil
}
