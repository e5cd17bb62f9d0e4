package cache_test

import (
	"fmt"
	"time"

	"github.com/raidsim/raidsim/cache"
	"github.com/raidsim/raidsim/sim"
	"github.com/raidsim/raidsim/simtest"
)

// A write-back cache in front of a slow device: 256 sequential 4 KiB
// writes are acknowledged at memory speed (one after another on the
// cache's 2 GB/s copy engine, the last after 526 µs, where the device
// would take 5 ms each) and reach the device as one 1 MiB write when
// the flush comes.
func Example() {
	eng := sim.NewEngine(1)
	dev, _ := simtest.NewMemDevice(eng, simtest.MemConfig{Capacity: 1 << 30, WriteLatency: 5 * time.Millisecond})
	below := simtest.NewRecorder(eng, dev)
	c, err := cache.New(eng, cache.Config{Size: 16 << 20}, below, "vol", nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	var last time.Duration
	for i := range 256 {
		w := &sim.Request{Op: sim.Write, Offset: int64(i) * 4096, Length: 4096,
			Done: func(r *sim.Request) { last = r.Latency() }}
		_ = c.Submit(w)
	}
	eng.Run()
	fmt.Println("write latency:", last)
	flush := &sim.Request{Op: sim.Flush, Done: func(r *sim.Request) { fmt.Println("flush latency:", r.Latency()) }}
	_ = c.Submit(flush)
	eng.Run()
	fmt.Print(below)
	st := c.Stats()
	fmt.Printf("coalescing factor %.0f, dirty peak %d KiB\n", st.CoalescingFactor(), st.DirtyPeak>>10)
	// Output:
	// write latency: 526.288µs
	// flush latency: 5ms
	// #0 write 1048576@0 issued 526.288µs completed 5.526288ms
	// #1 flush issued 5.526288ms completed 5.526288ms
	// coalescing factor 256, dirty peak 1024 KiB
}

// Crash reports what a volatile cache loses.
func ExampleCache_Crash() {
	eng := sim.NewEngine(1)
	dev, _ := simtest.NewMemDevice(eng, simtest.MemConfig{Capacity: 1 << 30})
	c, _ := cache.New(eng, cache.Config{}, dev, "vol", nil)
	done := func(*sim.Request) {}
	for _, off := range []int64{0, 4096, 1 << 20} {
		_ = c.Submit(&sim.Request{Op: sim.Write, Offset: off, Length: 4096, Done: done})
	}
	eng.Run()
	for _, x := range c.Crash() {
		fmt.Printf("lost %d bytes at %d\n", x.Length, x.Offset)
	}
	// Output:
	// lost 8192 bytes at 0
	// lost 4096 bytes at 1048576
}

// Validate reports every problem at once.
func ExampleConfig_Validate() {
	err := cache.Config{Size: 1 << 20, HighWater: 0.4, LowWater: 0.6, Align: cache.AlignStripe}.WithDefaults().Validate()
	fmt.Println(err)
	// Output:
	// cache: Config.LowWater 0.6 must be below HighWater 0.4
	// cache: Config.Align stripe needs FullStripe, or StripeUnit and DataMembers, got 0, 0 and 0
}
