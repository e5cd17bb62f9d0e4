package raidsim_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/raidsim/raidsim"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// minimal is a valid config that the invalid cases break one key at a
// time.
const minimal = `
stack:
  drive: {preset: travelstar-7k500}
phases:
  - {name: r, rw: randread, bs: 4KiB, ios: 10}
`

func TestParseConfigMinimal(t *testing.T) {
	c, err := raidsim.ParseConfig([]byte(minimal), "dir/minimal.yaml")
	require.NoError(t, err)
	assert.Equal(t, "minimal", c.Name, "the name defaults to the file's")
	require.Len(t, c.Phases, 1)
	assert.Equal(t, raidsim.Size(4096), c.Phases[0].BS)
}

func TestParseConfigJSONAndYAMLAgree(t *testing.T) {
	y, err := raidsim.ParseConfig([]byte(`
name: x
seed: 5
stack: {drive: {preset: deskstar-7k160, write_cache: off}, disks: 3, raid: {level: 5, stripe_unit: 32KiB}, cache: {size: 16MiB}}
phases: [{rw: randwrite, bs: 8192, ios: 50, iodepth: 4, startdelay: 5ms}]
`), "y")
	require.NoError(t, err)
	j, err := raidsim.ParseConfig([]byte(`{"name": "x", "seed": 5,
  "stack": {"drive": {"preset": "deskstar-7k160", "write_cache": false}, "disks": 3,
            "raid": {"level": "5", "stripe_unit": 32768}, "cache": {"size": "16MiB"}},
  "phases": [{"rw": "randwrite", "bs": "8KiB", "ios": 50, "iodepth": 4, "startdelay": "5ms"}]}`), "j")
	require.NoError(t, err)
	ry, err := y.Run()
	require.NoError(t, err)
	rj, err := j.Run()
	require.NoError(t, err)
	assert.Equal(t, render(t, ry), render(t, rj))
}

func render(t *testing.T, r *raidsim.ConfigReport) string {
	t.Helper()
	var b bytes.Buffer
	require.NoError(t, r.WriteJSON(&b))
	return b.String()
}

