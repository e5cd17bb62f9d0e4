package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/raidsim/raidsim/internal/outfile"
	"github.com/raidsim/raidsim/trace"
	"github.com/raidsim/raidsim/tracestats"
)

// traceHelp introduces `raidsim trace --help`.
const traceHelp = `Usage: raidsim trace stats FILE [flags]

Describes a trace before it is replayed: record counts, the read, write,
trim and flush mix, a request-size histogram, the sequential share,
inter-arrival times and burstiness (peak-to-mean over 1 s and 1 min
windows), footprint and reuse (LRU's miss-ratio curve), and the trace's
own response times when it recorded them. Any format raidsim reads, .gz and
.bz2 too; the file is read twice, streaming, in memory that does not grow
with the trace (past --sample-blocks distinct blocks, the footprint is a
HyperLogLog estimate and the curve SHARDS's; see package tracestats).
`

// runTrace is `raidsim trace SUBCOMMAND`.
func runTrace(args []string, stdout, _ io.Writer) error {
	if len(args) > 0 && args[0] == "stats" {
		return runTraceStats(args[1:], stdout)
	}
	pos, err := parseFlags(newFlags("trace"), args, stdout, func(w io.Writer) { fmt.Fprint(w, traceHelp) }, nil)
	if err != nil {
		return err
	}
	if len(pos) == 0 {
		return usagef("want a subcommand: raidsim trace stats FILE")
	}
	return usagef("unknown subcommand %q: want stats", pos[0])
}

// runTraceStats is `raidsim trace stats FILE`.
func runTraceStats(args []string, stdout io.Writer) error {
	fs := newFlags("trace stats")
	format := fs.String("format", "auto", "the trace's format: "+strings.Join(trace.Formats(), ", "))
	device := fs.Int("device", -1, "describe only this device (volume) number (default: every device)")
	asJSON := fs.Bool("json", false, "print the figures as JSON")
	plotPath := fs.String("plot", "", "also draw them on one page, to FILE (.svg or .png)")
	sample := fs.Int64("sample-blocks", tracestats.DefaultSampleBlocks, "distinct 4 KiB blocks kept for the reuse curve; past them SHARDS samples")
	force := fs.Bool("force", false, forceUsage)
	pos, err := parseFlags(fs, args, stdout, func(w io.Writer) { writeHelp(w, traceHelp, fs) }, nil)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("want one trace file, got %d arguments", len(pos))
	}
	if *sample <= 0 {
		return usagef("--sample-blocks: %d is not positive", *sample)
	}
	file := pos[0]
	out := outfile.Policy{Force: *force, Inputs: []outfile.Input{{Name: "FILE", Path: file}}}
	target := outfile.Target{Name: "--plot", Path: *plotPath, Exts: plotExts}
	if *plotPath != "" {
		if err := out.Check(target); err != nil {
			return err
		}
	}
	var chosen trace.Format
	open := func() (trace.Reader, error) {
		r, f, c, err := trace.Open(file, *format)
		if err != nil {
			return nil, err
		}
		chosen = f
		if *device >= 0 {
			return closingReader{trace.FilterDevice(r, *device), c}, nil
		}
		return closingReader{r, c}, nil
	}
	st, err := tracestats.Collect(open, tracestats.Options{SampleBlocks: *sample})
	if err != nil {
		return err
	}
	if *plotPath != "" {
		fig, err := st.Figure(fmt.Sprintf("%s (%s)", file, chosen))
		if err != nil {
			return err
		}
		if err := writeFigure(out, target, fig); err != nil {
			return err
		}
	}
	if *asJSON {
		b, err := json.MarshalIndent(struct {
			File   string `json:"file"`
			Format string `json:"format"`
			*tracestats.Stats
		}{file, string(chosen), st}, "", "  ")
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(stdout, "%s\n", b)
		return err
	}
	fmt.Fprintf(stdout, "trace %s (format %s)\n", file, chosen)
	return st.WriteText(stdout)
}
