package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestBenchPrintsOneLinePerRun: bench runs its experiment --count times
// and prints, under a header, one line per run with the requests
// simulated and figures that agree with them.
func TestBenchPrintsOneLinePerRun(t *testing.T) {
	prof := filepath.Join(t.TempDir(), "cpu.prof")
	code, out, errOut := runCLI(t, "bench", "--ios", "3000", "--iodepth", "8", "--count", "2", "--cpuprofile", prof)
	require.Equal(t, 0, code, errOut)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	require.Len(t, lines, 3, out)
	assert.Equal(t, []string{"run", "requests", "wall", "s", "requests/s", "ns/request", "CPU", "s", "allocs/request", "peak", "RSS", "MiB"}, strings.Fields(lines[0]))
	for i, l := range lines[1:] {
		f := strings.Fields(l)
		require.Len(t, f, 8, l)
		assert.Equal(t, strconv.Itoa(i+1), f[0])
		assert.Equal(t, "3000", f[1], "requests of run %d", i+1)
		wall, rate, ns := num(t, f[2]), num(t, f[3]), num(t, f[4])
		assert.InDelta(t, 3000/rate, wall, 0.0006, "wall seconds (printed to the ms) of run %d", i+1)
		assert.InEpsilon(t, 1e9/rate, ns, 0.01, "ns/request of run %d", i+1)
		assert.Positive(t, num(t, f[5]), "CPU seconds")
		assert.Positive(t, num(t, f[6]), "allocs/request (set-up included)")
		assert.Positive(t, num(t, f[7]), "peak RSS")
	}
	st, err := os.Stat(prof)
	require.NoError(t, err)
	assert.Positive(t, st.Size(), "the CPU profile")
}

func num(t *testing.T, s string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(s, 64)
	require.NoError(t, err, s)
	return v
}

// TestBenchErrors: bad flags and bad experiments are usage errors
// named by their flag, reported before any line is printed.
func TestBenchErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--count", "0"}, `--count: want 1 to 1000 runs, got "0"`},
		{[]string{"--count", "x"}, `--count: want 1 to 1000 runs, got "x"`},
		{[]string{"--drive", "nope"}, `--drive: stack.drive.preset: unknown preset "nope"`},
		{[]string{"--stripe", "3000"}, "--stripe"},
		{[]string{"--json"}, "unknown flag: --json"},
	} {
		code, out, errOut := runCLI(t, append([]string{"bench"}, tc.args...)...)
		assert.Equal(t, 2, code, "%v: %s", tc.args, errOut)
		assert.Empty(t, out, "%v", tc.args)
		assert.Contains(t, errOut, tc.want, "%v", tc.args)
	}
}

// TestBenchHelpNamesItsBase: bench's help describes the stack
// benchmark and lists the experiment flags with the base's values.
func TestBenchHelpNamesItsBase(t *testing.T) {
	code, out, _ := runCLI(t, "bench", "--help")
	require.Equal(t, 0, code)
	assert.Contains(t, out, "a 64MiB volume cache over a 4-drive RAID 5 of deskstar-7k500, 1000000 randrw requests (70% reads)")
	assert.Contains(t, out, "[phases[0].iodepth, with --trace phases[0].trace.iodepth; base: 32;")
	assert.Contains(t, out, "[stack.drive.preset; base: deskstar-7k500")
	assert.Contains(t, out, "--count N")
	assert.NotContains(t, out, "--timeline")
}
