package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/raidsim/raidsim/disk"
	"github.com/raidsim/raidsim/disk/disksim"
	"github.com/raidsim/raidsim/metrics"
	"github.com/raidsim/raidsim/sim"
	"github.com/raidsim/raidsim/trace"
)

// validateResult is what `raidsim validate --json` prints.
type validateResult struct {
	Drive               string  `json:"drive"`
	Trace               string  `json:"trace"`
	Requests            int     `json:"requests"`
	MeasuredMeanMs      float64 `json:"measured_mean_ms"`
	SimulatedMeanMs     float64 `json:"simulated_mean_ms"`
	MeanErrorPct        float64 `json:"mean_error_pct"`
	DemeritMs           float64 `json:"demerit_ms"`
	DemeritPct          float64 `json:"demerit_pct"`
	measured, simulated []time.Duration
}

// validate loads a DiskSim model and replays a validate trace on it.
func validate(parv, tracePath, format string) (validateResult, disksim.Report, error) {
	var res validateResult
	if f := strings.ToLower(format); f != "" && f != "validate" {
		return res, disksim.Report{}, fmt.Errorf("--format %q: only \"validate\" traces carry measured service times", format)
	}
	p, rep, err := disksim.Load(parv)
	if err != nil {
		return res, rep, err
	}
	f, err := os.Open(tracePath)
	if err != nil {
		return res, rep, err
	}
	defer f.Close()
	eng := sim.NewEngine(1)
	d, err := disk.New(eng, p, "disk0", nil)
	if err != nil {
		return res, rep, err
	}
	out, err := trace.ReplayValidate(eng, d, trace.NewValidateReader(f, tracePath), trace.ValidateOptions{})
	if err != nil {
		return res, rep, err
	}
	if len(out.Measured) == 0 {
		return res, rep, fmt.Errorf("%s: no requests", tracePath)
	}
	res = validateResult{
		Drive: rep.Disk, Trace: filepath.Base(tracePath), Requests: len(out.Measured),
		MeasuredMeanMs: meanMs(out.Measured), SimulatedMeanMs: meanMs(out.Simulated),
		measured: out.Measured, simulated: out.Simulated,
	}
	res.MeanErrorPct = 100 * (res.SimulatedMeanMs - res.MeasuredMeanMs) / res.MeasuredMeanMs
	res.DemeritMs, res.DemeritPct = metrics.Demerit(out.Measured, out.Simulated)
	return res, rep, nil
}

func meanMs(v []time.Duration) float64 {
	var s float64
	for _, x := range v {
		s += float64(x)
	}
	return s / float64(len(v)) / 1e6
}

// validateHelp introduces `raidsim validate --help`.
const validateHelp = `Usage: raidsim validate --disksim FILE.parv --trace FILE [--format validate] [--plot text|FILE.svg] [--json]

Replays a trace measured on a real drive with one request outstanding, each
issued at the previous completion plus the recorded gap, on the drive's
DiskSim model, and prints measured and simulated mean service times and the
demerit figure (RMS horizontal distance between the two CDFs).
`

// runValidate is `raidsim validate`: replay a DiskSim validate trace on a
// DiskSim drive model and score the fit.
func runValidate(args []string, stdout, _ io.Writer) error {
	fs := newFlags("validate")
	parv := fs.String("disksim", "", "DiskSim 4.0 parameter file (.parv) of the drive")
	tr := fs.String("trace", "", "validate trace: R/W Hit/Miss blkno bcount service_us next_interarrival_us")
	format := fs.String("format", "validate", "trace format (validate)")
	plot := fs.String("plot", "", "plot the two CDFs: \"-\" or \"text\" for a text plot, FILE.svg for an SVG")
	asJSON := fs.Bool("json", false, "print the figures as JSON")
	verbose := fs.BoolP("verbose", "v", false, "list the model parameters the drive does not use")
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
	res, rep, err := validate(*parv, *tr, *format)
	if err != nil {
		return err
	}
	if *plot != "" && *plot != "-" && *plot != "text" {
		if err := os.WriteFile(*plot, cdfSVG(&res), 0o644); err != nil {
			return err
		}
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(res)
	}
	fmt.Fprintf(stdout, "drive %s, trace %s, %d requests\n", res.Drive, res.Trace, res.Requests)
	fmt.Fprintf(stdout, "  measured mean   %8.3f ms\n", res.MeasuredMeanMs)
	fmt.Fprintf(stdout, "  simulated mean  %8.3f ms (%+.2f%%)\n", res.SimulatedMeanMs, res.MeanErrorPct)
	fmt.Fprintf(stdout, "  demerit         %8.3f ms (%.2f%% of the measured mean)\n", res.DemeritMs, res.DemeritPct)
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
