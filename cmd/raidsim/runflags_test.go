package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/raidsim/raidsim"
	"github.com/raidsim/raidsim/spec"
)

// sameYAML and sameJSON describe, as files, the experiment of
// sameExperiment: a 2-drive RAID 0 under a volume cache, randrw, seed 7.
const sameYAML = `name: same
seed: 7
stack:
  drive: {preset: deskstar-7k160}
  disks: 2
  raid: {level: 0, stripe_unit: 128KiB}
  cache: {size: 16MiB}
phases:
  - {rw: randrw, rwmixread: 70, bs: 16KiB, iodepth: 4, ios: 400, size: 1GiB}
`

const sameJSON = `{"name": "same", "seed": 7,
 "stack": {"drive": {"preset": "deskstar-7k160"}, "disks": 2,
           "raid": {"level": "0", "stripe_unit": 131072}, "cache": {"size": "16MiB"}},
 "phases": [{"rw": "randrw", "rwmixread": 70, "bs": "16KiB", "iodepth": 4, "ios": 400, "size": 1073741824}]}
`

// sameFlags are the flags of the same experiment.
var sameFlags = []string{"--name", "same", "--seed", "7", "--drive", "deskstar-7k160", "--raid", "0", "--disks", "2",
	"--stripe", "128KiB", "--cache", "16MiB", "--rw", "randrw", "--rwmixread", "70", "--bs", "16KiB",
	"--iodepth", "4", "--ios", "400", "--size", "1GiB"}

// sameExperiment is the experiment as Go code writes it.
func sameExperiment() spec.Experiment {
	mix := 70
	return spec.Experiment{
		Name: "same", Seed: 7,
		Stack: spec.Stack{
			Drive: spec.Drive{Preset: "deskstar-7k160"}, Disks: 2,
			RAID:  &spec.RAID{Level: "0", StripeUnit: 128 << 10},
			Cache: &spec.Cache{Size: 16 << 20},
		},
		Phases: []spec.Phase{{Job: spec.Job{RW: "randrw", RWMixRead: &mix, BS: 16 << 10, IODepth: 4, IOs: 400, Size: 1 << 30}}},
	}
}

// reportOf runs x with the Go API and returns its JSON and text reports.
func reportOf(t *testing.T, x *spec.Experiment) (jsonOut, textOut string) {
	t.Helper()
	rep, err := raidsim.Run(x)
	require.NoError(t, err)
	var j, txt bytes.Buffer
	require.NoError(t, rep.WriteJSON(&j))
	require.NoError(t, rep.WriteText(&txt))
	return j.String(), txt.String()
}

// TestOneExperimentEveryFrontEnd: the same experiment given as a Go
// literal, a YAML file, a JSON file, command-line flags, --set paths and
// --config files gives byte-identical JSON and text reports.
func TestOneExperimentEveryFrontEnd(t *testing.T) {
	dir := t.TempDir()
	yamlPath, jsonPath := filepath.Join(dir, "same.yaml"), filepath.Join(dir, "same.json")
	require.NoError(t, os.WriteFile(yamlPath, []byte(sameYAML), 0o644))
	require.NoError(t, os.WriteFile(jsonPath, []byte(sameJSON), 0o644))
	x := sameExperiment()
	wantJSON, wantText := reportOf(t, &x)
	require.Contains(t, wantText, "RAID 0 over 2 x deskstar-7k160, stripe unit 128KiB")
	require.Contains(t, wantJSON, `"name": "same"`)

	for _, path := range []string{yamlPath, jsonPath} {
		loaded, err := spec.Load(path)
		require.NoError(t, err)
		j, txt := reportOf(t, loaded)
		assert.Equal(t, wantJSON, j, "spec.Load(%s) and raidsim.Run", path)
		assert.Equal(t, wantText, txt, "spec.Load(%s) and raidsim.Run", path)
	}
	var sets []string
	for i := 0; i < len(sameFlags); i += 2 {
		f := lookupFlag(runFlags, strings.TrimPrefix(sameFlags[i], "--"))
		require.NotNil(t, f, sameFlags[i])
		sets = append(sets, "--set", f.path+"="+sameFlags[i+1])
	}
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"flags", sameFlags},
		{"--set", sets},
		{"--config yaml", []string{"--config", yamlPath}},
		{"--config json", []string{"--config", jsonPath}},
		{"--config and flags", append([]string{"--config", yamlPath, "--seed", "3"}, sameFlags...)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, j, errOut := runCLI(t, append([]string{"run", "--json"}, tc.args...)...)
			require.Equal(t, 0, code, errOut)
			assert.Equal(t, wantJSON, j)
			code, j, errOut = runCLI(t, append([]string{"run", "--output-format=json"}, tc.args...)...)
			require.Equal(t, 0, code, errOut)
			assert.Equal(t, wantJSON, j, "fio's --output-format=json")
			code, txt, errOut := runCLI(t, append([]string{"run"}, tc.args...)...)
			require.Equal(t, 0, code, errOut)
			assert.Equal(t, wantText, txt)
		})
	}
}

