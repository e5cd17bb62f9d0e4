package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/raidsim/raidsim/calibrate"
	"github.com/raidsim/raidsim/disk"
	"github.com/raidsim/raidsim/disk/disksim"
	"github.com/raidsim/raidsim/internal/outfile"
	"github.com/raidsim/raidsim/ssd"
)

// calibrateHelp introduces `raidsim calibrate --help`.
const calibrateHelp = `Usage: raidsim calibrate --drive PRESET|--disksim FILE.parv --trace FILE [--max-requests N] [--iterations N] [--out PATH] [--json]

Fits the parameters of a disk model that a data sheet does not give to a
trace measured on the real drive (disks only: SSD presets are not
fitted), by minimizing the demerit (the RMS
distance between the measured and simulated service-time distributions)
with the Nelder-Mead simplex method. The trace is replayed as raidsim
validate replays it: one request outstanding, each issued after the
previous completion plus the recorded gap. It must record service times:
a DiskSim validate trace, blkparse output with completions (--format
blkparse:DC pairs each D event with its C event), raidsim CSV with
measured_ns, MSR, SYSTOR '17.

--drive PRESET fits the preset's command overheads (read, write), seek
curve (track-to-track, average, full stroke), head switch (and with it
the track skew), write settle and read-ahead policy, and prints the fitted
drive as a config file for raidsim run --config (or writes it to --out
FILE): the preset with the fitted figures in stack.drive.spec, and a phase
replaying the trace.

--disksim FILE.parv fits factors on the model's command overheads and seek
curve (short and long seeks), its head switch, write settle and
read-ahead scheme, prints the DiskSim parameters to change, and with --out
DIR writes the fitted model's files there (raidsim validate --disksim
DIR/FILE.parv --disksim-mode refined scores it: the fit is of raidsim's
drive model).

Each evaluation replays the trace (up to --max-requests of its first
requests); --iterations caps the evaluations. The same inputs give the same
fit.
`

// calibrateResult is what `raidsim calibrate --json` prints.
type calibrateResult struct {
	Drive       string                  `json:"drive"`
	Trace       string                  `json:"trace"`
	Requests    int                     `json:"requests"`
	Evaluations int                     `json:"evaluations"`
	Before      calibrate.Comparison    `json:"before"`
	After       calibrate.Comparison    `json:"after"`
	Improvement float64                 `json:"improvement_pct"`
	Parameters  []calibrateParameter    `json:"parameters"`
	ReadAhead   [2]string               `json:"read_ahead"`
	Config      string                  `json:"config,omitempty"`
	DiskSim     []calibrate.DiskSimEdit `json:"disksim_edits,omitempty"`
}

// calibrateParameter is one fitted parameter, start and fitted values.
type calibrateParameter struct {
	Name   string  `json:"name"`
	Unit   string  `json:"unit"`
	Start  float64 `json:"start"`
	Fitted float64 `json:"fitted"`
}

// calibrateFlags are the command's options.
type calibrateFlags struct {
	drive, parv, trace, format, out string
	maxReq, iters                   int
	asJSON, force                   bool
	policy                          outfile.Policy // where --out may write
}

func parseCalibrate(args []string, stdout io.Writer) (calibrateFlags, error) {
	var c calibrateFlags
	fs := newFlags("calibrate")
	fs.StringVar(&c.drive, "drive", "", "starting drive preset: "+strings.Join(disk.PresetNames(), ", "))
	fs.StringVar(&c.parv, "disksim", "", "starting DiskSim 4.0 model (.parv)")
	fs.StringVar(&c.trace, "trace", "", "measured trace with service times (validate, blkparse:DC, or csv/msr/systor17 with measured times)")
	fs.StringVar(&c.format, "format", "auto", "trace format (auto sniffs it)")
	fs.IntVar(&c.maxReq, "max-requests", 0, "fit on the first N requests of the trace (0: all)")
	fs.IntVar(&c.iters, "iterations", calibrate.DefaultEvaluations, "most candidate models to evaluate (each replays the trace)")
	fs.StringVar(&c.out, "out", "", "write the fitted config to FILE.yaml (--drive) or the fitted model's files into DIR (--disksim)")
	fs.BoolVar(&c.force, "force", false, forceUsage)
	fs.BoolVar(&c.asJSON, "json", false, "print the result as JSON")
	rest, err := parseFlags(fs, args, stdout, func(w io.Writer) { writeHelp(w, calibrateHelp, fs) }, nil)
	if err != nil {
		return c, err
	}
	if err := noArgs(rest); err != nil {
		return c, err
	}
	var bad []string
	if (c.drive == "") == (c.parv == "") {
		bad = append(bad, "give one of --drive PRESET and --disksim FILE.parv")
	}
	if c.trace == "" {
		bad = append(bad, "--trace is required")
	}
	if c.maxReq < 0 {
		bad = append(bad, fmt.Sprintf("--max-requests %d: want 0 (all) or more", c.maxReq))
	}
	if c.iters < 1 {
		bad = append(bad, fmt.Sprintf("--iterations %d: want at least 1", c.iters))
	}
	if c.drive != "" {
		if _, err := disk.PresetSpec(c.drive); err != nil {
			if ssd.IsPreset(c.drive) {
				bad = append(bad, fmt.Sprintf("--drive %q is an SSD: calibrate fits disk models only (seek, rotation, buffer); an SSD preset's parameters come from its data sheet (raidsim drives); disk presets: %s",
					c.drive, strings.Join(disk.PresetNames(), ", ")))
			} else {
				bad = append(bad, fmt.Sprintf("--drive %q: unknown preset (known: %s)", c.drive, strings.Join(disk.PresetNames(), ", ")))
			}
		}
	}
	if len(bad) > 0 {
		return c, &usageError{lines: bad}
	}
	return c, c.checkOut()
}

