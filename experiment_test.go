package raidsim_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/raidsim/raidsim"
	"github.com/raidsim/raidsim/disk"
	"github.com/raidsim/raidsim/raid"
	"github.com/raidsim/raidsim/sim"
	"github.com/raidsim/raidsim/trace"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func experiment(t *testing.T, preset string, w trace.Workload) raidsim.Experiment {
	t.Helper()
	p, err := disk.Preset(preset)
	require.NoError(t, err)
	return raidsim.Experiment{Drive: p, Workload: w, Seed: 1}
}

func TestExperimentReportAddsUp(t *testing.T) {
	x := experiment(t, "deskstar-7k500", trace.Workload{RW: trace.RWRandRW, RWMixRead: 70, BS: 8192, IODepth: 4, NumIOs: 1000})
	rep, err := x.Run()
	require.NoError(t, err)
	assert.EqualValues(t, 1000, rep.All.IOs)
	assert.Equal(t, rep.All.IOs, rep.Read.IOs+rep.Write.IOs)
	assert.EqualValues(t, 1000*8192, rep.All.Bytes)
	assert.InDelta(t, 0.7, float64(rep.Read.IOs)/1000, 0.05, "rwmixread 70")
	assert.InDelta(t, float64(rep.All.IOs)/rep.SimSeconds, rep.All.IOPS, rep.All.IOPS*1e-9)
	require.Len(t, rep.Disks, 1)
	d := rep.Disks[0]
	assert.Equal(t, "deskstar-7k500", d.Model)
	assert.EqualValues(t, 1000, d.IOs)
	assert.Greater(t, d.Utilization, 0.5)
	assert.LessOrEqual(t, d.Utilization, 1.0)
	assert.Equal(t, 70, rep.Workload.RWMixRead)
}

func TestExperimentReportsBSSplit(t *testing.T) {
	split, err := trace.ParseBSSplit("4k/70:64k/30")
	require.NoError(t, err)
	x := experiment(t, "deskstar-7k500", trace.Workload{RW: trace.RWRandRead, BS: 4096, BSSplit: split, IODepth: 1, NumIOs: 400})
	rep, err := x.Run()
	require.NoError(t, err)
	assert.Equal(t, "4KiB/70:64KiB/30", rep.Workload.BSSplit)
	assert.Zero(t, rep.Workload.BS, "bs is not what ran")
	mean := float64(rep.All.Bytes) / float64(rep.All.IOs)
	assert.InDelta(t, 0.7*4096+0.3*65536, mean, 3000, "mean request size follows the split")
}

func TestExperimentIsDeterministic(t *testing.T) {
	x := experiment(t, "travelstar-7k500", trace.Workload{RW: trace.RWRandWrite, BS: 4096, IODepth: 8, NumIOs: 500})
	render := func(x raidsim.Experiment) string {
		rep, err := x.Run()
		require.NoError(t, err)
		var b bytes.Buffer
		require.NoError(t, rep.WriteJSON(&b))
		return b.String()
	}
	a, b := render(x), render(x)
	x.Seed = 2
	c := render(x)
	assert.Equal(t, a, b)
	assert.NotEqual(t, a, c)
}

func TestExperimentReportsEveryProblem(t *testing.T) {
	x := experiment(t, "deskstar-7k500", trace.Workload{RW: trace.RWRandRead, BS: 3000, IODepth: 1, NumIOs: 10})
	x.Drive.RPM = 0
	_, err := x.Run()
	require.Error(t, err)
	assert.Contains(t, err.Error(), "RPM")

	x = experiment(t, "deskstar-7k500", trace.Workload{RW: trace.RWRandRead, BS: 3000, RWMixRead: 150, IODepth: 1, NumIOs: 10})
	_, err = x.Run()
	require.Error(t, err)
	msg := err.Error()
	assert.True(t, strings.Contains(msg, "BS") && strings.Contains(msg, "3000"), msg)
}

func TestExperimentOnRAID(t *testing.T) {
	x := experiment(t, "deskstar-7k160", trace.Workload{RW: trace.RWRandWrite, BS: 4096, IODepth: 8, NumIOs: 600})
	x.RAID = &raid.Config{Level: raid.RAID5}
	x.Disks = 5
	rep, err := x.Run()
	require.NoError(t, err)
	require.NotNil(t, rep.RAID)
	assert.Equal(t, "RAID 5", rep.RAID.Level)
	assert.Equal(t, 5, rep.RAID.Members)
	assert.EqualValues(t, 600, rep.RAID.RMWWrites, "5 members: every small write is read-modify-write")
	require.Len(t, rep.Disks, 5)
	var ios int64
	for _, d := range rep.Disks {
		ios += d.IOs
	}
	assert.EqualValues(t, 4*600, ios, "2 reads + 2 writes per small write")
}

func TestExperimentRejectsImpossibleStacks(t *testing.T) {
	x := experiment(t, "deskstar-7k160", trace.Workload{RW: trace.RWRandRead, NumIOs: 10})
	x.Disks = 3
	_, err := x.Run()
	require.ErrorContains(t, err, "need a RAID level")

	x.Disks = 0
	x.Failures = []raid.Failure{{Member: 0}}
	_, err = x.Run()
	require.ErrorContains(t, err, "needs a RAID array")

	x.Failures = nil
	x.RAID = &raid.Config{Level: raid.RAID5, StripeUnit: 1000}
	x.Disks = 2
	_, err = x.Run()
	require.Error(t, err)
	assert.Contains(t, err.Error(), "at least 3 members")
	assert.Contains(t, err.Error(), "1000")
}

// TestBuildStack: two stacks on one engine, told apart by their names.
func TestBuildStack(t *testing.T) {
	x := experiment(t, "deskstar-7k160", trace.Workload{})
	x.RAID, x.Disks = &raid.Config{Level: raid.RAID0}, 2
	eng := sim.NewEngine(1)
	a, err := x.BuildStack(eng, "a/")
	require.NoError(t, err)
	b, err := x.BuildStack(eng, "b/")
	require.NoError(t, err)
	require.Len(t, a.Drives, 2)
	assert.Equal(t, "a/disk1", a.Drives[1].Name())
	assert.Equal(t, "b/disk0", b.Drives[0].Name())
	assert.Equal(t, "a/array", a.Array.Name())
	assert.Same(t, a.Array, a.Top)
	assert.Nil(t, a.Cache)
	x.Disks = 300
	_, err = x.BuildStack(eng, "")
	assert.ErrorContains(t, err, "Disks: 300 is more than 256")
}
