//go:build long

package main

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestS1OnSSD answers the article's readers' question, "how would this
// setting affect an SSD?", on the X25-M G2 and asserts what the model
// says: reads do not care; with the write cache off every write waits for
// its page program (0.6-2.6 ms of MLC), so the flush phases run several
// times slower; dropping flushes changes little because flushing a
// 1 MiB buffer takes milliseconds; and unlike the disk, turning the cache
// off does not lower the maximum latency much: the SSD's small buffer
// never builds the long stall a disk's 12 MiB write cache does. At risk
// on power loss: at most the 1 MiB buffer.
func TestS1OnSSD(t *testing.T) {
	res, err := RunOn(SSD, testSizes)
	require.NoError(t, err)
	on, noFlush, off := res[0], res[1], res[2]
	var b bytes.Buffer
	require.NoError(t, WriteTable(&b, res))
	t.Log("\n" + b.String())
	secs := func(r Result, phase string) float64 { return r.Phase[phase].SimSeconds }
	for _, r := range []Result{noFlush, off} {
		assert.InEpsilon(t, on.Phase[PhaseSeqRead].Read.MBPerS, r.Phase[PhaseSeqRead].Read.MBPerS, 0.01, "reads do not care")
		assert.InEpsilon(t, on.Phase[PhaseRandRead].Read.MBPerS, r.Phase[PhaseRandRead].Read.MBPerS, 0.01, "reads do not care")
	}
	for _, ph := range []string{PhaseSeqFlush, PhaseRandFlush} {
		assert.Greater(t, secs(off, ph), 3*secs(on, ph), "%s: writes wait for their programs", ph)
		assert.InEpsilon(t, secs(on, ph), secs(noFlush, ph), 0.10, "%s: a flush of the small buffer is cheap", ph)
	}
	assert.Greater(t, FlushMaxLatency(off), FlushMaxLatency(on)/2, "no long stall to remove: the buffer is small")
	assert.LessOrEqual(t, noFlush.Report.Disks[0].Common().DirtyAtEndBytes, int64(1<<20), "at most the buffer is at risk")
	assert.Zero(t, off.Report.Disks[0].Common().DirtyAtEndBytes)
}
