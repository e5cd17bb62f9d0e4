package trace_test

import (
	"fmt"
	"time"

	"github.com/raidsim/raidsim/sim"
	"github.com/raidsim/raidsim/simtest"
	"github.com/raidsim/raidsim/trace"
)

func Example() {
	eng := sim.NewEngine(1)
	// An in-memory device that serves every read in exactly 100µs,
	// however many are outstanding.
	dev, err := simtest.NewMemDevice(eng, simtest.MemConfig{Capacity: 1 << 30, ReadLatency: 100 * time.Microsecond})
	if err != nil {
		fmt.Println(err)
		return
	}

	w := trace.DefaultWorkload()
	w.RW = trace.RWRandRead
	w.NumIOs = 64
	w.IODepth = 4
	gen, err := trace.NewSynthetic(w, eng.Rand("trace"), dev.Capacity(), dev.SectorSize())
	if err != nil {
		fmt.Println(err)
		return
	}
	var bytes int64
	res, err := trace.Replay(eng, dev, gen, trace.ReplayOptions{
		IODepth:    w.IODepth,
		OnComplete: func(_ *trace.Record, r *sim.Request) { bytes += r.Length },
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%d requests, %d bytes, in %v\n", res.Completed, bytes, res.Elapsed())
	// Output:
	// 64 requests, 262144 bytes, in 1.6ms
}
