package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/raidsim/raidsim/internal/shareddata"
)

// TestTraceStatsEverySample: raidsim trace stats describes every sample
// trace, ours and the published ones, in text and JSON.
func TestTraceStatsEverySample(t *testing.T) {
	samples, err := filepath.Glob("../../testdata/traces/*")
	require.NoError(t, err)
	shared := shareddata.Dir(t, "traces")
	more, err := filepath.Glob(filepath.Join(shared, "*"))
	require.NoError(t, err)
	for _, path := range append(samples, more...) {
		if filepath.Ext(path) == ".md" {
			continue
		}
		code, out, errOut := runCLI(t, "trace", "stats", path)
		require.Equal(t, 0, code, "%s: %s", path, errOut)
		assert.Contains(t, out, "footprint:", path)
		code, out, errOut = runCLI(t, "trace", "stats", path, "--json")
		require.Equal(t, 0, code, "%s: %s", path, errOut)
		var st struct {
			Records int64 `json:"records"`
			Reuse   struct {
				Curves []json.RawMessage `json:"curves"`
			} `json:"reuse"`
		}
		require.NoError(t, json.Unmarshal([]byte(out), &st), path)
		assert.Positive(t, st.Records, path)
	}
}

// TestTraceStatsPlotAndErrors: --plot draws the page, an existing one
// is replaced only with --force, and bad command lines are usage errors.
func TestTraceStatsPlotAndErrors(t *testing.T) {
	dir := t.TempDir()
	plot := filepath.Join(dir, "stats.svg")
	code, _, errOut := runCLI(t, "trace", "stats", "../../testdata/traces/sample-msr.csv", "--plot", plot)
	require.Equal(t, 0, code, errOut)
	b, err := os.ReadFile(plot)
	require.NoError(t, err)
	assert.Contains(t, string(b), "<svg")
	code, _, errOut = runCLI(t, "trace", "stats", "../../testdata/traces/sample-msr.csv", "--plot", plot)
	assert.Equal(t, 1, code)
	assert.Contains(t, errOut, "--force")
	code, _, errOut = runCLI(t, "trace", "stats", "../../testdata/traces/sample-msr.csv", "--plot", plot, "--force")
	assert.Equal(t, 0, code, errOut)

	for _, args := range [][]string{
		{"trace"}, {"trace", "nope"}, {"trace", "stats"}, {"trace", "stats", "a", "b"},
		{"trace", "stats", "../../testdata/traces/sample-msr.csv", "--sample-blocks", "0"},
		{"trace", "stats", "../../testdata/traces/sample-msr.csv", "--plot", filepath.Join(dir, "x.pdf")},
	} {
		code, _, errOut := runCLI(t, args...)
		assert.NotEqual(t, 0, code, "%v", args)
		assert.Contains(t, errOut, "raidsim trace", "%v", args)
	}
	code, _, errOut = runCLI(t, "trace", "stats", filepath.Join(dir, "missing.csv"))
	assert.Equal(t, 1, code)
	assert.Contains(t, errOut, "missing.csv")
}
