package main

import (
	"bytes"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The output policy on every command that writes a file: each case of
// issue 23 that destroyed a file refuses, and leaves the file as it was.

// keep writes content to dir/name and returns the path and a check that
// it is still there, byte for byte, a regular file.
func keep(t *testing.T, dir, name, content string) (string, func()) {
	t.Helper()
	path := filepath.Join(dir, name)
	require.NoError(t, os.WriteFile(path, []byte(content), 0o644))
	return path, func() {
		t.Helper()
		got, err := os.ReadFile(path)
		require.NoError(t, err)
		assert.Equal(t, content, string(got), "%s changed", path)
	}
}

// refused checks a command failed naming want, and left no temporary
// file in dir.
func refused(t *testing.T, dir, want string, args ...string) {
	t.Helper()
	code, _, errOut := runCLI(t, args...)
	assert.NotZero(t, code, "%v", args)
	assert.Contains(t, errOut, want, "%v", args)
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	for _, e := range entries {
		assert.NotContains(t, e.Name(), ".tmp-", "temporary file left behind")
	}
}

// TestRunTraceEventsNeverOverwritesInputs: --trace-events onto the
// replayed trace or onto the --config file (by its path or a link) is
// refused, --force or not.
func TestRunTraceEventsNeverOverwritesInputs(t *testing.T) {
	dir := t.TempDir()
	tr, trSame := csvTrace(t, dir, "t.csv", 20)
	cfg, cfgSame := keep(t, dir, "x.json", `{"phases": [{"rw": "randread", "ios": 20}]}`)
	require.NoError(t, os.Symlink(cfg, filepath.Join(dir, "link.json")))
	for _, force := range []string{"--force=false", "--force"} {
		refused(t, dir, "--trace-events "+tr+" is the same file as the input --trace "+tr,
			"run", "--trace", tr, "--trace-events", tr, force)
		refused(t, dir, "is the same file as the input --config "+cfg,
			"run", "--config", cfg, "--trace-events", cfg, force)
		refused(t, dir, "is the same file as the input --config "+cfg,
			"run", "--config", cfg, "--trace-events", filepath.Join(dir, "link.json"), force)
	}
	got, err := os.ReadFile(tr)
	require.NoError(t, err)
	assert.Equal(t, trSame, got)
	cfgSame()

	// A fresh name is written; the same name again needs --force.
	ev := filepath.Join(dir, "events.json")
	code, _, errOut := runCLI(t, "run", "--trace", tr, "--trace-events", ev)
	require.Equal(t, 0, code, errOut)
	refused(t, dir, "--trace-events "+ev+": the file exists: add --force", "run", "--trace", tr, "--trace-events", ev)
	code, _, errOut = runCLI(t, "run", "--trace", tr, "--trace-events", ev, "--force")
	require.Equal(t, 0, code, errOut)
	refused(t, dir, ".csv names no format written here: end the name with .json", "run", "--trace", tr, "--trace-events", filepath.Join(dir, "e.csv"))
}

// TestBenchProfileNeedsForce: --cpuprofile never writes over an existing
// file without --force, nor over an input.
func TestBenchProfileNeedsForce(t *testing.T) {
	dir := t.TempDir()
	prof, same := keep(t, dir, "cpu.prof", "precious")
	refused(t, dir, "--cpuprofile "+prof+": the file exists: add --force", "bench", "--ios", "10", "--cpuprofile", prof)
	same()
	cfg, cfgSame := keep(t, dir, "x.pprof", `{"phases": [{"rw": "randread", "ios": 10}]}`)
	refused(t, dir, "is the same file as the input --config", "bench", "--config", cfg, "--cpuprofile", cfg, "--force")
	cfgSame()
	code, _, errOut := runCLI(t, "bench", "--ios", "10", "--cpuprofile", prof, "--force")
	require.Equal(t, 0, code, errOut)
	got, err := os.ReadFile(prof)
	require.NoError(t, err)
	assert.NotEqual(t, "precious", string(got))
	refused(t, dir, "names no format written here", "bench", "--ios", "10", "--cpuprofile", filepath.Join(dir, "cpu.txt"))
}

// TestValidatePlotNeverOverwritesItsModel: --plot onto the .parv model
// or the trace is refused; a .png is refused (validate draws SVG only)
// rather than given SVG bytes.
func TestValidatePlotNeverOverwritesItsModel(t *testing.T) {
	dir := t.TempDir()
	parv := filepath.Join(dir, "mini.svg")
	data, err := os.ReadFile(miniParv)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(parv, data, 0o644))
	// The model sources its seek curve from beside it.
	seek, err := os.ReadFile(filepath.Join(filepath.Dir(miniParv), "mini.seek"))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "mini.seek"), seek, 0o644))
	tr := writeMiniTrace(t, 50)
	for _, force := range []string{"--force=false", "--force"} {
		refused(t, dir, "is the same file as the input --disksim", "validate", "--disksim", parv, "--trace", tr, "--plot", parv, force)
	}
	got, err := os.ReadFile(parv)
	require.NoError(t, err)
	assert.Equal(t, data, got)
	refused(t, dir, ".png names no format written here: end the name with .svg",
		"validate", "--disksim", parv, "--trace", tr, "--plot", filepath.Join(dir, "cdf.png"))
	_, err = os.Stat(filepath.Join(dir, "cdf.png"))
	assert.True(t, os.IsNotExist(err))
}

