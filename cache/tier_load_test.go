package cache_test

import (
	"testing"
	"time"

	"github.com/raidsim/raidsim/cache"
	"github.com/raidsim/raidsim/sim"
	"github.com/raidsim/raidsim/simtest"
)

// TestTierUnderLoad: a small cache on a tier under a mixed random load
// keeps every request moving: evictions while a journal write's
// acknowledgements run add keys for the next journal write (they once
// restarted the journal over the list being acknowledged).
func TestTierUnderLoad(t *testing.T) {
	eng := sim.NewEngine(1)
	below, _ := simtest.NewMemDevice(eng, simtest.MemConfig{Capacity: 1 << 30, ReadLatency: 5 * time.Millisecond, WriteLatency: 5 * time.Millisecond})
	tier, _ := simtest.NewMemDevice(eng, simtest.MemConfig{Capacity: 64 << 20, ReadLatency: 50 * time.Microsecond, WriteLatency: 50 * time.Microsecond})
	c, err := cache.NewOnDevice(eng, cache.Config{Size: 4 << 20}, below, tier, "c", nil)
	if err != nil {
		t.Fatal(err)
	}
	d := &driver{dev: c, rng: eng.Rand("x"), span: 256 << 20, size: 16384, readPct: 70}
	d.fn = d.onDone
	d.limit = 20000
	d.start(16)
	eng.Run()
	if d.done < d.limit {
		t.Fatalf("%d of %d requests done: %s", d.done, d.limit, c.Debug())
	}
	if err := c.CheckInvariants(); err != nil {
		t.Fatal(err)
	}
	if st := c.Stats(); st.Evictions == 0 || st.Destages == 0 || st.JournalWrites == 0 {
		t.Fatalf("the load should evict, destage and journal: %+v", st)
	}
}
