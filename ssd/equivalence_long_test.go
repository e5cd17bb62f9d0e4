//go:build long

package ssd

import "testing"

// TestLazyMatchesExplicitLong is TestLazyMatchesExplicit at the length
// where run-to-run variation falls under 1% (four drives of each kind,
// 150,000 requests each, 300,000 for the mix, pooled): every figure
// within 2%, the latency distributions within a Kolmogorov-Smirnov
// distance of 0.02 under the open-loop mix and 0.03 under the closed
// loops (whose samples come in bursts: two explicit drives differ by
// about 0.015 at this length).
func TestLazyMatchesExplicitLong(t *testing.T) {
	checkEquivalence(t, 150000, 4, tolerances{wa: 0.02, gc: 0.02, iops: 0.02, mean: 0.02, openKS: 0.02, closedKS: 0.03})
}
