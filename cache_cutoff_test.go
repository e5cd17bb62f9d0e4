package raidsim_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestSequentialCutoffOffCachesAStream: a 16 MiB sequential read, twice,
// through an SSD cache tier. With the default cutoff (bcache's 4 MiB)
// the stream bypasses the tier after its first 4 MiB: only those are
// written to the SSD and hit the second time. With sequential_cutoff:
// off nothing bypasses: the whole stream is written to the SSD and the
// second pass hits it.
func TestSequentialCutoffOffCachesAStream(t *testing.T) {
	const stream = 16 << 20
	pass := func(cutoff string) (bypassed, ssdWriteBytes int64, byteHits float64) {
		rep := run(t, `
stack:
  drive: {preset: deskstar-7k160, spec: {capacity: 256MiB}}
  cache: {size: 64MiB, `+cutoff+`device: {preset: intel-x25m-g2}}
phases:
  - {rw: read, bs: 256KiB, size: 16MiB}
  - {rw: read, bs: 256KiB, size: 16MiB}`)
		c := rep.Cache
		return c.BypassedRequests, c.DeviceWriteBytes, c.ByteHitRatio
	}
	bypassed, written, hits := pass("")
	t.Logf("default cutoff: %d requests bypassed, %d bytes written to the SSD, byte hit ratio %.3f", bypassed, written, hits)
	assert.EqualValues(t, 2*(stream-4<<20)/(256<<10)+2, bypassed, "each pass from the request reaching 4 MiB on")
	assert.Less(t, written, int64(stream/2), "only the first 4 MiB are kept")
	assert.InDelta(t, 0.125, hits, 0.02, "the second pass hits its first 4 MiB of 32 MiB read")

	bypassed, written, hits = pass("sequential_cutoff: off, ")
	t.Logf("cutoff off: %d requests bypassed, %d bytes written to the SSD, byte hit ratio %.3f", bypassed, written, hits)
	assert.Zero(t, bypassed)
	assert.GreaterOrEqual(t, written, int64(stream), "the whole stream is written to the SSD")
	assert.InDelta(t, 0.5, hits, 0.02, "the second pass hits all of its 16 MiB of 32 MiB read")
}
