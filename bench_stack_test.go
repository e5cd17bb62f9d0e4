package raidsim_test

import (
	"fmt"
	"runtime"
	"testing"

	"github.com/raidsim/raidsim"
	"github.com/raidsim/raidsim/spec"
)

// stackExperiment is the stack benchmark: a 64 MiB volume write-back
// cache (watermark destage, stripe-aligned) over a 4-drive RAID 5 of
// deskstar-7k500 drives (64 KiB stripe unit), 70/30 random 4 KiB reads
// and writes over the whole array at depth 32, ios requests, seed 1.
// `raidsim bench` runs the same experiment by default.
func stackExperiment(ios int64) *spec.Experiment {
	x := experiment("deskstar-7k500", spec.Job{RW: "randrw", RWMixRead: percent(70), BS: 4096, IODepth: 32, IOs: ios})
	x.Stack.Disks = 4
	x.Stack.RAID = &spec.RAID{Level: "5"}
	x.Stack.Cache = &spec.Cache{Size: 64 << 20}
	return x
}

// BenchmarkStack measures the whole path of the stack benchmark
// (workload generator, replay, cache, RAID 5, four detailed drives,
// latency histograms, report) at two run lengths, to show that the
// cost per request does not grow with the run. It reports simulated
// requests per wall-clock second, ns per request and allocations per
// request (set-up included: the steady state allocates nothing, see
// TestStackSteadyStateAllocations). Run it with
//
//	go test -run '^$' -bench Stack -cpu 1 -count 5 .
func BenchmarkStack(b *testing.B) {
	for _, n := range []struct {
		name string
		ios  int64
	}{{"100k", 100_000}, {"1M", 1_000_000}} {
		b.Run(fmt.Sprintf("stack=cache-raid5x4/mix=70-30/qd=32/ios=%s", n.name), func(b *testing.B) {
			x := stackExperiment(n.ios)
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			for b.Loop() {
				if _, err := raidsim.Run(x); err != nil {
					b.Fatal(err)
				}
			}
			runtime.ReadMemStats(&after)
			reqs := float64(n.ios) * float64(b.N)
			b.ReportMetric(reqs/b.Elapsed().Seconds(), "requests/s")
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/reqs, "ns/request")
			b.ReportMetric(float64(after.Mallocs-before.Mallocs)/reqs, "allocs/request")
		})
	}
}
