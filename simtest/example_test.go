package simtest_test

import (
	"fmt"
	"time"

	"github.com/raidsim/raidsim/sim"
	"github.com/raidsim/raidsim/simtest"
)

func ExampleMemDevice() {
	eng := sim.NewEngine(1)
	dev, err := simtest.NewMemDevice(eng, simtest.MemConfig{
		Capacity:     1 << 30, // 1 GiB, allocated only where written
		SectorSize:   512,
		ReadLatency:  100 * time.Microsecond,
		WriteLatency: 250 * time.Microsecond,
	})
	if err != nil {
		panic(err)
	}
	report := func(r *sim.Request) {
		fmt.Printf("%v done at %v after %v: %q\n", r, r.Completed, r.Latency(), r.Data[:5])
	}

	data := make([]byte, 512)
	copy(data, "hello")
	w := &sim.Request{Op: sim.Write, Offset: 4096, Length: 512, Data: data, Done: report}
	if err := dev.Submit(w); err != nil {
		panic(err)
	}
	eng.Run()

	r := &sim.Request{Op: sim.Read, Offset: 4096, Length: 512, Data: make([]byte, 512), Done: report}
	if err := dev.Submit(r); err != nil {
		panic(err)
	}
	eng.Run()
	// Output:
	// write 512@4096 done at 250µs after 250µs: "hello"
	// read 512@4096 done at 350µs after 100µs: "hello"
}
