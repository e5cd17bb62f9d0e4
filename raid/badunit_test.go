package raid_test

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/raidsim/raidsim/raid"
	"github.com/raidsim/raidsim/sim"
	"github.com/raidsim/raidsim/simtest"
)

// TestRebuildLostUnitIsNoSource: a RAID 5 rebuild that meets an
// unreadable sector with no redundancy left cannot compute the spare's
// unit in that row (md's bad block log on the replacement). A later
// read error on another member of the row must not be repaired from
// that unit: the read fails as lost and LostRanges names it. It was
// repaired from the spare's never-written bytes, rewriting the member
// with wrong data that no report named (fault campaign soak, seed
// 3028520).
func TestRebuildLostUnitIsNoSource(t *testing.T) {
	const u = 16 << 10
	eng := sim.NewEngine(1)
	cfg := simtest.MemConfig{Capacity: 1 << 20, ReadLatency: time.Millisecond, WriteLatency: time.Millisecond}
	devs, fd := tlerMembers(t, eng, 3, cfg)
	a, err := raid.New(eng, raid.Config{Level: raid.RAID5, StripeUnit: u, RebuildData: true}, devs, "md0", nil)
	require.NoError(t, err)
	data := make([]byte, a.Capacity())
	rng := rand.New(rand.NewPCG(3028520, 1))
	for i := range data {
		data[i] = byte(rng.Uint32())
	}
	require.NoError(t, a.Submit(&sim.Request{Op: sim.Write, Length: a.Capacity(), Data: data, Done: func(*sim.Request) {}}))
	eng.Run()

	parity := -1 // the member holding row 0's parity
	for m := range 3 {
		if _, ok := a.Mapping().Logical(raid.Addr{Member: m}); !ok {
			parity = m
		}
	}
	require.GreaterOrEqual(t, parity, 0)
	d0, d1 := (parity+1)%3, (parity+2)%3
	require.NoError(t, a.Fail(parity))
	fd[d0].MarkBad(4) // the rebuild cannot compute row 0's parity
	spare, _ := tlerMember(t, eng, 3, cfg)
	require.NoError(t, a.Rebuild(spare))
	eng.Run()
	require.False(t, a.Stats().Rebuild.Active)

	fd[d1].MarkBad(12) // now a read of d1's row-0 page fails on the medium
	l, ok := a.Mapping().Logical(raid.Addr{Member: d1, Offset: 4096})
	require.True(t, ok)
	got := make([]byte, 4096)
	r := &sim.Request{Op: sim.Read, Offset: l, Length: 4096, Data: got, Done: func(*sim.Request) {}}
	require.NoError(t, a.Submit(r))
	eng.Run()
	if r.Err == nil {
		assert.Equal(t, data[l:l+4096], got, "a read that succeeds returns the written bytes")
	}
	assert.ErrorIs(t, r.Err, raid.ErrLostInRebuild, "no redundancy for d1's page: the spare's parity unit was never computed")
	named := false
	for _, e := range a.LostRanges() {
		named = named || e.Offset <= l && l+4096 <= e.Offset+e.Length
	}
	assert.True(t, named, "LostRanges %v names %d+4096", a.LostRanges(), l)
}
