package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/raidsim/raidsim/calibrate"
	"github.com/raidsim/raidsim/disk/disksim"
	"github.com/raidsim/raidsim/disk/disksim/exact"
	"github.com/raidsim/raidsim/internal/outfile"
	"github.com/raidsim/raidsim/metrics"
	"github.com/raidsim/raidsim/sim"
	"github.com/raidsim/raidsim/trace"
)

// validateResult is what `raidsim validate --json` prints.
type validateResult struct {
	Drive           string  `json:"drive"`
	Trace           string  `json:"trace"`
	Mode            string  `json:"mode"`
	Requests        int     `json:"requests"`
	MeasuredMeanMs  float64 `json:"measured_mean_ms"`
	SimulatedMeanMs float64 `json:"simulated_mean_ms"`
	MeanErrorPct    float64 `json:"mean_error_pct"`
	DemeritMs       float64 `json:"demerit_ms"`
	DemeritPct      float64 `json:"demerit_pct"`
	// Measured and Simulated are the mean and percentiles of each
	// sample; Classes the gap of every class of requests, largest first,
	// and LargestGap the first in words.
	Measured            calibrate.Stats   `json:"measured"`
	Simulated           calibrate.Stats   `json:"simulated"`
	Classes             []calibrate.Class `json:"classes"`
	LargestGap          string            `json:"largest_gap"`
	measured, simulated []time.Duration
}

// perRequest is one request's line of `raidsim validate --per-request`,
// in the columns of DiskSim's requests.tsv (tools/disksim/BUILD.md).
type perRequest struct {
	arrival, response, measured float64 // ms
	blkno, bcount               int
	read                        bool
}

// validate loads a DiskSim model and replays a trace with measured
// service times on it, in the given mode.
func validate(parv, tracePath, format string, maxReq int, mode disksim.Mode) (validateResult, disksim.Report, []perRequest, error) {
	var res validateResult
	var reqs []calibrate.Request
	var rows []perRequest
	var rep disksim.Report
	var recs []trace.Record
	if mode == disksim.Exact {
		m, r, err := disksim.LoadExact(parv)
		if err != nil {
			return res, r, nil, err
		}
		rep = r
		if recs, err = calibrate.LoadTrace(tracePath, format, maxReq); err != nil {
			return res, rep, nil, err
		}
		var out []exact.Result
		reqs, out, err = calibrate.ReplayExact(m, recs)
		if err != nil {
			return res, rep, nil, err
		}
		for i := range reqs {
			rows = append(rows, perRequest{arrival: out[i].Arrival, response: out[i].Response})
		}
	} else {
		p, r, err := disksim.Load(parv)
		if err != nil {
			return res, r, nil, err
		}
		rep = r
		if recs, err = calibrate.LoadTrace(tracePath, format, maxReq); err != nil {
			return res, rep, nil, err
		}
		if reqs, err = calibrate.Replay(p, recs); err != nil {
			return res, rep, nil, err
		}
		at := 0.0 // each request issued at the previous completion plus its gap
		for i, q := range reqs {
			resp := float64(q.Simulated) / 1e6
			rows = append(rows, perRequest{arrival: at, response: resp})
			if i+1 < len(recs) {
				at += resp + float64(recs[i+1].Time-recs[i].Time-sim.Time(recs[i].Measured))/1e6
			}
		}
	}
	for i := range rows {
		r := recs[i]
		rows[i].blkno, rows[i].bcount = int(r.Offset/512), int(r.Length/512)
		rows[i].read = r.Op == sim.Read
		rows[i].measured = float64(r.Measured) / 1e6
	}
	c := calibrate.Compare(reqs)
	res = validateResult{
		Drive: rep.Disk, Trace: filepath.Base(tracePath), Mode: mode.String(), Requests: c.Requests,
		MeasuredMeanMs: c.Measured.Mean, SimulatedMeanMs: c.Simulated.Mean,
		DemeritMs: c.DemeritMs, DemeritPct: c.DemeritPct,
		Measured: c.Measured, Simulated: c.Simulated, Classes: c.Classes,
	}
	res.MeanErrorPct = 100 * (res.SimulatedMeanMs - res.MeasuredMeanMs) / res.MeasuredMeanMs
	if g, ok := c.LargestGap(); ok {
		res.LargestGap = g.Describe()
	}
	for _, r := range reqs {
		res.measured = append(res.measured, r.Measured)
		res.simulated = append(res.simulated, r.Simulated)
	}
	return res, rep, rows, nil
}