// TestParseConfigInvalid: every bad config gives an error naming the key
// path, and nothing panics.
func TestParseConfigInvalid(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		want       []string // substrings of the error, paths first
	}{
		{"not a mapping", `[1, 2]`, []string{"want a mapping"}},
		{"empty", ``, []string{"empty config"}},
		{"yaml syntax", "stack: {drive: [\n", []string{"x.yaml"}},
		{"unknown top key", minimal + "colour: red\n", []string{"colour: unknown key"}},
		{"unknown nested key", `
stack: {drive: {preset: travelstar-7k500, writecache: true}}
phases: [{rw: read, ios: 1}]`, []string{"stack.drive.writecache: unknown key", "write_cache"}},
		{"unknown phase key", `
phases: [{rw: read, ios: 1, blocksize: 4k}]`, []string{"phases[0].blocksize: unknown key"}},
		{"empty phases", `stack: {drive: {preset: travelstar-7k500}}
phases: []`, []string{"phases: no phases"}},
		{"missing phases", `stack: {drive: {preset: travelstar-7k500}}`, []string{"phases: no phases"}},
		{"unknown preset", `
stack: {drive: {preset: floppy-1440}}
phases: [{rw: read, ios: 1}]`, []string{"stack.drive.preset: unknown preset \"floppy-1440\""}},
		{"raid 5 with 2 disks", `
stack: {disks: 2, raid: {level: 5}}
phases: [{rw: read, ios: 1}]`, []string{"stack.disks: RAID 5 needs at least 3 drives, got 2"}},
		{"raid 10 odd", `
stack: {disks: 3, raid: {level: 10}}
phases: [{rw: read, ios: 1}]`, []string{"stack.disks: RAID 10 needs an even number"}},
		{"stripe not sector multiple", `
stack: {disks: 3, raid: {level: 5, stripe_unit: 3000}}
phases: [{rw: read, ios: 1}]`, []string{"stack.raid.stripe_unit: 3000 is not a multiple of 512"}},
		{"unknown raid level", `
stack: {disks: 3, raid: {level: 6}}
phases: [{rw: read, ios: 1}]`, []string{"stack.raid.level: \"6\" is not a RAID level"}},
		{"disks without raid", `
stack: {disks: 4}
phases: [{rw: read, ios: 1}]`, []string{"stack.disks: 4 drives need a RAID level"}},
		{"too many disks", `
stack: {disks: 100000, raid: {level: 0}}
phases: [{rw: read, ios: 1}]`, []string{"stack.disks: 100000 is more than 256"}},
		{"wrong type disks", `
stack: {disks: four}
phases: [{rw: read, ios: 1}]`, []string{"stack.disks: want a whole number, got a string"}},
		{"wrong type phases", `phases: {rw: read}`, []string{"phases: want a list, got a mapping"}},
		{"wrong type stack", `stack: 5
phases: [{rw: read}]`, []string{"stack: want a mapping of keys, got an integer"}},
		{"wrong type bool", `
stack: {drive: {write_cache: maybe}}
phases: [{rw: read, ios: 1}]`, []string{"stack.drive.write_cache: want true or false"}},
		{"fractional ios", `phases: [{rw: read, ios: 1.5}]`, []string{"phases[0].ios: want a whole number"}},
		{"negative size string", `phases: [{rw: read, bs: "-4k"}]`, []string{"phases[0].bs: \"-4k\" is negative"}},
		{"negative size number", `phases: [{rw: randread, size: -8192, ios: 3}]`, []string{"phases[0].size: -8192 is negative"}},
		{"negative cache size", `
stack: {cache: {size: -1}}
phases: [{rw: read, ios: 1}]`, []string{"stack.cache.size: -1 is negative"}},
		{"bad size unit", `phases: [{rw: read, bs: 4 parsecs}]`, []string{"phases[0].bs:", "unknown unit"}},
		{"bs not sector multiple", `phases: [{rw: read, bs: 1000, ios: 1}]`, []string{"phases[0].bs: 1000 is not a multiple of 512"}},
		{"absurd bs", `phases: [{rw: read, bs: 1PiB, ios: 1}]`, []string{"phases[0].bs:", "larger than"}},
		{"absurd region", `phases: [{rw: randread, size: 64PiB, ios: 1}]`, []string{"phases[0].size:", "ends past"}},
		{"absurd size overflow", `phases: [{rw: read, bs: 99999999999PiB}]`, []string{"phases[0].bs:", "too large"}},
		{"absurd ios", `phases: [{rw: read, ios: 1000000000000000}]`, []string{"phases[0].ios: 1000000000000000 is outside"}},
		{"max dirty above size", `
stack: {cache: {size: 8MiB, max_dirty: 16MiB}}
phases: [{rw: read, ios: 1}]`, []string{"stack.cache.max_dirty: 16777216 bytes is more than the 8388608-byte cache"}},
		{"max dirty above default size", `
stack: {cache: {max_dirty: 128MiB}}
phases: [{rw: read, ios: 1}]`, []string{"stack.cache.max_dirty:", "more than the 67108864-byte cache"}},
		{"max dirty not sector multiple", `
stack: {cache: {size: 8MiB, max_dirty: 1000}}
phases: [{rw: read, ios: 1}]`, []string{"stack.cache.max_dirty: 1000 is not a multiple of 512"}},
		{"absurd cache", `
stack: {cache: {size: 1PiB}}
phases: [{rw: read, ios: 1}]`, []string{"stack.cache.size:", "more than 1TiB"}},
		{"absurd capacity", `
stack: {drive: {spec: {capacity: 1000PiB}}}
phases: [{rw: read, ios: 1}]`, []string{"stack.drive.spec.capacity:", "more than"}},
		{"bad duration", `phases: [{rw: read, ios: 1, startdelay: soon}]`, []string{"phases[0].startdelay:", "duration"}},
		{"duration as number", `
stack: {cache: {size: 8MiB, interval: 5}}
phases: [{rw: read, ios: 1}]`, []string{"stack.cache.interval: want a duration"}},
		{"negative duration", `phases: [{rw: read, ios: 1, startdelay: -5ms}]`, []string{"phases[0].startdelay: -5ms is outside"}},
		{"bad rw", `phases: [{rw: sideways, ios: 1}]`, []string{"phases[0].rw: \"sideways\""}},
		{"rwmixread range", `phases: [{rw: randrw, rwmixread: 150, ios: 1}]`, []string{"phases[0].rwmixread: 150 is outside 0..100"}},
		{"bad bssplit", `phases: [{rw: randread, bssplit: 4k/30:8k/30, ios: 1}]`, []string{"phases[0].bssplit:"}},
		{"bad distribution", `phases: [{rw: randread, random_distribution: gauss, ios: 1}]`, []string{"phases[0].random_distribution:"}},
		{"percentage_random range", `phases: [{rw: read, percentage_random: 101, ios: 1}]`, []string{"phases[0].percentage_random: 101 is outside"}},
		{"negative fsync", `phases: [{rw: write, fsync: -1, ios: 1}]`, []string{"phases[0].fsync: -1 is negative"}},
		{"queue depth", `
stack: {drive: {queue_depth: 64}}
phases: [{rw: read, ios: 1}]`, []string{"stack.drive.queue_depth: 64 is outside 1..32"}},
		{"scheduler", `
stack: {drive: {scheduler: elevator}}
phases: [{rw: read, ios: 1}]`, []string{"stack.drive.scheduler: \"elevator\""}},
		{"watermarks", `
stack: {cache: {size: 8MiB, high_water: 0.3, low_water: 0.6}}
phases: [{rw: read, ios: 1}]`, []string{"stack.cache.low_water: 0.6 must be below high_water 0.3"}},
		{"cache mode", `
stack: {cache: {mode: write-around}}
phases: [{rw: read, ios: 1}]`, []string{"stack.cache.mode: \"write-around\""}},
		{"stripe align without raid", `
stack: {cache: {align: stripe}}
phases: [{rw: read, ios: 1}]`, []string{"stack.cache.align: stripe alignment needs an array"}},
		{"failure without raid", `
stack: {failures: [{member: 0, at: 1s}]}
phases: [{rw: read, ios: 1}]`, []string{"stack.failures[0]: failing a member needs an array"}},
		{"failure member", `
stack: {disks: 3, raid: {level: 5}, failures: [{member: 3, at: 1s}]}
phases: [{rw: read, ios: 1}]`, []string{"stack.failures[0].member: 3 is not a member index (0..2)"}},
		{"trace and workload", `phases: [{rw: read, trace: {path: x.csv}}]`, []string{"phases[0].rw: describes a synthetic workload"}},
		{"trace without path", `phases: [{trace: {format: msr}}]`, []string{"phases[0].trace.path: missing"}},
		{"trace format", `phases: [{trace: {path: t, format: tarot}}]`, []string{"phases[0].trace.format: \"tarot\""}},
		{"trace scale", `phases: [{trace: {path: t, map: scale}}]`, []string{"phases[0].trace.capacity: map scale needs"}},
		{"duplicate phase names", `phases: [{name: a, ios: 1}, {name: a, ios: 1}]`, []string{"phases[1].name: \"a\" is also the name of phases[0]"}},
		{"offset past end", `phases: [{rw: read, offset: 600GiB, ios: 1}]`, []string{"phases[0].offset:", "past the end"}},
		{"spec without rates", `
stack: {drive: {spec: {capacity: 1GiB, rpm: 7200, heads: 2}}}
phases: [{rw: read, ios: 1}]`, []string{"stack.drive.spec:", "OuterSustained"}},
		{"null value", `phases: [{rw: read, bs: null}]`, []string{"phases[0].bs: no value given"}},
		{"non-string keys", "phases: [{1: read}]", []string{"phases[0]: want a mapping with text keys"}},
		{"seed negative", `seed: -3
phases: [{rw: read, ios: 1}]`, []string{"seed: -3 is negative"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var c *raidsim.Config
			var err error
			require.NotPanics(t, func() { c, err = raidsim.ParseConfig([]byte(tc.text), "x.yaml") })
			require.Error(t, err)
			assert.Nil(t, c)
			for _, w := range tc.want {
				assert.Contains(t, err.Error(), w)
			}
			assert.True(t, strings.HasPrefix(err.Error(), "x.yaml: "), "errors name the source: %v", err)
			var ce *raidsim.ConfigError
			assert.True(t, errors.As(err, &ce), "a *ConfigError")
		})
	}
}

