package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// raid5Cache is the stack of the job file: a RAID 5 of four
// Deskstar 7K160s under a 64 MiB volume write-back cache.
var raid5Cache = []string{"--drive", "deskstar-7k160", "--raid", "5", "--disks", "4", "--cache", "64MiB"}

// fioOut is what the tests read of fio's JSON, as fio's HOWTO
// describes it ("JSON output": runtime in msec, bw in 1024 bytes per
// second units) and its normal output names the figures.
type fioOut struct {
	Version string `json:"fio version"`
	Jobs    []struct {
		JobName string            `json:"jobname"`
		GroupID int               `json:"groupid"`
		Error   int               `json:"error"`
		Options map[string]string `json:"job options"`
		Read    fioOutDir         `json:"read"`
		Write   fioOutDir         `json:"write"`
		Depths  map[string]float64
	} `json:"jobs"`
}

type fioOutDir struct {
	IOBytes  int64   `json:"io_bytes"`
	IOKBytes int64   `json:"io_kbytes"`
	BW       int64   `json:"bw"`
	BWBytes  int64   `json:"bw_bytes"`
	IOPS     float64 `json:"iops"`
	Runtime  int64   `json:"runtime"`
	TotalIOs int64   `json:"total_ios"`
	Clat     struct {
		Min, Max   int64
		Mean       float64
		N          int64              `json:"N"`
		Percentile map[string]float64 `json:"percentile"`
	} `json:"clat_ns"`
}

// checkHOWTOUnits reads one direction as fio's HOWTO defines its
// units: bw (KiB/s) times runtime (ms) is io_kbytes, and iops times
// runtime is total_ios, within the rounding of a whole millisecond.
func checkHOWTOUnits(t *testing.T, name string, d fioOutDir) {
	t.Helper()
	if d.TotalIOs == 0 {
		return
	}
	tol := 1/float64(d.Runtime) + 0.01
	assert.InEpsilon(t, float64(d.IOKBytes), float64(d.BW)*float64(d.Runtime)/1000, tol, "%s: bw x runtime", name)
	assert.InEpsilon(t, float64(d.TotalIOs), d.IOPS*float64(d.Runtime)/1000, tol, "%s: iops x runtime", name)
	assert.Equal(t, d.IOBytes>>10, d.IOKBytes, name)
	assert.EqualValues(t, d.Clat.N, d.TotalIOs, name)
	// Percentiles are bucket values (fio's within 1/64 of the sample).
	assert.LessOrEqual(t, float64(d.Clat.Min)*0.98, d.Clat.Percentile["50.000000"], name)
	assert.LessOrEqual(t, d.Clat.Percentile["50.000000"], d.Clat.Percentile["99.000000"], name)
	assert.LessOrEqual(t, d.Clat.Percentile["99.000000"], float64(d.Clat.Max)*1.02, name)
}

