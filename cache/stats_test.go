package cache_test

import (
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/raidsim/raidsim/cache"
	"github.com/raidsim/raidsim/sim"
	"github.com/raidsim/raidsim/simtest"
)

// TestCoalescingCountsOnlyDestagedWrites: the coalescing factor counts
// the host writes destages carried, not writes still dirty. One write is
// flushed (one destage), then 1000 overwrites of another block stay
// dirty: the factor is 1, where absorbed writes per destage said 1001.
// Once they are flushed in one destage it is (1 + 1000) / 2.
func TestCoalescingCountsOnlyDestagedWrites(t *testing.T) {
	eng := sim.NewEngine(1)
	c, rec, _ := recStack(t, eng, cache.Config{Size: 4 << 20}, simtest.MemConfig{Capacity: 64 << 20})
	submitAll(t, eng, c, &sim.Request{Op: sim.Write, Offset: 0, Length: 4096})
	submitAll(t, eng, c, &sim.Request{Op: sim.Flush})
	for range 1000 {
		submitAll(t, eng, c, &sim.Request{Op: sim.Write, Offset: 1 << 20, Length: 4096})
	}
	st := c.Stats()
	require.Len(t, writesBelow(rec), 1)
	assert.Equal(t, int64(1001), st.WritesAbsorbed)
	assert.Equal(t, int64(1), st.Destages)
	assert.Equal(t, 1.0, st.CoalescedWrites)
	assert.Equal(t, 1.0, st.CoalescingFactor(), "the 1000 dirty writes have not been coalesced into anything yet")

	submitAll(t, eng, c, &sim.Request{Op: sim.Flush})
	st = c.Stats()
	assert.Equal(t, int64(2), st.Destages)
	assert.Equal(t, 1001.0, st.CoalescedWrites)
	assert.Equal(t, 500.5, st.CoalescingFactor())
	assert.Equal(t, 500.5, st.Summary().CoalescingFactor)
	assert.Equal(t, 1001.0, st.Summary().CoalescedWrites)
}

// TestCoalescingSplitsAndCarries: a write split between destages counts
// in each for its share of bytes, and a write overwritten while dirty
// by a write of a later flush epoch (which cannot merge with it) is
// carried below by the destage of the write that overwrote it.
func TestCoalescingSplitsAndCarries(t *testing.T) {
	t.Run("split", func(t *testing.T) {
		eng := sim.NewEngine(1)
		c, rec, _ := recStack(t, eng, cache.Config{Size: 4 << 20, MaxDestageBytes: 256 << 10}, simtest.MemConfig{Capacity: 64 << 20})
		submitAll(t, eng, c, &sim.Request{Op: sim.Write, Offset: 0, Length: 1 << 20})
		submitAll(t, eng, c, &sim.Request{Op: sim.Flush})
		require.Len(t, writesBelow(rec), 4)
		st := c.Stats()
		assert.InDelta(t, 1.0, st.CoalescedWrites, 1e-12)
		assert.InDelta(t, 0.25, st.CoalescingFactor(), 1e-12)
	})
	t.Run("carried", func(t *testing.T) {
		eng := sim.NewEngine(1)
		c, rec, _ := recStack(t, eng, cache.Config{Size: 4 << 20, MaxOutstandingDestages: 1},
			simtest.MemConfig{Capacity: 64 << 20, WriteLatency: time.Millisecond})
		submitAll(t, eng, c, &sim.Request{Op: sim.Write, Offset: 0, Length: 4096},
			&sim.Request{Op: sim.Write, Offset: 1 << 20, Length: 4096})
		// The flush destages one extent at a time; the write to the
		// second arrives while it is still dirty, in the next epoch.
		submitNow(t, c, &sim.Request{Op: sim.Flush}, &sim.Request{Op: sim.Write, Offset: 1 << 20, Length: 4096})
		eng.Run()
		submitAll(t, eng, c, &sim.Request{Op: sim.Flush})
		require.Len(t, writesBelow(rec), 2, "the overwritten write never went below")
		st := c.Stats()
		assert.Equal(t, int64(3), st.WritesAbsorbed)
		assert.Equal(t, 3.0, st.CoalescedWrites)
		assert.Equal(t, 1.5, st.CoalescingFactor())
	})
}

