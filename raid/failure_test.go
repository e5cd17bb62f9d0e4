package raid_test

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/raidsim/raidsim/faults"
	"github.com/raidsim/raidsim/raid"
	"github.com/raidsim/raidsim/sim"
	"github.com/raidsim/raidsim/simtest"
)

// slowArray is an array of MemDevices (real bytes) where the members in
// slow serve one request at a time, 10 ms each, and the others take
// 100 µs; it is filled with random bytes, which it returns.
func slowArray(t *testing.T, cfg raid.Config, n int, slow ...int) (*sim.Engine, *raid.Array, []*simtest.MemDevice, []byte) {
	t.Helper()
	eng := sim.NewEngine(1)
	mems := make([]*simtest.MemDevice, n)
	devs := make([]sim.Device, n)
	for i := range n {
		mc := simtest.MemConfig{Capacity: 1 << 20, ReadLatency: 100 * time.Microsecond, WriteLatency: 100 * time.Microsecond}
		for _, s := range slow {
			if s == i {
				mc.ReadLatency, mc.WriteLatency, mc.Serial = 10*time.Millisecond, 10*time.Millisecond, true
			}
		}
		m, err := simtest.NewMemDevice(eng, mc)
		require.NoError(t, err)
		mems[i], devs[i] = m, m
	}
	a, err := raid.New(eng, cfg, devs, "md0", nil)
	require.NoError(t, err)
	want := make([]byte, a.Capacity())
	rng := rand.New(rand.NewPCG(5, 5))
	for i := range want {
		want[i] = byte(rng.Uint32())
	}
	for off := int64(0); off < a.Capacity(); off += 64 << 10 {
		r := &sim.Request{Op: sim.Write, Offset: off, Length: 64 << 10, Data: want[off : off+64<<10], Done: func(r *sim.Request) { require.NoError(t, r.Err) }}
		require.NoError(t, a.Submit(r))
	}
	eng.Run()
	return eng, a, mems, want
}

// TestFailEndsRequestsInFlight: a member that fails ends the requests
// queued and in flight on it at that instant, and md's handling serves
// them degraded: 8 reads queued on a slow member (10 ms each, one at a
// time) when it fails 1 ms in all complete within 2 ms with the right
// bytes, where they used to be served by the failed member up to 80 ms
// later. On RAID 6 with two members failed at 0 s a read is served
// without them.
func TestFailEndsRequestsInFlight(t *testing.T) {
	for _, tc := range []struct {
		cfg  raid.Config
		n    int
		slow []int
	}{
		{raid.Config{Level: raid.RAID5, StripeUnit: 4096}, 4, []int{1}},
		{raid.Config{Level: raid.RAID6, StripeUnit: 4096}, 6, []int{1}},
		{raid.Config{Level: raid.RAID6, StripeUnit: 4096}, 6, []int{1, 4}},
		{raid.Config{Level: raid.RAID10, StripeUnit: 4096}, 4, []int{0}},
		{raid.Config{Level: raid.RAID1, StripeUnit: 4096}, 2, []int{0}},
	} {
		t.Run(fmt.Sprintf("%v failing %v", tc.cfg.Level, tc.slow), func(t *testing.T) {
			eng, a, _, want := slowArray(t, tc.cfg, tc.n, tc.slow...)
			start := eng.Now()
			failAt := start.Add(time.Millisecond)
			if len(tc.slow) == 2 {
				failAt = start // two members failed "at 0 s"
			}
			var reads []*sim.Request
			for off := int64(0); len(reads) < 8; off += 4096 {
				if m := a.Mapping().Locate(off).Member; m != tc.slow[0] && tc.cfg.Level != raid.RAID1 {
					continue
				}
				r := &sim.Request{Op: sim.Read, Offset: off, Length: 4096, Data: make([]byte, 4096), Done: func(*sim.Request) {}}
				require.NoError(t, a.Submit(r))
				reads = append(reads, r)
			}
			for _, m := range tc.slow {
				require.NoError(t, a.FailAt(failAt, m))
			}
			eng.Run()
			for _, r := range reads {
				require.NoError(t, r.Err, "%v", r)
				assert.Equal(t, want[r.Offset:r.End()], r.Data, "%v: the bytes written", r)
				assert.LessOrEqual(t, r.Completed, failAt.Add(time.Millisecond), "%v is served without the failed member", r)
			}
			assert.NotZero(t, a.Stats().DegradedReads)
		})
	}
}

