package disk

import (
	"fmt"
	"testing"

	"github.com/raidsim/raidsim/sim"
)

// BenchmarkDrive measures simulated requests per second of wall time:
// random 4 KiB reads over the whole of a deskstar-7k500, closed loop.
func BenchmarkDrive(b *testing.B) {
	for _, s := range []Scheduler{FCFS, SSTF, CLOOK, SATF} {
		for _, qd := range []int{1, 32} {
			b.Run(fmt.Sprintf("sched=%v/qd=%d", s, qd), func(b *testing.B) {
				d, eng := presetDrive(b, "deskstar-7k500", func(p *Params) { p.Scheduler = s })
				l := newLoop(b, d, eng, sim.Read, 4096, qd, false)
				l.total = 1 << 60
				for i := range l.reqs {
					l.submit(&l.reqs[i])
				}
				for l.done < 1000 {
					eng.Step()
				}
				b.ReportAllocs()
				b.ResetTimer()
				target := l.done + b.N
				for l.done < target {
					eng.Step()
				}
				b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "requests/s")
			})
		}
	}
}
