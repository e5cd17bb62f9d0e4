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

// TestSequentialCutoffOff: "off" turns the cache's sequential cutoff off
// (CutoffOff, which a cache takes as none) through a file and a flag
// alike, and survives a round trip; 0 stays the default and a bad
// value names "off" as the other choice.
func TestSequentialCutoffOff(t *testing.T) {
	for _, v := range []string{"off", "OFF", `"off"`} {
		var x spec.Experiment
		require.NoError(t, spec.Set(&x, "stack.cache.sequential_cutoff", v), v)
		assert.Equal(t, spec.CutoffOff, x.Stack.Cache.SequentialCutoff, v)
	}
	for text, want := range map[string]spec.Cutoff{"off": spec.CutoffOff, "0": 0, "8MiB": 8 << 20, "4096": 4096} {
		x, err := spec.Parse([]byte("stack: {cache: {sequential_cutoff: "+text+"}}\nphases: [{rw: read, ios: 1}]"), "")
		require.NoError(t, err, text)
		assert.Equal(t, want, x.Stack.Cache.SequentialCutoff, text)
		b, err := x.Stack.Cache.SequentialCutoff.MarshalText()
		require.NoError(t, err)
		var back spec.Cutoff
		require.NoError(t, back.UnmarshalText(b))
		assert.Equal(t, want, back, "round trip of %s through %q", text, b)
	}
	off, err := spec.CutoffOff.MarshalText()
	require.NoError(t, err)
	assert.Equal(t, "off", string(off))
	var x spec.Experiment
	err = spec.Set(&x, "stack.cache.sequential_cutoff", "often")
	require.Error(t, err)
	assert.Contains(t, err.Error(), `"off"`)
	require.Error(t, spec.Set(&x, "stack.cache.sequential_cutoff", "-1"), "a negative size is no way to say off")
}
