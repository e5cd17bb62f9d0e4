package main

import (
	"cmp"
	"fmt"
	"io"
	"strings"

	"github.com/raidsim/raidsim/internal/outfile"
	"github.com/raidsim/raidsim/trace"
)

// runGen (raidsim gen) is in gen.go: it takes run's flag table.

// convertHelp introduces `raidsim convert --help`.
var convertHelp = `Usage: raidsim convert IN OUT [--from auto] [--to ` + strings.Join(trace.WriteFormats, "|") + `] [--force]

Rewrites trace IN (any supported format, .gz and .bz2 too) as OUT (- for
standard output) in the format OUT's extension names: .csv (raidsim's CSV),
.log, .iolog or .fio (fio's iolog, version 3 unless --to fio2), each
optionally followed by .gz to compress it. OUT is never IN (by any path or
link), never anything but a regular file, and an existing OUT is replaced
only with --force. Flags may come before, between or after IN and OUT.
`

// runConvert rewrites a trace file in another format.
func runConvert(args []string, stdout, _ io.Writer) error {
	fs := newFlags("convert")
	from := fs.String("from", "auto", "input format: "+strings.Join(trace.Formats(), ", "))
	to := fs.String("to", "", "output format: "+strings.Join(trace.WriteFormats, ", ")+" (default: the one OUT's extension names; csv for -)")
	force := fs.Bool("force", false, "replace OUT if it exists (never when it is IN)")
	pos, err := parseFlags(fs, args, stdout, func(w io.Writer) { writeHelp(w, convertHelp, fs) }, nil)
	if err != nil {
		return err
	}
	switch len(pos) {
	case 0:
		return usagef("IN and OUT are missing: want the trace to read and the file to write (- for standard output)")
	case 1:
		return usagef("OUT is missing after IN %s: want the file to write (- for standard output)", pos[0])
	case 2:
	default:
		return usagef("want two arguments, IN and OUT, got %d: %s is one too many (flags start with --)", len(pos), pos[2])
	}
	res, err := convertTrace(pos[0], pos[1], *from, *to, *force, stdout)
	if err != nil {
		return err
	}
	if pos[1] != "-" {
		fmt.Fprintf(stdout, "converted %d records from %s (%s) to %s (%s)%s\n", res.records, pos[0], res.from, pos[1], res.to, skippedWords(res.skipped))
	}
	return nil
}

// converted is what convertTrace did.
type converted struct {
	records int64        // records written
	skipped int64        // records the reader skipped
	from    trace.Format // the input's format, as given or sniffed
	to      string       // the format written
}

// convertTrace rewrites the trace file in (format from, "auto" to sniff
// it) as out ("-" for stdout) in format to, as writeTraceFile writes:
// out is never in (not by another path, a symlink or a hard link
// either), and an existing out is replaced only with force.
func convertTrace(in, out, from, to string, force bool, stdout io.Writer) (converted, error) {
	var res converted
	if out != "-" {
		// Refuse a bad OUT before reading IN.
		if err := (outfile.Policy{Force: force, Inputs: []outfile.Input{{Name: "IN", Path: in}}}).Check(outfile.Target{Name: "OUT", Path: out}); err != nil {
			return res, err
		}
		format, _, err := traceOutputFormat("OUT", out, to)
		if err != nil {
			return res, err
		}
		res.to = format
	}
	r, f, c, err := trace.Open(in, from)
	if err != nil {
		return res, err
	}
	defer c.Close()
	res.from = f
	if out == "-" {
		res.to = cmp.Or(to, "csv")
	}
	res.records, err = writeTraceFile("OUT", out, to, force, stdout, func(w trace.Writer) (int64, error) {
		return trace.Copy(w, r)
	}, outfile.Input{Name: "IN", Path: in})
	res.skipped = trace.Skipped(r)
	return res, err
}

// writeTraceFile writes a trace to path ("-" is stdout), the records
// coming from fill, through the output policy (internal/outfile): the
// format is the one the extension names (--to, when given, must agree;
// a further .gz compresses it), an existing path is replaced only with
// force and never when it is one of inputs or not a regular file, and
// the file appears only once fill and the writer have succeeded. name is
// the flag or argument naming path, for errors.
func writeTraceFile(name, path, to string, force bool, stdout io.Writer, fill func(trace.Writer) (int64, error), inputs ...outfile.Input) (int64, error) {
	if path == "-" {
		if to == "" {
			to = "csv"
		}
		return fillTrace(stdout, to, false, fill)
	}
	policy, target := outfile.Policy{Force: force, Inputs: inputs}, outfile.Target{Name: name, Path: path}
	if err := policy.Check(target); err != nil {
		return 0, err
	}
	format, gz, err := traceOutputFormat(name, path, to)
	if err != nil {
		return 0, err
	}
	var n int64
	err = policy.Write(target, func(w io.Writer) error {
		var err error
		n, err = fillTrace(w, format, gz, fill)
		return err
	})
	return n, err
}

// fillTrace writes fill's records to w in format, gzipped when gz.
func fillTrace(w io.Writer, format string, gz bool, fill func(trace.Writer) (int64, error)) (int64, error) {
	zw, zclose := gzipped(w, gz)
	tw, err := trace.NewWriter(zw, format)
	if err != nil {
		return 0, usagef("--to: %v", strings.TrimPrefix(err.Error(), "trace: "))
	}
	n, err := fill(tw)
	if cerr := tw.Close(); err == nil {
		err = cerr
	}
	if cerr := zclose(); err == nil {
		err = cerr
	}
	return n, err
}

// skippedWords says how many records a reader skipped, if any.
func skippedWords(n int64) string {
	if n == 0 {
		return ""
	}
	return fmt.Sprintf("; %d skipped", n)
}
