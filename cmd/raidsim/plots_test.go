package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// svgText is one text element of a gonum SVG, at its position in the
// figure's y-up coordinates (gonum flips each text back with
// scale(1, -1), so y-up is minus the y attribute).
type svgText struct {
	x, y float64
	s    string
}

var textRE = regexp.MustCompile(`<text x="([-0-9.]+)" y="([-0-9.]+)" transform="scale\(1, -1\)"\s+style="[^"]*">([^<]*)</text>`)

func svgTexts(t *testing.T, svg string) []svgText {
	t.Helper()
	var out []svgText
	for _, m := range textRE.FindAllStringSubmatch(svg, -1) {
		x, _ := strconv.ParseFloat(m[1], 64)
		y, _ := strconv.ParseFloat(m[2], 64)
		out = append(out, svgText{x, -y, m[3]})
	}
	require.NotEmpty(t, out)
	return out
}

func findText(ts []svgText, s string) (svgText, bool) {
	for _, x := range ts {
		if x.s == s {
			return x, true
		}
	}
	return svgText{}, false
}

// sweepYAML is the repository's example sweep.
const sweepYAML = "../../examples/sweep-batch/sweep.yaml"

// TestSweepPlotsReadable draws the heat map and the CDF of the example
// sweep and checks what a reader sees: viridis colours with the best
// cell yellow, not the background's white, a frame, axis labels and
// ticks in words, the legend below the plot, and 16 curves cut to the 8
// best and worst with the rest named.
func TestSweepPlotsReadable(t *testing.T) {
	dir := t.TempDir()
	heat, cdf := filepath.Join(dir, "heat.svg"), filepath.Join(dir, "cdf.svg")
	code, _, errOut := runCLI(t, "sweep", "--config", sweepYAML, "--plot", heat, "--cdf", cdf)
	require.Equal(t, 0, code, errOut)
	raw, err := os.ReadFile(heat)
	require.NoError(t, err)
	svg := string(raw)
	assert.Contains(t, svg, "fill:#FDE725", "the best cell is viridis yellow")
	assert.Contains(t, svg, "fill:#440154", "the worst cell is viridis violet")
	assert.Equal(t, 1, strings.Count(svg, "stroke:#282828"), "a frame around the grid")
	ts := svgTexts(t, svg)
	for _, want := range []string{"stripe unit", "volume cache", "no cache", "cache 16 MiB", "cache 256 MiB", "64 KiB", "1 MiB"} {
		_, ok := findText(ts, want)
		assert.True(t, ok, "heat map label %q", want)
	}
	assert.NotContains(t, svg, "stack.", "no key paths")
	assert.NotContains(t, svg, "{size", "no config syntax")

	raw, err = os.ReadFile(cdf)
	require.NoError(t, err)
	svg = string(raw)
	ts = svgTexts(t, svg)
	axis, ok := findText(ts, "latency (ms, log scale)")
	require.True(t, ok)
	entries := 0
	for _, x := range ts {
		note := strings.Contains(x.s, ";") || strings.HasSuffix(x.s, ".")
		if strings.HasPrefix(x.s, "stripe unit") && !note {
			entries++
			assert.Less(t, x.y, axis.y, "legend entry %q is below the plot", x.s)
		}
	}
	assert.Equal(t, 8, entries, "16 curves: the 4 best and 4 worst named in colour")
	assert.Contains(t, svg, "In grey, 8 more")
	assert.Contains(t, svg, "stroke:#B9B9B9", "the others in grey")
}

// TestSweepLinesCategorical: a sweep whose last axis is the stripe unit
// draws points per category, not lines joining them, on a y axis from
// zero, with the legend below.
func TestSweepLinesCategorical(t *testing.T) {
	base, err := os.ReadFile(sweepYAML)
	require.NoError(t, err)
	cfg := string(base)
	i := strings.Index(cfg, "\nsweep:\n")
	require.Positive(t, i)
	cfg = cfg[:i] + `
sweep:
  stack.cache: [null, {size: 64MiB}]
  phases[0].iodepth: [4, 16]
  stack.raid.stripe_unit: [16KiB, 64KiB, 256KiB, 1MiB]
`
	dir := t.TempDir()
	path, out := filepath.Join(dir, "s.yaml"), filepath.Join(dir, "lines.svg")
	require.NoError(t, os.WriteFile(path, []byte(cfg), 0o644))
	code, _, errOut := runCLI(t, "sweep", "--config", path, "--plot", out)
	require.Equal(t, 0, code, errOut)
	raw, err := os.ReadFile(out)
	require.NoError(t, err)
	svg := string(raw)
	assert.NotContains(t, svg, "stroke-width:1.5", "no line joins categories")
	ts := svgTexts(t, svg)
	xl, ok := findText(ts, "stripe unit")
	require.True(t, ok, "x axis in words")
	_, ok = findText(ts, "0")
	assert.True(t, ok, "the y axis starts at 0")
	entries := 0
	for _, x := range ts {
		if strings.Contains(x.s, "queue depth") {
			entries++
			assert.Less(t, x.y, xl.y, "legend entry %q below the plot", x.s)
		}
	}
	assert.Equal(t, 4, entries)
	_, ok = findText(ts, "no cache, queue depth 4")
	assert.True(t, ok, "legend entries in words")
}
