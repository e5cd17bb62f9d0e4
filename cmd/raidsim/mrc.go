package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/raidsim/raidsim/cache"
	"github.com/raidsim/raidsim/internal/outfile"
	"github.com/raidsim/raidsim/mrc"
	"github.com/raidsim/raidsim/plot"
	"github.com/raidsim/raidsim/trace"
)

// mrcHelp introduces `raidsim mrc --help`.
const mrcHelp = `Usage: raidsim mrc --trace FILE [--policy lru,arc,...] [--sizes SIZE,...] [--sample RATE] [--json] [--plot FILE] [flags]

Prints the miss ratio of a cache against its size for the trace's 4 KiB
block accesses (a request touching several blocks is several accesses;
reads and writes both count). LRU's curve comes exactly from stack
distances in one pass (Mattson's algorithm), or with --sample RATE from
SHARDS' spatial sample of that fraction of the blocks, for traces too
large to hold every block's state; the other policies (fifo, clock, 2q,
arc, s3fifo, sieve: the volume cache's own) are simulated at each size.
Sizes are in bytes ("64MiB") or blocks ("16384b"); by default 12 sizes
from a thousandth of the trace's distinct blocks (with --sample, from 32
sampled blocks) to all of them.

  raidsim mrc --trace testdata/traces/sample.csv --policy lru,arc,s3fifo,sieve --plot mrc.svg
`

// mrcOptions are the flags of `raidsim mrc`.
type mrcOptions struct {
	trace, format, policies, sizes, plot string
	sample                               float64
	json, force                          bool
}

func runMRC(args []string, stdout, _ io.Writer) error {
	o := mrcOptions{format: "auto", policies: "lru"}
	fs := newFlags("mrc")
	fs.StringVar(&o.trace, "trace", "", "the trace file (any format raidsim reads, .gz and .bz2 too)")
	fs.StringVar(&o.format, "format", o.format, "the trace's format: auto or one of "+strings.Join(trace.Formats(), ", "))
	fs.StringVar(&o.policies, "policy", o.policies, "replacement policies, comma-separated: "+strings.Join(policyNames(), ", ")+", or all")
	fs.StringVar(&o.sizes, "sizes", "", "cache sizes, comma-separated, in bytes (64MiB) or 4 KiB blocks (16384b)")
	fs.Float64Var(&o.sample, "sample", 0, "SHARDS sampling rate for LRU's curve, in (0, 1), e.g. 0.01 (default: exact)")
	fs.BoolVar(&o.json, "json", false, "print JSON: per policy and size, the size in blocks and bytes and the miss ratio")
	fs.StringVar(&o.plot, "plot", "", "also draw the curves to FILE (.svg or .png)")
	fs.BoolVar(&o.force, "force", false, forceUsage)
	rest, err := parseFlags(fs, args, stdout, func(w io.Writer) { writeHelp(w, mrcHelp, fs) }, nil)
	if err != nil {
		return err
	}
	if err := noArgs(rest); err != nil {
		return err
	}
	opts, err := o.options()
	if err != nil {
		return err
	}
	out := outfile.Policy{Force: o.force, Inputs: []outfile.Input{{Name: "--trace", Path: o.trace}}}
	plotFile := outfile.Target{Name: "--plot", Path: o.plot, Exts: plotExts}
	if o.plot != "" {
		if err := out.Check(plotFile); err != nil {
			return err
		}
	}
	open := func() (mrc.Reader, error) {
		r, _, c, err := trace.Open(o.trace, o.format)
		if err != nil {
			return nil, err
		}
		return closingReader{r, c}, nil
	}
	res, err := mrc.Build(open, opts)
	if err != nil {
		return err
	}
	if o.plot != "" {
		if err := writeFigure(out, plotFile, mrcFigure(res)); err != nil {
			return err
		}
	}
	if o.json {
		b, err := json.MarshalIndent(res, "", "  ")
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(stdout, "%s\n", b)
		return err
	}
	return writeMRC(stdout, res)
}

// closingReader closes the trace file at its end.
type closingReader struct {
	r trace.Reader
	c io.Closer
}

// Skipped forwards the trace reader's skipped lines.
func (c closingReader) Skipped() int64 { return trace.Skipped(c.r) }

