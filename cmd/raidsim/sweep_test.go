package main

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"

	"github.com/raidsim/raidsim/sweep"
)

// sweep16 is a 16-point sweep (4 stripe units x 2 caches x 2 queue depths)
// of two short phases, small enough for a unit test.
const sweep16 = `name: sweep16
seed: 3
stack:
  drive: {preset: deskstar-7k160}
  disks: 4
  raid: {level: "5", stripe_unit: 64KiB}
phases:
  - name: mixed
    rw: randrw
    rwmixread: 60
    bs: 16KiB
    iodepth: 4
    size: 1GiB
    ios: 300
  - name: seq
    rw: write
    bs: 128KiB
    iodepth: 2
    size: 256MiB
    ios: 60
sweep:
  stack.raid.stripe_unit: [16KiB, 64KiB, 256KiB, 1MiB]
  stack.cache: [null, {size: 32MiB, mode: write-back}]
  phases[0].iodepth: [1, 8]
`

// writeFile writes text to name in a fresh directory and returns its path.
func writeFile(t *testing.T, name, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	require.NoError(t, os.WriteFile(path, []byte(text), 0o644))
	return path
}

// sweepOut runs raidsim sweep and returns its stdout, failing the test on
// a non-zero exit.
func sweepOut(t *testing.T, args ...string) string {
	t.Helper()
	code, out, errOut := runCLI(t, append([]string{"sweep"}, args...)...)
	require.Equal(t, 0, code, errOut)
	require.Empty(t, errOut, "no progress bar or noise on a non-terminal stderr")
	return out
}

func TestSweepIsTheSameWhateverTheWorkers(t *testing.T) {
	cfg := writeFile(t, "sweep16.yaml", sweep16)
	one := sweepOut(t, "--config", cfg, "--csv", "--workers", "1")
	two := sweepOut(t, "--config", cfg, "--csv", "--workers", "2")
	many := sweepOut(t, "--config", cfg, "--csv", "--workers", "7")
	assert.Equal(t, one, two, "1 and 2 workers give byte-identical CSV")
	assert.Equal(t, one, many)

	lines := strings.Split(strings.TrimSuffix(one, "\n"), "\n")
	require.Len(t, lines, 17, "a header and 16 points")
	assert.Equal(t, "point,stack.raid.stripe_unit,stack.cache,phases[0].iodepth,iops,mb_per_s,mean_ms,p50_ms,p95_ms,p99_ms,max_ms,read_iops,write_iops,sim_s,"+
		"mixed.iops,mixed.mb_per_s,mixed.p99_ms,seq.iops,seq.mb_per_s,seq.p99_ms", lines[0])
	assert.True(t, strings.HasPrefix(lines[1], "0,16KiB,none,1,"), lines[1])
	assert.True(t, strings.HasPrefix(lines[4], "3,16KiB,\"{mode: write-back, size: 32MiB}\",8,"), lines[4])
	assert.True(t, strings.HasPrefix(lines[16], "15,1MiB,"), lines[16])

	// Points differ: the sweep really changes the configs.
	assert.NotEqual(t, strings.SplitN(lines[1], ",", 5)[4], strings.SplitN(lines[2], ",", 5)[4])

	j1 := sweepOut(t, "--config", cfg, "--json", "--workers", "1")
	j2 := sweepOut(t, "--config", cfg, "--json", "--workers", "2")
	assert.Equal(t, j1, j2)
	t1 := sweepOut(t, "--config", cfg, "--workers", "1")
	t2 := sweepOut(t, "--config", cfg, "--workers", "2")
	assert.Equal(t, t1, t2)
}

func TestSweepShardsConcatenateToTheWholeSweep(t *testing.T) {
	cfg := writeFile(t, "sweep16.yaml", sweep16)
	whole := sweepOut(t, "--config", cfg, "--csv")
	wholeJSON := sweepOut(t, "--config", cfg, "--json")
	for _, n := range []int{1, 2, 3, 5, 16, 20} {
		var joined, joinedJSON strings.Builder
		for i := 1; i <= n; i++ {
			shard := strconv.Itoa(i) + "/" + strconv.Itoa(n)
			out := sweepOut(t, "--config", cfg, "--csv", "--shard", shard, "--workers", strconv.Itoa(1+i%2))
			header, rows, ok := strings.Cut(out, "\n")
			require.True(t, ok, shard)
			if i == 1 {
				joined.WriteString(header + "\n") // head -n 1 of the first shard
			} else {
				require.Equal(t, strings.SplitN(whole, "\n", 2)[0], header, "every shard writes the header: %s", shard)
			}
			joined.WriteString(rows) // tail -n +2 of every shard
			joinedJSON.WriteString(sweepOut(t, "--config", cfg, "--json", "--shard", shard))
		}
		assert.Equal(t, whole, joined.String(), "%d shards", n)
		assert.Equal(t, wholeJSON, joinedJSON.String(), "%d shards, JSON Lines", n)
	}
}

