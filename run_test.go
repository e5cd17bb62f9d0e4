package raidsim_test

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/raidsim/raidsim"
	"github.com/raidsim/raidsim/disk"
	"github.com/raidsim/raidsim/internal/counters"
	"github.com/raidsim/raidsim/sim"
	"github.com/raidsim/raidsim/spec"
)

// parse parses an experiment from YAML text or fails the test.
func parse(t *testing.T, text, name string) *spec.Experiment {
	t.Helper()
	x, err := spec.Parse([]byte(text), name)
	require.NoError(t, err)
	return x
}

// run parses and runs an experiment and returns its report.
func run(t *testing.T, text string) *raidsim.Report {
	t.Helper()
	rep, err := raidsim.Run(parse(t, text, "t"))
	require.NoError(t, err)
	return rep
}

// jsonOf renders a report as JSON.
func jsonOf(t *testing.T, r *raidsim.Report) string {
	t.Helper()
	var b bytes.Buffer
	require.NoError(t, r.WriteJSON(&b))
	return b.String()
}

func TestJSONAndYAMLRunAlike(t *testing.T) {
	y := parse(t, `
name: x
seed: 5
stack: {drive: {preset: deskstar-7k160, write_cache: off}, disks: 3, raid: {level: 5, stripe_unit: 32KiB}, cache: {size: 16MiB}}
phases: [{rw: randwrite, bs: 8192, ios: 50, iodepth: 4, startdelay: 5ms}]
`, "y")
	j := parse(t, `{"name": "x", "seed": 5,
  "stack": {"drive": {"preset": "deskstar-7k160", "write_cache": false}, "disks": 3,
            "raid": {"level": "5", "stripe_unit": 32768}, "cache": {"size": "16MiB"}},
  "phases": [{"rw": "randwrite", "bs": "8KiB", "ios": 50, "iodepth": 4, "startdelay": "5ms"}]}`, "j")
	ry, err := raidsim.Run(y)
	require.NoError(t, err)
	rj, err := raidsim.Run(j)
	require.NoError(t, err)
	assert.Equal(t, jsonOf(t, ry), jsonOf(t, rj))
}

// TestPhasesShareTheStack: a write phase leaves its data in the volume
// cache, and the read phase after it finds it there.
func TestPhasesShareTheStack(t *testing.T) {
	rep := run(t, `
stack:
  drive: {preset: deskstar-7k500}
  cache: {size: 64MiB, high_water: 0.9, low_water: 0.8}
phases:
  - {name: write, rw: write, bs: 64KiB, size: 4MiB}
  - {name: read, rw: read, bs: 64KiB, size: 4MiB}
  - {name: read elsewhere, rw: read, bs: 64KiB, offset: 1GiB, size: 4MiB}
`)
	require.Len(t, rep.Phases, 3)
	hit, miss := rep.Phases[1], rep.Phases[2]
	assert.EqualValues(t, 64, hit.Read.IOs)
	assert.Less(t, hit.Read.LatencyMS.Max, 0.2, "every read of the written region is a cache hit")
	assert.Greater(t, miss.Read.LatencyMS.Mean, 10*hit.Read.LatencyMS.Mean, "a region never written goes to the drive")
	require.NotNil(t, rep.Cache)
	assert.Greater(t, rep.Cache.ReadHitRatio, 0.3)
	assert.Len(t, rep.Disks, 1)
	assert.EqualValues(t, 3*64, rep.Total.All.IOs)
}

func TestRunIsDeterministic(t *testing.T) {
	text := `
seed: 11
stack: {drive: {preset: travelstar-7k500}, host: {flushes: false}}
phases:
  - {rw: randrw, bssplit: 4k/50:64k/50, ios: 300, iodepth: 4, fsync: 8}
  - {rw: write, percentage_random: 30, ios: 300, fsync: 10, startdelay: 20ms}
`
	a := jsonOf(t, run(t, text))
	assert.Equal(t, a, jsonOf(t, run(t, text)))
	assert.Contains(t, a, `"host_flushes_dropped"`)
	assert.NotContains(t, a, `"flushes": 1`, "the host dropped them")
}

func TestOtherSeedOtherReport(t *testing.T) {
	text := "stack: {drive: {preset: deskstar-7k500}}\nphases: [{rw: randread, ios: 200, iodepth: 4}]\n"
	a := jsonOf(t, run(t, "seed: 1\n"+text))
	b := jsonOf(t, run(t, "seed: 2\n"+text))
	assert.NotEqual(t, a, b)
}

func TestFsyncSendsFlushes(t *testing.T) {
	rep := run(t, `phases: [{rw: write, bs: 64KiB, ios: 100, fsync: 10}]`)
	assert.EqualValues(t, 10, rep.Phases[0].Flushes)
	assert.EqualValues(t, 100, rep.Phases[0].Workload.IOs)
}

func TestBackgroundJobsRunBesideThePhase(t *testing.T) {
	rep := run(t, `
stack: {drive: {preset: travelstar-7k500, write_cache: false}}
phases:
  - name: reads beside writes
    rw: randread
    ios: 50
    background:
      - {rw: write, bs: 64KiB, offset: 10GiB, iodepth: 2}
`)
	ph := rep.Phases[0]
	assert.EqualValues(t, 50, ph.Read.IOs, "the phase ends with its own workload")
	assert.Positive(t, ph.Write.IOs, "the background writes ran meanwhile")
	require.Len(t, ph.Background, 1)
	assert.Equal(t, "write", ph.Background[0].RW)
	assert.Equal(t, ph.Write.IOs, ph.Background[0].IOs)
}

