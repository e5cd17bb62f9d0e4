package cache_test

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/raidsim/raidsim/cache"
	"github.com/raidsim/raidsim/sim"
	"github.com/raidsim/raidsim/simtest"
)

// TestLostRangesNameFailedDestages: data acknowledged and then lost
// because the device below failed its destage is named by range, not
// only counted (the fault campaign needs what a report names).
func TestLostRangesNameFailedDestages(t *testing.T) {
	eng := sim.NewEngine(1)
	c, _, dev := recStack(t, eng, cache.Config{Size: 1 << 20}, simtest.MemConfig{Capacity: 1 << 20})
	dev.SetFault(func(r *sim.Request) error {
		if r.Op == sim.Write && r.Offset < 8192 {
			return errors.New("gone")
		}
		return nil
	})
	submitAll(t, eng, c, &sim.Request{Op: sim.Write, Offset: 4096, Length: 4096}, &sim.Request{Op: sim.Write, Offset: 65536, Length: 4096})
	f := &sim.Request{Op: sim.Flush}
	submitAll(t, eng, c, f)
	require.Equal(t, int64(1), c.Stats().DestageErrors)
	assert.Equal(t, []cache.Extent{{Offset: 4096, Length: 4096}}, c.LostRanges())
}