func TestSweepJSONLines(t *testing.T) {
	cfg := writeFile(t, "sweep16.yaml", sweep16)
	out := sweepOut(t, "--config", cfg, "--json", "--shard", "2/4")
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	require.Len(t, lines, 4)
	for i, l := range lines {
		var rec struct {
			Point  int            `json:"point"`
			Values map[string]any `json:"values"`
			Report struct {
				Name   string           `json:"name"`
				Phases []map[string]any `json:"phases"`
				Total  map[string]any   `json:"total"`
			} `json:"report"`
		}
		require.NoError(t, json.Unmarshal([]byte(l), &rec), l)
		assert.Equal(t, 4+i, rec.Point)
		assert.Len(t, rec.Values, 3)
		assert.Equal(t, "sweep16", rec.Report.Name)
		assert.Len(t, rec.Report.Phases, 2)
		assert.Contains(t, rec.Report.Total, "all")
	}
	assert.True(t, strings.HasPrefix(lines[0], `{"point":4,"values":{"stack.raid.stripe_unit":"64KiB","stack.cache":null,"phases[0].iodepth":1},`), "values keep axis order: %s", lines[0][:100])
}

func TestSweepListChecksWithoutRunning(t *testing.T) {
	cfg := writeFile(t, "sweep16.yaml", sweep16)
	out := sweepOut(t, "--config", cfg, "--list", "--csv")
	assert.Equal(t, 17, strings.Count(out, "\n"))
	assert.Contains(t, out, "point,stack.raid.stripe_unit,stack.cache,phases[0].iodepth\n0,16KiB,none,1\n")

	bad := writeFile(t, "bad.yaml", strings.Replace(sweep16, "[16KiB, 64KiB,", "[16KiB, 3000,", 1))
	code, _, errOut := runCLI(t, "sweep", "--config", bad, "--list")
	assert.Equal(t, 1, code)
	assert.Contains(t, errOut, "point 4 (stack.raid.stripe_unit=3000, stack.cache=none, phases[0].iodepth=1)")
	assert.Contains(t, errOut, "stack.raid.stripe_unit: 3000 is not a multiple of 512")
}