// TestCalibrateOutNeverOverwritesItsTrace: --out onto the measured trace
// (or an existing file without --force) is refused before the fit.
func TestCalibrateOutNeverOverwritesItsTrace(t *testing.T) {
	tr := writeMiniTrace(t, 50)
	dir := filepath.Dir(tr)
	data, err := os.ReadFile(tr)
	require.NoError(t, err)
	yamlTrace := filepath.Join(dir, "trace.yaml")
	require.NoError(t, os.Link(tr, yamlTrace))
	for _, force := range []string{"--force=false", "--force"} {
		refused(t, dir, "--out "+yamlTrace+" is the same file as the input --trace "+tr,
			"calibrate", "--drive", "deskstar-7k500", "--format", "validate", "--trace", tr, "--out", yamlTrace, "--iterations", "2", force)
	}
	got, err := os.ReadFile(tr)
	require.NoError(t, err)
	assert.Equal(t, data, got)
	old, same := keep(t, dir, "old.yaml", "precious")
	refused(t, dir, "the file exists: add --force", "calibrate", "--drive", "deskstar-7k500", "--format", "validate", "--trace", tr, "--out", old, "--iterations", "2")
	same()
	refused(t, dir, "end the name with .yaml or .yml", "calibrate", "--drive", "deskstar-7k500", "--format", "validate", "--trace", tr, "--out", tr+".txt", "--iterations", "2")
}

// TestDeviceNodeNeverReplaced: gen and convert --out onto a device node
// (one made in a temporary directory, as root; /dev/null itself is never
// pointed at) or a named pipe are refused even with --force, and the
// node stays a node.
func TestDeviceNodeNeverReplaced(t *testing.T) {
	dir := t.TempDir()
	in, _ := csvTrace(t, dir, "in.csv", 5)
	nodes := specialFiles(t, dir)
	if len(nodes) == 0 {
		t.Skip("cannot make a device node or named pipe here")
	}
	for name, path := range nodes {
		before, err := os.Lstat(path)
		require.NoError(t, err)
		refused(t, dir, "not a regular file: only regular files are written or replaced, even with --force",
			"gen", "--ios", "5", "--out", path, "--force")
		refused(t, dir, "not a regular file", "convert", in, path, "--force")
		after, err := os.Lstat(path)
		require.NoError(t, err)
		assert.Equal(t, before.Mode(), after.Mode(), name)
	}
}

// TestTraceOutputFormatFromExtension: the extension names the trace
// format (.gz compresses it); a --to that disagrees is refused.
func TestTraceOutputFormatFromExtension(t *testing.T) {
	dir := t.TempDir()
	for name, first := range map[string]string{"t.csv": "time_ns,", "t.log": "fio version 3 iolog", "t.iolog": "fio version 3 iolog"} {
		code, _, errOut := runCLI(t, "gen", "--ios", "3", "--out", filepath.Join(dir, name))
		require.Equal(t, 0, code, errOut)
		got, err := os.ReadFile(filepath.Join(dir, name))
		require.NoError(t, err)
		assert.True(t, strings.HasPrefix(string(got), first), "%s: %q", name, got)
	}
	gz := filepath.Join(dir, "t.csv.gz")
	code, _, errOut := runCLI(t, "gen", "--ios", "3", "--out", gz)
	require.Equal(t, 0, code, errOut)
	code, out, errOut := runCLI(t, "convert", gz, "-")
	require.Equal(t, 0, code, errOut)
	assert.Equal(t, 4, strings.Count(out, "\n"), "the gzipped trace reads back: a header and 3 records")
	refused(t, dir, "the extension .csv names csv, but --to is fio", "gen", "--ios", "3", "--to", "fio", "--out", filepath.Join(dir, "u.csv"))
	refused(t, dir, "names no trace format raidsim writes", "gen", "--ios", "3", "--out", filepath.Join(dir, "u.txt"))
	refused(t, dir, "names no trace format raidsim writes", "convert", gz, filepath.Join(dir, "u.bz2"))
}

// TestPlotIsTheFormatItsExtensionNames: mrc --plot out.png writes PNG
// bytes, not SVG.
func TestPlotIsTheFormatItsExtensionNames(t *testing.T) {
	dir := t.TempDir()
	tr, _ := csvTrace(t, dir, "t.csv", 200)
	out := filepath.Join(dir, "mrc.png")
	code, _, errOut := runCLI(t, "mrc", "--trace", tr, "--plot", out)
	require.Equal(t, 0, code, errOut)
	data, err := os.ReadFile(out)
	require.NoError(t, err)
	_, err = png.Decode(bytes.NewReader(data))
	assert.NoError(t, err, "a PNG")
	refused(t, dir, "the file exists: add --force", "mrc", "--trace", tr, "--plot", out)
	refused(t, dir, "is the same file as the input --trace", "mrc", "--trace", tr, "--plot", tr, "--force")
}
