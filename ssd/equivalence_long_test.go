//go:build long

package ssd

import "testing"

// TestLazyMatchesExplicitLong is TestLazyMatchesExplicit at the length
// where run-to-run variation falls under 1% (four drives of each kind,
// 150,000 requests each, 300,000 for the mix, pooled): every figure
// within 2% (write amplification, GC copies and erases, IOPS, the
// latencies' mean, 50th and 90th percentiles), the 99th percentile within
// 3%, the mix's latency distributions within a Kolmogorov-Smirnov
// distance of 0.02. The closed loops' 99th percentile is the tail of GC
// bursts: two pools of four explicit drives (seeds 11-14 and 15-18)
// differ there by 1.9% (greedy, 7% spare, Zipf writes) and 2.3%
// (cost-benefit), so 2% would test the seeds. Measured, explicit against
// drawn: WA, IOPS and mean latency within 0.4%, p50 and p90 within 0.7%,
// p99 within 2.2%, the mix's distance 0.001 at most.
func TestLazyMatchesExplicitLong(t *testing.T) {
	checkEquivalence(t, equivalenceCases(150000), 4, tolerances{wa: 0.02, gc: 0.02, iops: 0.02, mean: 0.02, quantiles: 0.02, p99: 0.03, openKS: 0.02})
}
