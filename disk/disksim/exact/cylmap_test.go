package exact

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// slippedFront is one zone of 10 cylinders, one surface, 8 sectors a
// track, spares per zone (scheme 9), with its first five slots slipped:
// LBN 4 lies in slot 4 (cylinder 0) without the slips, in slot 9
// (cylinder 1) with them.
func slippedFront(t *testing.T) *layout {
	l, err := newLayout(&Layout{Sparing: sectPerZone, Surfaces: 1, Cylinders: 10,
		Zones: []Zone{{FirstCyl: 0, LastCyl: 9, BlocksPerTrack: 8, Spares: 10, Slips: []int{0, 1, 2, 3, 4}}}})
	require.NoError(t, err)
	return l
}

// TestCylinderMappingSwapped checks the mapping DiskSim 4.0 computes
// under strategies 1-4 (disk_get_mapping passes the block number as
// dm_translate_ltop's map type and the strategy as its LBN), worked by
// hand on slippedFront: every block maps where LBN s lies, block 3
// (MAP_ADDSLIPS) and block 4 (MAP_FULL) with the slips, the others
// without; strategies 0 and 5 put every block on cylinder 0.
func TestCylinderMappingSwapped(t *testing.T) {
	l := slippedFront(t)
	// the honest translation, for contrast: LBN 60 is slot 65, cylinder 8
	p, _ := l.toPhys(60)
	assert.Equal(t, 8, p.cyl)
	for _, c := range []struct {
		strategy, blkno, cyl int
	}{
		{4, 60, 0}, {4, 0, 0}, {4, 2, 0}, {4, 3, 1}, {4, 4, 1}, {4, 5, 0},
		// LBN 3 with the slips is slot 8: cylinder 1; LBN 2, slot 7
		{3, 3, 1}, {3, 4, 1}, {3, 100, 0}, {2, 4, 0}, {2, 3, 0}, {1, 4, 0},
		{0, 60, 0}, {0, 4, 0}, {5, 60, 0}, {5, 4, 0},
	} {
		q := &ioqueue{cylState: l.cylState(c.strategy)}
		cyl, surface := q.cylinderOf(c.blkno)
		assert.Equal(t, c.cyl, cyl, "strategy %d block %d", c.strategy, c.blkno)
		assert.Equal(t, 0, surface)
	}
}

// TestCylinderPolicySwappedMapping: ELEVATOR_CYL under strategy 4 on
// slippedFront. After block 60 the queue holds 100, 4, 30, 3, 140, 50
// and 90: blocks 3 and 4 are on cylinder 1, the rest on cylinder 0
// (LBN 4's cylinder without the slips). The elevator takes the blocks
// at or above 60 on cylinder 0 (90, 100, 140), then the others there
// from the lowest (30, 50: the first ready request on the last
// cylinder, ioqueue_identify_request_on_cylinder), then goes up to
// cylinder 1 (3, 4). Under strategy 0, one cylinder: 3 and 4 come
// before 30.
func TestCylinderPolicySwappedMapping(t *testing.T) {
	l := slippedFront(t)
	for _, c := range []struct {
		strategy int
		want     []int
	}{
		{4, []int{60, 90, 100, 140, 30, 50, 3, 4}},
		{0, []int{60, 90, 100, 140, 3, 4, 30, 50}},
	} {
		q := &ioqueue{sched: schedElevatorCyl, lbnState: lbnState{dir: dirAsc, numBlocks: l.sectors}, cylState: l.cylState(c.strategy)}
		assert.Equal(t, c.want, serveQueue(q, 60, 100, 4, 30, 3, 140, 50, 90), "strategy %d", c.strategy)
	}
}