// TestFioMixedJobFile: the job file (examples/fio/mixed.fio) on
// RAID 5 with a cache: the reader keeps to its 50 reads/s, the writer
// writes its 200 MiB pausing 2 ms every 8 writes, both in group 0, and
// the JSON reads in fio's units.
func TestFioMixedJobFile(t *testing.T) {
	code, out, errOut := runCLI(t, append(append([]string{"fio"}, raid5Cache...), "--output-format=json", "../../examples/fio/mixed.fio")...)
	require.Equal(t, 0, code, errOut)
	var res fioOut
	require.NoError(t, json.Unmarshal([]byte(out), &res))
	assert.True(t, strings.HasPrefix(res.Version, "fio-3."), res.Version)
	require.Len(t, res.Jobs, 2)
	reader, writer := res.Jobs[0], res.Jobs[1]
	assert.Equal(t, "reader", reader.JobName)
	assert.Equal(t, "writer", writer.JobName)
	assert.Equal(t, 0, reader.GroupID+writer.GroupID)
	assert.Equal(t, "50", reader.Options["rate_iops"])

	assert.EqualValues(t, 2000, reader.Read.TotalIOs)
	assert.Zero(t, reader.Write.TotalIOs)
	assert.InDelta(t, 50, reader.Read.IOPS, 5, "the reader keeps its rate (Poisson: 2000 draws, within 10%)")
	assert.EqualValues(t, 200<<20, writer.Write.IOBytes)
	assert.EqualValues(t, 3200, writer.Write.TotalIOs)
	// 400 pauses of 2 ms: the writer runs at least 0.8 s.
	assert.GreaterOrEqual(t, writer.Write.Runtime, int64(800))
	for _, j := range res.Jobs {
		checkHOWTOUnits(t, j.JobName+" read", j.Read)
		checkHOWTOUnits(t, j.JobName+" write", j.Write)
	}

	// The text layout carries the same figures.
	code, text, errOut := runCLI(t, append(append([]string{"fio"}, raid5Cache...), "../../examples/fio/mixed.fio")...)
	require.Equal(t, 0, code, errOut)
	for _, want := range []string{"reader: (g=0): rw=randread", "writer: (groupid=0, jobs=1): err= 0",
		"issued rwts: total=2000,0,0,0", "issued rwts: total=0,3200,0,0", "Run status group 0 (all jobs):",
		"WRITE: bw=", "io=200MiB", "clat percentiles"} {
		assert.Contains(t, text, want)
	}
	again, _ := runCLIOut(t, append(append([]string{"fio"}, raid5Cache...), "../../examples/fio/mixed.fio")...)
	assert.Equal(t, text, again, "deterministic")
}

// runCLIOut is runCLI's stdout and exit code.
func runCLIOut(t *testing.T, args ...string) (string, int) {
	t.Helper()
	code, out, _ := runCLI(t, args...)
	return out, code
}

// jsonShape lists every key path of a JSON document in order, each with
// its value's kind (object, array, string, int, float, bool, null); the
// contents of the option echoes (which differ by job file) and
// disk_util (which fio writes only where it reads the disks) are left
// out.
func jsonShape(t *testing.T, doc []byte) []string {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	var out []string
	var walk func(path string) string
	walk = func(path string) string {
		tok, err := dec.Token()
		require.NoError(t, err)
		switch v := tok.(type) {
		case json.Delim:
			kind := "object"
			if v == '[' {
				kind = "array"
			}
			for i := 0; dec.More(); i++ {
				child := fmt.Sprintf("%s[%d]", path, i)
				if v == '{' {
					k, err := dec.Token()
					require.NoError(t, err)
					child = path + "." + k.(string)
				}
				kindOf := walk(child)
				if skip := strings.HasSuffix(path, ".job options") || path == ".global options" || path == ".disk_util" ||
					strings.Contains(path, ".disk_util["); !skip {
					out = append(out, child+" "+kindOf)
				}
			}
			_, err := dec.Token() // the closing delimiter
			require.NoError(t, err)
			return kind
		case json.Number:
			if strings.ContainsAny(v.String(), ".eE") {
				return "float"
			}
			return "int"
		case string:
			return "string"
		case bool:
			return "bool"
		}
		return "null"
	}
	walk("")
	var keep []string
	for _, l := range out {
		if !strings.HasPrefix(l, ".disk_util") {
			keep = append(keep, l)
		}
	}
	return keep
}

// TestFioJSONShape: raidsim fio's JSON has real fio's keys, in fio's
// order, with the same kinds of values, key by key: against the JSON
// Debian's fio 3.33 wrote for the same two jobs on a scratch file
// (testdata/fio/fio-3.33.json, from testdata/fio/shape.fio), and against the fio on the PATH when
// there is one.
func TestFioJSONShape(t *testing.T) {
	code, ours, errOut := runCLI(t, append(append([]string{"fio"}, raid5Cache...), "--output-format=json", "../../examples/fio/mixed.fio")...)
	require.Equal(t, 0, code, errOut)
	recorded, err := os.ReadFile("testdata/fio/fio-3.33.json")
	require.NoError(t, err)
	shape := jsonShape(t, []byte(ours))
	require.Equal(t, jsonShape(t, recorded), shape)
	assert.Contains(t, shape, ".jobs[0].read.clat_ns.percentile.99.900000 int")

	fio, err := exec.LookPath("fio")
	if err != nil {
		t.Skip("fio is not on the PATH (.ci/run installs it with apt-get): compared with the recorded fio 3.33 JSON only")
	}
	live := realFioJSON(t, fio)
	require.Equal(t, jsonShape(t, live), shape, "the installed fio's JSON")
	var res fioOut
	require.NoError(t, json.Unmarshal(live, &res))
	for _, j := range res.Jobs {
		checkHOWTOUnits(t, "real fio "+j.JobName+" read", j.Read)
		checkHOWTOUnits(t, "real fio "+j.JobName+" write", j.Write)
	}
}