// TestFioSpellings: fio's names of flags give the same report.
func TestFioSpellings(t *testing.T) {
	_, want, _ := runCLI(t, "run", "--ios", "50", "--seed", "3", "--json")
	code, got, errOut := runCLI(t, "run", "--number_ios", "50", "--randseed=3", "--output-format", "json")
	require.Equal(t, 0, code, errOut)
	assert.Equal(t, want, got)
	code, text, errOut := runCLI(t, "run", "--number_ios", "50", "--randseed=3", "--output-format=normal")
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, text, "workload rw=randread bs=4KiB iodepth=1 ios=50 seed=3")
}

// baseFor returns the base experiment a flag's example is tried on,
// with the section the flag needs.
func baseFor(t *testing.T, f *runFlag) spec.Experiment {
	t.Helper()
	x := baseExperiment()
	switch {
	case f.needs == raidSec:
		level := "5"
		if spec.Under(f.path, "stack.raid") && slices.Contains([]string{"recordsize", "ashift", "fill", "fill_streams", "scan_batch"}, strings.TrimPrefix(f.path, "stack.raid.")) {
			level = "raidz1"
		}
		require.NoError(t, spec.Set(&x, "stack.raid.level", level))
		if f.name == "rebuild" || f.name == "rebuild-drive" { // of a member that failed
			require.NoError(t, spec.Set(&x, "stack.failures", "[{member: 1, at: 1s}]"))
		}
		if f.name == "rebuild-drive" {
			require.NoError(t, spec.Set(&x, "stack.rebuild", "{member: 1, at: 2s}"))
		}
	case f.needs == cacheSec:
		require.NoError(t, spec.Set(&x, "stack.cache.size", "64MiB"))
	case f.needs == hostSec:
		require.NoError(t, spec.Set(&x, "stack.host.preset", "nas-1gb"))
	case f.name == "precondition": // an SSD setting
		require.NoError(t, spec.Set(&x, "stack.drive.preset", "intel-x25m-g2"))
	case strings.HasPrefix(f.name, "thinktime-"): // the shape of a think time
		require.NoError(t, spec.Set(&x, "phases[0].thinktime", "1ms"))
	case f.name == "rate-process" || f.name == "io-submit-mode": // the pacing of a rate
		require.NoError(t, spec.Set(&x, "phases[0].rate_iops", "100"))
	case f.name == "time-based": // until a runtime
		require.NoError(t, spec.Set(&x, "phases[0].ios", "0"))
		require.NoError(t, spec.Set(&x, "phases[0].runtime", "1s"))
	case f.needs == traceSec || spec.Under(f.path, "phases[0].trace"):
		x = traceBase()
		require.NoError(t, spec.Set(&x, "phases[0].trace.path", "t.csv"))
	}
	return x
}

// knownSpecIssues are flags whose example the spec refuses today, with
// the error: the run's flag table is right, the spec is to be fixed.
var knownSpecIssues = map[string]string{
	// low_water alone is compared with a high_water of 0, not its
	// default 0.5.
	"low-water": "stack.cache.low_water: 0.3 must be below high_water 0",
}

