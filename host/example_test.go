package host_test

import (
	"fmt"
	"time"

	"github.com/raidsim/raidsim/host"
	"github.com/raidsim/raidsim/sim"
	"github.com/raidsim/raidsim/simtest"
)

// A NAS host over one disk: 64 KiB reads of a 16 MiB file, one at a
// time from the client over gigabit, twice. The first pass waits for
// the disk behind the page cache's 128 KiB read-ahead (hits count the
// reads that found their data on its way); the second comes from the
// page cache, bound by the wire and the NAS's one core.
func Example() {
	eng := sim.NewEngine(1)
	disk, _ := simtest.NewMemDevice(eng, simtest.MemConfig{Capacity: 1 << 30, Bandwidth: 60_000_000, Serial: true})
	p, _ := host.Preset("nas-1gb")
	h, err := host.New(eng, p, "nas", nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	if err := h.Attach(h.Driver(disk, "disk0"), host.Storage{}); err != nil {
		fmt.Println(err)
		return
	}
	const file, record = 16 << 20, 64 << 10
	for pass := 1; pass <= 2; pass++ {
		from, start := h.Stats(), eng.Now()
		r := &sim.Request{}
		var off int64
		var next func(*sim.Request)
		next = func(*sim.Request) {
			if off == file {
				return
			}
			*r = sim.Request{Op: sim.Read, Offset: off, Length: record, Done: next}
			off += record
			if err := h.Submit(r); err != nil {
				fmt.Println(err)
			}
		}
		next(nil)
		eng.Run()
		s := host.Summarize(from, h.Stats())
		fmt.Printf("pass %d: %.1f MB/s, CPU %.0f%%, page cache hits %.2f, link %.0f%% busy\n", pass,
			file/time.Duration(eng.Now()-start).Seconds()/1e6, s.CPUUtilizationPct, s.PageCacheHitRatio, s.NetworkUtilizationPct)
	}
	// Output:
	// pass 1: 39.9 MB/s, CPU 25%, page cache hits 0.99, link 34% busy
	// pass 2: 61.6 MB/s, CPU 38%, page cache hits 1.00, link 52% busy
}