// TestFailedWriteStandsOnTheRest: a member that fails while a write is
// in flight on it leaves the write to the other members (parity or
// copies); it is acknowledged and reads back, degraded.
func TestFailedWriteStandsOnTheRest(t *testing.T) {
	for _, lv := range []struct {
		cfg raid.Config
		n   int
	}{{raid.Config{Level: raid.RAID5, StripeUnit: 4096}, 4}, {raid.Config{Level: raid.RAID6, StripeUnit: 4096}, 5},
		{raid.Config{Level: raid.RAID10, StripeUnit: 4096}, 4}, {raid.Config{Level: raid.RAID1, StripeUnit: 4096}, 3}} {
		for victim := range lv.n {
			eng, a, _, want := slowArray(t, lv.cfg, lv.n, victim)
			data := bytes.Repeat([]byte{0xa5}, 3*4096)
			off := int64(4096 + 512)
			w := &sim.Request{Op: sim.Write, Offset: off, Length: int64(len(data)), Data: data, Done: func(*sim.Request) {}}
			require.NoError(t, a.Submit(w))
			require.NoError(t, a.FailAt(eng.Now().Add(5*time.Millisecond), victim))
			eng.Run()
			require.NoError(t, w.Err, "%v, member %d failed", lv.cfg.Level, victim)
			copy(want[off:], data)
			got := make([]byte, 64<<10)
			require.NoError(t, do(t, eng, a, sim.Read, 0, 64<<10), "%v", lv.cfg.Level)
			r := &sim.Request{Op: sim.Read, Offset: 0, Length: 64 << 10, Data: got, Done: func(*sim.Request) {}}
			require.NoError(t, a.Submit(r))
			eng.Run()
			require.NoError(t, r.Err)
			require.Equal(t, want[:64<<10], got, "%v, member %d failed mid-write", lv.cfg.Level, victim)
		}
	}
}

// TestWriteErrorKicksMember: a write that fails on a member fails the
// member (md_error): the write stands on the rest, the member is out and
// marked Kicked, and the data reads back degraded. RAID 0 has nothing
// to fail over to: the error goes up and the member stays.
func TestWriteErrorKicksMember(t *testing.T) {
	bad := errors.New("write error")
	for _, lv := range []struct {
		cfg raid.Config
		n   int
	}{{raid.Config{Level: raid.RAID5, StripeUnit: 4096}, 4}, {raid.Config{Level: raid.RAID6, StripeUnit: 4096}, 5},
		{raid.Config{Level: raid.RAID10, StripeUnit: 4096}, 4}, {raid.Config{Level: raid.RAID1, StripeUnit: 4096}, 2},
		{raid.Config{Level: raid.RAID0, StripeUnit: 4096}, 2}} {
		eng, a, mems, want := slowArray(t, lv.cfg, lv.n)
		m := a.Mapping().Locate(8192).Member
		mems[m].SetFault(func(r *sim.Request) error {
			if r.Op == sim.Write {
				return bad
			}
			return nil
		})
		data := bytes.Repeat([]byte{7}, 4096)
		w := &sim.Request{Op: sim.Write, Offset: 8192, Length: 4096, Data: data, Done: func(*sim.Request) {}}
		require.NoError(t, a.Submit(w))
		eng.Run()
		st := a.Stats().Members[m]
		if lv.cfg.Level == raid.RAID0 {
			assert.ErrorIs(t, w.Err, bad)
			assert.False(t, st.Failed)
			continue
		}
		require.NoError(t, w.Err, "%v", lv.cfg.Level)
		assert.True(t, st.Failed && st.Kicked, "%v: member %d kicked: %+v", lv.cfg.Level, m, st)
		copy(want[8192:], data)
		got := make([]byte, 32<<10)
		r := &sim.Request{Op: sim.Read, Offset: 0, Length: 32 << 10, Data: got, Done: func(*sim.Request) {}}
		require.NoError(t, a.Submit(r))
		eng.Run()
		require.NoError(t, r.Err)
		assert.Equal(t, want[:32<<10], got, "%v", lv.cfg.Level)
	}
}

