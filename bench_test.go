package raidsim_test

import (
	"fmt"
	"testing"

	"github.com/raidsim/raidsim"
	"github.com/raidsim/raidsim/disk"
	"github.com/raidsim/raidsim/trace"
)

// BenchmarkRun measures the whole path a user takes: a synthetic workload
// generated, replayed closed-loop on a detailed drive, every completion
// recorded in a metrics.Recorder, the report built. Random 4 KiB reads
// over a whole deskstar-7k500.
func BenchmarkRun(b *testing.B) {
	for _, sched := range []disk.Scheduler{disk.FCFS, disk.SATF} {
		for _, qd := range []int{1, 32} {
			b.Run(fmt.Sprintf("sched=%v/qd=%d", sched, qd), func(b *testing.B) {
				p, err := disk.Preset("deskstar-7k500")
				if err != nil {
					b.Fatal(err)
				}
				p.Scheduler = sched
				const ios = 200000
				x := raidsim.Experiment{Drive: p, Seed: 1,
					Workload: trace.Workload{RW: trace.RWRandRead, BS: 4096, IODepth: qd, NumIOs: ios}}
				b.ReportAllocs()
				for b.Loop() {
					if _, err := x.Run(); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(ios)*float64(b.N)/b.Elapsed().Seconds(), "requests/s")
			})
		}
	}
}