func TestValidateReportsEveryProblem(t *testing.T) {
	_, err := raidsim.ParseConfig([]byte(`
stack: {disks: 3, raid: {level: 5, stripe_unit: 3000}, drive: {queue_depth: 99}}
phases:
  - {rw: read, bs: 1000}
  - {rw: writeish, fsync: -2}
`), "")
	require.Error(t, err)
	var ce *raidsim.ConfigError
	require.True(t, errors.As(err, &ce))
	var paths []string
	for _, f := range ce.Fields {
		paths = append(paths, f.Path)
	}
	assert.Subset(t, paths, []string{"stack.raid.stripe_unit", "stack.drive.queue_depth", "phases[0].bs", "phases[1].rw", "phases[1].fsync"})
}

func TestParseConfigTreeLeavesTreeAlone(t *testing.T) {
	tree := map[string]any{
		"stack":  map[string]any{"drive": map[string]any{"preset": "deskstar-7k500"}},
		"phases": []any{map[string]any{"rw": "randread", "bs": "8KiB", "ios": 20, "iodepth": int64(2)}},
		"sweep":  map[string]any{"stack.drive.queue_depth": []any{1, 32}},
	}
	c, err := raidsim.ParseConfigTree(tree, "tree")
	require.NoError(t, err)
	assert.Equal(t, raidsim.Size(8192), c.Phases[0].BS)
	assert.NotNil(t, c.Sweep, "the sweep section is kept for the sweep command")
	assert.Equal(t, "8KiB", tree["phases"].([]any)[0].(map[string]any)["bs"])
}

