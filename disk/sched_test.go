package disk

import (
	"testing"
	"time"

	"github.com/raidsim/raidsim/sim"
)

// TestSequentialStreamKeptTogether: write-through sequential writes at
// depth 8 across many cylinder switches never leave one piece of the
// stream behind the head. Served by SATF alone, a piece whose start has
// just passed (after a cylinder switch with write settle) loses to the
// pieces after it, and then to every new piece of the stream, until
// MaxQueueAge: it waited 505 ms here before the drive kept streams
// together.
func TestSequentialStreamKeptTogether(t *testing.T) {
	for _, sched := range []Scheduler{SATF, SSTF} {
		d, eng := presetDrive(t, "travelstar-7k500", func(p *Params) { p.WriteCache = false; p.Scheduler = sched })
		l := newLoop(t, d, eng, sim.Write, 64<<10, 8, true)
		l.lo = 10 << 30
		_, bps := l.run(0, 4000)
		rev := d.Revolution()
		t.Logf("%v: %.1f MB/s, max latency %v (revolution %v)", sched, bps/1e6, l.latMax, rev)
		// Eight queued 64 KiB writes take under 5 ms of media time; a
		// missed start costs one more revolution and a seek.
		if max := 2*rev + 8*time.Millisecond; l.latMax > max {
			t.Errorf("%v: max latency %v, want at most %v", sched, l.latMax, max)
		}
	}
}

// TestReaderAndWriterAlternate: one reader and one writer, each with one
// request outstanding, on a drive without write cache. The drive picks
// its next command when one completes, before the host's reply to that
// completion arrives, so it serves them in turn: the writer's near
// requests cannot starve the far reads. (Served in the same instant, the
// writer's next request always beat the read, which then waited up to
// MaxQueueAge.)
func TestReaderAndWriterAlternate(t *testing.T) {
	d, eng := presetDrive(t, "travelstar-7k500", func(p *Params) { p.WriteCache = false })
	r := newLoop(t, d, eng, sim.Read, 4<<10, 1, false)
	r.hi = 80 << 30
	w := newLoop(t, d, eng, sim.Write, 16<<10, 1, false)
	w.rng = eng.Rand("writer")
	w.lo, w.hi = 140<<30, 141<<30
	r.start(0, 500)
	w.start(0, 500)
	eng.Run()
	r.result()
	w.result()
	t.Logf("reads: max %v mean %v; writes: max %v", r.latMax, time.Duration(r.latSum/500), w.latMax)
	// Each waits for at most the other's request in service, itself at
	// most a long seek plus a revolution.
	limit := 2 * (d.SeekTime(d.Cylinders()-1, true) + d.Revolution())
	if r.latMax > limit || w.latMax > limit {
		t.Errorf("max read latency %v, max write latency %v, want at most %v", r.latMax, w.latMax, limit)
	}
}