// TestEveryRunFlagIsASpecPath: every flag of raidsim run that describes
// the experiment sets key paths spec.Set accepts, whose defaults
// spec.Default finds, and its example value gives a valid experiment;
// every flag is listed in --help under a heading, with its path.
func TestEveryRunFlagIsASpecPath(t *testing.T) {
	_, help, _ := runCLI(t, "run", "--help")
	for _, f := range runFlags {
		t.Run(f.name, func(t *testing.T) {
			assert.NotEmpty(t, f.group)
			assert.NotEmpty(t, f.help(keys))
			if fd, ok := spec.FieldAt(f.path); ok && f.settings == nil {
				assert.Contains(t, f.help(keys), fd.Doc, "--%s's help is its field's doc", f.name)
			}
			require.NotEmpty(t, f.example)
			section := helpSection(help, f.group)
			assert.Contains(t, section, "  "+f.synopsis()+" ", "--%s is listed under %q", f.name, f.group)
			if f.path != "" {
				assert.Contains(t, section, f.path, "--help shows --%s's path", f.name)
			}
			if !f.field() || f.name == "set" {
				return
			}
			x := baseFor(t, f)
			settings, err := f.settingsFor(&x, f.example)
			require.NoError(t, err)
			require.NotEmpty(t, settings)
			for _, s := range settings {
				_, ok := spec.Default(s.path)
				assert.True(t, ok, "spec.Default(%q) names a field", s.path)
				require.NoError(t, spec.Set(&x, s.path, s.value), "spec.Set(%q, %q)", s.path, s.value)
			}
			if err := x.Validate(); err != nil && err.Error() == knownSpecIssues[f.name] {
				t.Logf("--%s %s: known spec issue: %v", f.name, f.example, err)
			} else {
				assert.NoError(t, err, "--%s %s", f.name, f.example)
			}
			if f.tracePath != "" {
				tx := baseFor(t, &runFlag{needs: traceSec})
				require.NoError(t, spec.Set(&tx, f.tracePath, f.example))
				assert.NoError(t, tx.Validate(), "--%s %s with --trace", f.name, f.example)
			}
		})
	}
}

// helpSection returns the lines of help under the heading group, up to
// the next heading.
func helpSection(help, group string) string {
	_, after, ok := strings.Cut(help, "\n"+group+":\n")
	if !ok {
		return ""
	}
	if i := strings.Index(after, "\n\n"); i >= 0 {
		after = after[:i]
	}
	return after
}

// TestRunHelp: --help and -h print the grouped flags to stdout and exit
// 0; the help names the base experiment.
func TestRunHelp(t *testing.T) {
	for _, h := range []string{"--help", "-h"} {
		code, out, errOut := runCLI(t, "run", "--rw", "write", h)
		assert.Equal(t, 0, code)
		assert.Empty(t, errOut)
		assert.True(t, strings.HasPrefix(out, "Usage: raidsim run [flags]\n"), out)
		for _, heading := range []string{"Experiment:", "Workload", "Drive", "RAID:", "Volume cache:", "Trace replay:", "Output:"} {
			assert.Contains(t, out, "\n"+heading, "heading %q", heading)
		}
		assert.Contains(t, out, "one phase of 1000 randread requests of 4KiB at iodepth 1, on one travelstar-7k500, seed 1")
		assert.Contains(t, out, "[phases[0].rw; base: randread]")
		assert.Contains(t, out, "[stack.raid.stripe_unit; default: 64KiB;")
		assert.Contains(t, out, "also --number_ios")
	}
	code, out, errOut := runCLI(t, "gen", "--help")
	assert.Equal(t, 0, code)
	assert.Empty(t, errOut)
	assert.Contains(t, out, "\nWorkload")
	assert.Contains(t, out, "--out FILE")
	assert.NotContains(t, out, "  --trace FILE", "gen writes a synthetic workload")
}

// TestFlagErrorIsOneLine: a bad flag or value prints one line naming
// the flag and the field, with a hint to --help, not the usage.
func TestFlagErrorIsOneLine(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"run", "--raid", "0", "--stripe", "3000"},
			"raidsim run: --stripe: stack.raid.stripe_unit: 3000 is not a multiple of 512 (see raidsim run --help)\n"},
		{[]string{"run", "--layout", "left-asymmetric"}, "raidsim run: --layout needs --raid (stack.raid) (see raidsim run --help)\n"},
		{[]string{"run", "--stripe=128KiB"}, "raidsim run: --stripe needs --raid (stack.raid) (see raidsim run --help)\n"},
		{[]string{"run", "--bogus"}, "raidsim run: unknown flag: --bogus (see raidsim run --help)\n"},
		{[]string{"run", "-json"}, "raidsim run: unknown shorthand flag: 'j' in -json (see raidsim run --help)\n"},
		{[]string{"gen", "--out", "x.csv", "--bs", "1000"}, "raidsim gen: --bs: phases[0].bs: 1000 is not a multiple of 512 (see raidsim gen --help)\n"},
		{[]string{"sweep", "--workers", "0"}, "raidsim sweep: --config: a sweep file is required\nraidsim sweep: --workers: must be at least 1, got 0 (see raidsim sweep --help)\n"},
		{[]string{"drives", "--table"}, "raidsim drives: unknown flag: --table (see raidsim drives --help)\n"},
		{[]string{"validate", "--trace", "x"}, "raidsim validate: --disksim and --trace are required (see raidsim validate --help)\n"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			code, out, errOut := runCLI(t, tc.args...)
			assert.Equal(t, 2, code)
			assert.Empty(t, out)
			assert.Equal(t, tc.want, errOut)
		})
	}
	// Every problem at once, one line each, the hint once.
	code, _, errOut := runCLI(t, "run", "--bs", "1000", "--iodepth", "0", "--cache-nv")
	assert.Equal(t, 2, code)
	assert.Equal(t, "raidsim run: --bs: phases[0].bs: 1000 is not a multiple of 512\n"+
		"raidsim run: --iodepth: phases[0].iodepth: 0 is not a usable value: leave the key out for the default, 1\n"+
		"raidsim run: --cache-nv needs --cache (stack.cache) (see raidsim run --help)\n", errOut)

	// A problem no flag set alone is still the command line's.
	code, _, errOut = runCLI(t, "run", "--trace", "t.csv", "--map", "scale")
	assert.Equal(t, 2, code)
	assert.Equal(t, "raidsim run: phases[0].trace.capacity: map scale needs the traced device's capacity (see raidsim run --help)\n", errOut)
}

