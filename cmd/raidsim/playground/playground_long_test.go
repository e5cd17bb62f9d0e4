//go:build long

package playground_test

import (
	"context"
	"errors"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/raidsim/raidsim/cmd/raidsim/playground"
)

// TestWasmBuild compiles the playground for the browser: GOOS=js
// GOARCH=wasm go build of the wasm package, as raidsim serve does. It
// is behind the build tag long: the build takes a minute when its cache
// is cold.
func TestWasmBuild(t *testing.T) {
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
