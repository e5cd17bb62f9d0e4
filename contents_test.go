package raidsim_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/raidsim/raidsim"
)

// TestCheckContents: with real bytes, a power loss on a write-through
// RAID 5 loses no acknowledged write and leaves only stripes whose
// updates were in flight inconsistent; behind a volatile volume cache
// the wrong ranges are exactly the cache's lost ranges the power-loss
// report names, and the acknowledged writes they held are lost.
func TestCheckContents(t *testing.T) {
	const base = "stack: {disks: 4, raid: {level: 5}, drive: {write_cache: false}%s}\npower_loss_at: 300ms\n" +
		"phases: [{rw: randwrite, bs: 16KiB, iodepth: 8, ios: 2000, size: 64MiB}]\n"
	rep, err := raidsim.RunPlan(planOf(t, fmt.Sprintf(base, "")), raidsim.RunOptions{CheckContents: true})
	require.NoError(t, err)
	c := rep.PowerLoss.Contents
	require.NotNil(t, c)
	assert.Greater(t, c.Acked, 50)
	assert.Zero(t, c.LostWrites)
	assert.Zero(t, c.WrongBytes)
	assert.Greater(t, c.Inconsistent, 0, "a stripe being written")
	assert.LessOrEqual(t, c.Inconsistent, rep.PowerLoss.RAIDUpdatesInFlight, "only stripes being updated")

	rep, err = raidsim.RunPlan(planOf(t, fmt.Sprintf(base, ", cache: {size: 16MiB}")), raidsim.RunOptions{CheckContents: true})
	require.NoError(t, err)
	c = rep.PowerLoss.Contents
	assert.Greater(t, c.LostWrites, 500)
	var cacheLost raidsim.LostRanges
	for _, lr := range rep.PowerLoss.LostRanges {
		if lr.Layer == "volume cache" {
			cacheLost = lr
		}
	}
	require.NotEmpty(t, cacheLost.First)
	for i, e := range cacheLost.First {
		assert.Equal(t, fmt.Sprintf("%d+%d", e.Offset, e.Length), c.WrongRanges[i], "range %d", i)
	}
	assert.LessOrEqual(t, c.WrongBytes, rep.PowerLoss.VolumeCacheBytes)
	assert.Greater(t, c.WrongBytes, rep.PowerLoss.VolumeCacheBytes*9/10)
}

// TestCheckContentsRefuses: what the check cannot read is refused, named.
func TestCheckContentsRefuses(t *testing.T) {
	for _, tc := range []struct{ yaml, want string }{
		{"stack: {disks: 4, raid: {level: 5}, drive: {write_cache: false}}\nphases: [{rw: randwrite, ios: 10}]", "--check-contents needs --power-loss-at"},
		{"stack: {disks: 2, raid: {level: 0}, drive: {write_cache: false}}\npower_loss_at: 1ms\nphases: [{rw: randwrite, ios: 10}]", "an array with redundancy"},
		{"stack: {disks: 4, raid: {level: 5}}\npower_loss_at: 1ms\nphases: [{rw: randwrite, ios: 10}]", "disk0 acknowledges writes from a volatile cache: add --write-cache off"},
		{"stack: {disks: 4, raid: {level: 5}, drive: {write_cache: false}}\npower_loss_at: 1ms\nphases: [{rw: randwrite, bs: 1MiB, ios: 1000}]", "this run writes up to 1.05 GB, more than 268 MB"},
	} {
		_, err := raidsim.RunPlan(planOf(t, tc.yaml), raidsim.RunOptions{CheckContents: true})
		require.Error(t, err, tc.yaml)
		assert.Contains(t, err.Error(), tc.want)
	}
}
