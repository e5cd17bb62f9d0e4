package sweep

import (
	"fmt"
	"strconv"
	"strings"
)

// Shard selects slice I of N of a grid, so that N machines (the tasks of a
// batch engine's job array, say) can share a sweep. I counts from 1, as
// people do: the shards of a four-way split are 1/4, 2/4, 3/4 and 4/4.
// The zero Shard (N == 0) is the whole grid.
//
// Shards are contiguous runs of point indices in grid order, so the
// outputs of shards 1 to N, concatenated in that order, list every point
// once and in the same order as an unsharded run. Shard sizes differ by
// at most one point; a shard may be empty when N exceeds the number of
// points.
type Shard struct {
	I, N int
}

// ParseShard parses "I/N" with 1 <= I <= N, e.g. "2/8". The empty string
// is the whole grid.
func ParseShard(s string) (Shard, error) {
	if s == "" {
		return Shard{}, nil
	}
	is, ns, ok := strings.Cut(s, "/")
	if !ok {
		return Shard{}, fmt.Errorf("sweep: shard %q: want I/N, e.g. 1/4", s)
	}
	i, err1 := strconv.Atoi(strings.TrimSpace(is))
	n, err2 := strconv.Atoi(strings.TrimSpace(ns))
	switch {
	case err1 != nil || err2 != nil:
		return Shard{}, fmt.Errorf("sweep: shard %q: want two whole numbers I/N, e.g. 1/4", s)
	case n < 1:
		return Shard{}, fmt.Errorf("sweep: shard %q: N must be at least 1", s)
	case i < 1 || i > n:
		return Shard{}, fmt.Errorf("sweep: shard %q: I counts from 1 to N=%d", s, n)
	}
	return Shard{I: i, N: n}, nil
}

// String returns "I/N", or "" for the whole grid.
func (s Shard) String() string {
	if s.N == 0 {
		return ""
	}
	return fmt.Sprintf("%d/%d", s.I, s.N)
}

// Range returns the point indices [lo, hi) of the shard in a grid of
// total points: lo = (I-1)*total/N and hi = I*total/N, rounding down.
func (s Shard) Range(total int) (lo, hi int) {
	if s.N == 0 {
		return 0, total
	}
	return int(int64(s.I-1) * int64(total) / int64(s.N)), int(int64(s.I) * int64(total) / int64(s.N))
}
