package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/raidsim/raidsim/trace"
)

// runGen writes the synthetic workload `raidsim run` would replay as a
// trace file.
func runGen(args []string, stdout, stderr io.Writer) error {
	var o runOptions
	fs := runFlags(&o, stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: raidsim gen [run's workload and stack flags] --to csv|fio|fio2 --out FILE\n\n"+
			"Writes the synthetic workload that raidsim run would replay, request by request, as a trace:\n"+
			"raidsim's CSV, or an fio iolog (replay it on real hardware with fio --read_iolog).\n\nFlags:\n")
		fs.PrintDefaults()
	}
	to := fs.String("to", "csv", "output format: "+strings.Join(trace.WriteFormats, ", "))
	out := fs.String("out", "", "output file (required; - for standard output)")
	if err := fs.Parse(args); err != nil {
		return flagErr(err)
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q (flags start with --)", fs.Arg(0))
	}
	if *out == "" {
		return errors.New("--out FILE is required")
	}
	o.set = setFlags(fs)
	if o.tracePath != "" {
		return errors.New("--trace: gen writes a synthetic workload; use raidsim convert for trace files")
	}
	x, err := o.experiment()
	if err != nil {
		return err
	}
	w, finish, err := createTraceWriter(*out, *to, stdout)
	if err != nil {
		return err
	}
	n, err := x.Generate(w)
	if err = finish(err); err != nil {
		return err
	}
	if *out != "-" {
		fmt.Fprintf(stdout, "wrote %d records to %s (%s)\n", n, *out, *to)
	}
	return nil
}

// runConvert rewrites a trace file in another format.
func runConvert(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("raidsim convert", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: raidsim convert IN OUT [--from auto] [--to csv|fio|fio2]\n\n"+
			"Rewrites trace IN (any supported format, .gz and .bz2 too) as OUT (- for standard output).\n\nFlags:\n")
		fs.PrintDefaults()
	}
	from := fs.String("from", "auto", "input format: auto or one of "+strings.Join(trace.Formats(), ", "))
	to := fs.String("to", "csv", "output format: "+strings.Join(trace.WriteFormats, ", "))
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return flagErr(err)
	}
	if len(pos) != 2 {
		fs.Usage()
		return fmt.Errorf("want an input and an output file, got %d arguments", len(pos))
	}
	r, f, c, err := trace.Open(pos[0], *from)
	if err != nil {
		return err
	}
	defer c.Close()
	w, finish, err := createTraceWriter(pos[1], *to, stdout)
	if err != nil {
		return err
	}
	n, err := trace.Copy(w, r)
	if err = finish(err); err != nil {
		return err
	}
	if pos[1] != "-" {
		fmt.Fprintf(stdout, "converted %d records from %s (%s) to %s (%s); %d skipped\n", n, pos[0], f, pos[1], *to, trace.Skipped(r))
	}
	return nil
}

// createTraceWriter opens path ("-" is stdout) for a trace writer of
// format. finish flushes and closes everything, returning the first error
// (the one passed in first).
func createTraceWriter(path, format string, stdout io.Writer) (trace.Writer, func(error) error, error) {
	var out io.Writer = stdout
	var file *os.File
	if path != "-" {
		f, err := os.Create(path)
		if err != nil {
			return nil, nil, err
		}
		out, file = f, f
	}
	w, err := trace.NewWriter(out, format)
	if err != nil {
		if file != nil {
			file.Close()
			os.Remove(path)
		}
		return nil, nil, fmt.Errorf("--to: %w", err)
	}
	finish := func(err error) error {
		if cerr := w.Close(); err == nil {
			err = cerr
		}
		if file != nil {
			if cerr := file.Close(); err == nil {
				err = cerr
			}
		}
		return err
	}
	return w, finish, nil
}

// parseInterspersed parses flags that may come before, between or after
// positional arguments, and returns the positional ones.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		if fs.NArg() == 0 {
			return pos, nil
		}
		pos = append(pos, fs.Arg(0))
		args = fs.Args()[1:]
	}
}
