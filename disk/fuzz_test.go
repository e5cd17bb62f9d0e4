package disk

import (
	"errors"
	"testing"

	"github.com/raidsim/raidsim/sim"
)

// FuzzSubmit feeds arbitrary requests to a small drive: Submit either
// rejects them with a sim sentinel or Done is called exactly once.
func FuzzSubmit(f *testing.F) {
	f.Add(uint8(0), int64(0), int64(4096), false, uint8(0))
	f.Add(uint8(1), int64(512), int64(65536), true, uint8(2))
	f.Add(uint8(2), int64(-1), int64(0), false, uint8(3))
	f.Add(uint8(1), int64(1<<40), int64(1<<40), false, uint8(1))
	f.Fuzz(func(t *testing.T, op uint8, off, length int64, fua bool, sched uint8) {
		p := Params{
			Name: "toy", RPM: 7200, Surfaces: 2,
			Zones: []Zone{
				{FirstCylinder: 0, LastCylinder: 99, SectorsPerTrack: 200, TrackSkew: 20, CylinderSkew: 30},
				{FirstCylinder: 100, LastCylinder: 199, SectorsPerTrack: 120, TrackSkew: 12, CylinderSkew: 18},
			},
			TrackToTrack: 1e6, AverageSeek: 5e6, FullStroke: 10e6, HeadSwitch: 5e5,
			BufferSize: 1 << 20, WriteCache: sched&4 != 0, QueueDepth: 1 + int(sched&3),
			Scheduler: Scheduler(sched % uint8(numSchedulers)),
		}
		eng := sim.NewEngine(1)
		d, err := New(eng, p, "toy", nil)
		if err != nil {
			t.Fatal(err)
		}
		calls := 0
		reqs := make([]sim.Request, 3)
		for i := range reqs {
			reqs[i] = sim.Request{Op: sim.Op(op % 4), Offset: off + int64(i)*4096, Length: length, FUA: fua,
				Done: func(*sim.Request) { calls++ }}
		}
		accepted := 0
		for i := range reqs {
			err := d.Submit(&reqs[i])
			if err == nil {
				accepted++
				continue
			}
			known := false
			for _, s := range []error{sim.ErrBadOp, sim.ErrZeroLength, sim.ErrMisaligned, sim.ErrOutOfRange} {
				known = known || errors.Is(err, s)
			}
			if !known {
				t.Fatalf("Submit(%v): %v wraps no sentinel", &reqs[i], err)
			}
		}
		if calls != 0 {
			t.Fatal("Done called inside Submit")
		}
		for n := 0; eng.Step(); n++ {
			if n > 1e6 {
				t.Fatal("drive never goes idle")
			}
		}
		if calls != accepted {
			t.Fatalf("%d accepted, %d completed", accepted, calls)
		}
		if d.DirtyBytes() != 0 {
			t.Fatalf("%d dirty bytes after idling", d.DirtyBytes())
		}
	})
}