// perRequestTSV renders rows as DiskSim's run-reqlog.sh writes
// requests.tsv: a header, then one tab-separated line a request (times
// in ms, 9 decimals; the measured time 6; flags as DiskSim's hex word,
// 1 for a read).
func perRequestTSV(rows []perRequest) []byte {
	var b strings.Builder
	b.WriteString("arrival_ms\tdevno\tblkno\tbcount\trw\tflags\tresponse_ms\tmeasured_ms\n")
	for _, r := range rows {
		rw, flags := "W", 0
		if r.read {
			rw, flags = "R", 1
		}
		fmt.Fprintf(&b, "%.9f\t0\t%d\t%d\t%s\t%#x\t%.9f\t%.6f\n", r.arrival, r.blkno, r.bcount, rw, flags, r.response, r.measured)
	}
	return []byte(b.String())
}

// writeValidateFigures prints the figures of res as text.
func writeValidateFigures(w io.Writer, res *validateResult) {
	fmt.Fprintf(w, "drive %s, trace %s, %d requests, %s mode\n", res.Drive, res.Trace, res.Requests, res.Mode)
	fmt.Fprintf(w, "  measured mean   %8.3f ms\n", res.MeasuredMeanMs)
	fmt.Fprintf(w, "  simulated mean  %8.3f ms (%+.2f%%)\n", res.SimulatedMeanMs, res.MeanErrorPct)
	fmt.Fprintf(w, "  demerit         %8.3f ms (%.2f%% of the measured mean)\n", res.DemeritMs, res.DemeritPct)
	fmt.Fprintf(w, "  service time (ms)  measured  simulated     gap\n")
	m, s := res.Measured, res.Simulated
	for _, row := range []struct {
		name string
		m, s float64
	}{{"mean", m.Mean, s.Mean}, {"p50", m.P50, s.P50}, {"p90", m.P90, s.P90}, {"p99", m.P99, s.P99}} {
		fmt.Fprintf(w, "    %-15s %9.3f %10.3f %+8.3f\n", row.name, row.m, row.s, row.s-row.m)
	}
	fmt.Fprintf(w, "  largest gap: %s\n", res.LargestGap)
	fmt.Fprintf(w, "  by class (simulator's view)                      requests  measured  simulated     gap\n")
	for _, c := range res.Classes {
		fmt.Fprintf(w, "    %-48s %6d %9.3f %10.3f %+8.3f\n", c.Name, c.Requests, c.MeasuredMean, c.SimulatedMean, c.GapMs)
	}
}

// validateHelp introduces `raidsim validate --help`.
const validateHelp = `Usage: raidsim validate --disksim FILE.parv --trace FILE [--format validate] [--disksim-mode exact|refined] [--per-request FILE] [--max-requests N] [--plot text|FILE.svg] [--json]

Replays a trace measured on a real drive with one request outstanding, each
issued at the previous completion plus the recorded gap, on the drive's
DiskSim model, and prints measured and simulated service times (mean, 50th,
90th and 99th percentiles), the demerit figure (RMS horizontal distance
between the two CDFs) and the mean gap of each class of requests as the
simulator sees them (read or write, served from the buffer or the media,
sequential or random), naming the largest: the class whose gap, weighted
by its share of the requests, moves the mean the most.

By default (--disksim-mode exact) the drive is simulated as DiskSim 4.0's
source does it, request by request; --disksim-mode refined uses raidsim's
own drive model built from the same parameters, with the refinements the
disk/disksim package documents. --per-request FILE writes each request's
simulated response time in the columns of DiskSim's requests.tsv
(arrival_ms devno blkno bcount rw flags response_ms measured_ms).

The trace must record service times: DiskSim's validate format, blkparse
output with completions (--format blkparse:DC), or raidsim CSV
(measured_ns), MSR or SYSTOR '17 traces measured with one request
outstanding (--format auto sniffs all but blkparse:DC).
`