// checkOut checks --out against the output policy before the fit: a
// config file (--drive), or a folder whose files the fitted model
// replaces (--disksim: the parameter file's name is checked now, every
// file again before it is written).
func (c *calibrateFlags) checkOut() error {
	c.policy = outfile.Policy{Force: c.force, Inputs: []outfile.Input{{Name: "--trace", Path: c.trace}}}
	if c.parv != "" {
		c.policy.Inputs = append(c.policy.Inputs, outfile.Input{Name: "--disksim", Path: c.parv})
	}
	switch {
	case c.out == "":
		return nil
	case c.drive != "":
		return c.policy.Check(outfile.Target{Name: "--out", Path: c.out, Exts: configExts})
	}
	if st, err := os.Stat(c.out); err == nil && !st.IsDir() {
		return fmt.Errorf("--out %s: not a folder: with --disksim, --out names the folder the fitted model's files go in", c.out)
	} else if err != nil {
		return nil // made by the write
	}
	return c.policy.Check(outfile.Target{Name: "--out", Path: filepath.Join(c.out, filepath.Base(c.parv))})
}

// runCalibrate is `raidsim calibrate`: fit a drive model to a measured
// trace.
func runCalibrate(args []string, stdout, _ io.Writer) error {
	c, err := parseCalibrate(args, stdout)
	if err != nil {
		return err
	}
	recs, err := calibrate.LoadTrace(c.trace, c.format, c.maxReq)
	if err != nil {
		return err
	}
	opt := calibrate.FitOptions{Evaluations: c.iters}
	var fam calibrate.Family
	var base disk.Params
	if c.drive != "" {
		s, _ := disk.PresetSpec(c.drive)
		fam = calibrate.SpecFamily{Base: s, Preset: c.drive}
	} else {
		p, _, err := disksim.Load(c.parv)
		if err != nil {
			return err
		}
		base = p
		fam = calibrate.ParamsFamily{Base: p}
		opt.ReadAhead = calibrate.DiskSimReadAhead
	}
	r, err := calibrate.Fit(fam, recs, opt)
	if err != nil {
		return err
	}
	res := newCalibrateResult(c, r)
	var tail string
	if sf, ok := fam.(calibrate.SpecFamily); ok {
		tail, err = calibrateConfig(c, sf, r)
		res.Config = tail
	} else {
		tail, res.DiskSim, err = calibrateDiskSim(c, base, r)
	}
	if err != nil {
		return err
	}
	if c.asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(res)
	}
	writeCalibrateSummary(stdout, &res, r)
	if c.out != "" && c.drive != "" {
		fmt.Fprintf(stdout, "# fitted config written to %s\n", c.out)
		return nil
	}
	_, err = io.WriteString(stdout, tail)
	return err
}

func newCalibrateResult(c calibrateFlags, r calibrate.Result) calibrateResult {
	name := c.drive
	if name == "" {
		name = r.Model.Name
	}
	res := calibrateResult{
		Drive: name, Trace: filepath.Base(c.trace), Requests: r.After.Requests, Evaluations: r.Evaluations,
		Before: r.Before, After: r.After, ReadAhead: [2]string{r.StartReadAhead.String(), r.ReadAhead.String()},
	}
	if r.Before.DemeritMs > 0 {
		res.Improvement = 100 * (r.Before.DemeritMs - r.After.DemeritMs) / r.Before.DemeritMs
	}
	for i, p := range r.Params {
		res.Parameters = append(res.Parameters, calibrateParameter{Name: p.Name, Unit: p.Unit, Start: r.Start[i], Fitted: r.Values[i]})
	}
	return res
}

