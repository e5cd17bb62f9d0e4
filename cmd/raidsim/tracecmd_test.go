package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestGenReplaysToTheSameReport: a generated trace replayed in closed loop
// at the workload's iodepth gives the report of the in-memory workload.
func TestGenReplaysToTheSameReport(t *testing.T) {
	stack := []string{"--drive", "deskstar-7k160", "--raid", "5", "--disks", "4", "--seed", "3"}
	work := []string{"--rw", "randrw", "--rwmixread", "60", "--bssplit", "4k/50:64k/50", "--ios", "700"}
	for _, format := range []string{"csv", "fio"} {
		t.Run(format, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "gen."+format)
			code, out, errOut := runCLI(t, append(append(append([]string{"gen", "--to", format, "--out", path}, stack...), work...), "--iodepth", "8")...)
			require.Equal(t, 0, code, errOut)
			assert.Contains(t, out, "wrote 700 records")

			_, direct, _ := runCLI(t, append(append(append([]string{"run", "--json"}, stack...), work...), "--iodepth", "8")...)
			code, replayed, errOut := runCLI(t, append([]string{"run", "--json", "--trace", path, "--iodepth", "8"}, stack...)...)
			require.Equal(t, 0, code, errOut)

			var a, b map[string]json.RawMessage
			require.NoError(t, json.Unmarshal([]byte(direct), &a))
			require.NoError(t, json.Unmarshal([]byte(replayed), &b))
			for _, k := range []string{"read", "write", "all", "sim_seconds", "raid", "disks"} {
				assert.JSONEq(t, string(a[k]), string(b[k]), k)
			}
			var tr struct {
				Format  string `json:"format"`
				Records int64  `json:"records"`
			}
			require.NoError(t, json.Unmarshal(b["trace"], &tr))
			assert.Equal(t, format, tr.Format)
			assert.EqualValues(t, 700, tr.Records)
		})
	}
}

// sharedTrace returns the path of a sample under ../shared/traces, or
// skips the test when the folder is absent.
func sharedTrace(t *testing.T, name string) string {
	t.Helper()
	path := filepath.Join("..", "..", "..", "shared", "traces", name)
	if _, err := os.Stat(path); err != nil {
		t.Skipf("shared trace sample %s not present: %v", name, err)
	}
	return path
}

func TestRunMSRTraceShowsRecordedLatency(t *testing.T) {
	path := sharedTrace(t, "msr-hm0-sample.csv")
	code, out, errOut := runCLI(t, "run", "--trace", path, "--drive", "deskstar-7k500")
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "format msr")
	assert.Contains(t, out, "1000 records replayed")
	i := strings.Index(out, "simulated vs recorded")
	require.Positive(t, i, out)
	assert.Contains(t, out[i:], "simulated")
	assert.Contains(t, out[i:], "trace")

	code, out, errOut = runCLI(t, "run", "--trace", path, "--drive", "deskstar-7k500", "--json")
	require.Equal(t, 0, code, errOut)
	var rep struct {
		Trace struct {
			Format   string             `json:"format"`
			Records  int64              `json:"records"`
			Skipped  *int64             `json:"skipped"`
			Measured map[string]float64 `json:"measured_latency_ms"`
		} `json:"trace"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &rep))
	assert.Equal(t, "msr", rep.Trace.Format)
	assert.EqualValues(t, 1000, rep.Trace.Records)
	require.NotNil(t, rep.Trace.Skipped)
	assert.Positive(t, rep.Trace.Measured["mean"], "the trace's own response times")
}

func TestConvertRoundTrip(t *testing.T) {
	dir := t.TempDir()
	gen := filepath.Join(dir, "a.csv")
	code, _, errOut := runCLI(t, "gen", "--rw", "randwrite", "--ios", "50", "--out", gen)
	require.Equal(t, 0, code, errOut)
	fio := filepath.Join(dir, "b.log")
	code, out, errOut := runCLI(t, "convert", gen, fio, "--to", "fio")
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "converted 50 records")
	back := filepath.Join(dir, "c.csv")
	code, _, errOut = runCLI(t, "convert", "--from", "fio", fio, back)
	require.Equal(t, 0, code, errOut)
	// fio logs keep offsets, sizes and ops; times are 0 in a synthetic
	// workload, so the round trip is exact.
	a, err := os.ReadFile(gen)
	require.NoError(t, err)
	c, err := os.ReadFile(back)
	require.NoError(t, err)
	assert.Equal(t, string(a), string(c))
}

func TestTraceCommandErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.csv")
	require.NoError(t, os.WriteFile(bad, []byte("time_ns,op,offset,length,device,fua,measured_ns\n0,read,x,4096,0,0,0\n"), 0o644))
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"run", "--trace", filepath.Join(dir, "missing.csv")}, "missing.csv"},
		{[]string{"run", "--trace", bad}, `bad.csv:2: offset`},
		{[]string{"run", "--trace", bad, "--rw", "randwrite"}, "--rw describes a synthetic workload"},
		{[]string{"run", "--trace", bad, "--map", "fold"}, "--map"},
		{[]string{"run", "--trace", bad, "--speed", "0"}, "--speed"},
		{[]string{"gen", "--rw", "randread"}, "--out"},
		{[]string{"gen", "--out", filepath.Join(dir, "x"), "--to", "xml"}, "--to"},
		{[]string{"convert", bad}, "want an input and an output file"},
		{[]string{"convert", bad, filepath.Join(dir, "o.csv")}, `bad.csv:2: offset`},
	}
	for _, c := range cases {
		t.Run(strings.Join(c.args[:2], " "), func(t *testing.T) {
			code, _, errOut := runCLI(t, c.args...)
			assert.NotZero(t, code)
			assert.Contains(t, errOut, c.want)
		})
	}
}