// runValidate is `raidsim validate`: replay a DiskSim validate trace on a
// DiskSim drive model and score the fit.
func runValidate(args []string, stdout, _ io.Writer) error {
	fs := newFlags("validate")
	parv := fs.String("disksim", "", "DiskSim 4.0 parameter file (.parv) of the drive")
	tr := fs.String("trace", "", "validate trace: R/W Hit/Miss blkno bcount service_us next_interarrival_us")
	format := fs.String("format", "validate", "trace format: validate, or auto, blkparse:DC, csv, msr, systor17 for traces with measured times")
	maxReq := fs.Int("max-requests", 0, "score the first N requests of the trace (0: all)")
	plot := fs.String("plot", "", "plot the two CDFs: \"-\" or \"text\" for a text plot, FILE.svg for an SVG")
	force := fs.Bool("force", false, forceUsage)
	asJSON := fs.Bool("json", false, "print the figures as JSON")
	verbose := fs.BoolP("verbose", "v", false, "list the model parameters the drive does not use")
	modeName := fs.String("disksim-mode", "exact", "exact (DiskSim 4.0's results) or refined (raidsim's drive model)")
	perReq := fs.String("per-request", "", "write each request's result to FILE, in the columns of DiskSim's requests.tsv")
	rest, err := parseFlags(fs, args, stdout, func(w io.Writer) { writeHelp(w, validateHelp, fs) }, nil)
	if err != nil {
		return err
	}
	if err := noArgs(rest); err != nil {
		return err
	}
	if *parv == "" || *tr == "" {
		return usagef("--disksim and --trace are required")
	}
	if *maxReq < 0 {
		return usagef("--max-requests %d: want 0 (all) or more", *maxReq)
	}
	out := outfile.Policy{Force: *force, Inputs: []outfile.Input{{Name: "--disksim", Path: *parv}, {Name: "--trace", Path: *tr}}}
	plotFile := outfile.Target{Name: "--plot", Path: *plot, Exts: []string{".svg"}}
	filePlot := *plot != "" && *plot != "-" && *plot != "text"
	if filePlot {
		if err := out.Check(plotFile); err != nil {
			return err
		}
	}
	reqFile := outfile.Target{Name: "--per-request", Path: *perReq, Exts: []string{".tsv"}}
	if *perReq != "" {
		if err := out.Check(reqFile); err != nil {
			return err
		}
	}
	mode, err := disksim.ParseMode(*modeName)
	if err != nil {
		return usagef("--disksim-mode %q: want exact or refined", *modeName)
	}
	res, rep, rows, err := validate(*parv, *tr, *format, *maxReq, mode)
	if err != nil {
		return err
	}
	out = out.With(modelInputs(rep.Files)...)
	if *perReq != "" {
		if err := out.WriteBytes(reqFile, perRequestTSV(rows)); err != nil {
			return err
		}
	}
	if filePlot {
		if err := out.WriteBytes(plotFile, cdfSVG(&res)); err != nil {
			return err
		}
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(res)
	}
	writeValidateFigures(stdout, &res)
	if *verbose {
		fmt.Fprintf(stdout, "  parameters not used (%d):\n", len(rep.Ignored))
		for _, s := range rep.Ignored {
			fmt.Fprintf(stdout, "    %s\n", s)
		}
	}
	if *plot == "-" || *plot == "text" {
		fmt.Fprintln(stdout)
		textCDF(stdout, &res)
	} else if *plot != "" {
		fmt.Fprintf(stdout, "  CDF plot written to %s\n", *plot)
	}
	return nil
}

// cdfRange returns the plot's x range: 0 to the 99.5th percentile of
// both samples.
func cdfRange(res *validateResult) (sm, ss []time.Duration, xmax float64) {
	sm, ss = slices.Clone(res.measured), slices.Clone(res.simulated)
	slices.Sort(sm)
	slices.Sort(ss)
	xmax = math.Max(float64(metrics.SortedQuantile(sm, 0.995)), float64(metrics.SortedQuantile(ss, 0.995))) / 1e6
	if xmax <= 0 {
		xmax = 1
	}
	return sm, ss, xmax
}

// fracBelow returns the fraction of the ascending sample s at or below x
// (ms).
func fracBelow(s []time.Duration, x float64) float64 {
	t := time.Duration(x * 1e6)
	i, _ := slices.BinarySearch(s, t+1)
	return float64(i) / float64(len(s))
}

