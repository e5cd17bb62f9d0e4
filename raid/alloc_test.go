package raid_test

import (
	"fmt"
	"testing"

	"github.com/raidsim/raidsim/raid"
	"github.com/raidsim/raidsim/sim"
	"github.com/stretchr/testify/assert"
)

// TestSteadyStateAllocations: once the free lists are warm, serving a
// request allocates nothing, with or without data, healthy or degraded.
func TestSteadyStateAllocations(t *testing.T) {
	for _, lv := range levels {
		for _, degraded := range []bool{false, true} {
			if degraded && lv.cfg.Level == raid.RAID0 {
				continue
			}
			t.Run(fmt.Sprintf("%s/degraded=%v", lv.name, degraded), func(t *testing.T) {
				eng := sim.NewEngine(1)
				_, devs := memMembers(t, eng, lv.members, 4<<20)
				a, err := raid.New(eng, lv.cfg, devs, "md0", nil)
				if err != nil {
					t.Fatal(err)
				}
				if degraded {
					_ = a.Fail(1)
				}
				fs := a.FullStripe()
				buf := make([]byte, 2*fs)
				reqs := []*sim.Request{
					{Op: sim.Write, Offset: 4096, Length: 4096},                       // small
					{Op: sim.Write, Offset: fs - 8192, Length: 3 * 8192},              // spanning
					{Op: sim.Write, Offset: fs, Length: fs},                           // full stripe
					{Op: sim.Read, Offset: 0, Length: 2 * fs},                         // spanning read
					{Op: sim.Write, Offset: 8192, Length: 8192, Data: buf[:8192]},     // with data
					{Op: sim.Read, Offset: fs - 4096, Length: 8192, Data: buf[:8192]}, // with data
					{Op: sim.Flush},
				}
				done := func(*sim.Request) {}
				for _, r := range reqs {
					r.Done = done
				}
				run := func() {
					for _, r := range reqs {
						if err := a.Submit(r); err != nil {
							t.Fatal(err)
						}
					}
					eng.Run()
				}
				for range 10 {
					run()
				}
				assert.Zero(t, testing.AllocsPerRun(200, run), "allocations per batch of %d requests", len(reqs))
			})
		}
	}
}

// BenchmarkArray measures simulated requests per second of wall time on
// MemDevice members (no data), 4 KiB random at depth 16.
func BenchmarkArray(b *testing.B) {
	for _, lv := range levels {
		for _, op := range []sim.Op{sim.Read, sim.Write} {
			b.Run(fmt.Sprintf("%s/op=%v", lv.name, op), func(b *testing.B) {
				eng := sim.NewEngine(1)
				_, devs := memMembers(b, eng, lv.members, 1<<30)
				a, err := raid.New(eng, lv.cfg, devs, "md0", nil)
				if err != nil {
					b.Fatal(err)
				}
				rng := eng.Rand("bench")
				blocks := a.Capacity() / 4096
				left := b.N
				done := func(r *sim.Request) {
					if left > 0 {
						left--
						r.Offset = rng.Int64N(blocks) * 4096
						if err := a.Submit(r); err != nil {
							b.Fatal(err)
						}
					}
				}
				b.ReportAllocs()
				b.ResetTimer()
				for range 16 {
					r := &sim.Request{Op: op, Length: 4096, Done: done, Offset: rng.Int64N(blocks) * 4096}
					if err := a.Submit(r); err != nil {
						b.Fatal(err)
					}
				}
				eng.Run()
				b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "requests/s")
			})
		}
	}
}
