package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/raidsim/raidsim/internal/shareddata"
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

			var a, b struct {
				Phases      []map[string]json.RawMessage `json:"phases"`
				RAID, Disks json.RawMessage
			}
			require.NoError(t, json.Unmarshal([]byte(direct), &a))
			require.NoError(t, json.Unmarshal([]byte(replayed), &b))
			require.Len(t, a.Phases, 1)
			require.Len(t, b.Phases, 1)
			for _, k := range []string{"read", "write", "all", "sim_s"} {
				assert.JSONEq(t, string(a.Phases[0][k]), string(b.Phases[0][k]), k)
			}
			assert.JSONEq(t, string(a.RAID), string(b.RAID), "raid")
			assert.JSONEq(t, string(a.Disks), string(b.Disks), "disks")
			var tr struct {
				Format  string `json:"format"`
				Records int64  `json:"records"`
			}
			require.NoError(t, json.Unmarshal(b.Phases[0]["trace"], &tr))
			assert.Equal(t, format, tr.Format)
			assert.EqualValues(t, 700, tr.Records)
		})
	}
}

// sharedTrace returns the path of a sample under ../shared/traces, or
// skips the test when it is absent.
// sampleTrace is the repository's own sample in MSR Cambridge's format
// (testdata/traces/README.md), sorted or shuffled within a small window.
func sampleTrace(unsorted bool) string {
	if unsorted {
		return filepath.Join("..", "..", "testdata", "traces", "sample-msr-unsorted.csv.gz")
	}
	return filepath.Join("..", "..", "testdata", "traces", "sample-msr.csv")
}