// TestRAID10LosesOnlyThePair: a read error on a RAID 10 member whose
// mirror has failed loses that range of the pair, and nothing of
// another pair that also lacks a member (found by the fault campaign,
// seed 916: the array named the other pair's range lost too).
func TestRAID10LosesOnlyThePair(t *testing.T) {
	eng := sim.NewEngine(1)
	devs, fd := tlerMembers(t, eng, 4, simtest.MemConfig{Capacity: 1 << 20})
	a, err := raid.New(eng, raid.Config{Level: raid.RAID10, StripeUnit: 4096}, devs, "md0", nil)
	require.NoError(t, err)
	require.NoError(t, a.Fail(1)) // pair 0 on member 0 alone
	require.NoError(t, a.Fail(3)) // pair 1 on member 2 alone
	fd[0].MarkBad(1)              // logical chunk 0, sector 1
	err = do(t, eng, a, sim.Read, 0, 4096)
	require.ErrorIs(t, err, raid.ErrLostInRebuild)
	assert.Equal(t, []raid.Extent{{Offset: 0, Length: 4096}}, a.LostRanges(), "pair 0's chunk only")
	assert.NoError(t, do(t, eng, a, sim.Read, 4096, 4096), "pair 1 reads on")
}

// TestRepairIsOrderedWithWrites: a read error's repair reads another
// copy and rewrites the bad member; a write to the same range arriving
// meanwhile waits for it (md freezes the array for fix_read_error), so
// the repair never writes back bytes older than an acknowledged write
// (found by the fault campaign, seed 938: the rewrite landed after the
// write on one member, leaving the mirrors disagreeing and the newer
// data lost there).
func TestRepairIsOrderedWithWrites(t *testing.T) {
	eng := sim.NewEngine(1)
	lat := []time.Duration{100 * time.Microsecond, 20 * time.Millisecond}
	devs := make([]sim.Device, 2)
	var mems []*simtest.MemDevice
	var fd []*faults.Device
	for i := range devs {
		f, m := tlerMember(t, eng, i, simtest.MemConfig{Capacity: 1 << 20, ReadLatency: time.Millisecond, WriteLatency: lat[i]})
		devs[i], mems, fd = f, append(mems, m), append(fd, f)
	}
	a, err := raid.New(eng, raid.Config{Level: raid.RAID1, StripeUnit: 4096}, devs, "md0", nil)
	require.NoError(t, err)
	fd[0].MarkBad(1)
	r := &sim.Request{Op: sim.Read, Offset: 0, Length: 4096, Data: make([]byte, 4096), Done: func(*sim.Request) {}}
	require.NoError(t, a.Submit(r))
	eng.RunUntil(sim.Time(faults.TLER + 500*time.Microsecond)) // the repair is reading disk1
	neu := bytes.Repeat([]byte{0x5a}, 4096)
	w := &sim.Request{Op: sim.Write, Offset: 0, Length: 4096, Data: neu, Done: func(*sim.Request) {}}
	require.NoError(t, a.Submit(w))
	eng.Run()
	require.NoError(t, r.Err)
	require.NoError(t, w.Err)
	for i, m := range mems {
		got := make([]byte, 4096)
		_, err := m.ReadAt(got, 0)
		require.NoError(t, err)
		assert.Equal(t, neu, got, "member %d holds the acknowledged write", i)
	}
}

// TestWriteMakesLostRangeGood: a range lost in a rebuild (its source
// dead) is good again once a write succeeds over it, as md clears a bad
// block a write makes good: LostRanges shrinks by what was written and
// reads there return it (found by the fault campaign's soak, seed
// 1007806: the array kept naming written data lost).
func TestWriteMakesLostRangeGood(t *testing.T) {
	eng := sim.NewEngine(1)
	devs, fd := tlerMembers(t, eng, 2, simtest.MemConfig{Capacity: 1 << 20})
	a, err := raid.New(eng, raid.Config{Level: raid.RAID1, StripeUnit: 4096, RebuildData: true}, devs, "md0", nil)
	require.NoError(t, err)
	require.NoError(t, a.Fail(1))
	fd[0].MarkBad(9) // row 1: the rebuild cannot read it
	spare, err := simtest.NewMemDevice(eng, simtest.MemConfig{Capacity: 1 << 20})
	require.NoError(t, err)
	require.NoError(t, a.Rebuild(spare))
	eng.Run()
	require.Equal(t, []raid.Extent{{Offset: 4096, Length: 4096}}, a.LostRanges())
	data := bytes.Repeat([]byte{0x77}, 1024)
	require.NoError(t, a.Submit(&sim.Request{Op: sim.Write, Offset: 5120, Length: 1024, Data: data, Done: func(r *sim.Request) { require.NoError(t, r.Err) }}))
	eng.Run()
	assert.Equal(t, []raid.Extent{{Offset: 4096, Length: 1024}, {Offset: 6144, Length: 2048}}, a.LostRanges())
	got := make([]byte, 1024)
	r := &sim.Request{Op: sim.Read, Offset: 5120, Length: 1024, Data: got, Done: func(*sim.Request) {}}
	require.NoError(t, a.Submit(r))
	eng.Run()
	require.NoError(t, r.Err)
	assert.Equal(t, data, got)
}

