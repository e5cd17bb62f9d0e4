package raidsim_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/raidsim/raidsim/disk"
	"github.com/raidsim/raidsim/raid"
	"github.com/raidsim/raidsim/sim"
	"github.com/raidsim/raidsim/trace"
)

// The RAID physics of issue 4 on Deskstar 7K160 members.

func deskstars(t testing.TB, eng *sim.Engine, n int) []sim.Device {
	t.Helper()
	p, err := disk.Preset("deskstar-7k160")
	if err != nil {
		t.Fatal(err)
	}
	devs := make([]sim.Device, n)
	for i := range devs {
		d, err := disk.New(eng, p, fmt.Sprintf("disk%d", i), nil)
		if err != nil {
			t.Fatal(err)
		}
		devs[i] = d
	}
	return devs
}

// replay runs w on dev and returns requests per second of virtual time
// and bytes per second.
func replay(t testing.TB, eng *sim.Engine, dev sim.Device, w trace.Workload) (iops, bps float64) {
	t.Helper()
	w = w.WithDefaults()
	src, err := trace.NewSynthetic(w, eng.Rand("workload"), dev.Capacity(), dev.SectorSize())
	if err != nil {
		t.Fatal(err)
	}
	res, err := trace.Replay(eng, dev, src, trace.ReplayOptions{IODepth: w.IODepth})
	if err != nil {
		t.Fatal(err)
	}
	s := res.Elapsed().Seconds()
	return float64(res.Completed) / s, float64(res.Completed*w.BS) / s
}

