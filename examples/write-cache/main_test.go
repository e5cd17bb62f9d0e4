package main

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// testSizes are smaller than FullSizes; the directions are the same.
var testSizes = Sizes{SeqBytes: 32 << 20, RandIOs: 100, MixIOs: 300, FlushWrites: 400, ReadsBeside: 100}

// TestS1Directions asserts the direction of every effect SCENARIOS.md S1
// reports.
func TestS1Directions(t *testing.T) {
	res, err := Run(testSizes)
	require.NoError(t, err)
	require.Len(t, res, 3)
	on, noFlush, off := res[0], res[1], res[2]
	var b bytes.Buffer
	require.NoError(t, WriteTable(&b, res))
	t.Log("\n" + b.String())

	rate := func(r Result, phase string, read bool) float64 {
		p := r.Phase[phase]
		if read {
			return p.Read.MBPerS
		}
		return p.Write.MBPerS
	}
	secs := func(r Result, phase string) float64 { return r.Phase[phase].SimSeconds }

	t.Run("sequential throughput about the same with the cache off", func(t *testing.T) {
		assert.InEpsilon(t, rate(on, PhaseSeqRead, true), rate(off, PhaseSeqRead, true), 0.10)
		assert.InEpsilon(t, rate(on, PhaseSeqWrite, false), rate(off, PhaseSeqWrite, false), 0.15)
	})
	t.Run("flush phases several times slower with the cache off", func(t *testing.T) {
		assert.Greater(t, secs(off, PhaseSeqFlush), 3*secs(on, PhaseSeqFlush), "sequential writes with flushes")
		assert.Greater(t, secs(off, PhaseRandFlush), 1.5*secs(on, PhaseRandFlush), "random writes with flushes")
		assert.Greater(t, secs(off, PhaseSeqFlush)+secs(off, PhaseRandFlush), 2*(secs(on, PhaseSeqFlush)+secs(on, PhaseRandFlush)))
	})
	t.Run("flushes off changes little from cache on", func(t *testing.T) {
		for _, ph := range []string{PhaseSeqRead, PhaseRandRead} {
			assert.InEpsilon(t, rate(on, ph, true), rate(noFlush, ph, true), 0.05, ph)
		}
		assert.InEpsilon(t, rate(on, PhaseSeqWrite, false), rate(noFlush, PhaseSeqWrite, false), 0.05)
		assert.InEpsilon(t, on.Phase[PhaseMix].All.IOPS, noFlush.Phase[PhaseMix].All.IOPS, 0.10)
		for _, ph := range []string{PhaseSeqFlush, PhaseRandFlush} {
			assert.LessOrEqual(t, secs(noFlush, ph), secs(on, ph), "%s: without flushes the drive never waits for the media", ph)
		}
		assert.Zero(t, noFlush.Report.Total.Flushes, "the host dropped every flush")
		assert.Positive(t, noFlush.Report.Total.HostFlushesDropped)
	})
	t.Run("data at risk only with the cache on and flushes off", func(t *testing.T) {
		assert.Positive(t, noFlush.Report.Disks[0].Common().DirtyAtEndBytes)
		assert.Zero(t, off.Report.Disks[0].Common().DirtyAtEndBytes)
	})
	t.Run("cache off makes maximum latency far lower", func(t *testing.T) {
		// winsat's "Latency: Maximum" comes from the reads of its flush
		// assessments. With the cache on a read can arrive behind a
		// FLUSH CACHE and wait for every cached write to reach the
		// platter; with it off, for one write at most.
		assert.Less(t, FlushMaxLatency(off), FlushMaxLatency(on)/2)
		assert.Less(t, FlushMaxLatency(off), 50.0, "a read waits for at most one write in progress")
	})
}

func TestS1IsDeterministic(t *testing.T) {
	render := func() string {
		res, err := Run(Sizes{SeqBytes: 4 << 20, RandIOs: 20, MixIOs: 50, FlushWrites: 64, ReadsBeside: 20})
		require.NoError(t, err)
		var b bytes.Buffer
		require.NoError(t, WriteTable(&b, res))
		return b.String()
	}
	assert.Equal(t, render(), render())
}
