package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/raidsim/raidsim/trace"
)

// runGen (raidsim gen) is in gen.go: it takes run's flag table.

// convertHelp introduces `raidsim convert --help`.
var convertHelp = `Usage: raidsim convert IN OUT [--from auto] [--to ` + strings.Join(trace.WriteFormats, "|") + `] [--force]

Rewrites trace IN (any supported format, .gz and .bz2 too) as OUT (- for
standard output). OUT is never IN; an existing OUT is replaced only with
--force. Flags may come before, between or after IN and OUT.
`

// runConvert rewrites a trace file in another format.
func runConvert(args []string, stdout, _ io.Writer) error {
	fs := newFlags("convert")
	from := fs.String("from", "auto", "input format: "+strings.Join(trace.Formats(), ", "))
	to := fs.String("to", "csv", "output format: "+strings.Join(trace.WriteFormats, ", "))
	force := fs.Bool("force", false, "replace OUT if it exists (never when it is IN)")
	pos, err := parseFlags(fs, args, stdout, func(w io.Writer) { writeHelp(w, convertHelp, fs) }, nil)
	if err != nil {
		return err
	}
	if len(pos) != 2 {
		return usagef("want an input and an output file (- for standard output), got %d arguments", len(pos))
	}
	res, err := convertTrace(pos[0], pos[1], *from, *to, *force, stdout)
	if err != nil {
		return err
	}
	if pos[1] != "-" {
		fmt.Fprintf(stdout, "converted %d records from %s (%s) to %s (%s); %d skipped\n", res.records, pos[0], res.from, pos[1], *to, res.skipped)
	}
	return nil
}

// converted is what convertTrace did.
type converted struct {
	records int64        // records written
	skipped int64        // records the reader skipped
	from    trace.Format // the input's format, as given or sniffed
}

// convertTrace rewrites the trace file in (format from, "auto" to sniff
// it) as out ("-" for stdout) in format to, as writeTraceFile writes:
// out is never in (not by another path, a symlink or a hard link
// either), and an existing out is replaced only with force.
func convertTrace(in, out, from, to string, force bool, stdout io.Writer) (converted, error) {
	var res converted
	r, f, c, err := trace.Open(in, from)
	if err != nil {
		return res, err
	}
	defer c.Close()
	res.from = f
	res.records, err = writeTraceFile(out, to, force, stdout, func(w trace.Writer) (int64, error) {
		return trace.Copy(w, r)
	}, in)
	res.skipped = trace.Skipped(r)
	return res, err
}

// writeTraceFile writes a trace in format to path ("-" is stdout), the
// records coming from fill. A file is written under a temporary name in
// path's directory and renamed over path only once fill and the writer
// have succeeded, so a failure leaves neither a partial file nor a
// damaged existing one. An existing path is replaced only with force, and
// never when it is the same file as one of inputs (see checkOutput).
func writeTraceFile(path, format string, force bool, stdout io.Writer, fill func(trace.Writer) (int64, error), inputs ...string) (int64, error) {
	if path == "-" {
		w, err := trace.NewWriter(stdout, format)
		if err != nil {
			return 0, fmt.Errorf("--to: %w", err)
		}
		n, err := fill(w)
		if cerr := w.Close(); err == nil {
			err = cerr
		}
		return n, err
	}
	if err := checkOutput(path, force, inputs...); err != nil {
		return 0, err
	}
	f, err := createOutput(path)
	if err != nil {
		return 0, err
	}
	w, err := trace.NewWriter(f, format)
	if err != nil {
		f.abort()
		return 0, fmt.Errorf("--to: %w", err)
	}
	n, err := fill(w)
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		f.abort()
		return n, err
	}
	return n, f.commit()
}

// checkOutput refuses an output path that is the same file as one of
// inputs (os.SameFile, so another path, a symlink or a hard link to it
// counts), and one that exists unless force. "-" (stdout) always passes.
func checkOutput(path string, force bool, inputs ...string) error {
	if path == "-" {
		return nil
	}
	out, err := os.Stat(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	for _, in := range inputs {
		if st, err := os.Stat(in); err == nil && os.SameFile(st, out) {
			return fmt.Errorf("output %s is the input %s (the same file): choose another output; the input is never overwritten", path, in)
		}
	}
	switch {
	case out.IsDir():
		return fmt.Errorf("output %s is a directory", path)
	case !force:
		return fmt.Errorf("output %s exists: use --force to replace it", path)
	}
	return nil
}

// outputFile is a file written under a temporary name beside its final
// path and renamed over it by commit, so nobody sees it half written.
type outputFile struct {
	*os.File
	path string      // final path, symlinks resolved
	mode os.FileMode // permissions to give it
}

// createOutput starts writing path. When path exists (a symlink is
// followed, so its target is replaced, not the link), the new file keeps
// its permissions; otherwise it gets 0644.
func createOutput(path string) (*outputFile, error) {
	o := &outputFile{path: path, mode: 0o644}
	if st, err := os.Stat(path); err == nil {
		o.mode = st.Mode().Perm()
		if o.path, err = filepath.EvalSymlinks(path); err != nil {
			return nil, err
		}
	}
	f, err := os.CreateTemp(filepath.Dir(o.path), "."+filepath.Base(o.path)+".tmp-*")
	if err != nil {
		return nil, err
	}
	o.File = f
	return o, nil
}

// commit flushes the file to stable storage and renames it over its path.
func (o *outputFile) commit() error {
	err := o.Chmod(o.mode)
	if serr := o.Sync(); err == nil {
		err = serr
	}
	if cerr := o.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(o.Name(), o.path)
	}
	if err != nil {
		os.Remove(o.Name())
	}
	return err
}

// abort closes and removes the temporary file, leaving path as it was.
func (o *outputFile) abort() {
	o.Close()
	os.Remove(o.Name())
}