// realFioJSON runs fio on the two jobs (small, on a scratch file, with
// the synchronous psync engine) and returns its JSON.
func realFioJSON(t *testing.T, fio string) []byte {
	t.Helper()
	dir := t.TempDir()
	job := fmt.Sprintf(`[global]
ioengine=psync
filename=%s

[reader]
rw=randread
bs=4k
size=2m
rate_iops=500
rate_process=poisson
number_ios=50

[writer]
rw=write
bs=64k
size=2m
thinktime=2ms
thinktime_blocks=8
`, filepath.Join(dir, "scratch"))
	path := filepath.Join(dir, "shape.fio")
	require.NoError(t, os.WriteFile(path, []byte(job), 0o600))
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, fio, "--output-format=json", path)
	cmd.Dir = dir
	out, err := cmd.Output()
	require.NoError(t, err, "fio: %s", out)
	return out
}

// TestFioJSONPlusInFiosTool: fio's own fio_jsonplus_clat2csv turns
// raidsim's json+ into its CSV and validates it against the bins; the
// CSV counts every read of the reader.
func TestFioJSONPlusInFiosTool(t *testing.T) {
	tool, err := exec.LookPath("fio_jsonplus_clat2csv")
	if err != nil {
		t.Skip("fio_jsonplus_clat2csv (Debian's fio package, which .ci/run installs) is not on the PATH")
	}
	if err := exec.Command("python3", "-c", "import six").Run(); err != nil {
		t.Skip("fio_jsonplus_clat2csv needs Python's six (Debian's python3-six, which .ci/run installs): ", err)
	}
	code, out, errOut := runCLI(t, append(append([]string{"fio"}, raid5Cache...), "--output-format=json+", "../../examples/fio/mixed.fio")...)
	require.Equal(t, 0, code, errOut)
	dir := t.TempDir()
	src := filepath.Join(dir, "plus.json")
	require.NoError(t, os.WriteFile(src, []byte(out), 0o600))
	for _, args := range [][]string{{src, filepath.Join(dir, "lat.csv")}, {src, filepath.Join(dir, "lat.csv"), "--validate"}} {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		b, err := exec.CommandContext(ctx, tool, args...).CombinedOutput()
		cancel()
		require.NoError(t, err, "%s", b)
	}
	csv, err := os.ReadFile(filepath.Join(dir, "lat_job0.csv"))
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSpace(string(csv)), "\n")
	last := strings.Split(lines[len(lines)-1], ",")
	assert.Equal(t, "2000", strings.TrimSpace(last[5]), "read_clat_ns_cumulative of the slowest read: every read")
}

// writeJob writes a job file named name in dir.
func writeJob(t *testing.T, dir, name, text string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	require.NoError(t, os.WriteFile(path, []byte(text), 0o600))
	return path
}

// fioJSONOf runs raidsim fio with args and decodes its JSON.
func fioJSONOf(t *testing.T, args ...string) (fioOut, string) {
	t.Helper()
	code, out, errOut := runCLI(t, append([]string{"fio", "--output-format=json"}, args...)...)
	require.Equal(t, 0, code, errOut)
	var res fioOut
	require.NoError(t, json.Unmarshal([]byte(out), &res))
	return res, errOut
}