// TestPhasesShareTheStack: a write phase leaves its data in the volume
// cache, and the read phase after it finds it there.
func TestPhasesShareTheStack(t *testing.T) {
	c, err := raidsim.ParseConfig([]byte(`
stack:
  drive: {preset: deskstar-7k500}
  cache: {size: 64MiB, high_water: 0.9, low_water: 0.8}
phases:
  - {name: write, rw: write, bs: 64KiB, size: 4MiB}
  - {name: read, rw: read, bs: 64KiB, size: 4MiB}
  - {name: read elsewhere, rw: read, bs: 64KiB, offset: 1GiB, size: 4MiB}
`), "shared")
	require.NoError(t, err)
	rep, err := c.Run()
	require.NoError(t, err)
	require.Len(t, rep.Phases, 3)
	hit, miss := rep.Phases[1], rep.Phases[2]
	assert.EqualValues(t, 64, hit.Read.IOs)
	assert.Less(t, hit.Read.LatencyMS.Max, 0.2, "every read of the written region is a cache hit")
	assert.Greater(t, miss.Read.LatencyMS.Mean, 10*hit.Read.LatencyMS.Mean, "a region never written goes to the drive")
	require.NotNil(t, rep.Total.Cache)
	assert.Greater(t, rep.Total.Cache.ReadHitRatio, 0.3)
	assert.Nil(t, hit.Disks, "phases carry no stack statistics")
	assert.Len(t, rep.Total.Disks, 1)
	assert.EqualValues(t, 3*64, rep.Total.All.IOs)
}

func TestConfigRunIsDeterministic(t *testing.T) {
	text := []byte(`
seed: 11
stack: {drive: {preset: travelstar-7k500}, host: {flushes: false}}
phases:
  - {rw: randrw, bssplit: 4k/50:64k/50, ios: 300, iodepth: 4, fsync: 8}
  - {rw: write, percentage_random: 30, ios: 300, fsync: 10, startdelay: 20ms}
`)
	run := func() string {
		c, err := raidsim.ParseConfig(text, "det")
		require.NoError(t, err)
		rep, err := c.Run()
		require.NoError(t, err)
		return render(t, rep)
	}
	a := run()
	assert.Equal(t, a, run())
	assert.Contains(t, a, `"host_flushes_dropped"`)
	assert.NotContains(t, a, `"flushes": 1`, "the host dropped them")
}

// TestOnePhaseConfigIsAnExperiment: a one-phase config's total is the
// report of the equivalent Experiment.
func TestOnePhaseConfigIsAnExperiment(t *testing.T) {
	c, err := raidsim.ParseConfig([]byte(`
seed: 4
stack: {drive: {preset: deskstar-7k500}}
phases: [{rw: randread, bs: 4KiB, ios: 200, iodepth: 8}]
`), "one")
	require.NoError(t, err)
	x, err := c.Experiment()
	require.NoError(t, err)
	xr, err := x.Run()
	require.NoError(t, err)
	cr, err := c.Run()
	require.NoError(t, err)
	var a, b bytes.Buffer
	require.NoError(t, xr.WriteJSON(&a))
	require.NoError(t, cr.Total.WriteJSON(&b))
	assert.Equal(t, a.String(), b.String())
}

func TestFsyncSendsFlushes(t *testing.T) {
	c, err := raidsim.ParseConfig([]byte(`phases: [{rw: write, bs: 64KiB, ios: 100, fsync: 10}]`), "f")
	require.NoError(t, err)
	rep, err := c.Run()
	require.NoError(t, err)
	assert.EqualValues(t, 10, rep.Phases[0].Flushes)
	assert.EqualValues(t, 100, rep.Phases[0].Workload.IOs)
}