// TestStallTimeIsTheUnionOfWaits: 32 writes that find the cache full
// wait together; StallTime is the time during which any of them waited
// (the union of their queue spans), StallWaitSum the sum of the spans,
// as the observer sees them. The old StallTime was the sum.
func TestStallTimeIsTheUnionOfWaits(t *testing.T) {
	eng := sim.NewEngine(1)
	dev, err := simtest.NewMemDevice(eng, simtest.MemConfig{Capacity: 64 << 20, WriteLatency: time.Millisecond, Serial: true})
	require.NoError(t, err)
	type span struct{ from, to sim.Time }
	var spans []span
	obs := &sim.Observer{Phase: func(_ string, _ *sim.Request, p sim.Phase, from, to sim.Time) {
		if p == sim.PhaseQueue {
			spans = append(spans, span{from, to})
		}
	}}
	c, err := cache.New(eng, cache.Config{Size: 64 << 10, MaxOutstandingDestages: 1, MaxDestageBytes: 16 << 10}, dev, "vc", obs)
	require.NoError(t, err)
	var rs []*sim.Request
	for round := range 3 { // three bursts, each outrunning the device
		for i := range 32 {
			rs = append(rs, &sim.Request{Op: sim.Write, Offset: int64(round*32+i) * 16 << 10, Length: 16 << 10})
		}
		submitNow(t, c, rs[len(rs)-32:]...)
		eng.RunUntil(eng.Now().Add(5 * time.Millisecond))
		if round == 0 {
			st := c.Stats()
			require.Positive(t, st.Stalls)
			assert.Equal(t, 5*time.Millisecond, st.StallTime, "a stall in progress counts up to now")
		}
	}
	eng.Run()

	st := c.Stats()
	require.Len(t, spans, int(st.Stalls))
	require.Greater(t, st.Stalls, int64(32))
	var sum, union time.Duration
	slices.SortFunc(spans, func(a, b span) int { return int(a.from - b.from) })
	end := sim.Time(-1)
	for _, s := range spans {
		sum += s.to.Sub(s.from)
		if s.from > end {
			union += s.to.Sub(s.from)
			end = s.to
		} else if s.to > end {
			union += s.to.Sub(end)
			end = s.to
		}
	}
	assert.Equal(t, union, st.StallTime)
	assert.Equal(t, sum, st.StallWaitSum)
	assert.Less(t, st.StallTime*10, st.StallWaitSum, "many writes waited at once")
	sum2 := st.Summary()
	assert.Equal(t, st.StallTime.Seconds(), sum2.StallSeconds)
	assert.Equal(t, st.StallWaitSum.Seconds(), sum2.StallWaitSumSeconds)
}

// TestSummaryJSONNames: every JSON name of Summary is the snake_case of
// its Go field name, seconds shortened to s as the report's units are.
func TestSummaryJSONNames(t *testing.T) {
	typ := reflect.TypeFor[cache.Summary]()
	for i := range typ.NumField() {
		f := typ.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		want := snakeCase(f.Name)
		if w, ok := strings.CutSuffix(want, "_seconds"); ok {
			want = w + "_s"
		}
		assert.Equal(t, want, name, "json name of Summary.%s", f.Name)
	}
}

// snakeCase turns a Go name into snake_case: ReadHitRatio is
// read_hit_ratio.
func snakeCase(s string) string {
	var b strings.Builder
	for i, r := range s {
		if unicode.IsUpper(r) {
			if i > 0 {
				b.WriteByte('_')
			}
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}

// TestResetStats: after ResetStats the counts start again, the contents
// stay (a hit is still a hit), the write accounting still balances, and
// FullAt keeps when the cache first had to make room.
func TestResetStats(t *testing.T) {
	eng := sim.NewEngine(1)
	c, _ := newStack(t, eng, cache.Config{Size: 8192, Block: 4096}, memDefault)
	for i := range int64(3) { // the third read evicts the first
		one(t, eng, c, sim.Read, i*4096, 4096)
	}
	one(t, eng, c, sim.Write, 1<<20, 4096)
	full := c.FullAt()
	require.NotEqual(t, sim.Never, full)
	c.ResetStats()
	st := c.Stats()
	require.Equal(t, cache.Stats{FilledAt: sim.Never, HighWaterAt: sim.Never, DirtyBytes: st.DirtyBytes, DirtyPeak: st.DirtyBytes,
		DirtyMean: st.DirtyMean, CleanBytes: st.CleanBytes}, st)
	require.Positive(t, st.CleanBytes)
	require.NoError(t, c.CheckInvariants())
	one(t, eng, c, sim.Read, 1<<20, 4096)
	assert.EqualValues(t, 1, c.Stats().ReadHits)
	one(t, eng, c, sim.Flush, 0, 0)
	require.NoError(t, c.CheckInvariants())
	assert.Equal(t, full, c.FullAt())
}
