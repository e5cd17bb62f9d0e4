package raidsim_test

import (
	"bytes"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/raidsim/raidsim"
	"github.com/raidsim/raidsim/spec"
)

// raid5PowerLoss is random 16 KiB writes on a 4-drive RAID 5 under a
// 16 MiB volume cache, the power failing at 300 ms.
func raid5PowerLoss(nv bool) *spec.Experiment {
	x := powerLossAt(300 * time.Millisecond)
	x.Stack.Disks = 4
	x.Stack.RAID = &spec.RAID{Level: "5"}
	x.Stack.Cache = &spec.Cache{Size: 16 << 20, NonVolatile: nv}
	return x
}

// TestPowerLossNamesRanges: the lost ranges a report names are sorted,
// disjoint, inside their device, as many as it says in all, and add up
// to the bytes lost where it names them all.
func TestPowerLossNamesRanges(t *testing.T) {
	rep := runOne(t, raid5PowerLoss(false))
	pl := rep.PowerLoss
	require.NotNil(t, pl)
	byLayer := map[string]raidsim.LostRanges{}
	for _, lr := range pl.LostRanges {
		byLayer[lr.Layer] = lr
		require.NotEmpty(t, lr.First, lr.Layer)
		assert.LessOrEqual(t, len(lr.First), 3, "the first few")
		assert.GreaterOrEqual(t, lr.Count, len(lr.First))
		for i, x := range lr.First {
			assert.Positive(t, x.Length)
			if i > 0 {
				prev := lr.First[i-1]
				assert.Greater(t, x.Offset, prev.Offset+prev.Length, "%s: sorted, and touching ranges merged", lr.Layer)
			}
		}
	}
	vc, ok := byLayer["volume cache"]
	require.True(t, ok, "a volatile cache loses its dirty data")
	assert.Greater(t, vc.Count, 3)
	for i, b := range pl.DriveCacheBytes {
		lr := byLayer[rep.Disks[i].Common().Name]
		if b == 0 {
			assert.Zero(t, lr.Count)
			continue
		}
		if lr.Count <= 3 {
			var sum int64
			for _, x := range lr.First {
				sum += x.Length
			}
			assert.Equal(t, b, sum, "%s: the ranges are the bytes lost", rep.Disks[i].Common().Name)
		}
	}
	var b bytes.Buffer
	require.NoError(t, rep.WriteText(&b))
	out := b.String()
	for _, want := range []string{"Acknowledged data lost", "ranges lost", "more", "Stripes left inconsistent",
		"write hole", "not lost data", "acknowledged it to the host and had not destaged it"} {
		assert.Contains(t, out, want)
	}
}

// TestPowerLossNonVolatileView: a battery-backed cache loses nothing
// and says so; the stripes in flight are counted apart from the bytes.
func TestPowerLossNonVolatileView(t *testing.T) {
	rep := runOne(t, raid5PowerLoss(true))
	pl := rep.PowerLoss
	for _, lr := range pl.LostRanges {
		assert.NotEqual(t, "volume cache", lr.Layer)
	}
	assert.Zero(t, pl.VolumeCacheBytes)
	assert.Positive(t, pl.VolumeCacheKept)
	var b bytes.Buffer
	require.NoError(t, rep.WriteText(&b))
	assert.Contains(t, b.String(), "none: the cache is non-volatile and keeps its")
	assert.Contains(t, b.String(), "updates")
}