// synth is a file's synthetic phase as the base experiment has it, with
// extra keys.
func synth(extra string) string { return "rw: randread, iodepth: 1, ios: 1000, " + extra }

// badValues are values the model cannot use, each given once through
// its flag and once through a file: flags lists the flag and the flags
// it needs, stack and phase the file's stack and first phase (mapping
// contents), top extra top-level keys, want the field error.
var badValues = []struct {
	flags             []string
	stack, phase, top string
	want              string
}{
	{[]string{"--bs", "3000"}, "", synth("bs: 3000"), "", "phases[0].bs: 3000 is not a multiple of 512"},
	{[]string{"--bs", "0"}, "", synth("bs: 0"), "", "phases[0].bs: 0 is not a usable value: leave the key out for the default, 4KiB"},
	{[]string{"--bs", "four"}, "", synth("bs: four"), "", `phases[0].bs: size "four"`},
	{[]string{"--bssplit", "4k/70:3000/30"}, "", synth("bssplit: 4k/70:3000/30"), "", "phases[0].bssplit: block size 3000 is not a multiple of 512"},
	{[]string{"--iodepth", "0"}, "", "rw: randread, ios: 1000, iodepth: 0", "", "phases[0].iodepth: 0 is not a usable value"},
	{[]string{"--iodepth", "100000000"}, "", "rw: randread, ios: 1000, iodepth: 100000000", "", "phases[0].iodepth: 100000000 is outside 0..65536"},
	{[]string{"--ios", "-5"}, "", "rw: randread, iodepth: 1, ios: -5", "", "phases[0].ios: -5 is outside 0..4294967296"},
	{[]string{"--ios", "1e12"}, "", "rw: randread, iodepth: 1, ios: 1e12", "", "phases[0].ios: 1000000000000 is outside 0..4294967296"},
	{[]string{"--rw", "sideways"}, "", "rw: sideways, iodepth: 1, ios: 1000", "", `phases[0].rw: "sideways": want read, write, randread, randwrite, rw, randrw, trim or randtrim`},
	{[]string{"--rwmixread", "101"}, "", synth("rwmixread: 101"), "", "phases[0].rwmixread: 101 is outside 0..100"},
	{[]string{"--offset", "10TiB"}, "", synth("offset: 10TiB"), "", "phases[0].offset: 10995116277760 is past the end of the 500107862016-byte stack"},
	{[]string{"--size", "3000"}, "", synth("size: 3000"), "", "phases[0].size: 3000 is not a multiple of 512"},
	{[]string{"--random-distribution", "zipf:-1"}, "", synth("random_distribution: zipf:-1"), "", `phases[0].random_distribution: "zipf:-1"`},
	{[]string{"--percentage-random", "101"}, "", synth("percentage_random: 101"), "", "phases[0].percentage_random: 101 is outside 0..100"},
	{[]string{"--fsync", "-1"}, "", synth("fsync: -1"), "", "phases[0].fsync: -1 is negative"},
	{[]string{"--seed", "-1"}, "", synth(""), "seed: -1", "seed: -1 is negative"},
	{[]string{"--power-loss-at", "-1s"}, "", synth(""), "power_loss_at: -1s", "power_loss_at: -1s is outside"},
	{[]string{"--power-loss-at", "soon"}, "", synth(""), "power_loss_at: soon", `power_loss_at: duration "soon": want a number with a unit`},
	{[]string{"--drive", "floppy"}, "drive: {preset: floppy}", synth(""), "", `stack.drive.preset: unknown preset "floppy"`},
	{[]string{"--write-cache", "maybe"}, "drive: {write_cache: maybe}", synth(""), "", `stack.drive.write_cache: want true or false (or on, off), got "maybe"`},
	{[]string{"--scheduler", "elevator"}, "drive: {scheduler: elevator}", synth(""), "", `stack.drive.scheduler: "elevator"`},
	{[]string{"--ncq", "64"}, "drive: {queue_depth: 64}", synth(""), "", "stack.drive.queue_depth: 64 is outside 1..32"},
	{[]string{"--ncq", "0"}, "drive: {queue_depth: 0}", synth(""), "", "stack.drive.queue_depth: 0 is not a usable value"},
	{[]string{"--raid", "7"}, "raid: {level: 7}", synth(""), "", `stack.raid.level: "7" is not a RAID level (want 0, 1, 5, 6, 10, raidz1, raidz2 or raidz3)`},
	{[]string{"--raid", "5", "--disks", "2"}, "raid: {level: 5}, disks: 2", synth(""), "", "stack.disks: RAID 5 needs at least 3 drives, got 2"},
	{[]string{"--raid", "0", "--disks", "100000"}, "raid: {level: 0}, disks: 100000", synth(""), "", "stack.disks: 100000 is outside 0..256"},
	{[]string{"--raid", "0", "--stripe", "3000"}, "raid: {level: 0, stripe_unit: 3000}", synth(""), "", "stack.raid.stripe_unit: 3000 is not a multiple of 512"},
	{[]string{"--raid", "0", "--stripe", "0"}, "raid: {level: 0, stripe_unit: 0}", synth(""), "", "stack.raid.stripe_unit: 0 is not a usable value: leave the key out for the default, 64KiB"},
	{[]string{"--raid", "5", "--layout", "diagonal"}, "raid: {level: 5, layout: diagonal}", synth(""), "", `stack.raid.layout: "diagonal"`},
	{[]string{"--raid", "5", "--raid5-write", "maybe"}, "raid: {level: 5, raid5_write: maybe}", synth(""), "", `stack.raid.raid5_write: "maybe": want auto, rmw or rcw`},
	{[]string{"--raid", "5", "--fail-disk", "one@1s"}, "raid: {level: 5}, failures: [{member: one, at: 1s}]", synth(""), "", `stack.failures[0].member: want a whole number, got a string "one"`},
	{[]string{"--raid", "5", "--fail-disk", "9@1s"}, "raid: {level: 5}, failures: [{member: 9, at: 1s}]", synth(""), "", "stack.failures[0].member: 9 is not a member index (0..2)"},
	{[]string{"--raid", "5", "--fail-disk", "1@soon"}, "raid: {level: 5}, failures: [{member: 1, at: soon}]", synth(""), "", `stack.failures[0].at: duration "soon"`},
	{[]string{"--cache", "1PiB"}, "cache: {size: 1PiB}", synth(""), "", "stack.cache.size: 1125899906842624 bytes is more than 1TiB"},
	{[]string{"--cache", "0"}, "cache: {size: 0}", synth(""), "", "stack.cache.size: 0 is not a usable value: leave the key out for the default, 64MiB"},
	{[]string{"--cache", "-1"}, "cache: {size: -1}", synth(""), "", "stack.cache.size: -1 is negative"},
	{[]string{"--cache", "64MiB", "--cache-mode", "write-sideways"}, "cache: {size: 64MiB, mode: write-sideways}", synth(""), "", `stack.cache.mode: "write-sideways"`},
	{[]string{"--cache", "64MiB", "--destage", "never"}, "cache: {size: 64MiB, policy: never}", synth(""), "", `stack.cache.policy: "never": want wm, interval, idle or linear`},
	{[]string{"--cache", "64MiB", "--destage-order", "random"}, "cache: {size: 64MiB, order: random}", synth(""), "", `stack.cache.order: "random": want lba, lrw or wow`},
	{[]string{"--cache", "64MiB", "--cache-max-dirty", "128MiB"}, "cache: {size: 64MiB, max_dirty: 128MiB}", synth(""), "", "stack.cache.max_dirty: 134217728 bytes is more than the 67108864-byte cache"},
	{[]string{"--cache", "64MiB", "--high-water", "1.5"}, "cache: {size: 64MiB, high_water: 1.5}", synth(""), "", "stack.cache.high_water: 1.5 is outside 0..1"},
	{[]string{"--cache", "64MiB", "--low-water", "0.6"}, "cache: {size: 64MiB, low_water: 0.6}", synth(""), "", "stack.cache.low_water: 0.6 must be below high_water"},
	{[]string{"--cache", "64MiB", "--flush-interval", "soon"}, "cache: {size: 64MiB, interval: soon}", synth(""), "", `stack.cache.interval: duration "soon"`},
	{[]string{"--cache", "64MiB", "--cache-nv", "--cache-align", "diagonal"}, "cache: {size: 64MiB, non_volatile: true, align: diagonal}", synth(""), "", `stack.cache.align: "diagonal": want none or stripe`},
	{[]string{"--cache", "64MiB", "--cache-align", "stripe"}, "cache: {size: 64MiB, align: stripe}", synth(""), "", "stack.cache.align: stripe alignment needs an array (stack.raid)"},
	{[]string{"--trace", "t.csv", "--format", "xml"}, "", "trace: {path: t.csv, format: xml}", "", `phases[0].trace.format: "xml": want auto, fio`},
	{[]string{"--trace", "t.csv", "--trace-device", "-1"}, "", "trace: {path: t.csv, device: -1}", "", "phases[0].trace.device: -1 is negative"},
	{[]string{"--trace", "t.csv", "--speed", "-1"}, "", "trace: {path: t.csv, speed: -1}", "", "phases[0].trace.speed: -1 is outside 0..1e9"},
	{[]string{"--trace", "t.csv", "--map", "fold"}, "", "trace: {path: t.csv, map: fold}", "", `phases[0].trace.map: "fold": want reject, wrap or scale`},
	{[]string{"--trace", "t.csv", "--trace-capacity", "-1"}, "", "trace: {path: t.csv, capacity: -1}", "", "phases[0].trace.capacity: -1 is negative"},
	{[]string{"--trace", "t.csv", "--reorder", "-1"}, "", "trace: {path: t.csv, reorder: -1}", "", "phases[0].trace.reorder: -1 is outside 0..1048576"},
	{[]string{"--trace", "t.csv", "--iodepth", "100000"}, "", "trace: {path: t.csv, iodepth: 100000}", "", "phases[0].trace.iodepth: 100000 is outside 0..65536"},
}

