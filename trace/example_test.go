package trace_test

import (
	"fmt"
	"time"

	"github.com/raidsim/raidsim/sim"
	"github.com/raidsim/raidsim/trace"
)

// fixedDevice serves every request in exactly 100µs, however many are
// outstanding: the simplest possible sim.Device.
type fixedDevice struct {
	eng *sim.Engine
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
	d.eng.After(100*time.Microsecond, d, r)
	return nil
}

func Example() {
	eng := sim.NewEngine(1)
	dev := &fixedDevice{eng: eng}

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