func TestRuntimeStopsAPhase(t *testing.T) {
	ph := run(t, `phases: [{rw: randread, ios: 100000, runtime: 200ms}]`).Phases[0]
	assert.True(t, ph.RuntimeReached)
	assert.Less(t, ph.All.IOs, int64(100))
	assert.InDelta(t, 0.2, ph.SimSeconds, 0.05)
}

// TestRampLeavesTheStartOut: the first ramp_ios completions are not
// counted, and the rate is taken from the last of them on.
func TestRampLeavesTheStartOut(t *testing.T) {
	text := "stack: {drive: {preset: deskstar-7k500}, cache: {size: 4MiB}}\nphases: [{rw: randwrite, ios: 2000, iodepth: 4%s}]\n"
	all := run(t, sprintf(text, "")).Phases[0]
	ramped := run(t, sprintf(text, ", ramp_ios: 1500")).Phases[0]
	assert.EqualValues(t, 2000, all.Write.IOs)
	assert.EqualValues(t, 500, ramped.Write.IOs)
	assert.Less(t, ramped.All.IOPS, all.All.IOPS, "once the cache is full, writes go at the drive's pace")

	fsync := run(t, "phases: [{rw: write, bs: 64KiB, ios: 100, fsync: 10, ramp_ios: 25}]").Phases[0]
	assert.EqualValues(t, 100, fsync.Workload.IOs, "the workload issued 100 writes, whatever the ramp-up left out")
}

// TestPlanCapacityIsTheBuiltStacks: the capacity Plan computes without
// building a device is the built stack's, for every level and preset.
func TestPlanCapacityIsTheBuiltStacks(t *testing.T) {
	for _, st := range []string{
		"{drive: {preset: deskstar-7k160}}",
		"{drive: {preset: cheetah-15k5}, disks: 2, raid: {level: 0, stripe_unit: 96KiB}}",
		"{drive: {preset: ultrastar-hc310}, disks: 2, raid: {level: 1}}",
		"{drive: {preset: deskstar-7k500}, disks: 5, raid: {level: 5, stripe_unit: 128KiB}, cache: {size: 8MiB}}",
		"{drive: {preset: wd-1600ajs}, disks: 6, raid: {level: 10, stripe_unit: 4KiB}}",
		"{drive: {spec: {capacity: 1GiB, rpm: 7200, heads: 2, outer_sustained: 60, inner_sustained: 30, track_to_track: 1ms, average_seek: 8ms, full_stroke: 16ms, buffer_size: 8MiB}}, disks: 3, raid: {level: 5}}",
	} {
		x := parse(t, "stack: "+st+"\nphases: [{ios: 1}]\n", "cap")
		pl, err := x.Plan()
		require.NoError(t, err, st)
		s, err := raidsim.NewStack(newEngine(), x.Stack, "", nil)
		require.NoError(t, err, st)
		assert.Equal(t, s.Top.Capacity(), pl.Capacity, st)
		assert.Equal(t, s.Top.SectorSize(), pl.SectorSize, st)
	}
}

// sprintf is fmt.Sprintf.
func sprintf(format string, args ...any) string { return fmt.Sprintf(format, args...) }

// newEngine returns a fresh engine with seed 1.
func newEngine() *sim.Engine { return sim.NewEngine(1) }

// TestCheckedOnceBuiltOnce: decoding and running a 4-drive experiment
// checks the drive model once and builds each drive once (the old front
// end built the stack three times and validated the drive 19 times).
func TestCheckedOnceBuiltOnce(t *testing.T) {
	checked, built := counters.DriveModelsChecked.Load(), counters.DrivesBuilt.Load()
	x, err := spec.Decode([]byte(`
stack: {drive: {preset: deskstar-7k160}, disks: 4, raid: {level: 5}, cache: {size: 8MiB}}
phases: [{rw: randwrite, ios: 100, iodepth: 8}, {rw: randread, ios: 100}]`), "four")
	require.NoError(t, err)
	_, err = raidsim.Run(x)
	require.NoError(t, err)
	assert.EqualValues(t, 1, counters.DriveModelsChecked.Load()-checked, "drive model validations")
	assert.EqualValues(t, 4, counters.DrivesBuilt.Load()-built, "drives built")
}

// TestReportMetricsMeanWhatTheySay: the report's queue, failed-member
// and cache figures keep their documented definitions.
func TestReportMetricsMeanWhatTheySay(t *testing.T) {
	rep := run(t, `
stack: {drive: {preset: deskstar-7k500, queue_depth: 8}}
phases: [{rw: randread, ios: 2000, iodepth: 64}]`)
	d := rep.Disks[0].(*disk.Report)
	assert.LessOrEqual(t, d.MeanTaggedQueue, 8.0, "the tagged queue never holds more than its depth")
	assert.Greater(t, d.MeanTaggedQueue, 7.0)
	assert.Greater(t, d.MeanHostQueue, 40.0, "the other requests wait in the host's queue")

	rep = run(t, `
stack: {drive: {preset: deskstar-7k160}, disks: 4, raid: {level: 5}, failures: [{member: 2, at: 10ms}]}
phases: [{rw: randread, ios: 200, iodepth: 4}]`)
	require.NotNil(t, rep.RAID)
	assert.Equal(t, []int{2}, rep.RAID.FailedMembers, "failed members are member indices")
	assert.Contains(t, jsonOf(t, rep), `"failed_members": [
      2
    ]`)
}
