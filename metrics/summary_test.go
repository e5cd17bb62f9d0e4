package metrics

import (
	"bytes"
	"encoding/json"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/raidsim/raidsim/sim"
	"github.com/raidsim/raidsim/simtest"
)

// goldenRecorder is a fixed mixed workload: cache-hit and seek-bound
// reads, slower writes and a few flushes.
func goldenRecorder(t *testing.T) *Recorder {
	r := newRand(t, 20)
	rec := new(Recorder)
	for i := range 10000 {
		switch {
		case i%1000 == 999:
			rec.Add(sim.Flush, 0, 20*time.Millisecond+time.Duration(r.Int64N(int64(30*time.Millisecond))))
		case r.IntN(10) < 7:
			rec.Add(sim.Read, 4096, samplers[3].draw(r))
		default:
			rec.Add(sim.Write, 65536, samplers[2].draw(r)*4)
		}
	}
	return rec
}

func TestSummaryJSONGolden(t *testing.T) {
	var buf bytes.Buffer
	if err := goldenRecorder(t).Summarize(10 * time.Second).WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	simtest.Golden(t, "summary.json", buf.Bytes())

	// Deterministic: a second identical run encodes byte for byte the same.
	var again bytes.Buffer
	if err := goldenRecorder(t).Summarize(10 * time.Second).WriteJSON(&again); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(buf.Bytes(), again.Bytes()) {
		t.Errorf("two encodings of the same run differ")
	}
}

func TestSummaryTextGolden(t *testing.T) {
	var buf bytes.Buffer
	if err := goldenRecorder(t).Summarize(10 * time.Second).WriteText(&buf); err != nil {
		t.Fatal(err)
	}
	simtest.Golden(t, "summary.txt", buf.Bytes())
}

// keys returns the sorted keys of a JSON object.
func keys(t *testing.T, v any) []string {
	t.Helper()
	m, ok := v.(map[string]any)
	if !ok {
		t.Fatalf("%v is not a JSON object", v)
	}
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

// TestSummaryJSONKeys pins the JSON names that scripts and the CLI rely on.
func TestSummaryJSONKeys(t *testing.T) {
	b, err := json.Marshal(goldenRecorder(t).Summarize(time.Second))
	if err != nil {
		t.Fatal(err)
	}
	var top map[string]any
	if err := json.Unmarshal(b, &top); err != nil {
		t.Fatal(err)
	}
	if got, want := keys(t, top), []string{"all", "flushes", "read", "sim_s", "write"}; !slices.Equal(got, want) {
		t.Errorf("top-level keys %v, want %v", got, want)
	}
	for _, op := range []string{"read", "write", "all"} {
		o := top[op].(map[string]any)
		if got, want := keys(t, o), []string{"bytes", "iops", "ios", "latency_ms", "mb_per_s"}; !slices.Equal(got, want) {
			t.Errorf("%s keys %v, want %v", op, got, want)
		}
		if got, want := keys(t, o["latency_ms"]), []string{"max", "mean", "p50", "p95", "p99"}; !slices.Equal(got, want) {
			t.Errorf("%s.latency_ms keys %v, want %v", op, got, want)
		}
	}
}

// TestSummaryEmbeds checks that a larger report embedding Summary keeps
// its names at the top level next to its own.
func TestSummaryEmbeds(t *testing.T) {
	type report struct {
		Summary
		Raid struct {
			RMW int `json:"rmw"`
		} `json:"raid"`
	}
	b, err := json.Marshal(report{Summary: goldenRecorder(t).Summarize(time.Second)})
	if err != nil {
		t.Fatal(err)
	}
	var top map[string]any
	if err := json.Unmarshal(b, &top); err != nil {
		t.Fatal(err)
	}
	if got, want := keys(t, top), []string{"all", "flushes", "raid", "read", "sim_s", "write"}; !slices.Equal(got, want) {
		t.Errorf("embedded report keys %v, want %v", got, want)
	}
}

// TestSummaryHandComputed checks every figure against arithmetic done by
// hand.
func TestSummaryHandComputed(t *testing.T) {
	var rec Recorder
	for _, d := range []time.Duration{time.Millisecond, 2 * time.Millisecond, 3 * time.Millisecond, 4 * time.Millisecond} {
		rec.Add(sim.Read, 250000, d)
	}
	rec.Add(sim.Write, 1000000, 10*time.Millisecond)
	rec.Add(sim.Flush, 0, time.Second)
	rec.Add(sim.Flush, 0, time.Second)
	s := rec.Summarize(2 * time.Second)
	want := Summary{
		// p50 of 1,2,3,4 ms is the 2nd sample (nearest rank); p95 and p99
		// are the 4th, which is Max and so exact.
		Read: OpSummary{IOs: 4, Bytes: 1000000, IOPS: 2, MBPerS: 0.5,
			LatencyMS: LatencySummary{Mean: 2.5, P50: ms(bucketValue(bucketOf(2 * time.Millisecond))), P95: 4, P99: 4, Max: 4}},
		Write: OpSummary{IOs: 1, Bytes: 1000000, IOPS: 0.5, MBPerS: 0.5,
			LatencyMS: LatencySummary{Mean: 10, P50: 10, P95: 10, P99: 10, Max: 10}},
		All: OpSummary{IOs: 5, Bytes: 2000000, IOPS: 2.5, MBPerS: 1,
			LatencyMS: LatencySummary{Mean: 4, P50: ms(bucketValue(bucketOf(3 * time.Millisecond))), P95: 10, P99: 10, Max: 10}},
		Flushes:    2,
		SimSeconds: 2,
	}
	if s != want {
		t.Errorf("Summarize:\ngot  %+v\nwant %+v", s, want)
	}
	if math.Abs(s.Read.LatencyMS.P50-2)/2 > QuantileError {
		t.Errorf("read p50 = %v ms, want 2 ms within %v", s.Read.LatencyMS.P50, QuantileError)
	}
}

// TestSummaryZero checks that no samples and no elapsed time give zeros,
// never NaN or Inf, and encode to JSON.
func TestSummaryZero(t *testing.T) {
	var rec Recorder
	s := rec.Summarize(0)
	if s != (Summary{}) {
		t.Errorf("empty summary is not all zeros: %+v", s)
	}
	s = rec.Summarize(time.Second)
	if s != (Summary{SimSeconds: 1}) {
		t.Errorf("empty summary over 1s: %+v", s)
	}
	rec.Add(sim.Read, 4096, time.Millisecond)
	for _, elapsed := range []time.Duration{0, -time.Second} {
		s = rec.Summarize(elapsed)
		if s.Read.IOPS != 0 || s.Read.MBPerS != 0 || s.All.IOPS != 0 {
			t.Errorf("rates over %v elapsed are not zero: %+v", elapsed, s)
		}
		b, err := json.Marshal(s)
		if err != nil {
			t.Fatalf("elapsed %v: %v", elapsed, err)
		}
		if bytes.Contains(b, []byte("NaN")) || bytes.Contains(b, []byte("Inf")) {
			t.Errorf("JSON holds NaN or Inf: %s", b)
		}
	}
	var buf bytes.Buffer
	if err := (Summary{}).WriteText(&buf); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(buf.String(), "NaN") {
		t.Errorf("text of an empty summary holds NaN:\n%s", buf.String())
	}
}
