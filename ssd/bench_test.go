package ssd

import (
	"testing"

	"github.com/raidsim/raidsim/sim"
)

// BenchmarkSteadyState gives simulated requests per second of wall time
// for random 4 KiB reads and writes at depth 32 on a steady-state drive
// (the X25-M's make-up at 16 GB, preconditioned to steady state before the
// timer starts). The README's performance table quotes it.
func BenchmarkSteadyState(b *testing.B) {
	p := IntelX25MG2()
	p.Capacity = 16e9
	for _, op := range []sim.Op{sim.Read, sim.Write} {
		b.Run("op=rand"+op.String()+"/bs=4096/depth=32", func(b *testing.B) {
			d, eng := newTestDrive(b, p, Steady)
			c := newClosedLoop(d, op, 32)
			c.start()
			c.steps(eng, 10000)
			b.ReportAllocs()
			b.ResetTimer()
			c.steps(eng, b.N)
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "requests/s")
		})
	}
}
