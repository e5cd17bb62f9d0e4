//go:build long

package tracestats

import (
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestConstantMemory10M: describing a 10-million-record trace (gzip,
// footprint about ten million 4 KiB blocks) takes no more heap than a
// 1-million-record one, give or take 8 MiB, and under 64 MiB: the
// footprint and the curve are estimated in bounded memory. The heap is
// runtime.MemStats.HeapSys, which only grows: what the 10M-record run
// needed beyond the 1M-record one shows as growth.
func TestConstantMemory10M(t *testing.T) {
	dir := t.TempDir()
	smallPath, bigPath := bigMSR(t, dir, 1_000_000), bigMSR(t, dir, 10_000_000)
	runtime.GC()
	small, smallPeak := collectFile(t, smallPath)
	big, bigPeak := collectFile(t, bigPath)
	t.Logf("heap reserved: after 1M records %.1f MiB, after 10M records %.1f MiB; footprints %d and %d blocks (%s), sample rates %.4g and %.4g",
		float64(smallPeak)/(1<<20), float64(bigPeak)/(1<<20), small.Footprint.Blocks, big.Footprint.Blocks,
		big.Footprint.Method, small.Reuse.SampleRate, big.Reuse.SampleRate)
	assert.EqualValues(t, 10_000_000, big.Records)
	assert.Equal(t, "hyperloglog", big.Footprint.Method)
	assert.Less(t, bigPeak, uint64(64<<20))
	assert.Less(t, bigPeak, smallPeak+8<<20)
	// Requests land at random on a 1 TB span: some 4% of the accesses
	// meet a block already touched, so the footprint is a little under
	// the accesses.
	assert.Less(t, float64(big.Footprint.Blocks), float64(big.Reuse.Accesses)*(1+3*HLLError))
	assert.Greater(t, float64(big.Footprint.Blocks), float64(big.Reuse.Accesses)*0.9)
}
