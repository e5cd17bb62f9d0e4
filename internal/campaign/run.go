package campaign

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"

	"github.com/raidsim/raidsim/cache"
	"github.com/raidsim/raidsim/faults"
	"github.com/raidsim/raidsim/raid"
	"github.com/raidsim/raidsim/sim"
	"github.com/raidsim/raidsim/simtest"
)

// hostWrite is one write of the workload and what became of it.
type hostWrite struct {
	seq    int
	off    int64
	data   []byte
	acked  bool
	failed bool
	// submitted and ended are when the host sent it and when it
	// completed (sim.Never while in flight).
	submitted, ended sim.Time
}

// slot is the drive in one member slot: its bytes and its fault wrapper.
type slot struct {
	mem *simtest.MemDevice
	f   *faults.Device
}

// runner runs one schedule.
type runner struct {
	s      Schedule
	eng    *sim.Engine
	rng    *rand.Rand
	arr    *raid.Array
	cache  *cache.Cache
	tap    *tap
	top    sim.Device
	slots  []slot
	writes []*hostWrite
	// before is the array's logical contents at the start: random bytes,
	// so that no sector reads right by chance (as zeros would).
	before []byte
	// ackOrder lists the writes acknowledged, in that order.
	ackOrder []*hostWrite
	// faulty counts, per group of members that share redundancy (a RAID
	// 10 pair, else the whole array), the drives a fault touched.
	faulty   map[int]map[*faults.Device]bool
	errs     []string // requests that completed with an error
	inFlight int
	drives   int
}

// Run runs s and returns what its checks found.
func Run(s Schedule) (*Result, error) {
	r := &runner{s: s, eng: sim.NewEngine(s.Seed), rng: rand.New(rand.NewPCG(s.Seed, 0xda7a)), faulty: map[int]map[*faults.Device]bool{}}
	if err := r.build(); err != nil {
		return nil, err
	}
	for i := range s.Requests {
		r.eng.Schedule(sim.Time(s.Requests[i].At), sim.HandlerFunc(func(sim.Time, any) { r.submit(i) }), nil)
	}
	for _, e := range s.Events {
		r.eng.Schedule(sim.Time(e.At), sim.HandlerFunc(func(sim.Time, any) { r.inject(e) }), nil)
	}
	if s.PowerLoss > 0 {
		r.eng.RunUntil(sim.Time(s.PowerLoss))
		return r.afterPowerLoss()
	}
	r.eng.Run()
	if r.inFlight != 0 {
		return nil, fmt.Errorf("campaign: %d requests never completed", r.inFlight)
	}
	return r.afterRun()
}

// build makes the members, the array and the cache.
func (r *runner) build() error {
	s := r.s
	devs := make([]sim.Device, s.Members)
	for i := range s.Members {
		sl, err := r.drive(i)
		if err != nil {
			return err
		}
		r.slots = append(r.slots, sl)
		devs[i] = sl.f
		if watch != nil {
			devs[i] = watch(fmt.Sprintf("m%d", i), r.eng, sl.f)
		}
	}
	a, err := raid.New(r.eng, raid.Config{Level: s.Level, StripeUnit: s.StripeUnit, RebuildData: true}, devs, "md0", nil)
	if err != nil {
		return err
	}
	r.fill(a.Mapping())
	r.arr, r.top = a, a
	if s.Cache {
		r.tap = &tap{below: a}
		if watch != nil {
			r.tap.below = watch("arr", r.eng, a)
		}
		c, err := cache.New(r.eng, cache.Config{Size: s.CacheSize, NonVolatile: s.CacheNV, MaxDestageBytes: 64 << 10}, r.tap, "vol", nil)
		if err != nil {
			return err
		}
		r.cache, r.top = c, c
	}
	return nil
}

// fill gives the members random contents with consistent redundancy,
// and keeps the logical image they hold.
func (r *runner) fill(m raid.Mapping) {
	size := r.s.Rows * r.s.StripeUnit
	mems := make([]*simtest.MemDevice, len(r.slots))
	buf := make([]byte, size)
	for i, sl := range r.slots {
		for j := 0; j < len(buf); j += 8 {
			binary.LittleEndian.PutUint64(buf[j:], r.rng.Uint64())
		}
		_, _ = sl.mem.WriteAt(buf, 0)
		mems[i] = sl.mem
	}
	resync(m, size, mems, make([]bool, len(mems)))
	r.before = make([]byte, m.Capacity(size))
	for off := int64(0); off < int64(len(r.before)); off += m.StripeUnit {
		a := m.Locate(off)
		_, _ = mems[a.Member].ReadAt(r.before[off:off+m.StripeUnit], a.Offset)
	}
}

