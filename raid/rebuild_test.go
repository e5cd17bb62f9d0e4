package raid_test

import (
	"errors"
	"testing"
	"time"

	"github.com/raidsim/raidsim/raid"
	"github.com/raidsim/raidsim/sim"
	"github.com/raidsim/raidsim/simtest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRebuildRefusals(t *testing.T) {
	eng := sim.NewEngine(1)
	_, devs := memMembers(t, eng, 4, 1<<20)
	a, err := raid.New(eng, raid.Config{Level: raid.RAID5, StripeUnit: 64 << 10}, devs, "md0", nil)
	require.NoError(t, err)
	spare := mem(t, eng, 1<<20, 512)
	assert.EqualError(t, a.Rebuild(spare), "raid: md0: no failed member to rebuild")
	require.NoError(t, a.Fail(2))
	err = a.Rebuild(mem(t, eng, 512<<10, 4096))
	assert.ErrorContains(t, err, "raid: md0: spare has 4096-byte sectors, the members 512")
	assert.ErrorContains(t, err, "raid: md0: spare holds 524288 bytes, the array uses 1048576 of each member")
	require.NoError(t, a.Fail(0))
	assert.True(t, errors.Is(a.Rebuild(spare), raid.ErrDataLost))
	assert.Error(t, a.FailAt(-1, 1))
	eng.RunUntil(10)
	assert.EqualError(t, a.FailAt(5, 1), "raid: md0: failure of member 1 at 5ns is before now (10ns)")
}

// TestRebuildPacing rebuilds a RAID 1 member at a fixed rate: it takes
// the member's bytes over the rate, the mirror ends identical, and the
// spare's share of the work shows in its slot's statistics.
func TestRebuildPacing(t *testing.T) {
	eng := sim.NewEngine(1)
	mems, devs := memMembers(t, eng, 2, 1<<20)
	a, err := raid.New(eng, raid.Config{Level: raid.RAID1, StripeUnit: 64 << 10, RebuildRate: 10 << 20, RebuildData: true}, devs, "md0", nil)
	require.NoError(t, err)
	data := make([]byte, 1<<20)
	for i := range data {
		data[i] = byte(i * 7)
	}
	_, _ = mems[0].WriteAt(data, 0)
	_, _ = mems[1].WriteAt(data, 0)
	require.NoError(t, a.Fail(1))
	spare, err := simtest.NewMemDevice(eng, simtest.MemConfig{Capacity: 1 << 20})
	require.NoError(t, err)
	require.NoError(t, a.Rebuild(spare))
	eng.RunUntil(sim.Time(50 * time.Millisecond))
	rs := a.Stats().Rebuild
	assert.True(t, rs.Active)
	assert.InDelta(t, 0.5, rs.Progress, 0.07, "half way at half time")
	eng.Run()
	rs = a.Stats().Rebuild
	assert.True(t, rs.Done)
	assert.Equal(t, int64(1<<20), rs.Bytes)
	// 16 steps of 64 KiB start 6.25ms apart; the last one starts at
	// 93.75ms and takes one read and one write.
	assert.InDelta(t, 93.75*float64(time.Millisecond), float64(rs.Duration), float64(time.Millisecond))
	assert.True(t, spare.Equal(mems[0]), "the spare holds the mirror's bytes")
	s := a.Stats()
	assert.Equal(t, int64(16), s.Members[1].Writes)
	assert.Empty(t, a.Failed())
}

func TestSpareFailureStopsRebuild(t *testing.T) {
	eng := sim.NewEngine(1)
	_, devs := memMembers(t, eng, 3, 1<<20)
	a, err := raid.New(eng, raid.Config{Level: raid.RAID5, StripeUnit: 64 << 10, RebuildRate: 10 << 20}, devs, "md0", nil)
	require.NoError(t, err)
	require.NoError(t, a.Fail(0))
	require.NoError(t, a.Rebuild(mem(t, eng, 1<<20, 512)))
	require.NoError(t, a.FailAt(sim.Time(20*time.Millisecond), 0))
	eng.Run()
	rs := a.Stats().Rebuild
	assert.False(t, rs.Active)
	assert.False(t, rs.Done)
	assert.ErrorContains(t, rs.Err, "spare for member 0 failed during rebuild")
	assert.Equal(t, []int{0}, a.Failed())
	// A new spare starts over.
	require.NoError(t, a.Rebuild(mem(t, eng, 1<<20, 512)))
	eng.Run()
	assert.True(t, a.Stats().Rebuild.Done)
	assert.Empty(t, a.Failed())
}

// TestRebuildRestartedAfterSpareFailure: the spare dies mid-rebuild and
// a new one takes over at once, while writes go on; the new spare ends
// holding exactly the lost member's bytes.
func TestRebuildRestartedAfterSpareFailure(t *testing.T) {
	for seed := uint64(1); seed <= 4; seed++ {
		cfg := raid.Config{Level: raid.RAID5, StripeUnit: 16 << 10, RebuildData: true, RebuildRate: 100 << 20}
		w := newWorld(t, cfg, 4, 512<<10, seed)
		w.writes(20)
		w.drain()
		require.NoError(t, w.a.Fail(1))
		w.writes(10)
		w.drain()
		spare1, _ := simtest.NewMemDevice(w.eng, simtest.MemConfig{Capacity: 512 << 10})
		w.jitter(spare1)
		require.NoError(t, w.a.Rebuild(spare1))
		w.writes(5)
		w.eng.RunUntil(w.eng.Now().Add(2 * time.Millisecond))
		require.NoError(t, w.a.Fail(1)) // the spare
		spare2, _ := simtest.NewMemDevice(w.eng, simtest.MemConfig{Capacity: 512 << 10})
		w.jitter(spare2)
		require.NoError(t, w.a.Rebuild(spare2))
		w.mems[1] = spare2
		w.writes(5)
		w.drain()
		require.True(t, w.a.Stats().Rebuild.Done, "seed %d", seed)
		w.check(nil)
		w.readAll()
	}
}
