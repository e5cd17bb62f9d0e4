package faults_test

import (
	"fmt"
	"time"

	"github.com/raidsim/raidsim/faults"
	"github.com/raidsim/raidsim/sim"
	"github.com/raidsim/raidsim/simtest"
)

// A TLER drive with one unreadable sector: the read fails after the 7 s
// cap, and a write of the sector repairs it.
func Example() {
	eng := sim.NewEngine(1)
	mem, _ := simtest.NewMemDevice(eng, simtest.MemConfig{Capacity: 1 << 20, ReadLatency: time.Millisecond, WriteLatency: time.Millisecond})
	d, _ := faults.New(eng, mem, faults.Config{BadSectors: []int64{8}, ERC: faults.TLER}, "disk0")
	show := func(r *sim.Request) { fmt.Printf("%v after %v: %v\n", r, r.Latency(), r.Err) }
	d.Submit(&sim.Request{Op: sim.Read, Offset: 4096, Length: 4096, Done: show})
	eng.Run()
	d.Submit(&sim.Request{Op: sim.Write, Offset: 4096, Length: 512, Done: show})
	eng.Run()
	d.Submit(&sim.Request{Op: sim.Read, Offset: 4096, Length: 4096, Done: show})
	eng.Run()
	fmt.Println("repaired sectors:", d.Stats().Rewritten)
	// Output:
	// read 4096@4096 after 7.001s: faults: disk0: unrecoverable read error at sector 8 (1 unreadable, 7s of recovery)
	// write 512@4096 after 1ms: <nil>
	// read 4096@4096 after 1ms: <nil>
	// repaired sectors: 1
}