func newArray(t testing.TB, eng *sim.Engine, cfg raid.Config, n int) *raid.Array {
	t.Helper()
	a, err := raid.New(eng, cfg, deskstars(t, eng, n), "md0", nil)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func TestRAID0SequentialReadScales(t *testing.T) {
	w := trace.Workload{RW: trace.RWRead, BS: 128 << 10, IODepth: 4, NumIOs: 1500}
	eng := sim.NewEngine(1)
	_, one := replay(t, eng, deskstars(t, eng, 1)[0], w)
	eng = sim.NewEngine(1)
	a := newArray(t, eng, raid.Config{Level: raid.RAID0, StripeUnit: 64 << 10}, 2)
	_, two := replay(t, eng, a, w)
	t.Logf("sequential 128 KiB reads: one drive %.1f MB/s, 2-member RAID 0 %.1f MB/s (%.2fx)", one/1e6, two/1e6, two/one)
	if two < 1.8*one {
		t.Errorf("RAID 0 over 2 drives reads %.1f MB/s, want at least 1.8 x %.1f", two/1e6, one/1e6)
	}
}

func TestRAID5SmallWriteIOPS(t *testing.T) {
	// R: one member's random 4 KiB IOPS under the mix a RAID 5 small
	// write gives each member (half reads, half writes) at the depth it
	// sees (32 array writes x 2 member I/Os in flight / 4 members).
	const n = 4
	eng := sim.NewEngine(1)
	r, _ := replay(t, eng, deskstars(t, eng, 1)[0],
		trace.Workload{RW: trace.RWRandRW, RWMixRead: 50, BS: 4096, IODepth: 16, NumIOs: 3000})
	eng = sim.NewEngine(1)
	a := newArray(t, eng, raid.Config{Level: raid.RAID5, StripeUnit: 64 << 10}, n)
	got, _ := replay(t, eng, a, trace.Workload{RW: trace.RWRandWrite, BS: 4096, IODepth: 32, NumIOs: 3000})
	want := float64(n) * r / 4
	s := a.Stats()
	t.Logf("member R = %.0f IOPS; 4-member RAID 5 random 4 KiB writes at depth 32: %.0f IOPS, N*R/4 = %.0f (%.2fx); rmw %d rcw %d",
		r, got, want, got/want, s.RMWWrites, s.RCWWrites)
	if got < 0.7*want || got > 1.3*want {
		t.Errorf("RAID 5 small writes: %.0f IOPS, want N*R/4 = %.0f within 30%%", got, want)
	}
}

func TestRAID5SmallWriteCosts2Plus2(t *testing.T) {
	eng := sim.NewEngine(1)
	a := newArray(t, eng, raid.Config{Level: raid.RAID5, StripeUnit: 64 << 10}, 5)
	const ios = 500
	replay(t, eng, a, trace.Workload{RW: trace.RWRandWrite, BS: 4096, IODepth: 8, NumIOs: ios})
	s := a.Stats()
	var reads, writes int64
	for _, m := range s.Members {
		reads += m.Reads
		writes += m.Writes
	}
	t.Logf("5-member RAID 5, %d random 4 KiB writes: %d member reads, %d member writes, rmw %d", ios, reads, writes, s.RMWWrites)
	if reads != 2*ios || writes != 2*ios || s.RMWWrites != ios {
		t.Errorf("member reads %d, writes %d, rmw %d: want %d, %d, %d (2 reads + 2 writes each)", reads, writes, s.RMWWrites, 2*ios, 2*ios, ios)
	}
}

func TestRAID5FullStripeWritesDoNotRead(t *testing.T) {
	eng := sim.NewEngine(1)
	a := newArray(t, eng, raid.Config{Level: raid.RAID5, StripeUnit: 64 << 10}, 4)
	const ios = 300
	_, bps := replay(t, eng, a, trace.Workload{RW: trace.RWWrite, BS: a.FullStripe(), IODepth: 4, NumIOs: ios})
	s := a.Stats()
	t.Logf("full-stripe sequential writes: %.1f MB/s, %d full-stripe, %d pre-read bytes", bps/1e6, s.FullStripeWrites, s.PrereadBytes)
	if s.PrereadBytes != 0 || s.PrereadIOs != 0 || s.FullStripeWrites != ios || s.RMWWrites+s.RCWWrites != 0 {
		t.Errorf("stats %+v: want %d full-stripe writes and no pre-reads", s, ios)
	}
}

// dataLoop keeps depth requests with real bytes outstanding on a: random
// 16 KiB writes and reads within the first 32 MiB, checking every read
// against the last acknowledged write. It stops after n requests.
type dataLoop struct {
	t        *testing.T
	eng      *sim.Engine
	a        *raid.Array
	model    []byte
	left     int
	lost     int
	ok       int
	strict   bool // every request must succeed
	inflight map[int64]int
}

func (l *dataLoop) next(r *sim.Request) {
	if l.left == 0 {
		return
	}
	l.left--
	rng := l.eng.Rand("data")
	const bs = 16 << 10
	r.Offset = rng.Int64N(int64(len(l.model))/bs) * bs
	for l.inflight[r.Offset] > 0 { // keep overlapping requests apart
		r.Offset = rng.Int64N(int64(len(l.model))/bs) * bs
	}
	l.inflight[r.Offset]++
	r.Length = bs
	if r.Data == nil {
		r.Data = make([]byte, bs)
	}
	r.Op = sim.Read
	if rng.IntN(2) == 0 {
		r.Op = sim.Write
		for i := 0; i < len(r.Data); i += 8 {
			binary.LittleEndian.PutUint64(r.Data[i:], rng.Uint64())
		}
	}
	if err := l.a.Submit(r); err != nil {
		l.t.Fatal(err)
	}
}

func (l *dataLoop) done(r *sim.Request) {
	l.inflight[r.Offset]--
	switch {
	case r.Err != nil:
		if l.strict || !errors.Is(r.Err, raid.ErrDataLost) {
			l.t.Errorf("%v: %v", r, r.Err)
		}
		l.lost++
	case r.Op == sim.Write:
		copy(l.model[r.Offset:], r.Data)
		l.ok++
	default:
		if !bytes.Equal(r.Data, l.model[r.Offset:r.End()]) {
			l.t.Errorf("%v at %v: wrong data", r, l.eng.Now())
		}
		l.ok++
	}
	l.next(r)
}

func (l *dataLoop) run(depth int) {
	for range depth {
		l.next(&sim.Request{Done: l.done})
	}
	l.eng.Run()
}

func TestRAID5DegradedOnDrives(t *testing.T) {
	eng := sim.NewEngine(1)
	a := newArray(t, eng, raid.Config{Level: raid.RAID5, StripeUnit: 64 << 10}, 4)
	if err := a.FailAt(sim.Time(time.Second), 1); err != nil {
		t.Fatal(err)
	}
	l := &dataLoop{t: t, eng: eng, a: a, model: make([]byte, 32<<20), left: 4000, strict: true, inflight: map[int64]int{}}
	l.run(16)
	s := a.Stats()
	t.Logf("failed member 1 at 1s; run ended at %v; %d requests ok, degraded reads %d, degraded stripe writes %d",
		eng.Now(), l.ok, s.DegradedReads, s.DegradedWrites)
	if eng.Now() < sim.Time(time.Second) || s.DegradedReads == 0 || l.ok != 4000 {
		t.Errorf("want the run to outlast the failure, all 4000 requests served and degraded reads counted")
	}

	// A second failure kills the requests that need both members.
	if err := a.Fail(3); err != nil {
		t.Fatal(err)
	}
	l.left, l.ok, l.strict = 400, 0, false
	l.run(16)
	t.Logf("after a second failure: %d requests ok, %d failed with ErrDataLost", l.ok, l.lost)
	if l.lost == 0 || l.ok == 0 {
		t.Errorf("ok %d, lost %d: want both (reads of live members still work)", l.ok, l.lost)
	}
}

func TestRAID5RebuildOnDrives(t *testing.T) {
	eng := sim.NewEngine(1)
	p, err := disk.Preset("deskstar-7k160")
	if err != nil {
		t.Fatal(err)
	}
	p.Capacity = 256 << 20 // a short drive, so the rebuild is quick
	devs := make([]sim.Device, 5)
	for i := range devs {
		d, err := disk.New(eng, p, fmt.Sprintf("disk%d", i), nil)
		if err != nil {
			t.Fatal(err)
		}
		devs[i] = d
	}
	a, err := raid.New(eng, raid.Config{Level: raid.RAID5, StripeUnit: 64 << 10, RebuildRate: 50e6}, devs[:4], "md0", nil)
	if err != nil {
		t.Fatal(err)
	}
	_ = a.Fail(2)
	if err := a.Rebuild(devs[4]); err != nil {
		t.Fatal(err)
	}
	_, bps := replay(t, eng, a, trace.Workload{RW: trace.RWRandRead, BS: 4096, IODepth: 4, NumIOs: 2000})
	eng.Run()
	rs := a.Stats().Rebuild
	t.Logf("rebuild of %d MiB at up to 50 MB/s beside random reads (%.2f MB/s): took %v", rs.Total>>20, bps/1e6, rs.Duration)
	if !rs.Done || rs.Duration < time.Duration(float64(rs.Total-a.StripeUnit())/50e6*float64(time.Second)) {
		t.Errorf("rebuild %+v: want done, no faster than the rate allows", rs)
	}
}