func TestRunMSRTraceShowsRecordedLatency(t *testing.T) {
	path := sampleTrace(false)
	code, out, errOut := runCLI(t, "run", "--trace", path, "--drive", "deskstar-7k500")
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "format msr")
	assert.Contains(t, out, "3000 records replayed")
	i := strings.Index(out, "simulated vs recorded")
	require.Positive(t, i, out)
	assert.Contains(t, out[i:], "simulated")
	assert.Contains(t, out[i:], "trace")

	code, out, errOut = runCLI(t, "run", "--trace", path, "--drive", "deskstar-7k500", "--json")
	require.Equal(t, 0, code, errOut)
	var rep struct {
		Phases []struct {
			Trace struct {
				Format   string             `json:"format"`
				Records  int64              `json:"records"`
				Skipped  *int64             `json:"skipped"`
				Measured map[string]float64 `json:"measured_latency_ms"`
			} `json:"trace"`
		} `json:"phases"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &rep))
	require.Len(t, rep.Phases, 1)
	tr := rep.Phases[0].Trace
	assert.Equal(t, "msr", tr.Format)
	assert.EqualValues(t, 3000, tr.Records)
	require.NotNil(t, tr.Skipped)
	assert.Positive(t, tr.Measured["mean"], "the trace's own response times")
}

// TestUnsortedTraceNeedsReorder: a trace out of time order fails with
// its line and a hint, and with --reorder replays to the sorted trace's
// report.
func TestUnsortedTraceNeedsReorder(t *testing.T) {
	code, _, errOut := runCLI(t, "run", "--trace", sampleTrace(true), "--drive", "deskstar-7k500", "--json")
	assert.NotEqual(t, 0, code)
	assert.Contains(t, errOut, "sample-msr-unsorted.csv.gz:3:")
	assert.Contains(t, errOut, "replay with --reorder-window D")
	code, sorted, errOut := runCLI(t, "run", "--trace", sampleTrace(false), "--drive", "deskstar-7k500", "--json")
	require.Equal(t, 0, code, errOut)
	code, reordered, errOut := runCLI(t, "run", "--trace", sampleTrace(true), "--drive", "deskstar-7k500", "--reorder", "16", "--json")
	require.Equal(t, 0, code, errOut)
	strip := func(s string) string { // the file names and the reorder's account differ, nothing else
		var rep map[string]any
		require.NoError(t, json.Unmarshal([]byte(s), &rep))
		tr := rep["phases"].([]any)[0].(map[string]any)["trace"].(map[string]any)
		tr["path"] = "T"
		for _, k := range []string{"reorder_records", "reordered", "max_late_s"} {
			delete(tr, k)
		}
		b, err := json.Marshal(rep)
		require.NoError(t, err)
		return string(b)
	}
	assert.Equal(t, strip(sorted), strip(reordered))
	assert.Contains(t, reordered, `"reordered": 1836`)
}

// TestPublishedTracesReplayAsPublished: the SYSTOR '17 and Tencent CBS
// samples, out of time order as published and of volumes far larger
// than one drive, replay with no flag at all: the report says how many
// records were sorted and by how much, and how many were wrapped onto
// the drive (the formats' default map); --map reject refuses their
// offsets and --strict-order their order, at their first late line.
func TestPublishedTracesReplayAsPublished(t *testing.T) {
	for _, c := range []struct {
		file, line, mapped string
		firstLate          string
	}{
		{"systor17-sample.csv.gz", "reordered: 287 records, at most 67.603ms late (window 1s)",
			"mapped: 980 records ended past the stack and were moved onto it (map wrap, the format's default", "systor17-sample.csv.gz:"},
		{"tencent-cbs-sample.csv.bz2", "reordered: 1297 records, at most 1s late (window 2s)",
			"mapped: 1304 records ended past the stack and were moved onto it (map wrap, the format's default", "tencent-cbs-sample.csv.bz2:"},
	} {
		path := shareddata.Dir(t, "traces", c.file)
		code, out, errOut := runCLI(t, "run", "--trace", path) // as published: no flags
		require.Equal(t, 0, code, errOut)
		assert.Contains(t, out, c.line, c.file)
		assert.Contains(t, out, c.mapped, c.file)
		code, _, errOut = runCLI(t, "run", "--trace", path, "--map", "reject")
		assert.Equal(t, 1, code, c.file)
		assert.Contains(t, errOut, "ends past the", c.file)
		code, _, errOut = runCLI(t, "run", "--trace", path, "--strict-order")
		assert.Equal(t, 1, code, c.file)
		assert.Contains(t, errOut, c.firstLate, c.file)
		assert.Contains(t, errOut, "the trace is not sorted by time", c.file)
	}
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
		{[]string{"convert", bad}, "OUT is missing after IN"},
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

// csvTrace writes a raidsim CSV trace of n reads to dir/name and returns
// its path and bytes.
func csvTrace(t *testing.T, dir, name string, n int) (string, []byte) {
	t.Helper()
	var b strings.Builder
	b.WriteString("time_ns,op,offset,length,device,fua,measured_ns\n")
	for i := range n {
		fmt.Fprintf(&b, "%d,read,%d,4096,0,0,0\n", i*1000, i*4096)
	}
	path := filepath.Join(dir, name)
	require.NoError(t, os.WriteFile(path, []byte(b.String()), 0o644))
	return path, []byte(b.String())
}

// assertOneLineError checks a failed command: non-zero status and an
// error of one line containing want.
func assertOneLineError(t *testing.T, code int, errOut, want string) {
	t.Helper()
	assert.NotZero(t, code)
	assert.Contains(t, errOut, want)
	assert.Equal(t, 1, strings.Count(errOut, "\n"), "one line: %q", errOut)
}

// TestConvertNeverOverwritesItsInput: convert refuses an output that is
// its input, by the same path, another path, a symlink or a hard link,
// even with --force, and leaves the input byte for byte as it was.
func TestConvertNeverOverwritesItsInput(t *testing.T) {
	dir := t.TempDir()
	in, want := csvTrace(t, dir, "x.csv", 20)
	require.NoError(t, os.Mkdir(filepath.Join(dir, "sub"), 0o755))
	require.NoError(t, os.Symlink(in, filepath.Join(dir, "link.csv")))
	require.NoError(t, os.Link(in, filepath.Join(dir, "hard.csv")))
	outs := map[string]string{
		"same path":    in,
		"other path":   filepath.Join(dir, "sub", "..", "x.csv"),
		"symlink":      filepath.Join(dir, "link.csv"),
		"hard link":    filepath.Join(dir, "hard.csv"),
		"relative-ish": filepath.Join(dir, ".", "x.csv"),
	}
	for name, out := range outs {
		for _, force := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/force=%v", name, force), func(t *testing.T) {
				args := []string{"convert", in, out, "--to", "fio"}
				if force {
					args = append(args, "--force")
				}
				code, _, errOut := runCLI(t, args...)
				assertOneLineError(t, code, errOut, "is the same file as the input")
				got, err := os.ReadFile(in)
				require.NoError(t, err)
				assert.Equal(t, want, got)
			})
		}
	}
	t.Run("symlink as input", func(t *testing.T) {
		code, _, errOut := runCLI(t, "convert", filepath.Join(dir, "link.csv"), in, "--force")
		assertOneLineError(t, code, errOut, "is the same file as the input")
		got, err := os.ReadFile(in)
		require.NoError(t, err)
		assert.Equal(t, want, got)
	})
	assertOnlyFiles(t, dir, "hard.csv", "link.csv", "sub", "x.csv")
}

// assertOnlyFiles checks that dir holds exactly the names given (so no
// temporary file was left behind).
func assertOnlyFiles(t *testing.T, dir string, names ...string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	var got []string
	for _, e := range entries {
		got = append(got, e.Name())
	}
	assert.Equal(t, names, got)
}

// TestConvertReplacesOnlyWithForce: an existing OUT is an error naming
// --force and stays as it was; with --force it is replaced.
func TestConvertReplacesOnlyWithForce(t *testing.T) {
	dir := t.TempDir()
	in, _ := csvTrace(t, dir, "in.csv", 10)
	out := filepath.Join(dir, "out.log")
	old := []byte("precious\n")
	require.NoError(t, os.WriteFile(out, old, 0o600))

	code, _, errOut := runCLI(t, "convert", in, out, "--to", "fio")
	assertOneLineError(t, code, errOut, "--force")
	got, err := os.ReadFile(out)
	require.NoError(t, err)
	assert.Equal(t, old, got)

	code, stdout, errOut := runCLI(t, "convert", in, out, "--to", "fio", "--force")
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, stdout, "converted 10 records")
	fresh := filepath.Join(dir, "fresh.log")
	code, _, errOut = runCLI(t, "convert", in, fresh, "--to", "fio")
	require.Equal(t, 0, code, errOut)
	got, err = os.ReadFile(out)
	require.NoError(t, err)
	want, err := os.ReadFile(fresh)
	require.NoError(t, err)
	assert.Equal(t, want, got)
	st, err := os.Stat(out)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), st.Mode().Perm(), "a replaced file keeps its permissions")
	assertOnlyFiles(t, dir, "fresh.log", "in.csv", "out.log")
}

// TestConvertThroughSymlinkReplacesTarget: with --force, an OUT that is
// a symlink to another file keeps the link and replaces its target.
func TestConvertThroughSymlinkReplacesTarget(t *testing.T) {
	dir := t.TempDir()
	in, want := csvTrace(t, dir, "in.csv", 3)
	target := filepath.Join(dir, "target.csv")
	require.NoError(t, os.WriteFile(target, []byte("old\n"), 0o644))
	link := filepath.Join(dir, "link.csv")
	require.NoError(t, os.Symlink(target, link))
	code, _, errOut := runCLI(t, "convert", in, link, "--force")
	require.Equal(t, 0, code, errOut)
	got, err := os.ReadFile(target)
	require.NoError(t, err)
	assert.Equal(t, want, got)
	st, err := os.Lstat(link)
	require.NoError(t, err)
	assert.NotZero(t, st.Mode()&os.ModeSymlink, "still a symlink")
}

// TestConvertFailureLeavesNoOutput: a conversion that fails half way (a
// malformed line after good ones) leaves no OUT and no temporary file,
// and an existing OUT replaced with --force stays as it was.
func TestConvertFailureLeavesNoOutput(t *testing.T) {
	dir := t.TempDir()
	_, good := csvTrace(t, dir, "bad.csv", 5000)
	bad := filepath.Join(dir, "bad.csv")
	require.NoError(t, os.WriteFile(bad, append(good, "9,read,x,4096,0,0,0\n"...), 0o644))

	out := filepath.Join(dir, "out.csv")
	code, _, errOut := runCLI(t, "convert", bad, out)
	assertOneLineError(t, code, errOut, "bad.csv:5002: offset")
	assertOnlyFiles(t, dir, "bad.csv")

	old := []byte("precious\n")
	require.NoError(t, os.WriteFile(out, old, 0o644))
	code, _, errOut = runCLI(t, "convert", bad, out, "--force")
	assertOneLineError(t, code, errOut, "bad.csv:5002: offset")
	got, err := os.ReadFile(out)
	require.NoError(t, err)
	assert.Equal(t, old, got)
	assertOnlyFiles(t, dir, "bad.csv", "out.csv")
}

// TestGenOutReplacesOnlyWithForce: gen --out follows convert's rules.
func TestGenOutReplacesOnlyWithForce(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "gen.csv")
	old := []byte("precious\n")
	require.NoError(t, os.WriteFile(out, old, 0o644))
	code, _, errOut := runCLI(t, "gen", "--ios", "10", "--out", out)
	assertOneLineError(t, code, errOut, "--force")
	got, err := os.ReadFile(out)
	require.NoError(t, err)
	assert.Equal(t, old, got)

	code, stdout, errOut := runCLI(t, "gen", "--ios", "10", "--out", out, "--force")
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, stdout, "wrote 10 records")
	got, err = os.ReadFile(out)
	require.NoError(t, err)
	assert.Equal(t, 11, strings.Count(string(got), "\n"), "a header and 10 records")
	assertOnlyFiles(t, dir, "gen.csv")
}

// TestGenReplaysByteForByte: for every synthetic workload kind, on a
// RAID 5 whose drives start at their own spindle phases (no
// --spindle-sync), gen's trace replayed gives run's text report byte
// for byte but for the line that names the source (workload or trace):
// in closed loop at the job's iodepth, and, for a rated job paced in
// offload mode (open-loop Poisson arrivals), in open loop at the
// recorded times.
func TestGenReplaysByteForByte(t *testing.T) {
	stack := []string{"--drive", "deskstar-7k160", "--raid", "5", "--disks", "4", "--seed", "7"}
	var kinds [][]string
	for _, rw := range []string{"read", "write", "randread", "randwrite", "rw", "randrw", "trim", "randtrim"} {
		kinds = append(kinds, []string{"--rw", rw, "--ios", "300"})
	}
	kinds = append(kinds,
		[]string{"--rw", "randrw", "--rwmixread", "70", "--bssplit", "4k/60:64k/40", "--ios", "300", "--iodepth", "8"},
		[]string{"--rw", "randwrite", "--random-distribution", "zipf:1.1", "--fsync", "16", "--ios", "300", "--iodepth", "4"},
		[]string{"--rw", "read", "--percentage-random", "30", "--random-distribution", "normal:20", "--ios", "300"},
		[]string{"--rw", "randread", "--random-distribution", "pareto:0.9", "--ios", "300", "--iodepth", "32"},
		[]string{"--rw", "randrw", "--ios", "300", "--iodepth", "64", "--rate-iops", "40", "--rate-process", "poisson", "--io-submit-mode", "offload"},
		[]string{"--rw", "randread", "--ios", "300", "--iodepth", "64", "--rate-iops", "40", "--io-submit-mode", "offload"},
	)
	for _, kind := range kinds {
		name := strings.Join(kind, " ")
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "gen.csv")
			code, _, errOut := runCLI(t, append(append([]string{"gen", "--out", path}, stack...), kind...)...)
			require.Equal(t, 0, code, errOut)
			code, direct, errOut := runCLI(t, append(append([]string{"run"}, stack...), kind...)...)
			require.Equal(t, 0, code, errOut)
			replay := append([]string{"run", "--trace", path}, stack...)
			if !strings.Contains(name, "--rate") {
				depth := "1"
				for i, a := range kind {
					if a == "--iodepth" {
						depth = kind[i+1]
					}
				}
				replay = append(replay, "--iodepth", depth)
			}
			code, replayed, errOut := runCLI(t, replay...)
			require.Equal(t, 0, code, errOut)
			body := func(report, source string) string {
				var keep []string
				for _, line := range strings.Split(report, "\n") {
					if !strings.HasPrefix(line, source+" ") {
						keep = append(keep, line)
					}
				}
				require.Len(t, keep, strings.Count(report, "\n"), "one source line in\n%s", report)
				return strings.Join(keep, "\n")
			}
			assert.Equal(t, body(direct, "workload"), body(replayed, "trace"))
		})
	}
}
