package raidsim_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/raidsim/raidsim/spec"
)

// TestWarmupRequests: --warmup N leaves the first N completions out of
// the phases, the total and the cache section, and the report says so.
func TestWarmupRequests(t *testing.T) {
	const text = `
stack: {drive: {preset: deskstar-7k500}, disks: 4, raid: {level: 5}, cache: {size: 4MiB}}
%s
phases: [{rw: randread, size: 64MiB, iodepth: 4, ios: 3000}]`
	cold := run(t, sprintf(text, ""))
	warm := run(t, sprintf(text, "warmup: 1000"))
	require.Nil(t, cold.Warmup)
	require.NotNil(t, warm.Warmup)
	assert.Equal(t, "requests", warm.Warmup.Until)
	assert.EqualValues(t, 1000, warm.Warmup.ExcludedRequests)
	assert.True(t, warm.Warmup.Ended)
	assert.EqualValues(t, 2000, warm.Total.Read.IOs)
	assert.EqualValues(t, 2000, warm.Phases[0].Read.IOs)
	assert.Greater(t, warm.Cache.ReadHitRatio, cold.Cache.ReadHitRatio, "the cold misses of the warm-up are left out")
	assert.Less(t, warm.Total.SimSeconds, cold.Total.SimSeconds)
}

// TestWarmupFull: warmup full lasts until the cache first fills; a
// cache that never fills leaves everything out and says so; without a
// cache it is an error.
func TestWarmupFull(t *testing.T) {
	const text = `
stack: {drive: {preset: deskstar-7k500}, cache: {size: %s}}
warmup: full
phases: [{rw: randread, size: 1GiB, iodepth: 4, ios: 2000}]`
	small := run(t, sprintf(text, "1MiB"))
	require.NotNil(t, small.Warmup)
	assert.Equal(t, "cache_full", small.Warmup.Until)
	assert.True(t, small.Warmup.Ended)
	assert.EqualValues(t, 256, small.Warmup.ExcludedRequests, "a 1 MiB cache of 4 KiB reads fills after 256 misses")
	assert.EqualValues(t, 2000-256, small.Total.Read.IOs)
	big := run(t, sprintf(text, "64MiB"))
	assert.False(t, big.Warmup.Ended)
	assert.EqualValues(t, 0, big.Total.Read.IOs)
	_, err := spec.Parse([]byte("warmup: full\nphases: [{rw: randread, ios: 10}]"), "t")
	require.ErrorContains(t, err, "warmup")
	_, err = spec.Parse([]byte("warmup: lots\nphases: [{rw: randread, ios: 10}]"), "t")
	require.ErrorContains(t, err, "want a number of requests")
}
