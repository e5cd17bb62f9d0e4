package spec_test

import (
	"bufio"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/raidsim/raidsim/spec"
)

// minimal is the smallest valid experiment.
const minimal = "phases: [{rw: randread, ios: 10}]\n"

func TestParseMinimal(t *testing.T) {
	x, err := spec.Parse([]byte(minimal), "dir/mini.yaml")
	require.NoError(t, err)
	assert.Equal(t, "mini", x.Name, "the name defaults to the file name")
	pl, err := x.Plan()
	require.NoError(t, err)
	assert.Equal(t, 1, pl.Disks)
	assert.Equal(t, int64(10), pl.Phases[0].Workload.NumIOs)
	assert.Equal(t, "phase 1", pl.Phases[0].Name)
}

func TestParseJSONAndYAMLAgree(t *testing.T) {
	y, err := spec.Parse([]byte(`
stack: {disks: 3, raid: {level: 5, stripe_unit: 128KiB}, cache: {size: 8MiB}}
phases: [{rw: randwrite, bs: 8KiB, ios: 50, iodepth: 4}]`), "x")
	require.NoError(t, err)
	j, err := spec.Parse([]byte(`{"stack": {"disks": 3, "raid": {"level": "5", "stripe_unit": 131072},
		"cache": {"size": "8MiB"}}, "phases": [{"rw": "randwrite", "bs": 8192, "ios": 50, "iodepth": 4}]}`), "x")
	require.NoError(t, err)
	assert.Equal(t, y, j)
}

// invalidCase is one case of testdata/invalid.txt.
type invalidCase struct {
	name, text string
	want       []string
}

// readInvalidCases reads testdata/invalid.txt.
func readInvalidCases(t *testing.T) []invalidCase {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "invalid.txt"))
	require.NoError(t, err)
	defer f.Close()
	var cases []invalidCase
	var cur *invalidCase
	inWant := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "=== "):
			cases = append(cases, invalidCase{name: strings.TrimPrefix(line, "=== ")})
			cur, inWant = &cases[len(cases)-1], false
		case cur == nil:
		case line == "--- want":
			inWant = true
		case inWant && line != "":
			cur.want = append(cur.want, line)
		case !inWant:
			cur.text += line + "\n"
		}
	}
	require.NoError(t, sc.Err())
	return cases
}

func TestParseInvalid(t *testing.T) {
	cases := readInvalidCases(t)
	require.Greater(t, len(cases), 60)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var x *spec.Experiment
			var err error
			require.NotPanics(t, func() { x, err = spec.Parse([]byte(tc.text), "x.yaml") })
			require.Error(t, err)
			assert.Nil(t, x)
			require.NotEmpty(t, tc.want, "a case says what the error holds")
			for _, w := range tc.want {
				assert.Contains(t, err.Error(), w)
			}
			assert.True(t, strings.HasPrefix(err.Error(), "x.yaml: "), "errors name the source: %v", err)
			var se *spec.Error
			assert.True(t, errors.As(err, &se), "an *Error")
		})
	}
}

func TestValidateReportsEveryProblem(t *testing.T) {
	_, err := spec.Parse([]byte(`
stack: {disks: 3, raid: {level: 5, stripe_unit: 3000}, drive: {queue_depth: 99}}
phases: [{rw: sideways, bs: 1000}, {rw: read, iodepth: -1}]`), "x.yaml")
	require.Error(t, err)
	var se *spec.Error
	require.True(t, errors.As(err, &se))
	var paths []string
	for _, f := range se.Fields {
		paths = append(paths, f.Path)
	}
	for _, want := range []string{"stack.raid.stripe_unit", "stack.drive.queue_depth", "phases[0].rw", "phases[0].bs", "phases[1].iodepth"} {
		assert.Contains(t, paths, want)
	}
}

func TestParseTreeLeavesTreeAlone(t *testing.T) {
	tree := map[string]any{"phases": []any{map[string]any{"rw": "read", "ios": 3}}}
	_, err := spec.ParseTree(tree, "t")
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"phases": []any{map[string]any{"rw": "read", "ios": 3}}}, tree)
}

func TestLoadResolvesTracePaths(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "x.yaml")
	require.NoError(t, os.WriteFile(path, []byte("phases: [{trace: {path: t.csv}}]\n"), 0o644))
	x, err := spec.Load(path)
	require.NoError(t, err)
	assert.Equal(t, filepath.Join(dir, "t.csv"), x.Phases[0].Trace.Path)
}

