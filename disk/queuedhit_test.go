package disk

import (
	"testing"

	"github.com/raidsim/raidsim/sim"
)

// TestQueuedHitIsBufferHit: the scheduler's remembered answer for a
// queued read (queuedHit) is bufferHit's at every step of mixed runs
// that make hits of every kind: read segments, read-ahead under way,
// dirty data and the extent being destaged. The runs must see both
// answers, and answers reused from memory.
func TestQueuedHitIsBufferHit(t *testing.T) {
	for _, tc := range []struct {
		name  string
		span  int64 // bytes addressed
		write int   // percent writes
		seq   int   // percent of requests that continue the last one
		edit  func(*Params)
	}{
		{"random/small-span", 4 << 20, 40, 0, nil},
		{"mixed/sequential", 64 << 20, 30, 60, nil},
		{"reads/sequential", 32 << 20, 0, 80, nil},
		{"mixed/no-buffer-cache", 16 << 20, 30, 60, func(p *Params) { p.NoBufferCache = true }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, eng := presetDrive(t, "deskstar-7k500", tc.edit)
			rng := eng.Rand("mix")
			var next int64
			var hits, misses, reused int
			issued := 0
			var done func(r *sim.Request)
			submit := func(r *sim.Request) {
				size := int64(1+rng.IntN(16)) * 4096
				if rng.IntN(100) >= tc.seq || next+size > tc.span {
					next = rng.Int64N((tc.span-size)/4096) * 4096
				}
				r.Op, r.Offset, r.Length, r.Done = sim.Read, next, size, done
				if rng.IntN(100) < tc.write {
					r.Op = sim.Write
				}
				next += size
				issued++
				if err := d.Submit(r); err != nil {
					t.Fatal(err)
				}
			}
			done = func(r *sim.Request) {
				if issued < 20000 {
					submit(r)
				}
			}
			for range 32 {
				submit(new(sim.Request))
			}
			for eng.Step() {
				now := eng.Now()
				for j := range d.qlen {
					c := &d.slots[d.order[j]]
					if c.flush || c.write {
						continue
					}
					if c.segVer == d.rc.ver+1 {
						reused++
					}
					got, want := d.queuedHit(c, now), d.bufferHit(c.lba, c.n, now)
					if got != want {
						t.Fatalf("at %v: queuedHit(%d+%d) = %v, bufferHit %v", now, c.lba, c.n, got, want)
					}
					if want {
						hits++
					} else {
						misses++
					}
				}
			}
			t.Logf("%d hits, %d misses, %d answers reused", hits, misses, reused)
			if hits == 0 || misses == 0 || reused == 0 {
				t.Errorf("the run saw %d hits, %d misses, %d reused answers: want some of each", hits, misses, reused)
			}
		})
	}
}