// TestExampleConfigs parses and validates every file in examples/configs.
func TestExampleConfigs(t *testing.T) {
	files, err := filepath.Glob("examples/configs/*")
	require.NoError(t, err)
	n := 0
	for _, f := range files {
		if ext := filepath.Ext(f); ext != ".yaml" && ext != ".yml" && ext != ".json" {
			continue
		}
		n++
		t.Run(filepath.Base(f), func(t *testing.T) {
			c, err := raidsim.LoadConfig(f)
			require.NoError(t, err)
			assert.NotEmpty(t, c.Phases)
		})
	}
	assert.GreaterOrEqual(t, n, 3)
}

func TestLoadConfigResolvesTracePaths(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "c.yaml")
	require.NoError(t, os.WriteFile(p, []byte("phases: [{trace: {path: t.csv, iodepth: 2}}]\n"), 0o644))
	c, err := raidsim.LoadConfig(p)
	require.NoError(t, err)
	assert.Equal(t, filepath.Join(dir, "t.csv"), c.Phases[0].Trace.Path)
}

func FuzzParseConfig(f *testing.F) {
	f.Add([]byte(minimal))
	f.Add([]byte(`{"stack": {"disks": 3, "raid": {"level": 5}}, "phases": [{"rw": "randwrite", "ios": 5}]}`))
	f.Add([]byte("stack: {cache: {size: 1MiB, interval: 5ms}}\nphases: [{bssplit: 4k/50:8k/50, ios: 3}]\n"))
	f.Add([]byte("phases: [{trace: {path: x, map: scale, capacity: 1GiB}}]"))
	f.Add([]byte("stack: {drive: {spec: {capacity: 1GiB, rpm: 7200, heads: 2, outer_sustained: 60, inner_sustained: 30, track_to_track: 1ms}}}\nphases: [{ios: 1}]"))
	f.Add([]byte("phases: [{rw: read, bs: &a 4k, size: *a}]"))
	f.Add([]byte("power_loss_at: 2s\nstack: {cache: {size: 8MiB, max_dirty: 1MiB, read_ahead: 256KiB}}\nphases: [{rw: randwrite, ios: 3}]\n"))
	for _, name := range []string{"single-drive-phases.yaml", "raid5-volume-cache.yaml"} {
		if b, err := os.ReadFile(filepath.Join("examples/configs", name)); err == nil {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := raidsim.ParseConfig(data, "fuzz")
		if err != nil {
			if c != nil {
				t.Fatal("a config with an error")
			}
			return
		}
		if err := c.Validate(); err != nil {
			t.Fatalf("parsed config fails Validate: %v", err)
		}
	})
}

func TestBackgroundJobsRunBesideThePhase(t *testing.T) {
	c, err := raidsim.ParseConfig([]byte(`
stack: {drive: {preset: travelstar-7k500, write_cache: false}}
phases:
  - name: reads beside writes
    rw: randread
    ios: 50
    background:
      - {rw: write, bs: 64KiB, offset: 10GiB, iodepth: 2}
`), "bg")
	require.NoError(t, err)
	rep, err := c.Run()
	require.NoError(t, err)
	ph := rep.Phases[0]
	assert.EqualValues(t, 50, ph.Read.IOs, "the phase ends with its own workload")
	assert.Positive(t, ph.Write.IOs, "the background writes ran meanwhile")
	require.Len(t, ph.Background, 1)
	assert.Equal(t, "write", ph.Background[0].RW)
	assert.Equal(t, ph.Write.IOs, ph.Background[0].IOs)

	_, err = raidsim.ParseConfig([]byte(`phases: [{ios: 5, background: [{ios: 3, name: b, colour: red}]}]`), "bg")
	require.Error(t, err)
	for _, s := range []string{"phases[0].background[0].ios: not allowed", "phases[0].background[0].name: not allowed", "phases[0].background[0].colour: unknown key"} {
		assert.Contains(t, err.Error(), s)
	}
}

func TestRuntimeStopsAPhase(t *testing.T) {
	c, err := raidsim.ParseConfig([]byte(`phases: [{rw: randread, ios: 100000, runtime: 200ms}]`), "rt")
	require.NoError(t, err)
	rep, err := c.Run()
	require.NoError(t, err)
	ph := rep.Phases[0]
	assert.True(t, ph.RuntimeReached)
	assert.Less(t, ph.All.IOs, int64(100))
	assert.InDelta(t, 0.2, ph.SimSeconds, 0.05)
}