func (c closingReader) Next() (trace.Record, error) {
	rec, err := c.r.Next()
	if err != nil {
		c.c.Close()
	}
	return rec, err
}

func policyNames() []string {
	var out []string
	for _, p := range cache.Replacements() {
		out = append(out, p.String())
	}
	return out
}

// options checks the flags and turns them into mrc.Options.
func (o mrcOptions) options() (mrc.Options, error) {
	var opts mrc.Options
	if o.trace == "" {
		return opts, usagef("--trace: a trace file is needed")
	}
	if o.sample != 0 && !(o.sample > 0 && o.sample < 1) {
		return opts, usagef("--sample: want a rate in (0, 1), got %v", o.sample)
	}
	opts.SampleRate = o.sample
	if o.policies == "all" {
		opts.Policies = cache.Replacements()
	} else {
		for _, s := range strings.Split(o.policies, ",") {
			p, err := cache.ParseReplacement(strings.TrimSpace(s))
			if err != nil {
				return opts, usagef("--policy: %v", err)
			}
			opts.Policies = append(opts.Policies, p)
		}
	}
	if o.sizes != "" {
		for _, s := range strings.Split(o.sizes, ",") {
			n, err := parseBlocks(strings.TrimSpace(s))
			if err != nil {
				return opts, usagef("--sizes: %v", err)
			}
			opts.Sizes = append(opts.Sizes, n)
		}
	}
	return opts, nil
}

// parseBlocks parses a cache size: a count of 4 KiB blocks ("16384b")
// or bytes, a whole number of blocks ("64MiB").
func parseBlocks(s string) (int64, error) {
	if n, ok := strings.CutSuffix(s, "b"); ok && !strings.HasSuffix(n, "i") && !strings.ContainsAny(n, "kKmMgGtT") {
		var v int64
		if _, err := fmt.Sscan(n, &v); err != nil || v <= 0 || fmt.Sprint(v) != n {
			return 0, fmt.Errorf("%q is not a positive number of blocks", s)
		}
		return v, nil
	}
	v, err := trace.ParseSize(s)
	if err != nil {
		return 0, err
	}
	if v <= 0 || v%mrc.BlockBytes != 0 {
		return 0, fmt.Errorf("%q is not a positive multiple of 4 KiB", s)
	}
	return v / mrc.BlockBytes, nil
}

// writeMRC prints the curves as a table: one row per size, one column
// per policy.
func writeMRC(w io.Writer, res *mrc.Result) error {
	method := "exact"
	if res.SampleRate < 1 {
		method = fmt.Sprintf("SHARDS at %g", res.SampleRate)
	}
	fmt.Fprintf(w, "%d records, %d accesses of 4 KiB blocks, %d distinct blocks (%s MiB); LRU %s, other policies simulated\n",
		res.Records, res.Accesses, res.DistinctBlocks, mib(res.DistinctBlocks*mrc.BlockBytes), method)
	fmt.Fprintf(w, "%12s %12s", "blocks", "MiB")
	for _, c := range res.Curves {
		fmt.Fprintf(w, " %8s", c.Policy)
	}
	fmt.Fprintln(w)
	for i := range res.Curves[0].Points {
		p := res.Curves[0].Points[i]
		fmt.Fprintf(w, "%12d %12s", p.Blocks, mib(p.Bytes))
		for _, c := range res.Curves {
			fmt.Fprintf(w, " %8.4f", c.Points[i].MissRatio)
		}
		if _, err := fmt.Fprintln(w); err != nil {
			return err
		}
	}
	return nil
}

func mib(b int64) string { return fmt.Sprintf("%.2f", float64(b)/(1<<20)) }

// mrcFigure draws miss ratio against cache size (MiB, log scale), one
// curve per policy.
func mrcFigure(res *mrc.Result) plot.LinesFigure {
	var series []plot.LineSeries
	for _, c := range res.Curves {
		s := plot.LineSeries{Name: c.Policy + " (" + c.Method + ")"}
		for _, p := range c.Points {
			s.X = append(s.X, float64(p.Bytes)/(1<<20))
			s.Y = append(s.Y, p.MissRatio)
		}
		series = append(series, s)
	}
	return plot.LinesFigure{Title: "Miss ratio against cache size (4 KiB block accesses)", XLabel: "cache size (MiB)",
		YLabel: "miss ratio", Series: series, LogX: true}
}