// calibrateConfig returns the fitted config, or writes it to --out and
// returns "".
func calibrateConfig(c calibrateFlags, f calibrate.SpecFamily, r calibrate.Result) (string, error) {
	tr, err := filepath.Abs(c.trace)
	if err != nil {
		tr = c.trace
	}
	format := ""
	if c.format != "" && c.format != "auto" {
		format = c.format
	}
	var b strings.Builder
	if err := calibrate.WriteConfig(&b, f, r, calibrate.ConfigInfo{TracePath: tr, TraceFormat: format}); err != nil {
		return "", err
	}
	if c.out != "" {
		if err := c.policy.WriteBytes(outfile.Target{Name: "--out", Path: c.out, Exts: configExts}, []byte(b.String())); err != nil {
			return "", err
		}
	}
	return b.String(), nil
}

// calibrateDiskSim returns the DiskSim edits as comment lines, and
// writes the fitted model into --out when given.
func calibrateDiskSim(c calibrateFlags, base disk.Params, r calibrate.Result) (string, []calibrate.DiskSimEdit, error) {
	m, err := calibrate.DiskSimEdits(c.parv, base, r)
	if err != nil {
		return "", nil, err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# DiskSim parameters to change in %s (%d):\n", filepath.Base(c.parv), len(m.Edits))
	for _, e := range m.Edits {
		fmt.Fprintf(&b, "#   %s:%d  %s = %s   (was %s)\n", filepath.Base(e.File), e.Line, e.Key, e.New, e.Old)
	}
	if m.SeekFile != "" {
		fmt.Fprintf(&b, "#   %s: the seek curve, every point rescaled (%d points)\n", filepath.Base(m.SeekFile), len(m.SeekCurve))
	}
	if c.out == "" {
		b.WriteString("# (--out DIR writes the fitted model's files)\n")
		return b.String(), m.Edits, nil
	}
	if err := m.Write(c.out, c.force, c.trace); err != nil {
		return "", nil, err
	}
	fmt.Fprintf(&b, "# fitted model written to %s\n", filepath.Join(c.out, filepath.Base(c.parv)))
	return b.String(), m.Edits, nil
}

// writeCalibrateSummary prints the fit's figures as comment lines, so
// that the whole output of `raidsim calibrate --drive` is a config file.
func writeCalibrateSummary(w io.Writer, res *calibrateResult, r calibrate.Result) {
	fmt.Fprintf(w, "# raidsim calibrate: %s on %s, %d requests, %d models evaluated\n", res.Drive, res.Trace, res.Requests, res.Evaluations)
	fmt.Fprintf(w, "# demerit %.3f ms before, %.3f ms after (%s)\n", r.Before.DemeritMs, r.After.DemeritMs, calibrate.Improvement(r))
	fmt.Fprintf(w, "#                 measured    before     after\n")
	m, b, a := r.Before.Measured, r.Before.Simulated, r.After.Simulated
	for _, row := range []struct {
		name    string
		m, b, a float64
	}{{"mean", m.Mean, b.Mean, a.Mean}, {"p50", m.P50, b.P50, a.P50}, {"p90", m.P90, b.P90, a.P90}, {"p99", m.P99, b.P99, a.P99}} {
		fmt.Fprintf(w, "#   %-5s (ms)  %9.3f %9.3f %9.3f\n", row.name, row.m, row.b, row.a)
	}
	for _, x := range []struct {
		when string
		c    calibrate.Comparison
	}{{"before", r.Before}, {"after", r.After}} {
		if g, ok := x.c.LargestGap(); ok {
			fmt.Fprintf(w, "# largest gap %s: %s\n", x.when, g.Describe())
		}
	}
	fmt.Fprintf(w, "#   %-42s %10s %10s\n", "parameter", "start", "fitted")
	for _, p := range res.Parameters {
		fmt.Fprintf(w, "#   %-42s %10.4f %10.4f\n", p.Name+" ("+p.Unit+")", p.Start, p.Fitted)
	}
	fmt.Fprintf(w, "#   %-42s %10s %10s\n", "read_ahead", res.ReadAhead[0], res.ReadAhead[1])
}
