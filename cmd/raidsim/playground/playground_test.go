package playground_test

import (
	"context"
	"encoding/json"
	"errors"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/raidsim/raidsim/cmd/raidsim/playground"
)

// TestRunResult: a playground run has the numbers, curves, stripe map
// and explain trees the page draws, consistent with each other.
func TestRunResult(t *testing.T) {
	s := playground.Defaults()
	s.IOs = 300
	r, err := playground.Run(s)
	require.NoError(t, err)
	assert.Positive(t, r.IOPS)
	assert.Equal(t, 4, r.Members)
	require.NotEmpty(t, r.CDF)
	assert.InDelta(t, 1.0, r.CDF[len(r.CDF)-1].Y, 1e-9, "the CDF reaches 1")
	require.Len(t, r.Throughput, 50)
	var done float64
	for i, p := range r.Throughput {
		done += p.Y * (r.Throughput[1].X - r.Throughput[0].X)
		assert.GreaterOrEqual(t, p.Y, 0.0, "step %d", i)
	}
	assert.InDelta(t, 300, done, 1, "the throughput curve counts every request")
	require.Len(t, r.Requests, playground.MapRequests)
	for _, q := range r.Requests[:10] {
		assert.Len(t, q.Touches, 4, "a small RAID 5 write: two pre-reads and two writes")
		for _, x := range q.Touches {
			assert.Less(t, x.Member, 4)
		}
		assert.Contains(t, q.Explain, "in short:")
	}
	assert.Contains(t, r.Command, "raidsim run --drive deskstar-7k160")
	assert.Contains(t, r.Report, "RAID 5 over 4 x deskstar-7k160")
}

// TestRunJSONErrors: bad settings come back as {"error": ...}.
func TestRunJSONErrors(t *testing.T) {
	for in, want := range map[string]string{
		`{"drive":"floppy"}`: `unknown drive \"floppy\"`,
		`{"ios":0}`:          "0 requests",
		`{"raid":"7"}`:       `RAID level \"7\"`,
		`not json`:           "settings:",
		`{"rw":"sideways"}`:  "phases[0].rw",
	} {
		out := playground.RunJSON(in)
		var e struct{ Error string }
		require.NoError(t, json.Unmarshal([]byte(out), &e))
		assert.Contains(t, e.Error, strings.ReplaceAll(want, `\"`, `"`), in)
	}
}

// TestWasmBuild compiles the playground for the browser: GOOS=js
// GOARCH=wasm go build of the wasm package, as raidsim serve does.
func TestWasmBuild(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the js/wasm build takes a minute when its cache is cold")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	module, js, err := playground.Build(ctx, ".")
	if errors.Is(err, playground.ErrNoToolchain) {
		t.Skip("no Go toolchain in PATH: cannot build the js/wasm module")
	}
	if err != nil && strings.Contains(err.Error(), "unsupported GOOS/GOARCH") {
		t.Skipf("this toolchain cannot build js/wasm: %v", err)
	}
	require.NoError(t, err)
	assert.Equal(t, []byte("\x00asm"), module[:4], "a WebAssembly module")
	assert.True(t, strings.Contains(string(js), "globalThis.Go = class"), "Go's wasm_exec.js")
	_, err = exec.LookPath("go")
	require.NoError(t, err)
}
