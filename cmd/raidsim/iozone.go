package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/raidsim/raidsim/benchmark"
	"github.com/raidsim/raidsim/metrics"
	"github.com/raidsim/raidsim/spec"
	"github.com/raidsim/raidsim/trace"
)

// groupIOzone heads iozone's own flags in --help.
const groupIOzone = "iozone"

// iozoneFlags are the flags of `raidsim iozone`: run's stack and host
// flags, and iozone's own.
var iozoneFlags = iozoneTable()

// stackFlags are run's flags that describe the experiment, its stack and
// its host, for the commands that bring their own workload.
func stackFlags() []*runFlag {
	var t []*runFlag
	for _, f := range runFlags {
		switch f.group {
		case groupExperiment, groupDrive, groupRAID, groupCache, groupHost:
			t = append(t, f)
		}
	}
	return t
}

func iozoneTable() []*runFlag {
	return append(stackFlags(),
		&runFlag{name: "file-sizes", group: groupIOzone, metavar: "LIST", example: "64KiB,1GiB",
			usage: "file sizes, comma-separated (default " + defaultFileSizes + ")"},
		&runFlag{name: "record-sizes", group: groupIOzone, metavar: "LIST", example: "4KiB,64KiB",
			usage: "record sizes, comma-separated; a record that does not divide a file is skipped (default 64KiB)"},
		&runFlag{name: "file-offset", group: groupIOzone, metavar: "SIZE", example: "10GiB",
			usage: "where each file starts on the volume (default 1GiB)"},
		&runFlag{name: "json", group: groupIOzone, example: "true", usage: "print the points as JSON"},
	)
}

const defaultFileSizes = "64KiB,1MiB,16MiB,256MiB,1GiB"

// maxIOzoneSizes bounds each list.
const maxIOzoneSizes = 64

// iozoneExperiment is the base: run's, behind the server host (iozone
// runs on a computer; --host changes it).
func iozoneExperiment() spec.Experiment {
	x := baseExperiment()
	x.Stack.Host.Preset = "server"
	return x
}

const iozoneHelpText = `Usage: raidsim iozone [stack flags] [--file-sizes LIST] [--record-sizes LIST]

Runs iozone's write, rewrite, read and reread tests (iozone -i 0 -i 1)
on the stack behind its host: for each file size and record size a fresh
file, written and read one record at a time through the host's page cache
(writes timed until acknowledged, as iozone without -e). Prints MB/s and
the host's CPU utilization per test. The base stack is raidsim run's
behind the server host; --host nas-1gb puts seed 004's NAS in front.
`

func iozoneHelp(w io.Writer) {
	fmt.Fprint(w, iozoneHelpText)
	writeGroupsOn(w, iozoneFlags, iozoneExperiment())
}

// iozoneOf reads iozone's own flags into z, every problem at once.
func iozoneOf(flags []given, z *benchmark.IOzone) (asJSON bool, err error) {
	ue := &usageError{}
	list := func(name, def string) []int64 {
		v, ok := lastValue(flags, name)
		if !ok {
			v = def
		}
		parts := strings.Split(v, ",")
		if len(parts) > maxIOzoneSizes {
			ue.lines = append(ue.lines, fmt.Sprintf("--%s: %d sizes, more than %d", name, len(parts), maxIOzoneSizes))
			return nil
		}
		var out []int64
		for _, s := range parts {
			n, err := trace.ParseSize(strings.TrimSpace(s))
			if err != nil || n <= 0 {
				ue.lines = append(ue.lines, fmt.Sprintf("--%s: %q is not a positive size", name, s))
				continue
			}
			out = append(out, n)
		}
		return out
	}
	z.FileSizes, z.RecordSizes = list("file-sizes", defaultFileSizes), list("record-sizes", "64KiB")
	z.Offset = 1 << 30
	if v, ok := lastValue(flags, "file-offset"); ok {
		n, err := trace.ParseSize(v)
		if err != nil || n < 0 {
			ue.lines = append(ue.lines, fmt.Sprintf("--file-offset: %q is not a size", v))
		}
		z.Offset = n
	}
	if v, ok := lastValue(flags, "json"); ok {
		if asJSON, err = strconv.ParseBool(v); err != nil {
			ue.lines = append(ue.lines, fmt.Sprintf("--json: want true or false, got %q", v))
		}
	}
	if len(ue.lines) > 0 {
		return false, ue
	}
	return asJSON, nil
}

// runIOzone is `raidsim iozone`.
func runIOzone(args []string, stdout, _ io.Writer) error {
	flags, err := parseTable("iozone", iozoneFlags, args, stdout, iozoneHelp)
	if err != nil {
		return err
	}
	b, err := experimentFrom(flags, iozoneExperiment)
	if err != nil {
		return err
	}
	z := benchmark.IOzone{Stack: b.x.Stack, Seed: b.x.Seed}
	asJSON, err := iozoneOf(flags, &z)
	if err != nil {
		return err
	}
	if _, err := b.x.Plan(); err != nil {
		return b.explain(err)
	}
	pts, err := z.Run()
	if err != nil {
		return err
	}
	if asJSON {
		out, err := json.MarshalIndent(pts, "", "  ")
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(stdout, "%s\n", out)
		return err
	}
	t := metrics.Table{
		Title:  fmt.Sprintf("iozone (write, rewrite, read, reread) behind %s; MB/s (10^6 bytes/s) and host CPU %%", z.Stack.Host.Preset),
		Header: []string{"file", "record"},
	}
	for _, n := range benchmark.IOzoneTests {
		t.Header = append(t.Header, n, "CPU %")
	}
	for _, p := range pts {
		row := []string{trace.FormatSize(p.FileSize), trace.FormatSize(p.RecordSize)}
		for i := range benchmark.IOzoneTests {
			row = append(row, metrics.FormatFixed(p.MBPerS[i], 1), metrics.FormatFixed(p.CPUPct[i], 1))
		}
		t.AddRow(row...)
	}
	return t.WriteText(stdout)
}
