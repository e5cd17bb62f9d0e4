package spec_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/raidsim/raidsim/spec"
)

func TestSetBuildsWhatAFileSays(t *testing.T) {
	var x spec.Experiment
	for _, kv := range [][2]string{
		{"seed", "7"},
		{"stack.disks", "4"},
		{"stack.raid.level", "5"},
		{"stack.raid.stripe_unit", "128KiB"},
		{"stack.cache.size", "16MiB"},
		{"stack.drive.write_cache", "off"},
		{"phases[0].rw", "randwrite"},
		{"phases[0].ios", "100"},
		{"phases[0].background[0].rw", "read"},
		{"stack.failures[0]", "{member: 1, at: 2s}"},
	} {
		require.NoError(t, spec.Set(&x, kv[0], kv[1]), kv[0])
	}
	y, err := spec.Parse([]byte(`
seed: 7
stack: {disks: 4, raid: {level: 5, stripe_unit: 128KiB}, cache: {size: 16MiB}, drive: {write_cache: off},
        failures: [{member: 1, at: 2s}]}
phases: [{rw: randwrite, ios: 100, background: [{rw: read}]}]`), "")
	require.NoError(t, err)
	assert.Equal(t, y, &x)
}

func TestSetRemovesASection(t *testing.T) {
	x := spec.Experiment{Stack: spec.Stack{Cache: &spec.Cache{Size: 1 << 20}}}
	for _, off := range []string{"none", "off", "null"} {
		x.Stack.Cache = &spec.Cache{}
		require.NoError(t, spec.Set(&x, "stack.cache", off))
		assert.Nil(t, x.Stack.Cache, off)
	}
}

// TestSetGivesTheFilesErrors: the same bad value gives the same error
// text through Set as through a file.
func TestSetGivesTheFilesErrors(t *testing.T) {
	for _, tc := range []struct{ path, value, yaml string }{
		{"stack.raid.stripe_unit", "0", "stack: {raid: {level: 0, stripe_unit: 0}}"},
		{"stack.cache.size", "-1", "stack: {cache: {size: -1}}"},
		{"stack.disks", "four", "stack: {disks: four}"},
		{"stack.drive.write_cache", "maybe", "stack: {drive: {write_cache: maybe}}"},
		{"phases[0].ios", "1.5", "phases: [{ios: 1.5}]"},
		{"phases[0].bs", "4 parsecs", "phases: [{bs: 4 parsecs}]"},
		{"phases[0].startdelay", "soon", "phases: [{startdelay: soon}]"},
		{"stack.drive.writecache", "on", "stack: {drive: {writecache: on}}"},
	} {
		var x spec.Experiment
		serr := spec.Set(&x, tc.path, tc.value)
		require.Error(t, serr, tc.path)
		_, ferr := spec.Parse([]byte(tc.yaml), "")
		require.Error(t, ferr, tc.yaml)
		assert.Contains(t, ferr.Error(), serr.Error(), tc.path)
	}
}

func TestSetRefusesBadPaths(t *testing.T) {
	var x spec.Experiment
	for _, path := range []string{"", "stack..disks", "phases[x].rw", "phases[5].rw", "seed.low", "stack.colour", "phases[0]]"} {
		err := spec.Set(&x, path, "1")
		assert.Error(t, err, path)
	}
}