// TestSweepErrors: bad sweep files and flags give errors naming the path
// or flag; none panics.
func TestSweepErrors(t *testing.T) {
	good := writeFile(t, "sweep16.yaml", sweep16)
	file := func(swp string) string {
		i := strings.Index(sweep16, "sweep:\n")
		return writeFile(t, "s.yaml", sweep16[:i]+swp)
	}
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"no config", nil, "--config: a sweep file is required"},
		{"missing file", []string{"--config", "/nonexistent/s.yaml"}, "no such file"},
		{"shard 0/4", []string{"--config", good, "--shard", "0/4"}, `--shard: shard "0/4": I counts from 1 to N=4`},
		{"shard 5/4", []string{"--config", good, "--shard", "5/4"}, `--shard: shard "5/4": I counts from 1 to N=4`},
		{"shard x/y", []string{"--config", good, "--shard", "x/y"}, `--shard: shard "x/y": want two whole numbers`},
		{"shard 3", []string{"--config", good, "--shard", "3"}, `--shard: shard "3": want I/N`},
		{"shard 1/0", []string{"--config", good, "--shard", "1/0"}, `--shard: shard "1/0": N must be at least 1`},
		{"workers 0", []string{"--config", good, "--workers", "0"}, "--workers: must be at least 1, got 0"},
		{"csv and json", []string{"--config", good, "--csv", "--json"}, "--csv and --json: choose one"},
		{"unknown metric", []string{"--config", good, "--metric", "iops,speed", "--plot", "x.svg"}, `--metric: unknown "speed"`},
		{"metric with json", []string{"--config", good, "--metric", "p99_ms", "--json"}, "--metric selects columns, and --json prints whole reports"},
		{"plot extension", []string{"--config", good, "--plot", "x.pdf"}, "--plot x.pdf: .pdf names no format written here: end the name with .svg or .png"},
		{"plot with shard", []string{"--config", good, "--plot", "x.svg", "--shard", "1/2"}, "--plot needs every point: drop --shard"},
		{"progress", []string{"--config", good, "--progress", "maybe"}, `--progress: want auto, on or off, got "maybe"`},
		{"argument", []string{"--config", good, "extra"}, `unexpected argument "extra"`},
		{"no sweep section", []string{"--config", file("")}, `s.yaml: no "sweep" section`},
		{"path through a scalar", []string{"--config", file("sweep:\n  stack.drive.preset.rpm: [7200]\n")},
			`s.yaml: stack.drive.preset.rpm: stack.drive.preset is the string "deskstar-7k160", not a map or list`},
		{"empty values", []string{"--config", file("sweep:\n  stack.raid.stripe_unit: []\n")}, "s.yaml: stack.raid.stripe_unit: empty list of values"},
		{"values not a list", []string{"--config", file("sweep:\n  stack.raid.stripe_unit: 64KiB\n")},
			`s.yaml: stack.raid.stripe_unit: values must be a list, got the string "64KiB"`},
		{"values a map", []string{"--config", file("sweep:\n  stack.raid: {level: 0}\n")}, "s.yaml: stack.raid: values must be a list"},
		{"index past the end", []string{"--config", file("sweep:\n  phases[2].iodepth: [1, 2]\n")}, "s.yaml: phases[2].iodepth: phases has 2 elements, no [2]"},
		{"key on a list", []string{"--config", file("sweep:\n  phases.iodepth: [1]\n")}, "s.yaml: phases.iodepth: phases is a list, not a map"},
		{"bad path", []string{"--config", file("sweep:\n  stack..raid: [1]\n")}, "s.yaml: stack..raid: empty key"},
		{"section a scalar", []string{"--config", file("sweep: 3\n")}, `s.yaml: the "sweep" section must be`},
		{"section empty", []string{"--config", file("sweep: {}\n")}, `s.yaml: the "sweep" section is empty`},
		{"unknown field", []string{"--config", file("sweep:\n  stack.raid.stripe: [64KiB]\n")}, "point 0 (stack.raid.stripe=64KiB)"},
		{"bad value", []string{"--config", file("sweep:\n  stack.raid.stripe_unit: [64KiB, 3000]\n")},
			"s.yaml: stack.raid.stripe_unit: 3000 is not a multiple of 512"},
		{"bad value names the point", []string{"--config", file("sweep:\n  stack.raid.stripe_unit: [64KiB, 3000]\n")}, "point 1 (stack.raid.stripe_unit=3000): /"},
		{"not yaml", []string{"--config", writeFile(t, "x.yaml", "stack: [\n")}, "x.yaml:"},
		{"not a mapping", []string{"--config", writeFile(t, "x.yaml", "- 1\n- 2\n")}, "x.yaml: want a mapping"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var code int
			var errOut string
			require.NotPanics(t, func() { code, _, errOut = runCLI(t, append([]string{"sweep"}, tc.args...)...) })
			assert.NotEqual(t, 0, code)
			assert.Contains(t, errOut, tc.want)
		})
	}
}

func TestSweepPlots(t *testing.T) {
	dir := t.TempDir()
	two := writeFile(t, "two.yaml", strings.Replace(sweep16, "  phases[0].iodepth: [1, 8]\n", "", 1))
	one := writeFile(t, "one.yaml", strings.Replace(strings.Replace(sweep16, "  phases[0].iodepth: [1, 8]\n", "", 1),
		"  stack.cache: [null, {size: 32MiB, mode: write-back}]\n", "", 1))
	three := writeFile(t, "three.yaml", sweep16)
	for _, tc := range []struct{ cfg, out string }{
		{two, "heat.svg"}, {two, "heat.png"}, {one, "line.svg"}, {three, "lines.png"},
	} {
		path := filepath.Join(dir, tc.out)
		sweepOut(t, "--config", tc.cfg, "--plot", path, "--metric", "p99_ms", "--csv")
		data, err := os.ReadFile(path)
		require.NoError(t, err)
		require.NotEmpty(t, data)
		if strings.HasSuffix(tc.out, ".svg") {
			assert.Contains(t, string(data), "<svg")
			assert.Contains(t, string(data), "p99 ms")
		} else {
			assert.True(t, bytes.HasPrefix(data, []byte("\x89PNG\r\n\x1a\n")), tc.out)
		}
	}
}

