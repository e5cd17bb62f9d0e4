package metrics

import (
	"encoding/json"
	"io"
	"strconv"
	"time"
)

// LatencySummary is a latency distribution reduced to a few numbers, all
// in milliseconds. Mean and Max are exact; the percentiles come from a
// Histogram and are within QuantileError of the exact sample values.
type LatencySummary struct {
	Mean float64 `json:"mean"`
	P50  float64 `json:"p50"`
	P95  float64 `json:"p95"`
	P99  float64 `json:"p99"`
	Max  float64 `json:"max"`
}

// OpSummary reports one kind of request over a run.
type OpSummary struct {
	// IOs is the number of requests completed.
	IOs int64 `json:"ios"`
	// Bytes is the total size of those requests in bytes.
	Bytes int64 `json:"bytes"`
	// IOPS is IOs per second of simulated time.
	IOPS float64 `json:"iops"`
	// MBPerS is throughput in megabytes (10^6 bytes) per second of
	// simulated time.
	MBPerS float64 `json:"mb_per_s"`
	// LatencyMS summarizes the latencies, Issued to Completed, in ms.
	LatencyMS LatencySummary `json:"latency_ms"`
}

// Summary is the report of a run's requests: reads, writes, both
// together, the number of flushes and the simulated time they took. With
// no requests every figure is zero (never NaN), and with a zero elapsed
// time the rates are zero.
//
// The JSON names are stable. Summary is meant to be embedded, without a
// field name or tag, in a larger report struct: encoding/json then puts
// read, write, all, flushes and sim_s at the top level next to the
// outer struct's own fields (raid, cache, disks, ...). Encoding a Summary
// is deterministic: the same recorder and elapsed time give byte-identical
// JSON.
type Summary struct {
	// Read covers read requests.
	Read OpSummary `json:"read"`
	// Write covers write requests.
	Write OpSummary `json:"write"`
	// All covers reads and writes together; flushes are not included.
	All OpSummary `json:"all"`
	// Flushes is the number of flush requests completed.
	Flushes int64 `json:"flushes"`
	// Trim covers trim (discard) requests, when there were any; they are
	// not in All.
	Trim *OpSummary `json:"trim,omitempty"`
	// SimSeconds is the simulated (virtual) time the rates are computed
	// over, in seconds.
	SimSeconds float64 `json:"sim_s"`
}

// Summarize reports what rec counted over elapsed simulated time (for
// example engine.Now().Sub(start)). Rates are computed over elapsed; a
// zero or negative elapsed gives zero rates.
func (rec *Recorder) Summarize(elapsed time.Duration) Summary {
	return Summary{
		Read:       summarizeOp(&rec.read, elapsed),
		Write:      summarizeOp(&rec.write, elapsed),
		All:        summarizeOp(&rec.all, elapsed),
		Flushes:    rec.flush.IOs(),
		Trim:       trimSummary(&rec.trim, elapsed),
		SimSeconds: elapsed.Seconds(),
	}
}

// trimSummary summarizes trims, or returns nil when there were none.
func trimSummary(s *OpStats, elapsed time.Duration) *OpSummary {
	if s.IOs() == 0 {
		return nil
	}
	o := summarizeOp(s, elapsed)
	return &o
}

// Summarize reports s over elapsed simulated time, as Recorder.Summarize
// does for each op.
func (s *OpStats) Summarize(elapsed time.Duration) OpSummary {
	return summarizeOp(s, elapsed)
}

func summarizeOp(s *OpStats, elapsed time.Duration) OpSummary {
	h := &s.latency
	o := OpSummary{
		IOs:   s.IOs(),
		Bytes: s.bytes,
		LatencyMS: LatencySummary{
			Mean: meanMS(h),
			P50:  ms(h.Quantile(0.50)),
			P95:  ms(h.Quantile(0.95)),
			P99:  ms(h.Quantile(0.99)),
			Max:  ms(h.Max()),
		},
	}
	if sec := elapsed.Seconds(); sec > 0 {
		o.IOPS = float64(o.IOs) / sec
		o.MBPerS = float64(o.Bytes) / (sec * 1e6)
	}
	return o
}

// meanMS returns the exact mean of h in float64 milliseconds, or 0. One
// division (count*1e6 is exact) rounds once, so figures such as 2.5 ms
// print without trailing noise.
func meanMS(h *Histogram) float64 {
	if h.count == 0 {
		return 0
	}
	return float64(h.sum) / (float64(h.count) * 1e6)
}

// ms converts d to float64 milliseconds.
func ms(d time.Duration) float64 { return float64(d) / 1e6 }

// WriteJSON writes s as indented JSON (two spaces) followed by a newline.
func (s Summary) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(s)
}

// Table returns s as a table with one row per op (read, write, all) and
// columns IOs, IOPS, MB/s and the latency figures in ms; flushes and the
// simulated time are notes. Callers can add rows or render it as CSV.
func (s Summary) Table() Table {
	t := Table{
		Header: []string{"op", "IOs", "IOPS", "MB/s", "mean ms", "p50 ms", "p95 ms", "p99 ms", "max ms"},
		Notes: []string{
			"flushes: " + strconv.FormatInt(s.Flushes, 10),
			"simulated time: " + FormatFixed(s.SimSeconds, 3) + " s",
		},
	}
	for _, r := range []struct {
		name string
		o    *OpSummary
	}{{"read", &s.Read}, {"write", &s.Write}, {"all", &s.All}, {"trim", s.Trim}} {
		if r.o == nil {
			continue
		}
		l := r.o.LatencyMS
		t.Rows = append(t.Rows, []string{
			r.name,
			strconv.FormatInt(r.o.IOs, 10),
			FormatFixed(r.o.IOPS, 1),
			FormatFixed(r.o.MBPerS, 2),
			FormatSig(l.Mean, 4),
			FormatSig(l.P50, 4),
			FormatSig(l.P95, 4),
			FormatSig(l.P99, 4),
			FormatSig(l.Max, 4),
		})
	}
	return t
}

// WriteText writes s as an aligned text table (see Table).
func (s Summary) WriteText(w io.Writer) error {
	t := s.Table()
	return t.WriteText(w)
}
