package ssd_test

import (
	"fmt"

	"github.com/raidsim/raidsim/sim"
	"github.com/raidsim/raidsim/ssd"
)

// A 4 KiB write lands in the drive's buffer; a flush waits until it is
// programmed; a read of it then comes from flash.
func Example() {
	eng := sim.NewEngine(1)
	d, err := ssd.New(eng, ssd.IntelX25MG2(), "ssd0", nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	show := func(r *sim.Request) { fmt.Printf("%v: %v\n", r, r.Latency()) }
	for _, r := range []*sim.Request{
		{Op: sim.Write, Offset: 0, Length: 4096, Done: show},
		{Op: sim.Flush, Done: show},
	} {
		if err := d.Submit(r); err != nil {
			fmt.Println(err)
		}
	}
	eng.Run()
	if err := d.Submit(&sim.Request{Op: sim.Read, Offset: 0, Length: 4096, Done: show}); err != nil {
		fmt.Println(err)
	}
	eng.Run()
	fmt.Println("write amplification:", d.Stats().WriteAmplification)
	// Output:
	// write 4096@0: 29.17µs
	// flush: 765.65µs
	// read 4096@0: 87.65µs
	// write amplification: 1
}
