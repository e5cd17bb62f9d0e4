package crashcheck_test

import (
	"io"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/raidsim/raidsim/faults"
	"github.com/raidsim/raidsim/raid"
	"github.com/raidsim/raidsim/raid/crashcheck"
	"github.com/raidsim/raidsim/sim"
	"github.com/raidsim/raidsim/simtest"
)

const crashUnit = 16 << 10

// crashRig is a RAID 5 of four MemDevices (real bytes), member 3 slow to
// write, optionally each behind a volatile write cache, filled with
// seeded random bytes.
type crashRig struct {
	eng    *sim.Engine
	a      *raid.Array
	mems   []*simtest.MemDevice
	caches []*faults.Device
	before []byte
	rng    *rand.Rand
}

func newCrashRig(t *testing.T, writeCache bool) *crashRig {
	t.Helper()
	r := &crashRig{eng: sim.NewEngine(1), rng: rand.New(rand.NewPCG(16, 16))}
	devs := make([]sim.Device, 4)
	for i := range devs {
		lat := time.Millisecond
		if i == 3 {
			lat = 50 * time.Millisecond
		}
		m, err := simtest.NewMemDevice(r.eng, simtest.MemConfig{Capacity: 1 << 20, ReadLatency: time.Millisecond, WriteLatency: lat})
		require.NoError(t, err)
		r.mems, devs[i] = append(r.mems, m), m
		if writeCache {
			f, err := faults.New(r.eng, m, faults.Config{WriteCache: true}, "disk")
			require.NoError(t, err)
			r.caches, devs[i] = append(r.caches, f), f
		}
	}
	a, err := raid.New(r.eng, raid.Config{Level: raid.RAID5, StripeUnit: crashUnit}, devs, "md0", nil)
	require.NoError(t, err)
	r.a = a
	r.before = r.bytes(int(a.Capacity()))
	for off := 0; off < len(r.before); off += 64 << 10 {
		r.submit(t, int64(off), r.before[off:off+64<<10], nil)
	}
	r.eng.Run()
	return r
}

func (r *crashRig) bytes(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.rng.Uint32())
	}
	return b
}

func (r *crashRig) submit(t *testing.T, off int64, data []byte, acked *bool) {
	t.Helper()
	req := &sim.Request{Op: sim.Write, Offset: off, Length: int64(len(data)), Data: data, Done: func(q *sim.Request) {
		require.NoError(t, q.Err)
		if acked != nil {
			*acked = true
		}
	}}
	require.NoError(t, r.a.Submit(req))
}

// input describes the members as the crash left them.
func (r *crashRig) input(writes []crashcheck.HostWrite) crashcheck.Input {
	in := crashcheck.Input{Mapping: r.a.Mapping(), SectorSize: 512, MemberBytes: r.a.Geometry().MemberBytes,
		Before: r.before, Writes: writes}
	for i, m := range r.mems {
		in.Members = append(in.Members, m)
		if r.caches != nil {
			var lost []raid.Extent
			for _, e := range r.caches[i].Unpersisted() {
				lost = append(lost, raid.Extent{Offset: e.Offset, Length: e.Length})
			}
			in.CacheLost = append(in.CacheLost, lost)
		}
	}
	return in
}

// degradedRead restarts the array from the crashed members' bytes (new
// devices on a new engine), fails member fail, reads everything back
// and returns the sectors that match no version the host wrote.
func degradedRead(t *testing.T, in crashcheck.Input, fail int, writes []crashcheck.HostWrite) []raid.Extent {
	t.Helper()
	eng := sim.NewEngine(2)
	devs := make([]sim.Device, len(in.Members))
	for i, r := range in.Members {
		m, err := simtest.NewMemDevice(eng, simtest.MemConfig{Capacity: 1 << 20})
		require.NoError(t, err)
		b := make([]byte, 1<<20)
		_, err = r.ReadAt(b, 0)
		require.NoError(t, err)
		_, err = m.WriteAt(b, 0)
		require.NoError(t, err)
		devs[i] = m
	}
	a, err := raid.New(eng, raid.Config{Level: raid.RAID5, StripeUnit: crashUnit}, devs, "restarted", nil)
	require.NoError(t, err)
	require.NoError(t, a.Fail(fail))
	got := make([]byte, a.Capacity())
	req := &sim.Request{Op: sim.Read, Length: a.Capacity(), Data: got, Done: func(*sim.Request) {}}
	require.NoError(t, a.Submit(req))
	eng.Run()
	require.NoError(t, req.Err)
	// Compare sector by sector with every version the host wrote.
	versions := func(off int64) [][]byte {
		vs := [][]byte{in.Before[off : off+512]}
		for _, w := range writes {
			if off >= w.Offset && off < w.Offset+int64(len(w.Data)) {
				vs = append(vs, w.Data[off-w.Offset:off-w.Offset+512])
			}
		}
		return vs
	}
	var wrong []raid.Extent
	for off := int64(0); off < int64(len(got)); off += 512 {
		want := versions(off)
		acked := want[len(want)-1] // Before, or the last write here (acked ones last in these tests)
		okay := string(got[off:off+512]) == string(acked)
		for _, v := range want {
			okay = okay || string(got[off:off+512]) == string(v) && !isAckedOver(writes, off)
		}
		if okay {
			continue
		}
		if n := len(wrong); n > 0 && wrong[n-1].End() == off {
			wrong[n-1].Length += 512
		} else {
			wrong = append(wrong, raid.Extent{Offset: off, Length: 512})
		}
	}
	return wrong
}