func TestExampleConfigsParse(t *testing.T) {
	files, err := filepath.Glob("../examples/configs/*.yaml")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, f := range files {
		_, err := spec.Load(f)
		assert.NoError(t, err, f)
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte(minimal))
	f.Add([]byte(`{"stack": {"disks": 3, "raid": {"level": 5}}, "phases": [{"rw": "randwrite", "ios": 5}]}`))
	f.Add([]byte("stack: {cache: {size: 1MiB, interval: 5ms}}\nphases: [{bssplit: 4k/50:8k/50, ios: 3}]\n"))
	f.Add([]byte("phases: [{trace: {path: x, map: scale, capacity: 1GiB}}]"))
	f.Add([]byte("stack: {drive: {spec: {capacity: 1GiB, rpm: 7200, heads: 2, outer_sustained: 60, inner_sustained: 30, track_to_track: 1ms}}}\nphases: [{ios: 1}]"))
	f.Add([]byte("phases: [{rw: read, bs: &a 4k, size: *a}]"))
	f.Add([]byte("power_loss_at: 2s\nstack: {cache: {size: 8MiB, max_dirty: 1MiB, read_ahead: 256KiB}}\nphases: [{rw: randwrite, ios: 3, ramp_ios: 1, background: [{rw: write}]}]\n"))
	for _, name := range []string{"single-drive-phases.yaml", "raid5-volume-cache.yaml"} {
		if b, err := os.ReadFile(filepath.Join("../examples/configs", name)); err == nil {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		x, err := spec.Parse(data, "fuzz")
		if err != nil {
			if x != nil {
				t.Fatal("an experiment with an error")
			}
			return
		}
		if err := x.Validate(); err != nil {
			t.Fatalf("parsed experiment fails Validate: %v", err)
		}
	})
}

// TestLowWaterAloneKeepsTheDefaultHighWater: a low watermark given on
// its own is checked against, and runs with, the default high one.
func TestLowWaterAloneKeepsTheDefaultHighWater(t *testing.T) {
	x, err := spec.Parse([]byte("stack: {cache: {size: 8MiB, low_water: 0.3}}\n"+minimal), "")
	require.NoError(t, err)
	pl, err := x.Plan()
	require.NoError(t, err)
	assert.Equal(t, 0.5, pl.Cache.HighWater)
	assert.Equal(t, 0.3, pl.Cache.LowWater)
}

// TestPlanJobs: a phase's concurrent jobs plan one JobPlan per clone,
// with their groups, streams, waits and regions.
func TestPlanJobs(t *testing.T) {
	x, err := spec.Parse([]byte(`
stack: {drive: {preset: deskstar-7k160}}
phases:
  - {rw: read, ios: 10}
  - runtime: 1s
    jobs:
      - {name: a, rw: randread, ios: 10, numjobs: 2, offset_increment: 1GiB, size: 1GiB, group_reporting: true, rate_iops: "100", rate_process: poisson}
      - {name: b, rw: write, time_based: true, wait_for: a, startdelay: 5ms, new_group: true, thinktime: 1ms, thinktime_blocks: 4, thinktime_blocks_type: issue}
      - {name: c, rw: read, ios: 1, wait_for: b, io_submit_mode: offload, rate: ",1MiB"}
  - {rw: read, ios: 10, numjobs: 3}
`), "x.yaml")
	require.NoError(t, err)
	pl, err := x.Plan()
	require.NoError(t, err)
	jobs := pl.Phases[1].Jobs
	require.Len(t, jobs, 4)
	assert.Equal(t, []string{"a", "a", "b", "c"}, []string{jobs[0].Name, jobs[1].Name, jobs[2].Name, jobs[3].Name})
	assert.Equal(t, []int{0, 0, 1, 1}, []int{jobs[0].Group, jobs[1].Group, jobs[2].Group, jobs[3].Group})
	assert.Equal(t, "workload/phase1", jobs[0].Stream)
	assert.Equal(t, "workload/phase1/job0.1", jobs[1].Stream)
	assert.Equal(t, int64(1<<30), jobs[1].Workload.Offset, "clone 1 one offset_increment on")
	assert.Equal(t, [3]int64{100, 100, 100}, jobs[0].Workload.Pacing.RateIOPS)
	assert.True(t, jobs[0].Workload.Pacing.Poisson)
	assert.Equal(t, 0, jobs[2].WaitFor)
	assert.Equal(t, int64(1<<32), jobs[2].Workload.NumIOs, "time_based runs until the runtime")
	assert.Equal(t, 4, jobs[2].Workload.Pacing.ThinkTimeBlocks)
	assert.True(t, jobs[2].Workload.Pacing.ThinkOnIssue)
	assert.Equal(t, 1, jobs[3].WaitFor)
	assert.Equal(t, [3]int64{0, 1 << 20, 0}, jobs[3].Workload.Pacing.Rate)
	assert.True(t, jobs[3].Workload.Pacing.Offload)
	assert.Len(t, pl.Phases[2].Jobs, 3, "numjobs clones the phase's own job")
	assert.Empty(t, pl.Phases[0].Jobs)
}
