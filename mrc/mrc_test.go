package mrc_test

import (
	"io"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/raidsim/raidsim/cache"
	"github.com/raidsim/raidsim/mrc"
	"github.com/raidsim/raidsim/sim"
	"github.com/raidsim/raidsim/trace"
)

// naiveDistance is the stack distance by definition: the position of b
// in a list of blocks, most recent first (0 if absent), moving b to the
// front.
func naiveDistance(stack *[]int64, b int64) int64 {
	for i, x := range *stack {
		if x == b {
			copy((*stack)[1:i+1], (*stack)[:i])
			(*stack)[0] = b
			return int64(i + 1)
		}
	}
	*stack = append([]int64{b}, *stack...)
	return 0
}

// TestExactAgainstNaive: every stack distance equals the naive list's,
// over enough accesses that the time axis is compacted many times.
func TestExactAgainstNaive(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	x := mrc.NewExact()
	var stack []int64
	for i := range 300_000 {
		b := int64(rng.IntN(300))
		if i%7 == 0 {
			b = int64(rng.IntN(5))
		}
		require.Equal(t, naiveDistance(&stack, b), x.Access(b), "access %d", i)
	}
	require.EqualValues(t, 300, x.Distinct())
}

// records is a test trace: n 4 KiB records (70% reads) over a skewed
// working set of about blocks blocks, a tenth of them sequential runs of
// 64 KiB, so some records touch 16 blocks.
type records struct {
	rng  *rand.Rand
	zipf *rand.Zipf
	n    int
}

func newRecords(seed uint64, n int, blocks uint64) *records {
	rng := rand.New(rand.NewPCG(seed, 7))
	return &records{rng: rng, zipf: rand.NewZipf(rng, 1.1, 4, blocks-1), n: n}
}

func (r *records) Next() (trace.Record, error) {
	if r.n == 0 {
		return trace.Record{}, io.EOF
	}
	r.n--
	rec := trace.Record{Op: sim.Read, Offset: int64(r.zipf.Uint64()) * 4096, Length: 4096}
	if r.rng.IntN(10) < 3 {
		rec.Op = sim.Write
	}
	if r.rng.IntN(10) == 0 {
		rec.Length = 64 << 10
	}
	return rec, nil
}

func opener(seed uint64, n int, blocks uint64) func() (mrc.Reader, error) {
	return func() (mrc.Reader, error) { return newRecords(seed, n, blocks), nil }
}

// TestExactEqualsSimulatedLRU: LRU's curve from stack distances equals,
// miss for miss, an LRU cache simulated at each of 5 sizes.
func TestExactEqualsSimulatedLRU(t *testing.T) {
	sizes := []int64{1, 100, 1000, 10_000, 50_000}
	res, err := mrc.Build(opener(3, 200_000, 100_000), mrc.Options{Sizes: sizes})
	require.NoError(t, err)
	require.Len(t, res.Curves, 1)
	require.Equal(t, "exact", res.Curves[0].Method)
	for i, s := range sizes {
		bs, err := cache.NewBlockSim(cache.LRU, s)
		require.NoError(t, err)
		r := newRecords(3, 200_000, 100_000)
		for rec, err := r.Next(); err == nil; rec, err = r.Next() {
			for b := rec.Offset / 4096; b < rec.Offset/4096+rec.Length/4096; b++ {
				bs.Access(b)
			}
		}
		require.Equal(t, bs.MissRatio(), res.Curves[0].Points[i].MissRatio, "size %d blocks", s)
		require.Equal(t, bs.Hits+bs.Misses, res.Accesses)
	}
}

// TestSHARDSWithinTwoPercent: on a 1M-record trace (Zipf 1.1 over a
// million blocks, a tenth of the records 64 KiB), SHARDS at 1% sampling
// is within 0.02 (absolute) of the exact LRU curve at every size of
// its default curve (from 32 sampled blocks, 3,200 blocks, to the
// footprint), and estimates the footprint within 5%.
func TestSHARDSWithinTwoPercent(t *testing.T) {
	x := mrc.NewExact()
	sh, err := mrc.NewSHARDS(0.01)
	require.NoError(t, err)
	r := newRecords(5, 1_000_000, 1_000_000)
	for rec, err := r.Next(); err == nil; rec, err = r.Next() {
		for b := rec.Offset / 4096; b < (rec.Offset+rec.Length)/4096; b++ {
			x.Access(b)
			sh.Access(b)
		}
	}
	sizes := mrc.DefaultSizes(x.Distinct(), 0.01)
	require.Len(t, sizes, mrc.DefaultPoints)
	require.EqualValues(t, 3200, sizes[0])
	exact, err := x.Curve(sizes)
	require.NoError(t, err)
	est, err := sh.Curve(sizes)
	require.NoError(t, err)
	worst := 0.0
	for i, s := range sizes {
		require.InDelta(t, exact[i], est[i], 0.02, "size %d blocks", s)
		worst = max(worst, exact[i]-est[i], est[i]-exact[i])
	}
	t.Logf("%d accesses, %d distinct blocks, %d sampled accesses; SHARDS 1%% off by at most %.4f", x.Accesses(), x.Distinct(), sh.Sampled(), worst)
}

// TestBuildPolicies: simulated policies come out per size, in the order
// asked, and ARC beats LRU somewhere on a skewed trace.
func TestBuildPolicies(t *testing.T) {
	res, err := mrc.Build(opener(9, 50_000, 20_000), mrc.Options{Policies: []cache.Replacement{cache.LRU, cache.ARC, cache.SIEVE}, Sizes: []int64{100, 1000}})
	require.NoError(t, err)
	require.Len(t, res.Curves, 3)
	require.Equal(t, []string{"lru", "arc", "sieve"}, []string{res.Curves[0].Policy, res.Curves[1].Policy, res.Curves[2].Policy})
	require.Equal(t, "simulated", res.Curves[1].Method)
	require.Equal(t, int64(1000*4096), res.Curves[1].Points[1].Bytes)
	for _, c := range res.Curves {
		require.Greater(t, c.Points[0].MissRatio, c.Points[1].MissRatio, c.Policy)
	}
}

func TestBuildRejects(t *testing.T) {
	open := opener(1, 10, 10)
	for _, o := range []mrc.Options{
		{SampleRate: 1.5},
		{SampleRate: -0.1},
		{Sizes: []int64{0}},
		{Policies: []cache.Replacement{cache.ARC, cache.ARC}},
		{Policies: []cache.Replacement{cache.Replacement(99)}},
		{Policies: cache.Replacements(), Sizes: manySizes(200)}, // 6 simulated policies x 200 sizes
	} {
		_, err := mrc.Build(open, o)
		require.Error(t, err, "%+v", o)
	}
}

// BenchmarkExact1M: LRU's exact curve of a 1M-record trace (about 1.45M
// block accesses over a skewed working set), reading included.
func BenchmarkExact1M(b *testing.B) {
	for b.Loop() {
		if _, err := mrc.Build(opener(5, 1_000_000, 1_000_000), mrc.Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

func manySizes(n int) []int64 {
	out := make([]int64, n)
	for i := range out {
		out[i] = int64(i + 1)
	}
	return out
}
