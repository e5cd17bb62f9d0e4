package main

import (
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/raidsim/raidsim"
	"github.com/raidsim/raidsim/internal/outfile"
	"github.com/raidsim/raidsim/metrics"
	"github.com/raidsim/raidsim/sim"
	"github.com/raidsim/raidsim/spec"
	"github.com/raidsim/raidsim/teach"
	"github.com/raidsim/raidsim/trace"
)

// output is how `raidsim run` prints its report.
type output struct {
	json     bool
	timeline int  // requests whose life is printed after the report
	summary  bool // per-phase averages printed after the report
}

// outputOf reads the output flags, every problem at once.
func outputOf(flags []given) (output, error) {
	var o output
	ue := &usageError{}
	for _, g := range flags {
		switch g.f.name {
		case "json":
			b, err := strconv.ParseBool(g.value)
			if err != nil {
				ue.lines = append(ue.lines, fmt.Sprintf("--json: want true or false, got %q", g.value))
			}
			o.json = b
		case "output-format":
			switch g.value {
			case "json", "normal":
				o.json = g.value == "json"
			default:
				ue.lines = append(ue.lines, fmt.Sprintf("--output-format: want normal or json, got %q", g.value))
			}
		case "timeline":
			n, err := strconv.Atoi(g.value)
			if err != nil || n < 0 || n > maxTimeline {
				ue.lines = append(ue.lines, fmt.Sprintf("--timeline: want 0 to %d requests, got %q", maxTimeline, g.value))
			}
			o.timeline = n
		case "timeline-summary":
			b, err := strconv.ParseBool(g.value)
			if err != nil {
				ue.lines = append(ue.lines, fmt.Sprintf("--timeline-summary: want true or false, got %q", g.value))
			}
			o.summary = b
		}
	}
	if o.json && o.summary {
		ue.lines = append(ue.lines, "--timeline-summary prints a table: drop --json or --timeline-summary")
	}
	if o.json && o.timeline > 0 {
		ue.lines = append(ue.lines, "--timeline prints a table: drop --json or --timeline")
	}
	if len(ue.lines) > 0 {
		return o, ue
	}
	return o, nil
}

// runRun is `raidsim run`: the experiment the flags describe, run, its
// report printed.
func runRun(args []string, stdout, stderr io.Writer) error {
	flags, err := parseTable("run", runFlags, args, stdout, runHelp)
	if err != nil {
		return err
	}
	out, err := outputOf(flags)
	if err != nil {
		return err
	}
	b, err := experimentOf(flags)
	if err != nil {
		return err
	}
	te, err := traceEventsOf(flags)
	if err != nil {
		return err
	}
	force, err := forceOf(flags)
	if err != nil {
		return err
	}
	limits, err := runLimitsOf(flags)
	if err != nil {
		return err
	}
	if err := te.open(outfile.Policy{Force: force, Inputs: experimentInputs(flags, &b.x)}); err != nil {
		return err
	}
	defer te.abort()
	views := []*sim.Observer{te.observer()}
	var tables []func() metrics.Table
	if out.timeline > 0 {
		tl := teach.NewTimeline(out.timeline)
		views, tables = append(views, tl.Observer()), append(tables, tl.Table)
	}
	if out.summary {
		ps := teach.NewPhaseSummary()
		views, tables = append(views, ps.Observer()), append(tables, ps.Table)
	}
	progress, clearLine := limits.progressOf(stderr)
	rep, err := raidsim.RunWith(&b.x, raidsim.RunOptions{Observer: sim.JoinObservers(views...),
		MaxMemory: limits.maxMemory, Progress: progress, CheckContents: limits.contents})
	clearLine()
	if err != nil {
		return b.explain(err)
	}
	if err := te.write(stderr); err != nil {
		return err
	}
	if out.json {
		return rep.WriteJSON(stdout)
	}
	if err := rep.WriteText(stdout); err != nil {
		return err
	}
	for _, table := range tables {
		fmt.Fprintln(stdout)
		t := table()
		if err := t.WriteText(stdout); err != nil {
			return err
		}
	}
	return nil
}

// runHelpText introduces `raidsim run --help`.
const runHelpText = `Usage: raidsim run [flags]

Runs one experiment and prints its report. Each flag sets one field of the
experiment, named by its key path (as in a config file, examples/configs/),
in the order given, on the base experiment:

  %s
  with --trace FILE: one phase replaying the trace (at its recorded times)
  with --config FILE: the file's experiment

A field no flag sets keeps the base experiment's value ("base" below), else
its default ("default"). Sizes take fio's forms (4KiB, 4k, 1MiB, 512),
durations Go's (5ms, 1.5s), switches on/off or true/false. The same
experiment gives a byte-identical report.
`

// runHelp prints `raidsim run --help`.
func runHelp(w io.Writer) {
	fmt.Fprintf(w, runHelpText, describeBase())
	writeGroups(w, runFlags)
}

// describeBase says what the base experiment runs.
func describeBase() string {
	x := baseExperiment()
	j := &x.Phases[0].Job
	bs := trace.FormatSize(int64(j.BS))
	if j.BS == 0 {
		bs, _ = spec.Default("phases[0].bs")
	}
	return fmt.Sprintf("one phase of %d %s requests of %s at iodepth %d, on one %s, seed %d",
		j.IOs, j.RW, bs, j.IODepth, spec.DefaultPreset, x.Seed)
}

// ms converts a duration to float milliseconds.
func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
