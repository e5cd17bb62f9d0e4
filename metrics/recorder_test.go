package metrics

import (
	"testing"
	"time"

	"github.com/raidsim/raidsim/sim"
)

func req(op sim.Op, length int64, issued, completed time.Duration) *sim.Request {
	return &sim.Request{Op: op, Length: length, Issued: sim.Time(issued), Completed: sim.Time(completed)}
}

func TestRecorderObserve(t *testing.T) {
	var rec Recorder
	rec.Observe(req(sim.Read, 4096, 0, 2*time.Millisecond))
	rec.Observe(req(sim.Read, 8192, 5*time.Millisecond, 6*time.Millisecond))
	rec.Observe(req(sim.Write, 65536, time.Millisecond, 11*time.Millisecond))
	rec.Observe(req(sim.Flush, 0, 0, 30*time.Millisecond))
	rec.Add(sim.Write, 512, 4*time.Millisecond)

	check := func(name string, s *OpStats, ios, bytes int64, sum, lo, hi time.Duration) {
		t.Helper()
		if s.IOs() != ios || s.Bytes() != bytes {
			t.Errorf("%s: ios %d bytes %d, want %d %d", name, s.IOs(), s.Bytes(), ios, bytes)
		}
		l := s.Latency()
		if l.Sum() != sum || l.Min() != lo || l.Max() != hi {
			t.Errorf("%s: latency sum %v min %v max %v, want %v %v %v", name, l.Sum(), l.Min(), l.Max(), sum, lo, hi)
		}
	}
	ms := time.Millisecond
	check("read", rec.Read(), 2, 12288, 3*ms, ms, 2*ms)
	check("write", rec.Write(), 2, 66048, 14*ms, 4*ms, 10*ms)
	check("all", rec.All(), 4, 78336, 17*ms, ms, 10*ms)
	check("flush", rec.Flush(), 1, 0, 30*ms, 30*ms, 30*ms)
	for op, want := range map[sim.Op]*OpStats{sim.Read: rec.Read(), sim.Write: rec.Write(), sim.Flush: rec.Flush()} {
		if rec.Stats(op) != want {
			t.Errorf("Stats(%v) is not the %v statistics", op, op)
		}
	}
	if rec.Stats(sim.Op(9)) != nil {
		t.Errorf("Stats of an unknown op is not nil")
	}
}

func TestRecorderUnknownOpPanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Errorf("Add with an unknown op did not panic")
		}
	}()
	var rec Recorder
	rec.Add(sim.Op(7), 1, 1)
}

func TestRecorderMergeEqualsSingle(t *testing.T) {
	r := newRand(t, 10)
	var one Recorder
	parts := make([]Recorder, 4)
	for range 20000 {
		op := sim.Op(r.IntN(3))
		bytes := int64(512 * (1 + r.IntN(256)))
		lat := samplers[3].draw(r)
		one.Add(op, bytes, lat)
		parts[r.IntN(len(parts))].Add(op, bytes, lat)
	}
	var merged Recorder
	for i := range parts {
		merged.Merge(&parts[i])
	}
	merged.Merge(nil)
	if merged != one {
		t.Fatalf("merged recorder differs from one recorder: all ios %d vs %d", merged.All().IOs(), one.All().IOs())
	}
	if got, want := merged.Summarize(time.Second), one.Summarize(time.Second); got != want {
		t.Errorf("summaries differ:\n%+v\n%+v", got, want)
	}
	merged.Reset()
	if merged != (Recorder{}) {
		t.Errorf("Reset left state behind")
	}
}

func TestObserveAllocs(t *testing.T) {
	var rec Recorder
	rq := req(sim.Write, 4096, 0, 0)
	a := testing.AllocsPerRun(1000, func() {
		rq.Completed += 1000
		rq.Op = sim.Op(int(rq.Completed/1000) % 3)
		rec.Observe(rq)
	})
	if a != 0 {
		t.Errorf("Observe allocates %v times per call", a)
	}
	if a := testing.AllocsPerRun(1000, func() { rec.Add(sim.Read, 512, time.Millisecond) }); a != 0 {
		t.Errorf("Add allocates %v times per call", a)
	}
}

func BenchmarkRecorderObserve(b *testing.B) {
	var rec Recorder
	rq := req(sim.Read, 4096, 0, 0)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		rq.Op = sim.Op(i & 1)
		rq.Completed = sim.Time(i&0xffff) * 1000
		rec.Observe(rq)
	}
}
