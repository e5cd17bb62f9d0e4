package ssd

import (
	"runtime"
	"testing"

	"github.com/raidsim/raidsim/sim"
)

// BenchmarkPrecondition puts the presets in each preconditioned state
// (laid out or drawn, at once) and reports the memory a drive holds
// afterwards, per erase block: the 1 TB drive costs no more per block
// than the 160 GB one, and nothing per unit of capacity.
func BenchmarkPrecondition(b *testing.B) {
	for _, preset := range []string{"intel-x25m-g2", "samsung-970-evo-plus", "intel-d7-p5500"} {
		for _, kind := range []Precondition{Fill, Steady} {
			b.Run("drive="+preset+"/state="+kind.String(), func(b *testing.B) {
				p, err := Preset(preset)
				if err != nil {
					b.Fatal(err)
				}
				for range b.N {
					runtime.GC()
					var m0, m1 runtime.MemStats
					runtime.ReadMemStats(&m0)
					d, err := New(sim.NewEngine(1), p, "ssd0", nil)
					if err != nil {
						b.Fatal(err)
					}
					res, err := d.Precondition(kind)
					if err != nil {
						b.Fatal(err)
					}
					runtime.GC()
					runtime.ReadMemStats(&m1)
					held := float64(m1.HeapAlloc) - float64(m0.HeapAlloc)
					b.ReportMetric(held/1e6, "MB-held")
					b.ReportMetric(held/float64(d.g.blocks()), "B/block")
					b.ReportMetric(res.WriteAmplification, "WA")
					runtime.KeepAlive(d)
				}
			})
		}
	}
}
