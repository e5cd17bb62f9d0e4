package spec_test

import (
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/raidsim/raidsim/cache"
	"github.com/raidsim/raidsim/raid"
	"github.com/raidsim/raidsim/spec"
	"github.com/raidsim/raidsim/trace"
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

// TestDefaultTagsAreTheLayersDefaults: the defaults the spec documents
// (and the CLI's help prints) are the ones the layers apply, so the two
// cannot drift apart.
func TestDefaultTagsAreTheLayersDefaults(t *testing.T) {
	c := cache.Config{}.WithDefaults()
	r := raid.Config{}.WithDefaults()
	w := trace.Workload{}.WithDefaults()
	size := func(s string) any { n, err := trace.ParseSize(s); require.NoError(t, err, s); return n }
	dur := func(s string) any { d, err := time.ParseDuration(s); require.NoError(t, err, s); return d }
	num := func(s string) any { f, err := strconv.ParseFloat(s, 64); require.NoError(t, err, s); return f }
	text := func(s string) any { return s }
	for _, tc := range []struct {
		path  string
		parse func(string) any
		want  any
	}{
		{"stack.raid.stripe_unit", size, r.StripeUnit},
		{"stack.raid.layout", text, r.Layout.String()},
		{"stack.raid.raid5_write", text, r.Raid5Write.String()},
		{"stack.cache.size", size, c.Size},
		{"stack.cache.block", size, c.Block},
		{"stack.cache.mode", text, c.Mode.String()},
		{"stack.cache.policy", text, c.Policy.String()},
		{"stack.cache.order", text, c.Order.String()},
		{"stack.cache.hit_latency", dur, c.HitLatency},
		{"stack.cache.copy_rate", size, c.CopyRate},
		{"stack.cache.high_water", num, c.HighWater},
		{"stack.cache.low_water", num, c.LowWater},
		{"stack.cache.interval", dur, c.Interval},
		{"stack.cache.idle", dur, c.Idle},
		{"stack.cache.max_destage", size, c.MaxDestageBytes},
		{"stack.cache.max_outstanding", num, float64(c.MaxOutstandingDestages)},
		{"phases[0].bs", size, w.BS},
		{"phases[0].iodepth", num, float64(w.IODepth)},
		{"phases[0].rw", text, w.RW.String()},
		{"phases[0].rwmixread", num, float64(trace.DefaultWorkload().RWMixRead)},
		{"phases[0].random_distribution", text, w.RandomDistribution.String()},
		{"phases[0].trace.speed", num, 1.0},
		{"phases[0].trace.map", text, trace.MapReject.String()},
		{"phases[0].trace.format", text, "auto"},
		{"stack.drive.preset", text, spec.DefaultPreset},
	} {
		def, ok := spec.Default(tc.path)
		require.True(t, ok, tc.path)
		assert.Equal(t, tc.want, tc.parse(def), tc.path)
	}
	_, ok := spec.Default("stack.colour")
	assert.False(t, ok)
}