// TestFioJobFileFeatures: include, ${VAR}, stonewall (two phases, two
// groups), numjobs (a clone per entry, each its own file), a
// synchronous engine at depth 1 whatever iodepth, bs per direction, and
// kb_base.
func TestFioJobFileFeatures(t *testing.T) {
	dir := t.TempDir()
	writeJob(t, dir, "common.fio", "[global]\nioengine=libaio\ndirect=1\nsize=${FIO_TEST_SIZE}\n")
	t.Setenv("FIO_TEST_SIZE", "8m")
	path := writeJob(t, dir, "jobs.fio", `# a comment
include common.fio
[seq]
rw=write
bs=4k,64k
numjobs=2
group_reporting

[rand]
stonewall
rw=randread
ioengine=psync
iodepth=16
number_ios=40
`)
	res, _ := fioJSONOf(t, "--drive", "deskstar-7k160", path)
	require.Len(t, res.Jobs, 2, "seq's two clones reported as one")
	seq, rand := res.Jobs[0], res.Jobs[1]
	assert.Equal(t, 0, seq.GroupID)
	assert.Equal(t, 1, rand.GroupID, "a stonewall starts a new group")
	assert.EqualValues(t, 2*(8<<20), seq.Write.IOBytes, "two clones, each its own 8 MiB file")
	assert.EqualValues(t, 2*(8<<20)/(64<<10), seq.Write.TotalIOs, "writes of bs's second value")
	assert.EqualValues(t, 40, rand.Read.TotalIOs)

	code, text, errOut := runCLI(t, "fio", "--drive", "deskstar-7k160", path)
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, text, "seq: (groupid=0, jobs=2)")
	assert.Contains(t, text, "IO depths    : 1=100.0%, 2=0.0%", "psync keeps one request outstanding")
	assert.Contains(t, text, "Run status group 1 (all jobs):")

	kb := writeJob(t, dir, "kb.fio", "[k]\nkb_base=1000\nfilename=/dev/sdb\ndirect=1\nrw=read\nbs=512\nsize=1024k\n")
	res, _ = fioJSONOf(t, kb)
	assert.EqualValues(t, 1_024_000, res.Jobs[0].Read.IOBytes, "kb_base=1000: k is 1000")
	assert.EqualValues(t, 2000, res.Jobs[0].Read.TotalIOs)
}

// TestFioBufferedNote: a buffered job (fio's default direct=0) on a
// stack without a host says on stderr that it goes to the volume.
func TestFioBufferedNote(t *testing.T) {
	path := writeJob(t, t.TempDir(), "b.fio", "[b]\nrw=read\nsize=1m\n")
	_, errOut := fioJSONOf(t, path)
	assert.Contains(t, errOut, "buffered jobs (direct=0: b) go straight to the volume")
}

