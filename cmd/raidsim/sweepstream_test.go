package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/raidsim/raidsim/sweep"

	"github.com/raidsim/raidsim/metrics"
)

// gridConfig writes a sweep file whose axes take the given values.
func gridConfig(tb testing.TB, axes map[string][]string, order []string) string {
	tb.Helper()
	var b strings.Builder
	b.WriteString("stack:\n  drive: {preset: deskstar-7k160}\nphases:\n  - {rw: randread, ios: 10}\nsweep:\n")
	for _, path := range order {
		fmt.Fprintf(&b, "  %s: [%s]\n", path, strings.Join(axes[path], ", "))
	}
	path := filepath.Join(tb.TempDir(), "grid.yaml")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		tb.Fatal(err)
	}
	return path
}

// seq returns the numbers from, from+step, ... n of them, as strings.
func seq(from, step, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = strconv.Itoa(from + i*step)
	}
	return out
}

// TestSweepListInChunksIsOneTable: a listing longer than a chunk is
// printed a chunk at a time, yet reads as the one aligned table the
// whole grid makes: the slow axis's widest value comes only in the last
// chunk, and its column is that wide from the first row.
func TestSweepListInChunksIsOneTable(t *testing.T) {
	cfg := gridConfig(t, map[string][]string{"seed": {"1", "1000000"}, "phases[0].iodepth": seq(1, 1, 1250)},
		[]string{"seed", "phases[0].iodepth"})
	out := sweepOut(t, "--config", cfg, "--list")
	want := metrics.Table{Header: []string{"point", "seed", "phases[0].iodepth"},
		Align: []metrics.Align{metrics.AlignRight, metrics.AlignLeft, metrics.AlignLeft}}
	for i := range 2500 {
		want.AddRow(strconv.Itoa(i), []string{"1", "1000000"}[i/1250], strconv.Itoa(1+i%1250))
	}
	var b strings.Builder
	require.NoError(t, want.WriteText(&b))
	assert.Equal(t, b.String(), out)
	require.Greater(t, 2500, sweepChunk, "the grid spans several chunks")

	csv := sweepOut(t, "--config", cfg, "--list", "--csv", "--shard", "2/2")
	lines := strings.Split(strings.TrimSuffix(csv, "\n"), "\n")
	assert.Len(t, lines, 1251, "one header, then the shard's rows")
	assert.Equal(t, "point,seed,phases[0].iodepth", lines[0])
	assert.Equal(t, "1250,1000000,1", lines[1])
}

// TestSweepPlotUnwritableFailsFirst: --plot or --cdf to a path that
// cannot be written fails before any point runs, and a writable one is
// not left behind as an empty file by the check.
func TestSweepPlotUnwritableFailsFirst(t *testing.T) {
	cfg := gridConfig(t, map[string][]string{"phases[0].ios": {"1000000000"}}, []string{"phases[0].ios"})
	for _, flag := range []string{"--plot", "--cdf"} {
		bad := filepath.Join(t.TempDir(), "no", "such", "dir", "x.svg")
		code, out, errOut := runCLI(t, "sweep", "--config", cfg, flag, bad)
		assert.Equal(t, 1, code)
		assert.Empty(t, out)
		assert.Contains(t, errOut, flag+" "+bad+": the directory "+filepath.Dir(bad)+" does not exist")
	}
	sw := &sweepOptions{plot: filepath.Join(t.TempDir(), "fresh.svg"), config: cfg}
	grid, err := sweep.NewGrid(map[string]any{}, nil)
	require.NoError(t, err)
	require.NoError(t, sw.checkOutputs(grid))
	_, err = os.Stat(sw.plot)
	assert.True(t, os.IsNotExist(err), "the check leaves no empty file")
}

// BenchmarkSweepListMillion lists a grid of 10^6 points (100 x 100 x
// 100) and reports the process's peak resident memory, which must stay
// under 100 MB: the points are built, checked and printed a chunk at a
// time.
func BenchmarkSweepListMillion(b *testing.B) {
	cfg := gridConfig(b, map[string][]string{
		"phases[0].iodepth": seq(1, 1, 100), "phases[0].bs": seq(512, 512, 100), "seed": seq(1, 1, 100),
	}, []string{"phases[0].iodepth", "phases[0].bs", "seed"})
	for b.Loop() {
		code := run([]string{"sweep", "--config", cfg, "--list"}, io.Discard, io.Discard)
		if code != 0 {
			b.Fatalf("exit %d", code)
		}
	}
	hwm := peakRSS()
	if hwm < 0 {
		b.Skip("peak RSS is not known on this system")
	}
	b.ReportMetric(float64(hwm)/(1<<20), "peak-rss-MB")
	if hwm > 100<<20 {
		b.Errorf("peak RSS %d MB, want under 100 MB", hwm>>20)
	}
}

// TestSweepChecksValuesNotCombinations: a sweep checks each axis value
// once before it runs, so a million-point grid checks 1,999 points (it
// checked every one, 43 s of silence before the first row), and a bad
// value at the end of an axis is still caught before any point runs,
// named with the point that takes it.
func TestSweepChecksValuesNotCombinations(t *testing.T) {
	iodepths, seeds := seq(1, 1, 1000), seq(1, 1, 1000)
	path := gridConfig(t, map[string][]string{"phases[0].iodepth": iodepths, "seed": seeds}, []string{"phases[0].iodepth", "seed"})
	o := &sweepOptions{config: path}
	grid := loadTestGrid(t, path)
	require.Equal(t, 1000000, grid.Len())
	n, err := o.checkAxes(grid, 0)
	require.NoError(t, err)
	assert.Equal(t, 1999, n)
	n, err = o.checkAxes(grid, 123456) // a shard's first point
	require.NoError(t, err)
	assert.Equal(t, 1999, n)

	iodepths[999] = "0" // refused: NoZero
	path = gridConfig(t, map[string][]string{"phases[0].iodepth": iodepths, "seed": seeds}, []string{"phases[0].iodepth", "seed"})
	_, err = (&sweepOptions{config: path}).checkAxes(loadTestGrid(t, path), 0)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "point 999000 (phases[0].iodepth=0, seed=1)")
	assert.Contains(t, err.Error(), "phases[0].iodepth: 0 is not a usable value")
}

// loadTestGrid reads a sweep file's grid as raidsim sweep does.
func loadTestGrid(t *testing.T, path string) *sweep.Grid {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	tree, err := decodeSweepFile(data, path)
	require.NoError(t, err)
	base, axes, err := sweep.Split(tree)
	require.NoError(t, err)
	grid, err := sweep.NewGrid(base, axes)
	require.NoError(t, err)
	return grid
}
