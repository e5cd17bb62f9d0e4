package main

import (
	"bytes"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestVersion: raidsim --version (and raidsim version) prints the
// module version, the commit the binary was built from and the Go
// toolchain, on stdout.
func TestVersion(t *testing.T) {
	for _, args := range [][]string{{"--version"}, {"version"}} {
		code, out, errOut := runCLI(t, args...)
		require.Equal(t, 0, code, errOut)
		assert.Empty(t, errOut)
		assert.True(t, strings.HasPrefix(out, "raidsim "), out)
		assert.True(t, strings.HasSuffix(out, " "+runtime.Version()+"\n"), out)
	}
	var b bytes.Buffer
	writeVersion(&b, &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v1.2.0"}, Settings: []debug.BuildSetting{
		{Key: "vcs.revision", Value: "0123abcd"}, {Key: "vcs.time", Value: "2026-12-01T10:00:00Z"}, {Key: "vcs.modified", Value: "true"}}}, true)
	assert.Equal(t, "raidsim v1.2.0 commit 0123abcd+modified (2026-12-01T10:00:00Z) go1.26.8\n", b.String())
	b.Reset()
	writeVersion(&b, &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "(devel)"}}, true)
	assert.Equal(t, "raidsim (devel) go1.26.8\n", b.String(), "no VCS stamp (go build -buildvcs=false)")
	code, out, _ := runCLI(t, "version", "--help")
	assert.Equal(t, 0, code)
	assert.Contains(t, out, "Usage: raidsim version")
}
