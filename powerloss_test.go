package raidsim_test

import (
	"bytes"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/raidsim/raidsim"
	"github.com/raidsim/raidsim/cache"
	"github.com/raidsim/raidsim/raid"
	"github.com/raidsim/raidsim/trace"
)

// TestPowerLoss: what a power failure would lose, layer by layer.
func TestPowerLoss(t *testing.T) {
	randomWrites := trace.Workload{RW: trace.RWRandWrite, BS: 16 << 10, IODepth: 8, NumIOs: 4000, Size: 1 << 30}

	t.Run("drive write cache mid-run", func(t *testing.T) {
		x := experiment(t, "deskstar-7k160", randomWrites)
		x.PowerLossAt = 2 * time.Second
		rep, err := x.Run()
		require.NoError(t, err)
		require.Greater(t, rep.SimSeconds, 2.0, "the failure falls inside the run")
		pl := rep.PowerLoss
		require.NotNil(t, pl)
		assert.InDelta(t, 2.0, pl.AtSeconds, 1e-9)
		require.Len(t, pl.DriveCacheBytes, 1)
		assert.Positive(t, pl.DriveCacheBytes[0], "random writes keep the drive's write cache full")
		assert.LessOrEqual(t, pl.DriveCacheBytes[0], x.Drive.BufferSize)
		assert.Equal(t, pl.DriveCacheBytes[0], pl.LostBytes)
		assert.Zero(t, pl.VolumeCacheBytes)
	})
	t.Run("drive write cache off loses nothing", func(t *testing.T) {
		x := experiment(t, "deskstar-7k160", randomWrites)
		x.Drive.WriteCache = false
		x.PowerLossAt = 2 * time.Second
		rep, err := x.Run()
		require.NoError(t, err)
		assert.Zero(t, rep.PowerLoss.LostBytes)
	})
	t.Run("after the run the drive has destaged", func(t *testing.T) {
		x := experiment(t, "deskstar-7k160", trace.Workload{RW: trace.RWRandWrite, BS: 16 << 10, NumIOs: 100})
		x.PowerLossAt = time.Minute
		rep, err := x.Run()
		require.NoError(t, err)
		assert.Positive(t, rep.Disks[0].DirtyBytesAtExit, "dirty when the workload ended")
		assert.Zero(t, rep.PowerLoss.LostBytes, "an idle drive writes its cache back")
		assert.InDelta(t, 60.0, rep.PowerLoss.AtSeconds, 1e-9)
	})
	for _, nv := range []bool{false, true} {
		t.Run(map[bool]string{false: "volatile volume cache over RAID 5", true: "non-volatile volume cache over RAID 5"}[nv], func(t *testing.T) {
			x := experiment(t, "deskstar-7k160", randomWrites)
			x.RAID = &raid.Config{Level: raid.RAID5}
			x.Disks = 4
			x.Cache = &cache.Config{Size: 16 << 20, NonVolatile: nv}
			x.PowerLossAt = 500 * time.Millisecond
			rep, err := x.Run()
			require.NoError(t, err)
			pl := rep.PowerLoss
			require.Len(t, pl.DriveCacheBytes, 4)
			sum := pl.VolumeCacheBytes
			for _, b := range pl.DriveCacheBytes {
				sum += b
			}
			assert.Equal(t, sum, pl.LostBytes)
			if nv {
				assert.Zero(t, pl.VolumeCacheBytes)
				assert.Positive(t, pl.VolumeCacheKept)
			} else {
				assert.Positive(t, pl.VolumeCacheBytes, "the cache is full of random writes")
				assert.LessOrEqual(t, pl.VolumeCacheBytes, int64(16<<20))
			}
			assert.Positive(t, pl.RAIDUpdatesInFlight, "the cache destages many stripes at once")
		})
	}
	t.Run("deterministic", func(t *testing.T) {
		x := experiment(t, "deskstar-7k160", randomWrites)
		x.PowerLossAt = 1500 * time.Millisecond
		var a, b bytes.Buffer
		for _, buf := range []*bytes.Buffer{&a, &b} {
			rep, err := x.Run()
			require.NoError(t, err)
			require.NoError(t, rep.WriteJSON(buf))
		}
		assert.Equal(t, a.String(), b.String())
		assert.Contains(t, a.String(), `"power_loss"`)
	})
	t.Run("negative", func(t *testing.T) {
		x := experiment(t, "deskstar-7k160", randomWrites)
		x.PowerLossAt = -time.Second
		_, err := x.Run()
		assert.ErrorContains(t, err, "PowerLossAt: -1s is negative")
	})
	t.Run("config", func(t *testing.T) {
		cfg, err := raidsim.ParseConfig([]byte("power_loss_at: 1s\nstack: {drive: {preset: deskstar-7k160}}\nphases: [{rw: randwrite, bs: 16KiB, iodepth: 8, ios: 2000, size: 1GiB}]\n"), "pl")
		require.NoError(t, err)
		rep, err := cfg.Run()
		require.NoError(t, err)
		require.NotNil(t, rep.Total.PowerLoss)
		assert.Positive(t, rep.Total.PowerLoss.DriveCacheBytes[0])
		_, err = raidsim.ParseConfig([]byte("power_loss_at: -1s\nphases: [{rw: read, ios: 1}]\n"), "bad")
		assert.ErrorContains(t, err, "power_loss_at: -1s is negative")
	})
}
