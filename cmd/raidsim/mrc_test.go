package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/raidsim/raidsim/mrc"
)

// loopTrace writes a native CSV trace: n passes over blocks 4 KiB
// blocks, the odd passes as 8 KiB requests (two blocks each).
func loopTrace(t *testing.T, blocks, n int) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("time_ns,op,offset,length,device,fua,measured_ns\n")
	for pass := range n {
		step := 1 + pass%2
		for i := 0; i < blocks; i += step {
			fmt.Fprintf(&b, "0,read,%d,%d,0,0,0\n", i*4096, step*4096)
		}
	}
	path := filepath.Join(t.TempDir(), "loop.csv")
	require.NoError(t, os.WriteFile(path, []byte(b.String()), 0o644))
	return path
}

// TestMRCJSON: per policy and size, the size in blocks and bytes and
// the miss ratio over block accesses; a loop of 100 blocks misses every
// access of an LRU cache of 50 blocks and none past the first pass of
// one of 100.
func TestMRCJSON(t *testing.T) {
	path := loopTrace(t, 100, 4)
	code, out, errOut := runCLI(t, "mrc", "--trace", path, "--policy", "lru,arc,sieve", "--sizes", "50b,400KiB", "--json")
	require.Equal(t, 0, code, errOut)
	var res mrc.Result
	require.NoError(t, json.Unmarshal([]byte(out), &res))
	assert.EqualValues(t, 300, res.Records) // 100 + 50 + 100 + 50
	assert.EqualValues(t, 400, res.Accesses)
	assert.EqualValues(t, 100, res.DistinctBlocks)
	require.Len(t, res.Curves, 3)
	lru := res.Curves[0]
	assert.Equal(t, "exact", lru.Method)
	assert.Equal(t, mrc.Point{Blocks: 50, Bytes: 50 * 4096, MissRatio: 1}, lru.Points[0])
	assert.Equal(t, mrc.Point{Blocks: 100, Bytes: 100 * 4096, MissRatio: 0.25}, lru.Points[1])
	assert.Equal(t, "simulated", res.Curves[1].Method)
	assert.Equal(t, 1.0, res.Curves[1].Points[0].MissRatio, "ARC, from cold, keeps nothing of a loop twice its size (its T1 fills the cache)")
	assert.Equal(t, 0.25, res.Curves[2].Points[1].MissRatio, "SIEVE holding the whole loop misses only its first pass")
}

func TestMRCTextAndPlot(t *testing.T) {
	path := loopTrace(t, 64, 3)
	png := filepath.Join(t.TempDir(), "mrc.png")
	code, out, errOut := runCLI(t, "mrc", "--trace", path, "--policy", "all", "--plot", png)
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "distinct blocks")
	for _, p := range policyNames() {
		assert.Contains(t, out, p)
	}
	st, err := os.Stat(png)
	require.NoError(t, err)
	assert.Greater(t, st.Size(), int64(1000))
	code, _, errOut = runCLI(t, "mrc", "--trace", path, "--plot", png)
	assert.Equal(t, 1, code)
	assert.Contains(t, errOut, "--force")
}

func TestMRCBadFlags(t *testing.T) {
	path := loopTrace(t, 8, 1)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"mrc"}, "--trace"},
		{[]string{"mrc", "--trace", path, "--policy", "lfu"}, "unknown replacement policy"},
		{[]string{"mrc", "--trace", path, "--sizes", "3KiB"}, "multiple of 4 KiB"},
		{[]string{"mrc", "--trace", path, "--sizes", "0b"}, "positive number of blocks"},
		{[]string{"mrc", "--trace", path, "--sample", "2"}, "--sample"},
		{[]string{"mrc", "--trace", path, "--policy", "arc,arc"}, "given twice"},
		{[]string{"mrc", "--trace", filepath.Join(t.TempDir(), "none.csv")}, "no such file"},
	} {
		code, _, errOut := runCLI(t, tc.args...)
		assert.NotEqual(t, 0, code, "%v", tc.args)
		assert.Contains(t, errOut, tc.want, "%v", tc.args)
	}
}

// FuzzParseBlocks: a cache size parses to a positive block count or
// fails, never panics, and a count of blocks reads back.
func FuzzParseBlocks(f *testing.F) {
	for _, s := range []string{"16384b", "64MiB", "4KiB", "3KiB", "0b", "-1b", "b", "1e3b", "99999999999999999999b", "8EiB"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n, err := parseBlocks(s)
		if err != nil {
			return
		}
		if n <= 0 {
			t.Fatalf("%q parsed to %d blocks", s, n)
		}
		if m, err := parseBlocks(fmt.Sprintf("%db", n)); err != nil || m != n {
			t.Fatalf("%d blocks read back as %d, %v", n, m, err)
		}
	})
}
