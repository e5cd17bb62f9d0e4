package disk

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/raidsim/raidsim/sim"
)

// loop is a closed-loop load generator for tests: depth requests
// outstanding, each resubmitted on completion, at random or sequential
// offsets, until total have completed.
type loop struct {
	t      testing.TB
	eng    *sim.Engine
	d      *Drive
	rng    *rand.Rand
	reqs   []sim.Request
	op     sim.Op
	size   int64
	seq    bool
	lo, hi int64 // offset range [lo, hi)
	next   int64

	warmup, total int
	issued, done  int
	t0, t1        sim.Time
	latSum        int64
	latMax        time.Duration
	doneFn        func(*sim.Request)
}

func newLoop(t testing.TB, d *Drive, eng *sim.Engine, op sim.Op, size int64, depth int, seq bool) *loop {
	l := &loop{t: t, eng: eng, d: d, rng: eng.Rand("loop"), op: op, size: size, seq: seq,
		hi: d.Capacity(), reqs: make([]sim.Request, depth)}
	l.doneFn = l.onDone
	return l
}

func (l *loop) offset() int64 {
	if l.seq {
		o := l.next
		l.next += l.size
		if l.next > l.hi {
			l.next = l.lo
		}
		return o
	}
	n := (l.hi - l.lo - l.size) / l.size
	return l.lo + l.rng.Int64N(n+1)*l.size
}

func (l *loop) submit(r *sim.Request) {
	r.Op, r.Offset, r.Length, r.Done = l.op, l.offset(), l.size, l.doneFn
	l.issued++
	if err := l.d.Submit(r); err != nil {
		l.t.Fatalf("submit %v: %v", r, err)
	}
}

func (l *loop) onDone(r *sim.Request) {
	if r.Err != nil {
		l.t.Fatalf("%v: %v", r, r.Err)
	}
	l.done++
	if l.done == l.warmup {
		l.t0 = r.Completed
	}
	if l.done > l.warmup {
		l.latSum += int64(r.Latency())
		l.latMax = max(l.latMax, r.Latency())
	}
	l.t1 = r.Completed
	if l.issued < l.total {
		l.submit(r)
	}
}

// run issues total requests (the first warmup not measured) and returns
// requests/s and bytes/s over the measured part.
func (l *loop) run(warmup, total int) (iops, bps float64) {
	l.start(warmup, total)
	l.eng.Run()
	return l.result()
}

// start submits the first requests; several loops may share a drive,
// each started before the engine runs.
func (l *loop) start(warmup, total int) {
	l.warmup, l.total = warmup, total
	l.next = l.lo
	for i := range l.reqs {
		if l.issued < total {
			l.submit(&l.reqs[i])
		}
	}
}

// result returns requests/s and bytes/s over the measured part, once the
// engine has run.
func (l *loop) result() (iops, bps float64) {
	total, warmup := l.total, l.warmup
	if l.done != total {
		l.t.Fatalf("completed %d of %d", l.done, total)
	}
	secs := l.t1.Sub(l.t0).Seconds()
	n := float64(total - warmup)
	return n / secs, n * float64(l.size) / secs
}

func presetDrive(t testing.TB, name string, edit func(*Params)) (*Drive, *sim.Engine) {
	t.Helper()
	p, err := Preset(name)
	if err != nil {
		t.Fatal(err)
	}
	if edit != nil {
		edit(&p)
	}
	eng := sim.NewEngine(1)
	d, err := New(eng, p, name, nil)
	if err != nil {
		t.Fatal(err)
	}
	return d, eng
}
