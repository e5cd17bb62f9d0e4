package calibrate

import (
	"math"
	"strings"
	"testing"
	"time"
)

const ms = time.Millisecond

// TestCompare checks the figures against hand computation on ten
// requests of three classes.
func TestCompare(t *testing.T) {
	var reqs []Request
	// Six random media reads, measured 1..6 ms, simulated 1 ms slower.
	for i := 1; i <= 6; i++ {
		reqs = append(reqs, Request{Measured: time.Duration(i) * ms, Simulated: time.Duration(i+1) * ms})
	}
	// Three sequential buffer hits, 1 ms measured, 0.5 ms simulated.
	for range 3 {
		reqs = append(reqs, Request{Measured: ms, Simulated: ms / 2, Hit: true, Sequential: true})
	}
	// One absorbed write, exact.
	reqs = append(reqs, Request{Measured: 2 * ms, Simulated: 2 * ms, Write: true, Hit: true})
	c := Compare(reqs)
	if c.Requests != 10 {
		t.Fatalf("requests %d, want 10", c.Requests)
	}
	// Measured sorted: 1 1 1 1 2 2 3 4 5 6; simulated: .5 .5 .5 2 2 3 4 5 6 7.
	near := func(what string, got, want float64) {
		t.Helper()
		if math.Abs(got-want) > 1e-9 {
			t.Errorf("%s = %g, want %g", what, got, want)
		}
	}
	near("measured mean", c.Measured.Mean, 26.0/10)
	near("simulated mean", c.Simulated.Mean, 30.5/10)
	near("measured p50", c.Measured.P50, 2) // 5th smallest
	near("simulated p50", c.Simulated.P50, 2)
	near("measured p90", c.Measured.P90, 5) // 9th
	near("simulated p90", c.Simulated.P90, 6)
	near("measured p99", c.Measured.P99, 6) // 10th
	near("simulated p99", c.Simulated.P99, 7)
	near("demerit pct", c.DemeritPct, 100*c.DemeritMs/2.6)
	if len(c.Classes) != 3 {
		t.Fatalf("%d classes, want 3: %+v", len(c.Classes), c.Classes)
	}
	// Weights: media reads 0.6 x 1 ms, hits 0.3 x 0.5 ms, writes 0.
	want := []struct {
		name     string
		n        int
		gap, wgt float64
		sentence string
	}{
		{"random reads that went to the media", 6, 1, 0.6, "simulated random reads that went to the media are 1.000 ms slow (60.0% of the requests)"},
		{"sequential reads that hit the buffer", 3, -0.5, 0.15, "simulated sequential reads that hit the buffer are 0.500 ms fast (30.0% of the requests)"},
		{"random writes that the write cache absorbed", 1, 0, 0, "simulated random writes that the write cache absorbed are 0.000 ms slow (10.0% of the requests)"},
	}
	for i, w := range want {
		g := c.Classes[i]
		if g.Name != w.name || g.Requests != w.n || math.Abs(g.GapMs-w.gap) > 1e-9 || math.Abs(g.Weight-w.wgt) > 1e-9 || g.Describe() != w.sentence {
			t.Errorf("class %d: %+v %q, want %+v", i, g, g.Describe(), w)
		}
	}
	if g, ok := c.LargestGap(); !ok || g.Name != want[0].name {
		t.Errorf("largest gap %+v, %v", g, ok)
	}
	if _, ok := (&Comparison{}).LargestGap(); ok {
		t.Error("an empty comparison has a largest gap")
	}
	if e := Compare(nil); e.Requests != 0 || len(e.Classes) != 0 {
		t.Errorf("Compare(nil) = %+v", e)
	}
}

// TestClassNames names all eight classes differently.
func TestClassNames(t *testing.T) {
	seen := map[string]bool{}
	for i := range 8 {
		n := className(i)
		if seen[n] || !strings.Contains(n, map[bool]string{false: "reads", true: "writes"}[i&1 != 0]) {
			t.Errorf("class %d: %q", i, n)
		}
		seen[n] = true
	}
}
