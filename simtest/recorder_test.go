package simtest_test

import (
	"errors"
	"testing"
	"time"

	"github.com/raidsim/raidsim/sim"
	"github.com/raidsim/raidsim/simtest"
)

func TestRecorderConformance(t *testing.T) {
	simtest.TestDevice(t, func(t *testing.T) (sim.Device, *sim.Engine) {
		eng := sim.NewEngine(1)
		mem := newMem(t, eng, simtest.MemConfig{Capacity: 32 << 20, ReadLatency: time.Microsecond, WriteLatency: 3 * time.Microsecond})
		return simtest.NewRecorder(eng, mem), eng
	}, simtest.WithData())
}

func TestRecorderRecordsInOrder(t *testing.T) {
	eng := sim.NewEngine(1)
	mem := newMem(t, eng, simtest.MemConfig{Capacity: 1 << 20, ReadLatency: time.Millisecond, WriteLatency: 3 * time.Millisecond})
	rec := simtest.NewRecorder(eng, mem)
	media := errors.New("media error")
	var done []uint64
	d := func(r *sim.Request) { done = append(done, r.ID) }

	w := &sim.Request{Op: sim.Write, Offset: 4096, Length: 8192, FUA: true, Data: make([]byte, 8192), Done: d, ID: 10}
	if err := rec.Submit(w); err != nil {
		t.Fatal(err)
	}
	eng.RunUntil(sim.Time(time.Millisecond))
	mem.FailNext(media)
	r := &sim.Request{Op: sim.Read, Offset: 0, Length: 512, Done: d, ID: 11}
	if err := rec.Submit(r); err != nil {
		t.Fatal(err)
	}
	bad := &sim.Request{Op: sim.Read, Offset: 1, Length: 512, Done: d, ID: 12}
	if err := rec.Submit(bad); !errors.Is(err, sim.ErrMisaligned) {
		t.Fatalf("misaligned read through the Recorder: %v", err)
	}
	if got := rec.Outstanding(); got != 2 {
		t.Errorf("Outstanding() = %d, want 2", got)
	}
	f := &sim.Request{Op: sim.Flush, Done: d, ID: 13}
	if err := rec.Submit(f); err != nil {
		t.Fatal(err)
	}
	eng.Run()

	if len(done) != 3 || done[0] != 13 || done[1] != 11 || done[2] != 10 {
		t.Errorf("Done order by ID = %v, want [13 11 10]", done)
	}
	if w.Completed != sim.Time(3*time.Millisecond) || w.Issued != 0 || w.Err != nil {
		t.Errorf("write: issued %v completed %v err %v", w.Issued, w.Completed, w.Err)
	}
	if !errors.Is(r.Err, media) {
		t.Errorf("read Err = %v, want the injected fault", r.Err)
	}

	reqs := rec.Requests()
	wantReqs := []string{
		"#0 write 8192@4096 fua issued 0s completed 3ms",
		"#1 read 512@0 issued 1ms completed 2ms err: media error",
		"#2 read 512@1 issued 1ms rejected: simtest: MemDevice: read 512@1: sim: request not aligned to the sector size (512 bytes)",
		"#3 flush issued 1ms completed 1ms",
	}
	if len(reqs) != len(wantReqs) {
		t.Fatalf("Requests() has %d records, want %d:\n%v", len(reqs), len(wantReqs), rec)
	}
	for i, want := range wantReqs {
		if got := reqs[i].String(); got != want {
			t.Errorf("record %d = %q\nwant         %q", i, got, want)
		}
	}
	if reqs[0].ID != 10 || !reqs[0].HasData || reqs[0].DataLen != 8192 {
		t.Errorf("record 0 = %+v", reqs[0])
	}
	var order []int
	for _, c := range rec.Completions() {
		order = append(order, c.Seq)
	}
	if len(order) != 3 || order[0] != 3 || order[1] != 1 || order[2] != 0 {
		t.Errorf("Completions() by Seq = %v, want [3 1 0]", order)
	}
	if err := rec.Err(); err != nil {
		t.Errorf("Err() = %v for a well-behaved device", err)
	}
	simtest.Golden(t, "recorder.log", []byte(rec.String()))

	rec.Reset()
	if len(rec.Requests()) != 0 || rec.Outstanding() != 0 {
		t.Error("Reset left records behind")
	}
}

// doubler calls Done twice, the second time from inside a later Submit.
type doubler struct {
	sim.Device
	last *sim.Request
}

func (d *doubler) Submit(r *sim.Request) error {
	if d.last != nil {
		d.last.Done(d.last)
	}
	d.last = r
	return d.Device.Submit(r)
}

func TestRecorderSeesViolations(t *testing.T) {
	eng := sim.NewEngine(1)
	mem := newMem(t, eng, simtest.MemConfig{Capacity: 1 << 20, ReadLatency: time.Millisecond})
	rec := simtest.NewRecorder(eng, &doubler{Device: mem})
	calls := 0
	for range 2 {
		if err := rec.Submit(&sim.Request{Op: sim.Read, Length: 512, Done: func(*sim.Request) { calls++ }}); err != nil {
			t.Fatal(err)
		}
		eng.Run()
	}
	if calls != 2 {
		t.Errorf("the Recorder passed %d Done calls up, want 2 (duplicates dropped)", calls)
	}
	if err := rec.Err(); err == nil {
		t.Error("Err() = nil for a device that calls Done twice from inside Submit")
	} else {
		t.Log(err)
	}
}