// drive makes the drive of slot i (or its spare).
func (r *runner) drive(i int) (slot, error) {
	s := r.s
	m, err := simtest.NewMemDevice(r.eng, simtest.MemConfig{Capacity: s.Rows * s.StripeUnit, ReadLatency: s.ReadLatency[i],
		WriteLatency: s.WriteLatency[i], Serial: s.Serial[i]})
	if err != nil {
		return slot{}, err
	}
	cfg := faults.Config{WriteCache: s.DriveCache, Timeout: s.Timeout, Recovery: s.Recovery}
	f, err := faults.New(r.eng, m, cfg, fmt.Sprintf("disk%d", r.drives))
	r.drives++
	return slot{m, f}, err
}

// watch, when set (by tests, to debug a schedule), wraps each member.
var watch func(name string, eng *sim.Engine, d sim.Device) sim.Device

// submit sends request i of the workload.
func (r *runner) submit(i int) {
	q := r.s.Requests[i]
	req := &sim.Request{Op: q.Op, Offset: q.Offset, Length: q.Len}
	var w *hostWrite
	switch q.Op {
	case sim.Write:
		w = &hostWrite{seq: len(r.writes), off: q.Offset, data: make([]byte, q.Len), submitted: r.eng.Now(), ended: sim.Never}
		for j := 0; j < len(w.data); j += 8 {
			binary.LittleEndian.PutUint64(w.data[j:], r.rng.Uint64())
		}
		r.writes = append(r.writes, w)
		req.Data = w.data
	case sim.Read:
		req.Data = make([]byte, q.Len)
	}
	req.Done = func(req *sim.Request) {
		r.inFlight--
		if req.Err != nil {
			r.errs = append(r.errs, fmt.Sprintf("%v at %v: %v", req, req.Completed, req.Err))
		}
		if w != nil {
			w.acked, w.failed, w.ended = req.Err == nil, req.Err != nil, req.Completed
		}
		if w != nil && w.acked {
			r.ackOrder = append(r.ackOrder, w)
		}
	}
	r.inFlight++
	if err := r.top.Submit(req); err != nil {
		r.inFlight--
		r.errs = append(r.errs, fmt.Sprintf("%v refused: %v", req, err))
		if w != nil {
			w.failed, w.ended = true, r.eng.Now()
		}
	}
}

// inject applies one fault.
func (r *runner) inject(e Event) {
	switch e.Kind {
	case FailMember:
		r.touch(e.Member)
		_ = r.arr.Fail(e.Member)
	case KillDrive:
		r.touch(e.Member)
		r.slots[e.Member].f.Fail()
	case BadSector:
		r.touch(e.Member)
		r.slots[e.Member].f.MarkBad(e.Sector)
	case Rebuild:
		failed := r.arr.Failed()
		if len(failed) == 0 || r.arr.Stats().Rebuild.Active {
			return
		}
		sl, err := r.drive(failed[0])
		if err != nil || r.arr.Rebuild(sl.f) != nil {
			return
		}
		r.slots[failed[0]] = sl
	}
}

// touch notes a fault on the drive now in slot m.
func (r *runner) touch(m int) {
	g := 0
	if r.s.Level == raid.RAID10 {
		g = m / 2
	}
	if r.faulty[g] == nil {
		r.faulty[g] = map[*faults.Device]bool{}
	}
	r.faulty[g][r.slots[m].f] = true
}

// exceeded reports whether the faults drawn may exceed the redundancy:
// more drives touched by faults in a group than the level survives.
func (r *runner) exceeded() bool {
	tol := tolerance(r.s.Level, r.s.Members)
	for _, ds := range r.faulty {
		if len(ds) > tol {
			return true
		}
	}
	return false
}

// tap passes requests from the cache to the array and keeps the writes
// in flight.
type tap struct {
	below  sim.Device
	flying map[*sim.Request]tapped
}

// tapped is a write in flight below the cache.
type tapped struct {
	off, n int64
	done   func(*sim.Request)
}

func (t *tap) Capacity() int64 { return t.below.Capacity() }
func (t *tap) SectorSize() int { return t.below.SectorSize() }
func (t *tap) Submit(q *sim.Request) error {
	if q.Op != sim.Write {
		return t.below.Submit(q)
	}
	if t.flying == nil {
		t.flying = map[*sim.Request]tapped{}
	}
	t.flying[q] = tapped{q.Offset, q.Length, q.Done}
	q.Done = t.done
	if err := t.below.Submit(q); err != nil {
		q.Done = t.flying[q].done
		delete(t.flying, q)
		return err
	}
	return nil
}

func (t *tap) done(q *sim.Request) {
	w := t.flying[q]
	delete(t.flying, q)
	q.Done = w.done
	q.Done(q)
}

// inFlight returns the writes in flight below the cache.
func (t *tap) inFlight() []raid.Extent {
	var out []raid.Extent
	for _, w := range t.flying {
		out = append(out, raid.Extent{Offset: w.off, Length: w.n})
	}
	return out
}
