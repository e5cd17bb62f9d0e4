package raid_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/raidsim/raidsim/raid"
	"github.com/raidsim/raidsim/sim"
	"github.com/raidsim/raidsim/simtest"
)

// TestSpeedLimitMin: as md, a rebuild goes at speed_limit_max
// (RebuildRate) while the array is idle and is held to speed_limit_min
// (RebuildMinRate) while foreground requests arrive.
func TestSpeedLimitMin(t *testing.T) {
	progress := func(busy bool) int64 {
		eng := sim.NewEngine(1)
		_, devs := memMembers(t, eng, 4, 16<<20)
		a, err := raid.New(eng, raid.Config{Level: raid.RAID5, StripeUnit: 64 << 10, RebuildRate: 100 << 20, RebuildMinRate: 1 << 20}, devs, "md0", nil)
		require.NoError(t, err)
		require.NoError(t, a.Fail(1))
		spare, err := simtest.NewMemDevice(eng, simtest.MemConfig{Capacity: 16 << 20})
		require.NoError(t, err)
		require.NoError(t, a.Rebuild(spare))
		read := func(r *sim.Request) {
			if eng.Now() < sim.Time(time.Second) {
				r.Offset = (r.Offset + 7*4096) % (a.Capacity() - 4096)
				require.NoError(t, a.Submit(r))
			}
		}
		if busy {
			require.NoError(t, a.Submit(&sim.Request{Op: sim.Read, Length: 4096, Done: read}))
		}
		eng.RunUntil(sim.Time(time.Second))
		return a.Stats().Rebuild.Bytes
	}
	idle, busy := progress(false), progress(true)
	t.Logf("rebuilt in 1 s: %d bytes idle, %d under reads", idle, busy)
	assert.Equal(t, int64(16<<20), idle, "idle: done at speed_limit_max")
	assert.InDelta(t, 1<<20, busy, 128<<10, "busy: held to speed_limit_min")
}
