package tracestats

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"time"

	"github.com/raidsim/raidsim/metrics"
	"github.com/raidsim/raidsim/trace"
)

// WriteText prints the figures for people: one line or one table per
// kind of figure.
func (s *Stats) WriteText(w io.Writer) error {
	tw := &textWriter{w: w}
	dev := fmt.Sprintf("%d device", s.Devices)
	if s.Devices != 1 {
		dev += "s"
	}
	if s.DevicesCapped {
		dev = "more than " + dev
	}
	tw.printf("%d records (%d lines skipped), %s, span %s s\n", s.Records, s.Skipped, dev, metrics.FormatSig(s.SpanS, 6))
	if s.Late > 0 {
		tw.printf("out of time order: %d records late, at most %v\n", s.Late, duration(s.MaxLateS))
	} else {
		tw.printf("in time order\n")
	}
	tw.table(s.opTable())
	tw.table(s.sizeTable())
	tw.printf("\nsequential: %s of reads and writes start where their device's previous request ended (reads %s, writes %s)\n",
		pct(s.Sequential.All), pct(s.Sequential.Read), pct(s.Sequential.Write))
	ia := s.InterArrival
	tw.printf("inter-arrival: mean %v, p50 %v, p90 %v, p99 %v, max %v; coefficient of variation %s\n",
		duration(ia.MeanS), duration(ia.P50S), duration(ia.P90S), duration(ia.P99S), duration(ia.MaxS), metrics.FormatSig(ia.CV, 3))
	for _, b := range s.Burstiness {
		tw.printf("burstiness over %s windows: peak %d requests, mean %s, peak-to-mean %s\n",
			windowName(b.WindowS), b.Peak, metrics.FormatSig(b.Mean, 4), metrics.FormatSig(b.PeakToMean, 4))
	}
	fp := s.Footprint
	how := "exact"
	if fp.Method != "exact" {
		how = fmt.Sprintf("HyperLogLog estimate, standard error %.2f%%", HLLError*100)
	}
	tw.printf("footprint: %d blocks of 4 KiB, %s MiB (%s)\n", fp.Blocks, metrics.FormatFixed(float64(fp.Bytes)/(1<<20), 2), how)
	tw.table(s.reuseTable())
	if m := s.Measured; m != nil {
		tw.printf("\nresponse times recorded in the trace (ms): mean %s, p50 %s, p95 %s, p99 %s, max %s\n",
			metrics.FormatSig(m.Mean, 4), metrics.FormatSig(m.P50, 4), metrics.FormatSig(m.P95, 4),
			metrics.FormatSig(m.P99, 4), metrics.FormatSig(m.Max, 4))
	}
	return tw.err
}

// textWriter remembers the first write error.
type textWriter struct {
	w   io.Writer
	err error
}

func (t *textWriter) printf(format string, args ...any) {
	if t.err == nil {
		_, t.err = fmt.Fprintf(t.w, format, args...)
	}
}

func (t *textWriter) table(tb *metrics.Table) {
	if t.err == nil {
		t.printf("\n")
		t.err = tb.WriteText(t.w)
	}
}

func (s *Stats) opTable() *metrics.Table {
	t := &metrics.Table{Header: []string{"requests", "count", "share", "MiB"}}
	for _, r := range []struct {
		name string
		c    OpCount
	}{{"read", s.Ops.Read}, {"write", s.Ops.Write}, {"trim", s.Ops.Trim}, {"flush", s.Ops.Flush}} {
		t.AddRow(r.name, strconv.FormatInt(r.c.Count, 10), pct(r.c.Fraction), metrics.FormatFixed(float64(r.c.Bytes)/(1<<20), 2))
	}
	return t
}

func (s *Stats) sizeTable() *metrics.Table {
	t := &metrics.Table{Header: []string{"size up to", "reads", "writes", "trims"}}
	for _, b := range s.Sizes {
		if b.Reads+b.Writes+b.Trims == 0 {
			continue
		}
		label := "larger"
		if b.UpTo > 0 {
			label = trace.FormatSize(b.UpTo)
		}
		t.AddRow(label, strconv.FormatInt(b.Reads, 10), strconv.FormatInt(b.Writes, 10), strconv.FormatInt(b.Trims, 10))
	}
	return t
}

func (s *Stats) reuseTable() *metrics.Table {
	r := s.Reuse
	method := "exact"
	if r.SampleRate < 1 {
		method = fmt.Sprintf("SHARDS sampling %.3g of the blocks", r.SampleRate)
	}
	t := &metrics.Table{Title: fmt.Sprintf("reuse: LRU miss ratio of %d 4 KiB block accesses against cache size (%s)", r.Accesses, method),
		Header: []string{"cache MiB", "blocks", "miss ratio"}}
	for _, c := range r.Curves {
		for _, p := range c.Points {
			t.AddRow(metrics.FormatFixed(float64(p.Bytes)/(1<<20), 2), strconv.FormatInt(p.Blocks, 10), metrics.FormatFixed(p.MissRatio, 4))
		}
	}
	if len(t.Rows) == 0 {
		t.Notes = []string{"no reads or writes"}
	}
	return t
}

// pct writes a fraction as a percentage with one decimal.
func pct(f float64) string { return metrics.FormatFixed(100*f, 1) + "%" }

// duration writes seconds as a duration rounded to 4 significant
// digits.
func duration(s float64) time.Duration {
	d := time.Duration(s*1e9 + 0.5)
	p := time.Duration(1)
	for d/p >= 10000 {
		p *= 10
	}
	return d.Round(p)
}

// windowName names a window length: "1 s", "1 min".
func windowName(s float64) string {
	if s >= 60 && math.Mod(s, 60) == 0 {
		return strconv.FormatFloat(s/60, 'g', -1, 64) + " min"
	}
	return strconv.FormatFloat(s, 'g', -1, 64) + " s"
}
