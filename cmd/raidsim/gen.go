package main

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/raidsim/raidsim"
	"github.com/raidsim/raidsim/trace"
)

// genFlags are the flags of `raidsim gen`: run's experiment flags (the
// same table, so gen writes the requests run would issue), without the
// trace and output ones, and gen's own output flags.
var genFlags = genTable()

func genTable() []*runFlag {
	var t []*runFlag
	for _, f := range runFlags {
		if f.group != groupTrace && f.group != groupOutput {
			t = append(t, f)
		}
	}
	return append(t,
		&runFlag{name: "to", group: groupOutput, metavar: "FORMAT", example: "fio",
			usage: "trace format: " + strings.Join(trace.WriteFormats, ", ") + " (default: the one --out's extension names; csv for -)"},
		&runFlag{name: "out", group: groupOutput, metavar: "FILE", example: "gen.csv",
			usage: "output file (required; - for standard output): .csv, or .log, .iolog, .fio for fio's iolog, each optionally .gz"},
		&runFlag{name: "force", group: groupOutput, usage: forceUsage},
	)
}

// genHelpText introduces `raidsim gen --help`.
const genHelpText = `Usage: raidsim gen [experiment flags] --out FILE [--to csv|fio|fio2] [--force]

Writes the synthetic workload of the experiment's first phase, request by
request, as a trace: raidsim's CSV (FILE.csv), or an fio iolog (FILE.log,
.iolog or .fio; replay it on real hardware with fio --read_iolog), gzipped
when the name ends in .gz. The flags are raidsim run's (see raidsim run
--help): replaying the file with raidsim run --trace FILE --iodepth N at the
job's iodepth reproduces run's report. An existing FILE is replaced only
with --force, and never when it is an input (--config) or not a regular
file.
`

func genHelp(w io.Writer) {
	fmt.Fprint(w, genHelpText)
	writeGroups(w, genFlags)
}

// genOutput reads gen's output flags.
func genOutput(flags []given) (to, out string, force bool, err error) {
	if v, ok := lastValue(flags, "to"); ok {
		to = v
	}
	if to != "" && !slices.Contains(trace.WriteFormats, to) {
		return "", "", false, usagef("--to: want one of %s, got %q", strings.Join(trace.WriteFormats, ", "), to)
	}
	out, ok := lastValue(flags, "out")
	if !ok || out == "" {
		return "", "", false, usagef("--out FILE is required")
	}
	if force, err = forceOf(flags); err != nil {
		return "", "", false, err
	}
	return to, out, force, nil
}

// runGen is `raidsim gen`: raidsim.Generate of the experiment the flags
// describe, written to a trace file.
func runGen(args []string, stdout, _ io.Writer) error {
	flags, err := parseTable("gen", genFlags, args, stdout, genHelp)
	if err != nil {
		return err
	}
	to, out, force, err := genOutput(flags)
	if err != nil {
		return err
	}
	b, err := experimentOf(flags)
	if err != nil {
		return err
	}
	n, err := writeTraceFile("--out", out, to, force, stdout, func(w trace.Writer) (int64, error) {
		n, err := raidsim.Generate(&b.x, w)
		return n, b.explain(err)
	}, experimentInputs(flags, &b.x)...)
	if err != nil {
		return err
	}
	if out != "-" {
		format, _, _ := traceOutputFormat("--out", out, to)
		fmt.Fprintf(stdout, "wrote %d records to %s (%s)\n", n, out, format)
	}
	return nil
}
