package metrics

import (
	"fmt"
	"math"
	"testing"
	"time"
)

func msd(v ...float64) []time.Duration {
	out := make([]time.Duration, len(v))
	for i, x := range v {
		out[i] = time.Duration(x * 1e6)
	}
	return out
}

// TestDemeritHand checks Demerit against figures computed by hand.
func TestDemeritHand(t *testing.T) {
	for _, tc := range []struct {
		name          string
		meas, sim     []time.Duration
		wantMs, wantP float64
	}{
		// Same sample: no distance.
		{"same", msd(1, 2, 3), msd(3, 2, 1), 0, 0},
		// Uniformly 1 ms slow: distance 1 ms everywhere; mean 2.5 ms.
		{"shift", msd(1, 2, 3, 4), msd(2, 3, 4, 5), 1, 40},
		// {1,1} vs {1,3}: 0 for q <= 0.5 (5000 steps), 2 ms above (5000
		// steps): sqrt(5000*4/10000) = sqrt(2); mean 1 ms.
		{"half", msd(1, 1), msd(1, 3), math.Sqrt2, 100 * math.Sqrt2},
		// Different sizes: {2} vs {1,3}: 1 ms everywhere; mean 2 ms.
		{"sizes", msd(2), msd(1, 3), 1, 50},
		// {0,4} vs {0,0,0,4}: q in (0,0.5]: 0; (0.5,0.75]: 4 ms (2500
		// steps); (0.75,1]: 0. sqrt(2500*16/10000) = 2; mean 2 ms.
		{"quarter", msd(0, 4), msd(0, 0, 0, 4), 2, 100},
	} {
		ms, pct := Demerit(tc.meas, tc.sim)
		if math.Abs(ms-tc.wantMs) > 1e-9 || math.Abs(pct-tc.wantP) > 1e-6 {
			t.Errorf("%s: Demerit = %g ms, %g%%; want %g ms, %g%%", tc.name, ms, pct, tc.wantMs, tc.wantP)
		}
	}
}

func TestDemeritEdges(t *testing.T) {
	if ms, pct := Demerit(nil, msd(1)); !math.IsNaN(ms) || !math.IsNaN(pct) {
		t.Errorf("empty measured: %g %g", ms, pct)
	}
	if ms, pct := Demerit(msd(0, 0), msd(1, 1)); ms != 1 || !math.IsNaN(pct) {
		t.Errorf("zero mean: %g %g", ms, pct)
	}
	in := msd(3, 1, 2)
	Demerit(in, in)
	if in[0] != 3*time.Millisecond {
		t.Error("Demerit sorted its argument")
	}
	s := msd(1, 2, 3, 4)
	for _, tc := range []struct {
		q    float64
		want float64
	}{{0, 1}, {0.25, 1}, {0.2501, 2}, {0.5, 2}, {1, 4}} {
		if got := SortedQuantile(s, tc.q); got != time.Duration(tc.want*1e6) {
			t.Errorf("SortedQuantile(%g) = %v, want %gms", tc.q, got, tc.want)
		}
	}
	if SortedQuantile(nil, 0.5) != 0 {
		t.Error("empty quantile")
	}
}

// A simulator 1 ms slow on every request scores a demerit of 1 ms: here
// 25% of the measured mean.
func ExampleDemerit() {
	measured := []time.Duration{2 * time.Millisecond, 4 * time.Millisecond, 6 * time.Millisecond}
	simulated := []time.Duration{7 * time.Millisecond, 3 * time.Millisecond, 5 * time.Millisecond}
	ms, pct := Demerit(measured, simulated)
	fmt.Printf("demerit %.3f ms (%.1f%% of the measured mean)\n", ms, pct)
	// Output: demerit 1.000 ms (25.0% of the measured mean)
}
