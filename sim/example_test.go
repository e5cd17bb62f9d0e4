package sim_test

import (
	"fmt"
	"time"

	"github.com/raidsim/raidsim/sim"
)

// A device that completes every request after a fixed latency.
type fixedDevice struct {
	eng     *sim.Engine
	latency time.Duration
}

func (d *fixedDevice) Capacity() int64 { return 1 << 30 }
func (d *fixedDevice) SectorSize() int { return 512 }
func (d *fixedDevice) HandleEvent(now sim.Time, arg any) {
	r := arg.(*sim.Request)
	r.Completed = now
	r.Done(r)
}
func (d *fixedDevice) Submit(r *sim.Request) error {
	if err := sim.CheckRequest(r, d.Capacity(), d.SectorSize()); err != nil {
		return err
	}
	r.Issued = d.eng.Now()
	d.eng.After(d.latency, d, r)
	return nil
}

func Example() {
	eng := sim.NewEngine(1)
	dev := &fixedDevice{eng: eng, latency: 2 * time.Millisecond}
	req := &sim.Request{Op: sim.Read, Offset: 4096, Length: 4096,
		Done: func(r *sim.Request) { fmt.Printf("%v took %v\n", r, r.Latency()) }}
	if err := dev.Submit(req); err != nil {
		fmt.Println(err)
	}
	bad := &sim.Request{Op: sim.Read, Offset: 100, Length: 4096, Done: req.Done}
	fmt.Println(dev.Submit(bad))
	eng.Run()
	fmt.Println("now:", eng.Now())
	// Output:
	// read 4096@100: sim: request not aligned to the sector size (512 bytes)
	// read 4096@4096 took 2ms
	// now: 2ms
}