// TestBadValuesSameErrorFromFlagAndFile: a bad value gives the same
// field error (path: message) through its flag as through a file.
func TestBadValuesSameErrorFromFlagAndFile(t *testing.T) {
	require.GreaterOrEqual(t, len(badValues), 25)
	dir := t.TempDir()
	for i, tc := range badValues {
		t.Run(strings.Join(tc.flags, " "), func(t *testing.T) {
			code, _, errOut := runCLI(t, append([]string{"run"}, tc.flags...)...)
			assert.Equal(t, 2, code, errOut)
			flag := tc.flags[len(tc.flags)-2]
			if !strings.HasPrefix(flag, "--") || flag == "--cache-nv" {
				flag = tc.flags[len(tc.flags)-1]
			}
			require.Equal(t, 1, strings.Count(errOut, "\n"), "one problem: %s", errOut)
			viaFlag := strings.TrimSuffix(strings.TrimPrefix(errOut, "raidsim run: "+flag+": "), " (see raidsim run --help)\n")
			assert.True(t, strings.HasPrefix(viaFlag, tc.want), "%q\nwant %q", viaFlag, tc.want)

			file := filepath.Join(dir, fmt.Sprintf("bad%d.yaml", i))
			text := fmt.Sprintf("stack: {%s}\nphases:\n  - {%s}\n%s\n", tc.stack, tc.phase, tc.top)
			require.NoError(t, os.WriteFile(file, []byte(text), 0o644))
			code, _, errOut = runCLI(t, "run", "--config", file)
			assert.Equal(t, 1, code, errOut)
			require.Equal(t, 1, strings.Count(errOut, "\n"), "one problem: %s", errOut)
			viaFile := strings.TrimSuffix(strings.TrimPrefix(errOut, "raidsim run: "+file+": "), "\n")
			assert.Equal(t, viaFlag, viaFile, "the same field error through the flag and the file")
		})
	}
}