// TestTimeoutMismatchKicksDesktopDrive: md's behaviour with a drive that
// retries an unreadable sector longer than the host waits (the Linux
// RAID wiki's "timeout mismatch"). A desktop drive (2 minutes of
// recovery) under Linux's 30 s command timer: the read times out at
// 30 s, md serves it from the redundancy and rewrites the sector, the
// drive, still recovering, lets the rewrite time out too (60 s), and md
// fails it: kicked, the array degraded. A drive with TLER (7 s) reports
// the error in time, the rewrite remaps the sector, and it stays.
func TestTimeoutMismatchKicksDesktopDrive(t *testing.T) {
	for _, erc := range []time.Duration{0, faults.TLER} {
		eng := sim.NewEngine(1)
		devs := make([]sim.Device, 4)
		var fd []*faults.Device
		for i := range devs {
			m, err := simtest.NewMemDevice(eng, simtest.MemConfig{Capacity: 1 << 20, ReadLatency: time.Millisecond, WriteLatency: time.Millisecond})
			require.NoError(t, err)
			f, err := faults.New(eng, m, faults.Config{ERC: erc, Timeout: faults.LinuxTimeout}, fmt.Sprintf("disk%d", i))
			require.NoError(t, err)
			devs[i], fd = f, append(fd, f)
		}
		a, err := raid.New(eng, raid.Config{Level: raid.RAID5, StripeUnit: 4096}, devs, "md0", nil)
		require.NoError(t, err)
		data := bytes.Repeat([]byte{3}, 3*4096)
		require.NoError(t, a.Submit(&sim.Request{Op: sim.Write, Offset: 0, Length: 3 * 4096, Data: data, Done: func(*sim.Request) {}}))
		eng.Run()
		fd[1].MarkBad(3) // a sector of member 1's chunk in stripe 0
		got := make([]byte, 3*4096)
		r := &sim.Request{Op: sim.Read, Offset: 0, Length: 3 * 4096, Data: got, Done: func(*sim.Request) {}}
		start := eng.Now()
		require.NoError(t, a.Submit(r))
		eng.Run()
		require.NoError(t, r.Err, "the read is served from the parity")
		assert.Equal(t, data, got)
		st := a.Stats().Members[1]
		if erc == 0 {
			assert.True(t, st.Failed && st.Kicked, "the desktop drive is kicked: %+v", st)
			// The read's timer, the other members' reads (1 ms), the
			// rewrite's timer.
			assert.Equal(t, start.Add(2*faults.LinuxTimeout+time.Millisecond), st.FailedAt, "when the rewrite times out")
			assert.Equal(t, int64(2), fd[1].Stats().Timeouts)
		} else {
			assert.False(t, st.Failed, "the TLER drive stays")
			assert.Empty(t, fd[1].BadSectors(), "its sector rewritten")
		}
	}
}

// tlerMember is array member i for the fault tests: a MemDevice (real
// bytes) of cfg behind a faults wrapper with TLER error recovery.
func tlerMember(t *testing.T, eng *sim.Engine, i int, cfg simtest.MemConfig) (*faults.Device, *simtest.MemDevice) {
	t.Helper()
	m, err := simtest.NewMemDevice(eng, cfg)
	require.NoError(t, err)
	f, err := faults.New(eng, m, faults.Config{ERC: faults.TLER}, fmt.Sprintf("disk%d", i))
	require.NoError(t, err)
	return f, m
}

// tlerMembers is n tlerMembers, as devices for raid.New and as their
// fault wrappers.
func tlerMembers(t *testing.T, eng *sim.Engine, n int, cfg simtest.MemConfig) ([]sim.Device, []*faults.Device) {
	t.Helper()
	devs := make([]sim.Device, n)
	fd := make([]*faults.Device, n)
	for i := range devs {
		fd[i], _ = tlerMember(t, eng, i, cfg)
		devs[i] = fd[i]
	}
	return devs, fd
}
