package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/raidsim/raidsim/cmd/raidsim/playground"
)

// TestPlaygroundMatchesCLI: the playground's report for its settings is
// byte for byte what `raidsim run` prints with the flags it shows.
func TestPlaygroundMatchesCLI(t *testing.T) {
	s := playground.Defaults()
	s["phases[0].ios"], s["stack.cache.size"] = "500", "8MiB"
	r, err := playground.Run(s)
	require.NoError(t, err)
	code, out, errOut := runCLI(t, s.Args()...)
	require.Equal(t, 0, code, errOut)
	assert.Equal(t, out, r.Report)
	assert.Equal(t, "raidsim "+strings.Join(s.Args(), " "), r.Command)
}