// TestSweepCDF: --cdf draws one latency CDF per point (configuration),
// in SVG or PNG.
func TestSweepCDF(t *testing.T) {
	dir := t.TempDir()
	cfg := writeFile(t, "two.yaml", strings.Replace(sweep16, "  phases[0].iodepth: [1, 8]\n", "", 1))
	for _, name := range []string{"cdf.svg", "cdf.png"} {
		path := filepath.Join(dir, name)
		sweepOut(t, "--config", cfg, "--cdf", path, "--csv")
		data, err := os.ReadFile(path)
		require.NoError(t, err)
		if strings.HasSuffix(name, ".svg") {
			var root struct{ XMLName xml.Name }
			require.NoError(t, xml.Unmarshal(data, &root), "the SVG parses as XML")
			assert.Equal(t, "svg", root.XMLName.Local)
			assert.Contains(t, string(data), "Latency CDF per configuration")
			assert.Contains(t, string(data), "no cache", "a curve per point, named by its values in words")
		} else {
			img, err := png.Decode(bytes.NewReader(data))
			require.NoError(t, err)
			assert.Greater(t, img.Bounds().Dx(), 100)
		}
	}
	code, _, errOut := runCLI(t, "sweep", "--config", cfg, "--cdf", "x.pdf")
	assert.NotZero(t, code)
	assert.Contains(t, errOut, "--cdf")
}

// TestSweepProgressBar: no bar on a buffer (not a terminal) unless asked
// for, and the bar clears its line when the sweep ends.
func TestSweepProgressBar(t *testing.T) {
	cfg := writeFile(t, "sweep16.yaml", sweep16)
	assert.False(t, isTerminal(&bytes.Buffer{}))
	f, err := os.Create(filepath.Join(t.TempDir(), "f"))
	require.NoError(t, err)
	defer f.Close()
	assert.False(t, isTerminal(f), "a file is not a terminal")

	var out, errOut bytes.Buffer
	o := sweepOptions{config: cfg, workers: 2, metric: "iops", progress: "on", barRefresh: time.Millisecond}
	require.NoError(t, o.run(&out, &errOut))
	bar := errOut.String()
	assert.Contains(t, bar, "/16 points")
	assert.Contains(t, bar, "elapsed")
	assert.True(t, strings.HasSuffix(bar, "\r\033[K"), "the bar clears its line: %q", bar)

	errOut.Reset()
	o.progress = "auto"
	require.NoError(t, o.run(&out, &errOut))
	assert.Empty(t, errOut.String())
	assert.Equal(t, "0:00", clock(400*time.Millisecond))
	assert.Equal(t, "2:05", clock(125*time.Second))
	assert.Equal(t, "1:01:01", clock(3661*time.Second))
}

// TestSweepFileKeepsAxisOrder: the map form of the sweep section keeps
// the file's order (YAML and JSON), not Go's map order or sorted order.
func TestSweepFileKeepsAxisOrder(t *testing.T) {
	for _, text := range []string{
		"stack: {}\nsweep:\n  z.b: [1]\n  a.c: [2]\n  m: [3]\n",
		`{"stack": {}, "sweep": {"z.b": [1], "a.c": [2], "m": [3]}}`,
		"stack: {}\nsweep:\n  - {path: z.b, values: [1]}\n  - {path: a.c, values: [2]}\n  - {path: m, values: [3]}\n",
	} {
		tree, err := decodeSweepFile([]byte(text), "f")
		require.NoError(t, err)
		_, axes, err := sweep.Split(tree)
		require.NoError(t, err, text)
		var paths []string
		for _, a := range axes {
			paths = append(paths, a.Path)
		}
		assert.Equal(t, []string{"z.b", "a.c", "m"}, paths, text)
	}
}

// shardRE finds the --shard argument of a command line.
var shardRE = regexp.MustCompile(`--shard\s+("[^"]*"|\S+)`)

// evalShell runs script with sh and env and returns its trimmed output.
func evalShell(t *testing.T, script string, env ...string) string {
	t.Helper()
	cmd := exec.Command("sh", "-c", script)
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s: %s", script, out)
	return strings.TrimSpace(string(out))
}

// checkShards checks that the shard strings, one per batch task, are
// exactly 1/n .. n/n: together they run every point once, in order.
func checkShards(t *testing.T, what string, shards []string, n int) {
	t.Helper()
	require.Len(t, shards, n, what)
	for i, s := range shards {
		sh, err := sweep.ParseShard(s)
		require.NoError(t, err, "%s task %d", what, i)
		assert.Equal(t, sweep.Shard{I: i + 1, N: n}, sh, "%s task %d", what, i)
	}
}

