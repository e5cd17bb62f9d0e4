package main

import (
	"compress/gzip"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/raidsim/raidsim/internal/outfile"
	"github.com/raidsim/raidsim/spec"
)

// Every file a command writes goes through internal/outfile (never an
// input, only a regular file replaced and only with --force, written
// atomically, in the format its extension names). These are the
// extensions each kind of output takes.
var (
	// plotExts are the figures' formats (package plot renders both).
	plotExts = []string{".svg", ".png"}
	// traceEventExts is the Chrome trace-event format: JSON.
	traceEventExts = []string{".json"}
	// profileExts are the names pprof profiles go by (gzipped protobuf).
	profileExts = []string{".pprof", ".prof", ".pb.gz"}
	// configExts are a config file's (YAML).
	configExts = []string{".yaml", ".yml"}
)

// traceFormatOfExt is the trace format each trace extension names; a
// further .gz compresses it.
var traceFormatOfExt = map[string]string{".csv": "csv", ".log": "fio", ".iolog": "fio", ".fio": "fio"}

// traceExts are the extensions a trace output takes.
func traceExts() []string {
	var out []string
	for _, e := range []string{".csv", ".log", ".iolog", ".fio"} {
		out = append(out, e, e+".gz")
	}
	return out
}

// traceFormatFamily is the extension's name for a --to format.
func traceFormatFamily(to string) string {
	if strings.HasPrefix(to, "fio") {
		return "fio"
	}
	return to
}

// traceOutputFormat returns the format a trace output is written in and
// whether it is gzipped: the one its extension names, which --to (when
// given) must agree with; fio2 and fio3 both take fio's extensions.
func traceOutputFormat(name, path, to string) (format string, gz bool, err error) {
	ext, ok := outfile.Ext(path, traceExts())
	if !ok {
		return "", false, usagef("%s %s: the extension names no trace format raidsim writes: end the name with .csv (raidsim's CSV) "+
			"or .log, .iolog, .fio (fio's iolog), each optionally followed by .gz", name, path)
	}
	gz = strings.HasSuffix(ext, ".gz")
	named := traceFormatOfExt[strings.TrimSuffix(ext, ".gz")]
	if to == "" {
		return named, gz, nil
	}
	if traceFormatFamily(strings.ToLower(to)) != named {
		return "", false, usagef("%s %s: the extension %s names %s, but --to is %s: name the file for its format", name, path, ext, named, to)
	}
	return to, gz, nil
}

// gzipped wraps w in gzip when gz; close flushes the gzip stream (not
// w). The header carries no name or time, so the bytes are the same on
// every run.
func gzipped(w io.Writer, gz bool) (io.Writer, func() error) {
	if !gz {
		return w, func() error { return nil }
	}
	z := gzip.NewWriter(w)
	return z, z.Close
}

// forceUsage is the --force flag's help, the same in every command.
const forceUsage = "replace output files that exist (never an input of the run, never anything but a regular file)"

// forceOf reads a --force switch given in a run flag table.
func forceOf(flags []given) (bool, error) {
	v, ok := lastValue(flags, "force")
	if !ok {
		return false, nil
	}
	b, err := strconv.ParseBool(v)
	if err != nil {
		return false, usagef("--force: want true or false, got %q", v)
	}
	return b, nil
}

// experimentInputs are the files a command line's experiment reads:
// its --config file and every phase's trace (the first phase's named
// --trace when that flag gave it).
func experimentInputs(flags []given, x *spec.Experiment) []outfile.Input {
	var in []outfile.Input
	if config, ok := lastValue(flags, "config"); ok {
		in = append(in, outfile.Input{Name: "--config", Path: config})
	}
	_, traceFlag := lastValue(flags, "trace")
	for i, ph := range x.Phases {
		if ph.Trace == nil || ph.Trace.Path == "" {
			continue
		}
		name := fmt.Sprintf("phases[%d].trace.path", i)
		if i == 0 && traceFlag {
			name = "--trace"
		}
		in = append(in, outfile.Input{Name: name, Path: ph.Trace.Path})
	}
	return in
}

// figure is a figure package plot draws.
type figure interface {
	Render(w io.Writer, format string) error
}

// writeFigure draws fig into t in the format its extension names (t.Exts
// are plotExts), through the output policy p.
func writeFigure(p outfile.Policy, t outfile.Target, fig figure) error {
	t.Exts = plotExts
	ext, ok := outfile.Ext(t.Path, plotExts)
	if !ok {
		return p.Check(t) // names the extensions taken
	}
	return p.Write(t, func(w io.Writer) error {
		if err := fig.Render(w, strings.TrimPrefix(ext, ".")); err != nil {
			return fmt.Errorf("%s %s: %w", t.Name, t.Path, err)
		}
		return nil
	})
}

// modelInputs names the files a DiskSim model was read from as inputs.
func modelInputs(files []string) []outfile.Input {
	in := make([]outfile.Input, len(files))
	for i, f := range files {
		in[i] = outfile.Input{Name: "--disksim (a file of the model)", Path: f}
	}
	return in
}