// TestFioJobFileErrors: what raidsim does not model, and what is not a
// job file, is refused with the file and line.
func TestFioJobFileErrors(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct{ name, text, want string }{
		{"unknown.fio", "[a]\nrw=read\nsize=1m\nverify=md5\n", "unknown.fio:4: option verify: raidsim does not model it (--ignore-unknown runs without it)"},
		{"outside.fio", "rw=read\n[a]\n", "outside.fio:1: option \"rw\" outside a section"},
		{"nosize.fio", "[a]\nrw=read\n", "nosize.fio:1: job a names no block device (filename=/dev/...): give its size"},
		{"pct.fio", "[a]\nsize=50%\n", "size or offset as a percentage needs a block device"},
		{"holes.fio", "[a]\nrw=write:4k\nsize=1m\n", "holes.fio:2: rw: \"write:4k\": a sequence with holes (:N) is not modelled"},
		{"engine.fio", "[a]\nioengine=rbd\nsize=1m\n", "engine.fio:2: ioengine: \"rbd\": raidsim models"},
		{"mixbs.fio", "[a]\nrw=randrw\nbs=4k,64k\nsize=1m\n", "raidsim models one block size per job"},
		{"env.fio", "[a]\nsize=${FIO_SURELY_UNSET_VAR}\n", "environment variable FIO_SURELY_UNSET_VAR is not set"},
		{"keyword.fio", "[a]\nsize=$mb_memory\n", "fio's keywords"},
		{"empty.fio", "; nothing\n[global]\nrw=read\n", "no job sections"},
		{"self.fio", "include self.fio\n", "includes itself"},
		{"big.fio", "[a]\nsize=2t\n", "the volume holds"},
		{"rate.fio", "[a]\nsize=1m\nrate_iops=50\nrate_process=bursty\n", "job a: rate_process"},
		{"header.fio", "[a\n", "section header"},
	} {
		path := writeJob(t, dir, c.name, c.text)
		code, _, errOut := runCLI(t, "fio", "--drive", "deskstar-7k160", path)
		assert.Equal(t, 1, code, c.name)
		assert.Contains(t, errOut, c.want, c.name)
	}

	path := writeJob(t, dir, "ignore.fio", "[a]\nrw=read\nsize=1m\nverify=md5\n")
	res, errOut := fioJSONOf(t, "--ignore-unknown", path)
	assert.Contains(t, errOut, "ignore.fio:4: option verify ignored (--ignore-unknown)")
	assert.EqualValues(t, 256, res.Jobs[0].Read.TotalIOs)

	for _, args := range [][]string{{"fio"}, {"fio", "--output-format", "xml", path}, {"fio", "--ignore-unknown=maybe", path},
		{"fio", "--set", "phases[0].iodepth=4", path}} {
		code, _, errOut := runCLI(t, args...)
		assert.Equal(t, 2, code, "%v: %s", args, errOut)
	}
	code, _, errOut := runCLI(t, "fio", dir)
	assert.Equal(t, 1, code)
	assert.Contains(t, errOut, "is not a regular file")
}

// TestFioNum2Str: fio's num2str on figures worked by hand: 4096 has
// four digits and stays; 65536 B is 64 KiB with room for one decimal;
// 8 MiB is 8192 KiB (four digits, no room); 726241 B/s is 709 KiB/s
// (remainder 225 of 1024 rounds down), 728 kB/s.
func TestFioNum2Str(t *testing.T) {
	for _, c := range []struct {
		n    int64
		base int64
		want string
	}{
		{4096, 1024, "4096B"}, {65536, 1024, "64.0KiB"}, {8 << 20, 1024, "8192KiB"},
		{726241, 1024, "709KiB"}, {726241, 1000, "726kB"}, {177, 1000, "177"},
	} {
		unit := "B"
		if c.want == "177" {
			unit = ""
		}
		assert.Equal(t, c.want, fioNum2Str(c.n, 4, c.base, unit), "%d", c.n)
	}
}

// TestFioHelp: --help lists fio's option names and the flags.
func TestFioHelp(t *testing.T) {
	code, out, _ := runCLI(t, "fio", "--help")
	require.Equal(t, 0, code)
	for _, want := range []string{"rate_iops", "thinktime_blocks", "--output-format", "--ignore-unknown", "--raid"} {
		assert.Contains(t, out, want)
	}
}

// FuzzFioJobFile: any job file reads into jobs, or an error, never a
// panic, a hang or an allocation sized by its contents.
func FuzzFioJobFile(f *testing.F) {
	mixed, err := os.ReadFile("../../examples/fio/mixed.fio")
	require.NoError(f, err)
	f.Add(mixed)
	f.Add([]byte("[global]\nsize=1m\n[a]\nrw=randrw\nbssplit=4k/50:64k/50\nnumjobs=3\noffset_increment=2m\n[b]\nstonewall\nwait_for=a\n"))
	f.Add([]byte("[a]\nfilename=/dev/x\nsize=50%\noffset=10%\nrate=1m,\nthinktime=5\n"))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(dir, "fuzz.fio")
		require.NoError(t, os.WriteFile(path, data, 0o600))
		jf, err := readFioJobFiles([]string{path})
		if err != nil {
			return
		}
		_, _ = fioExperiment(jf, baseExperiment(), 1<<40, false, false)
	})
}