// textCDF draws both CDFs on a character grid: 'm' measured, 's'
// simulated, '*' both.
func textCDF(w io.Writer, res *validateResult) {
	const cols, rows = 64, 20
	sm, ss, xmax := cdfRange(res)
	grid := make([][]byte, rows)
	for r := range grid {
		grid[r] = []byte(strings.Repeat(" ", cols))
	}
	for c := 0; c < cols; c++ {
		x := xmax * float64(c+1) / cols
		for _, p := range []struct {
			s  []time.Duration
			ch byte
		}{{sm, 'm'}, {ss, 's'}} {
			r := rows - 1 - int(fracBelow(p.s, x)*float64(rows-1)+0.5)
			if grid[r][c] != ' ' && grid[r][c] != p.ch {
				grid[r][c] = '*'
			} else {
				grid[r][c] = p.ch
			}
		}
	}
	fmt.Fprintln(w, "CDF of service time (m measured, s simulated, * both)")
	for r, line := range grid {
		label := "     "
		switch r {
		case 0:
			label = "1.0 |"
		case rows / 2:
			label = "0.5 |"
		case rows - 1:
			label = "0.0 |"
		default:
			label = "    |"
		}
		fmt.Fprintf(w, "%s%s\n", label, line)
	}
	fmt.Fprintf(w, "    +%s\n", strings.Repeat("-", cols))
	fmt.Fprintf(w, "     0%*s\n", cols-1, fmt.Sprintf("%.1f ms", xmax))
}

// cdfSVG returns a small self-contained SVG of both CDFs.
func cdfSVG(res *validateResult) []byte {
	const W, H, L, B, R, T = 640.0, 400.0, 60.0, 50.0, 20.0, 40.0
	sm, ss, xmax := cdfRange(res)
	px := func(x float64) float64 { return L + (W-L-R)*x/xmax }
	py := func(y float64) float64 { return H - B - (H-B-T)*y }
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%g" height="%g" viewBox="0 0 %g %g" font-family="sans-serif" font-size="12">`+"\n", W, H, W, H)
	fmt.Fprintf(&b, `<rect width="%g" height="%g" fill="white"/>`+"\n", W, H)
	fmt.Fprintf(&b, `<text x="%g" y="20" text-anchor="middle" font-size="14">%s: measured vs simulated service time (demerit %.3f ms, %.2f%%)</text>`+"\n",
		W/2, xmlEscape(res.Drive), res.DemeritMs, res.DemeritPct)
	// Axes and ticks.
	fmt.Fprintf(&b, `<path d="M%g %g V%g H%g" stroke="black" fill="none"/>`+"\n", L, T, H-B, W-R)
	for i := 0; i <= 5; i++ {
		x := xmax * float64(i) / 5
		fmt.Fprintf(&b, `<line x1="%.1f" y1="%g" x2="%.1f" y2="%g" stroke="#ccc"/><text x="%.1f" y="%g" text-anchor="middle">%.1f</text>`+"\n",
			px(x), T, px(x), H-B, px(x), H-B+16, x)
		y := float64(i) / 5
		fmt.Fprintf(&b, `<line x1="%g" y1="%.1f" x2="%g" y2="%.1f" stroke="#ccc"/><text x="%g" y="%.1f" text-anchor="end">%.1f</text>`+"\n",
			L, py(y), W-R, py(y), L-6, py(y)+4, y)
	}
	fmt.Fprintf(&b, `<text x="%g" y="%g" text-anchor="middle">service time (ms)</text>`+"\n", (L+W-R)/2, H-12)
	fmt.Fprintf(&b, `<text x="16" y="%g" text-anchor="middle" transform="rotate(-90 16 %g)">fraction of requests</text>`+"\n", (T+H-B)/2, (T+H-B)/2)
	for _, c := range []struct {
		s     []time.Duration
		color string
		name  string
		y     float64
	}{{sm, "#1f77b4", "measured", T + 10}, {ss, "#d62728", "simulated", T + 28}} {
		b.WriteString(`<polyline fill="none" stroke-width="1.5" stroke="` + c.color + `" points="`)
		const steps = 400
		for i := 0; i <= steps; i++ {
			x := xmax * float64(i) / steps
			fmt.Fprintf(&b, "%.1f,%.1f ", px(x), py(fracBelow(c.s, x)))
		}
		b.WriteString("\"/>\n")
		fmt.Fprintf(&b, `<line x1="%g" y1="%g" x2="%g" y2="%g" stroke="%s" stroke-width="2"/><text x="%g" y="%g">%s (mean %.3f ms)</text>`+"\n",
			W-R-200, c.y, W-R-180, c.y, c.color, W-R-175, c.y+4, c.name, meanOf(c.name, res))
	}
	b.WriteString("</svg>\n")
	return []byte(b.String())
}

func meanOf(name string, res *validateResult) float64 {
	if name == "measured" {
		return res.MeasuredMeanMs
	}
	return res.SimulatedMeanMs
}

func xmlEscape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;").Replace(s)
}