func TestKubernetesIndexedJobShardArithmetic(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	data, err := os.ReadFile("../../examples/sweep-batch/job.yaml")
	require.NoError(t, err)
	var job struct {
		Kind string
		Spec struct {
			CompletionMode string `yaml:"completionMode"`
			Completions    int
			Parallelism    int
			Template       struct {
				Spec struct {
					Containers []struct {
						Command, Args []string
					}
				}
			}
		}
	}
	require.NoError(t, yaml.Unmarshal(data, &job))
	assert.Equal(t, "Job", job.Kind)
	assert.Equal(t, "Indexed", job.Spec.CompletionMode)
	require.Positive(t, job.Spec.Completions)
	assert.LessOrEqual(t, job.Spec.Parallelism, job.Spec.Completions)
	require.Len(t, job.Spec.Template.Spec.Containers, 1)
	c := job.Spec.Template.Spec.Containers[0]
	require.Equal(t, []string{"/bin/sh", "-c"}, c.Command)
	script := strings.Join(c.Args, "\n")
	assert.Contains(t, script, "--config /config/sweep.yaml")

	// Run the script's shard arithmetic for every index Kubernetes hands out.
	var prelude []string
	for _, l := range strings.Split(script, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "shard=") {
			prelude = append(prelude, l)
		}
	}
	m := shardRE.FindStringSubmatch(script)
	require.NotNil(t, m, "the script passes --shard")
	var shards []string
	for i := range job.Spec.Completions {
		shards = append(shards, evalShell(t, strings.Join(prelude, "\n")+"\necho "+m[1], "JOB_COMPLETION_INDEX="+strconv.Itoa(i)))
	}
	checkShards(t, "job.yaml", shards, job.Spec.Completions)
}

func TestSlurmArrayShardArithmetic(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	data, err := os.ReadFile("../../examples/sweep-batch/sweep.slurm")
	require.NoError(t, err)
	script := string(data)
	arr := regexp.MustCompile(`(?m)^#SBATCH --array=(\d+)-(\d+)`).FindStringSubmatch(script)
	require.NotNil(t, arr, "#SBATCH --array=LO-HI")
	lo, _ := strconv.Atoi(arr[1])
	hi, _ := strconv.Atoi(arr[2])
	shardsLine := regexp.MustCompile(`(?m)^SHARDS=\d+$`).FindString(script)
	require.NotEmpty(t, shardsLine)
	var code []string // the script without its comments
	for _, l := range strings.Split(script, "\n") {
		if !strings.HasPrefix(strings.TrimSpace(l), "#") {
			code = append(code, l)
		}
	}
	m := shardRE.FindStringSubmatch(strings.Join(code, "\n"))
	require.NotNil(t, m, "the script passes --shard")
	var shards []string
	for id := lo; id <= hi; id++ {
		shards = append(shards, evalShell(t, shardsLine+"\necho "+m[1], "SLURM_ARRAY_TASK_ID="+strconv.Itoa(id)))
	}
	checkShards(t, "sweep.slurm", shards, hi-lo+1)
	assert.Contains(t, script, "--csv")
}

// TestExampleSweepFile: the shipped sweep file parses, every point's
// config is valid, and one shard of it runs.
func TestExampleSweepFile(t *testing.T) {
	cfg := "../../examples/sweep-batch/sweep.yaml"
	out := sweepOut(t, "--config", cfg, "--list", "--csv")
	assert.Equal(t, 17, strings.Count(out, "\n"), "16 points and a header")
	out = sweepOut(t, "--config", cfg, "--shard", "1/16", "--csv")
	assert.Equal(t, 2, strings.Count(out, "\n"))
	assert.Contains(t, out, "\n0,16KiB,none,")
}

// TestSweepMetricOldName: --metric takes a figure's name from before
// schema_version 2 (sim_seconds) and prints its new one.
func TestSweepMetricOldName(t *testing.T) {
	cfg := writeFile(t, "sweep16.yaml", sweep16)
	out := sweepOut(t, "--config", cfg, "--metric", "sim_seconds", "--csv", "--shard", "1/16")
	header, _, _ := strings.Cut(out, "\n")
	assert.True(t, strings.HasSuffix(header, ",sim_s,mixed.sim_s,seq.sim_s"), header)
}

// TestSweepRestoresGCPercent: a sweep runs with the collector's target
// at sweepGCPercent and puts the caller's back when it ends, so a
// process that goes on (the tests run every command in one) does not
// keep five times its live heap.
func TestSweepRestoresGCPercent(t *testing.T) {
	if os.Getenv("GOGC") != "" {
		t.Skip("GOGC is set: the sweep leaves the collector alone")
	}
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	cfg := writeFile(t, "sweep16.yaml", sweep16)
	sweepOut(t, "--config", cfg, "--csv", "--workers", "1")
	assert.Equal(t, 100, debug.SetGCPercent(100), "the target after the sweep")
}
