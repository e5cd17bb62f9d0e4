package main

import (
	"strings"
	"testing"
	"time"
)

// checkDirections asserts what the example is for: under the same host
// load, RAID 6 rebuilds slower than RAID 5, and on both levels the load's
// p99 is higher while the array rebuilds than while it is healthy; the
// load is carried throughout, the steady state's write amplification
// holds, and the spare is written in order.
func checkDirections(t *testing.T, rs []Run) {
	t.Helper()
	byKey := map[string]Run{}
	for _, r := range rs {
		key := r.Level
		if r.Rebuilding {
			key += " rebuilding"
		}
		byKey[key] = r
		t.Logf("RAID %s rebuilding %v: %.0f IOPS, mean %.3f ms, p99 %.3f ms, WA %.2f, rebuild %.0f MB/s (%d bytes), whole %.1f h",
			r.Level, r.Rebuilding, r.IOPS, r.MeanMS, r.P99MS, r.WA, r.RebuildRate()/1e6, r.RebuiltBytes, r.Projected.Hours())
		if r.IOPS < 0.95*Rate {
			t.Errorf("RAID %s (rebuilding %v) carried %.0f of %d writes a second", r.Level, r.Rebuilding, r.IOPS, Rate)
		}
		if r.WA < 5 || r.WA > 9 {
			t.Errorf("RAID %s: members' WA %.2f, not the steady state's (about 7)", r.Level, r.WA)
		}
	}
	r5, r5b, r6, r6b := byKey["5"], byKey["5 rebuilding"], byKey["6"], byKey["6 rebuilding"]
	if !(r6b.RebuildRate() < r5b.RebuildRate()) {
		t.Errorf("RAID 6 rebuilds at %.1f MB/s, RAID 5 at %.1f: RAID 6 should be slower", r6b.RebuildRate()/1e6, r5b.RebuildRate()/1e6)
	}
	if !(r6b.Projected > r5b.Projected) {
		t.Errorf("whole rebuild: RAID 6 %v, RAID 5 %v", r6b.Projected, r5b.Projected)
	}
	for _, c := range []struct{ healthy, rebuilding Run }{{r5, r5b}, {r6, r6b}} {
		if !(c.rebuilding.P99MS > c.healthy.P99MS) {
			t.Errorf("RAID %s: p99 %.3f ms rebuilding, %.3f ms healthy", c.healthy.Level, c.rebuilding.P99MS, c.healthy.P99MS)
		}
		if c.rebuilding.SpareWA < 0.99 || c.rebuilding.SpareWA > 1.05 {
			t.Errorf("RAID %s: the spare's WA %.3f, want about 1 (written in order)", c.healthy.Level, c.rebuilding.SpareWA)
		}
		if c.rebuilding.RebuiltBytes <= 0 || c.rebuilding.RebuildDone {
			t.Errorf("RAID %s: rebuilt %d bytes, done %v", c.healthy.Level, c.rebuilding.RebuiltBytes, c.rebuilding.RebuildDone)
		}
	}
	var b strings.Builder
	if err := write(&b, rs, Rate, time.Second); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"rebuilding member 0", "h projected", "members' WA"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("the table lacks %q", want)
		}
	}
}

// TestNVMeArray runs the example at its load for a quarter of a second
// of virtual time a run (the example runs 2 s; TestNVMeArrayLong, build
// tag long, runs it so).
func TestNVMeArray(t *testing.T) {
	rs, err := Runs(Rate, 250*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	checkDirections(t, rs)
}