// isAckedOver reports whether an acknowledged write covers off (then
// only its bytes are right).
func isAckedOver(writes []crashcheck.HostWrite, off int64) bool {
	for _, w := range writes {
		if w.Acked && off >= w.Offset && off < w.Offset+int64(len(w.Data)) {
			return true
		}
	}
	return false
}

// TestWriteHole: power fails between the data and the parity write of
// one RAID 5 stripe (the parity member is slow). After the restart
// nothing acknowledged is lost and the stripe is inconsistent; failing
// another member of the stripe makes exactly its sectors at the write's
// offsets read back wrong: Check names them, and a restarted,
// degraded array's real bytes agree.
func TestWriteHole(t *testing.T) {
	r := newCrashRig(t, false)
	w := crashcheck.HostWrite{Offset: 4096, Data: r.bytes(4096)} // stripe 0, member 0; parity on member 3
	var acked bool
	r.submit(t, w.Offset, w.Data, &acked)
	r.eng.RunUntil(r.eng.Now().Add(10 * time.Millisecond))
	require.False(t, acked, "the parity write is still on its way")
	require.Equal(t, 1, r.a.UpdatesInFlight())
	in := r.input([]crashcheck.HostWrite{w})
	cc, err := crashcheck.Check(in)
	require.NoError(t, err)
	assert.Empty(t, cc.LostWrites)
	assert.Empty(t, cc.TornWrites)
	assert.Empty(t, cc.WrongSectors, "the in-flight write's new bytes are allowed")
	assert.Equal(t, []int64{0}, cc.Inconsistent)
	assert.Empty(t, cc.CacheMade)

	want := []raid.Extent{{Offset: crashUnit + 4096, Length: 4096}} // member 1's data unit of stripe 0, at the write's offsets
	got, err := in.ReconstructWrong(1)
	require.NoError(t, err)
	assert.Equal(t, want, got)
	assert.Equal(t, want, degradedRead(t, in, 1, []crashcheck.HostWrite{w}), "the degraded array's real bytes")
	got, err = in.ReconstructWrong(0)
	require.NoError(t, err)
	assert.Empty(t, got, "failing the member that holds the new data loses nothing acknowledged")
}

// TestDriveCachesLoseAcknowledgedWrites: members behind volatile write
// caches acknowledge both halves of two stripe updates; member 3 (slow)
// has not written its half when the power fails. Stripe 0 lost its
// parity update, stripe 1 its data: both stripes are inconsistent, made
// so by the drive caches; write B, acknowledged, is lost; failing
// member 1 reads wrong in both stripes.
func TestDriveCachesLoseAcknowledgedWrites(t *testing.T) {
	r := newCrashRig(t, true)
	fs := 3 * int64(crashUnit)
	a := crashcheck.HostWrite{Offset: 4096, Data: r.bytes(4096), Acked: true}      // data member 0, parity member 3
	b := crashcheck.HostWrite{Offset: fs + 4096, Data: r.bytes(4096), Acked: true} // data member 3, parity member 2
	var ackA, ackB bool
	r.submit(t, a.Offset, a.Data, &ackA)
	r.submit(t, b.Offset, b.Data, &ackB)
	r.eng.RunUntil(r.eng.Now().Add(10 * time.Millisecond))
	require.True(t, ackA && ackB, "the caches acknowledged both")
	require.Zero(t, r.a.UpdatesInFlight(), "the array sees both stripes written")
	writes := []crashcheck.HostWrite{a, b}
	in := r.input(writes)
	cc, err := crashcheck.Check(in)
	require.NoError(t, err)
	assert.Equal(t, []int{1}, cc.LostWrites)
	assert.Equal(t, []raid.Extent{{Offset: b.Offset, Length: 4096}}, cc.WrongSectors)
	assert.Equal(t, []int64{0, 1}, cc.Inconsistent)
	assert.Equal(t, []int64{0, 1}, cc.CacheMade)

	want := []raid.Extent{
		{Offset: int64(crashUnit) + 4096, Length: 4096},        // stripe 0, member 1: stale parity
		{Offset: b.Offset, Length: 4096},                       // B itself, lost
		{Offset: fs + 2*int64(crashUnit) + 4096, Length: 4096}, // stripe 1, member 1: parity with B, data without
	}
	got, err := in.ReconstructWrong(1)
	require.NoError(t, err)
	assert.Equal(t, want, got)
	assert.Equal(t, want, degradedRead(t, in, 1, writes))
}

var _ io.ReaderAt = (*simtest.MemDevice)(nil)
