package raidsim_test

import (
	"bytes"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/raidsim/raidsim"
	"github.com/raidsim/raidsim/disk"
	"github.com/raidsim/raidsim/spec"
)

// randomWrites keeps a drive's write cache full: random 16 KiB writes
// over 1 GiB, 8 outstanding.
var randomWrites = spec.Job{RW: "randwrite", BS: 16 << 10, IODepth: 8, IOs: 4000, Size: 1 << 30}

// powerLossAt is randomWrites on one deskstar-7k160, with a power
// failure at.
func powerLossAt(at time.Duration) *spec.Experiment {
	x := experiment("deskstar-7k160", randomWrites)
	x.PowerLossAt = new(spec.Duration(at))
	return x
}

// TestPowerLossDriveCache: what a power failure would lose in a drive's
// write cache, mid-run and after it.
func TestPowerLossDriveCache(t *testing.T) {
	t.Run("drive write cache mid-run", func(t *testing.T) {
		rep := runOne(t, powerLossAt(2*time.Second))
		require.Greater(t, rep.Total.SimSeconds, 2.0, "the failure falls inside the run")
		pl := rep.PowerLoss
		require.NotNil(t, pl)
		assert.InDelta(t, 2.0, pl.AtSeconds, 1e-9)
		require.Len(t, pl.DriveCacheBytes, 1)
		assert.Positive(t, pl.DriveCacheBytes[0], "random writes keep the drive's write cache full")
		p, err := disk.Preset("deskstar-7k160")
		require.NoError(t, err)
		assert.LessOrEqual(t, pl.DriveCacheBytes[0], p.BufferSize)
		assert.Equal(t, pl.DriveCacheBytes[0], pl.LostBytes)
		assert.Zero(t, pl.VolumeCacheBytes)
	})
	t.Run("drive write cache off loses nothing", func(t *testing.T) {
		x := powerLossAt(2 * time.Second)
		off := false
		x.Stack.Drive.WriteCache = &off
		assert.Zero(t, runOne(t, x).PowerLoss.LostBytes)
	})
	t.Run("at 0s: reported, nothing acknowledged yet", func(t *testing.T) {
		pl := runOne(t, powerLossAt(0)).PowerLoss
		require.NotNil(t, pl, "power_loss_at: 0 is a failure at the start, not an absent key")
		assert.Zero(t, pl.AtSeconds)
		assert.Zero(t, pl.LostBytes)
		assert.Equal(t, []int64{0}, pl.DriveCacheBytes)
	})
	t.Run("after the run the drive has destaged", func(t *testing.T) {
		x := experiment("deskstar-7k160", spec.Job{RW: "randwrite", BS: 16 << 10, IOs: 100})
		x.PowerLossAt = new(spec.Duration(time.Minute))
		rep := runOne(t, x)
		assert.Positive(t, rep.Disks[0].Common().DirtyAtEndBytes, "dirty when the workload ended")
		assert.Zero(t, rep.PowerLoss.LostBytes, "an idle drive writes its cache back")
		assert.InDelta(t, 60.0, rep.PowerLoss.AtSeconds, 1e-9)
	})
}

// TestPowerLossVolumeCache: a volatile volume cache over RAID 5 loses
// its dirty data, a non-volatile one keeps it; both leave RAID updates
// in flight.
func TestPowerLossVolumeCache(t *testing.T) {
	for _, nv := range []bool{false, true} {
		t.Run(map[bool]string{false: "volatile volume cache over RAID 5", true: "non-volatile volume cache over RAID 5"}[nv], func(t *testing.T) {
			x := powerLossAt(500 * time.Millisecond)
			x.Stack.RAID = &spec.RAID{Level: "5"}
			x.Stack.Disks = 4
			x.Stack.Cache = &spec.Cache{Size: 16 << 20, NonVolatile: nv, Align: "none"}
			pl := runOne(t, x).PowerLoss
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
}

// TestPowerLossReport: the power-loss view is deterministic, in the
// JSON report, read from config files, and checked.
func TestPowerLossReport(t *testing.T) {
	t.Run("deterministic", func(t *testing.T) {
		x := powerLossAt(1500 * time.Millisecond)
		var a, b bytes.Buffer
		for _, buf := range []*bytes.Buffer{&a, &b} {
			require.NoError(t, runOne(t, x).WriteJSON(buf))
		}
		assert.Equal(t, a.String(), b.String())
		assert.Contains(t, a.String(), `"power_loss"`)
	})
	t.Run("negative", func(t *testing.T) {
		_, err := raidsim.Run(powerLossAt(-time.Second))
		assert.ErrorContains(t, err, "power_loss_at: -1s is outside")
	})
	t.Run("config", func(t *testing.T) {
		x, err := spec.Parse([]byte("power_loss_at: 1s\nstack: {drive: {preset: deskstar-7k160}}\nphases: [{rw: randwrite, bs: 16KiB, iodepth: 8, ios: 2000, size: 1GiB}]\n"), "pl")
		require.NoError(t, err)
		rep := runOne(t, x)
		require.NotNil(t, rep.PowerLoss)
		assert.Positive(t, rep.PowerLoss.DriveCacheBytes[0])
		_, err = spec.Parse([]byte("power_loss_at: -1s\nphases: [{rw: read, ios: 1}]\n"), "bad")
		assert.ErrorContains(t, err, "power_loss_at: -1s is outside")
	})
}
