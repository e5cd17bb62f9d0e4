//go:build long

package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// testSizes are FullSizes on 16 GiB partitions: the RAIDZ1 resilver
// still writes far more than the SMR map holds, so the comparison keeps
// its shape in a fifth of the time.
var testSizes = func() Sizes {
	sz := FullSizes
	sz.Partition = 16 << 30
	return sz
}()

func outcome(t *testing.T, res *Results, level, spare string) *Outcome {
	t.Helper()
	for _, o := range res.Rebuilds {
		if o.Level == level && o.Spare == spare {
			return o
		}
	}
	t.Fatalf("no run of %s onto %s", level, spare)
	return nil
}

// TestDirections: the SMR replacement rebuilds RAIDZ1 several times
// slower than the CMR one (its out-of-order record writes go to the media
// cache, which fills and then cleans a band per few writes); md's large
// sequential rebuild writes append at the bands' write pointers and
// suffer far less; idle time lets cleaning restore random-write
// throughput after the cache filled.
func TestDirections(t *testing.T) {
	res, err := RunAll(testSizes)
	require.NoError(t, err)
	var b bytes.Buffer
	res.Print(&b, testSizes)
	t.Log("\n" + b.String())

	zc, zs := outcome(t, res, "RAIDZ1", CMR), outcome(t, res, "RAIDZ1", SMR)
	assert.Greater(t, zs.Seconds, 3*zc.Seconds, "RAIDZ1: SMR %.0f s against CMR %.0f s", zs.Seconds, zc.Seconds)
	assert.Greater(t, zs.SMR.CacheWrites, 9*zs.SMR.DirectWrites, "RAIDZ1's resilver writes land in the media cache")
	assert.Positive(t, zs.SMR.ForegroundCleans, "the media cache fills and is cleaned in the foreground")
	assert.InDelta(t, 44<<10, zc.MeanWrite, 1<<10, "a 128 KiB record's column on 4-wide RAIDZ1 is 44 KiB (or 40)")
	for _, level := range []string{"md RAID 5", "md RAID 6"} {
		c, s := outcome(t, res, level, CMR), outcome(t, res, level, SMR)
		assert.Less(t, s.Seconds, 1.5*c.Seconds, "%s: SMR %.0f s against CMR %.0f s", level, s.Seconds, c.Seconds)
		assert.Less(t, s.Seconds/c.Seconds, zs.Seconds/zc.Seconds/2, "%s suffers far less than RAIDZ1", level)
		assert.Equal(t, float64(512<<10), c.MeanWrite, "%s rebuilds in 512 KiB chunks", level)
	}
	for _, r := range res.Random {
		assert.Greater(t, r.Fresh, 20*r.Full, "%s: random writes collapse once the cache is full", r.Preset)
		assert.Greater(t, r.AfterIdle, 20*r.Full, "%s: idle cleaning restores them", r.Preset)
		assert.Positive(t, r.IdleCleans, r.Preset)
	}
}

// TestPlots writes the three figures and refuses to replace them
// without --force.
func TestPlots(t *testing.T) {
	sz := testSizes
	sz.Partition, sz.RandomAfter, sz.Idle = 1<<30, 20, time.Minute
	dir := t.TempDir()
	var out bytes.Buffer
	require.NoError(t, run(&out, sz, dir, false))
	for _, n := range []string{"rebuild-progress.svg", "smr-cache.svg", "random-writes.svg"} {
		b, err := os.ReadFile(filepath.Join(dir, n))
		require.NoError(t, err)
		assert.True(t, strings.HasPrefix(string(b), "<?xml") || strings.Contains(string(b[:200]), "<svg"), n)
	}
	err := run(&out, sz, dir, false)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "--force")
}
