package raidsim_test

import (
	"bytes"
	"testing"

	"github.com/raidsim/raidsim"
	"github.com/raidsim/raidsim/disk"
	"github.com/raidsim/raidsim/sim"
	"github.com/raidsim/raidsim/spec"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// experiment returns a one-phase experiment, seed 1: job on one drive
// of preset.
func experiment(preset string, job spec.Job) *spec.Experiment {
	return &spec.Experiment{
		Seed:   1,
		Stack:  spec.Stack{Drive: spec.Drive{Preset: preset}},
		Phases: []spec.Phase{{Job: job}},
	}
}

// runOne runs x, which must succeed, and returns its report.
func runOne(t *testing.T, x *spec.Experiment) *raidsim.Report {
	t.Helper()
	rep, err := raidsim.Run(x)
	require.NoError(t, err)
	return rep
}

// percent returns a pointer to p, for spec.Job.RWMixRead.
func percent(p int) *int { return &p }

func TestExperimentReportAddsUp(t *testing.T) {
	x := experiment("deskstar-7k500", spec.Job{RW: "randrw", RWMixRead: percent(70), BS: 8192, IODepth: 4, IOs: 1000})
	rep := runOne(t, x)
	all := rep.Total
	assert.EqualValues(t, 1000, all.All.IOs)
	assert.Equal(t, all.All.IOs, all.Read.IOs+all.Write.IOs)
	assert.EqualValues(t, 1000*8192, all.All.Bytes)
	assert.InDelta(t, 0.7, float64(all.Read.IOs)/1000, 0.05, "rwmixread 70")
	assert.InDelta(t, float64(all.All.IOs)/all.SimSeconds, all.All.IOPS, all.All.IOPS*1e-9)
	require.Len(t, rep.Disks, 1)
	d := rep.Disks[0].Common()
	assert.Equal(t, "deskstar-7k500", d.Model)
	assert.EqualValues(t, 1000, d.IOs)
	assert.Greater(t, d.UtilizationRatio, 0.5)
	assert.LessOrEqual(t, d.UtilizationRatio, 1.0)
	assert.Equal(t, 70, rep.Phases[0].Workload.RWMixRead)
}

func TestExperimentReportsBSSplit(t *testing.T) {
	x := experiment("deskstar-7k500", spec.Job{RW: "randread", BSSplit: "4k/70:64k/30", IODepth: 1, IOs: 400})
	rep := runOne(t, x)
	w := rep.Phases[0].Workload
	assert.Equal(t, "4KiB/70:64KiB/30", w.BSSplit)
	assert.Zero(t, w.BS, "bs is not what ran")
	mean := float64(rep.Total.All.Bytes) / float64(rep.Total.All.IOs)
	assert.InDelta(t, 0.7*4096+0.3*65536, mean, 3000, "mean request size follows the split")
}

func TestExperimentIsDeterministic(t *testing.T) {
	x := experiment("travelstar-7k500", spec.Job{RW: "randwrite", BS: 4096, IODepth: 8, IOs: 500})
	render := func(x *spec.Experiment) string {
		var b bytes.Buffer
		require.NoError(t, runOne(t, x).WriteJSON(&b))
		return b.String()
	}
	a, b := render(x), render(x)
	x.Seed = 2
	c := render(x)
	assert.Equal(t, a, b)
	assert.NotEqual(t, a, c)
}

func TestExperimentReportsEveryProblem(t *testing.T) {
	p, err := disk.Preset("deskstar-7k500")
	require.NoError(t, err)
	p.RPM = 0
	x := experiment("", spec.Job{RW: "randread", BS: 3000, IODepth: 1, IOs: 10})
	x.Stack.Drive.Model = &p
	_, err = raidsim.Run(x)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "RPM")

	x = experiment("deskstar-7k500", spec.Job{RW: "randread", BS: 3000, RWMixRead: percent(150), IODepth: 1, IOs: 10})
	_, err = raidsim.Run(x)
	require.Error(t, err)
	msg := err.Error()
	assert.Contains(t, msg, "phases[0].bs: 3000")
	assert.Contains(t, msg, "phases[0].rwmixread: 150")
}

func TestExperimentOnRAID(t *testing.T) {
	x := experiment("deskstar-7k160", spec.Job{RW: "randwrite", BS: 4096, IODepth: 8, IOs: 600})
	x.Stack.RAID = &spec.RAID{Level: "5"}
	x.Stack.Disks = 5
	rep := runOne(t, x)
	require.NotNil(t, rep.RAID)
	assert.Equal(t, "RAID 5", rep.RAID.Level)
	assert.Equal(t, 5, rep.RAID.Members)
	assert.EqualValues(t, 600, rep.RAID.RMWWrites, "5 members: every small write is read-modify-write")
	require.Len(t, rep.Disks, 5)
	var ios int64
	for _, d := range rep.Disks {
		ios += d.Common().IOs
	}
	assert.EqualValues(t, 4*600, ios, "2 reads + 2 writes per small write")
}

func TestExperimentRejectsImpossibleStacks(t *testing.T) {
	x := experiment("deskstar-7k160", spec.Job{RW: "randread", IOs: 10})
	x.Stack.Disks = 3
	_, err := raidsim.Run(x)
	require.ErrorContains(t, err, "need a RAID level")

	x.Stack.Disks = 0
	x.Stack.Failures = []spec.Failure{{Member: 0}}
	_, err = raidsim.Run(x)
	require.ErrorContains(t, err, "needs an array")

	x.Stack.Failures = nil
	x.Stack.RAID = &spec.RAID{Level: "5", StripeUnit: 1000}
	x.Stack.Disks = 2
	_, err = raidsim.Run(x)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "at least 3 drives")
	assert.Contains(t, err.Error(), "1000")
}

// TestNewStack: two stacks on one engine, told apart by their names.
func TestNewStack(t *testing.T) {
	st := spec.Stack{Drive: spec.Drive{Preset: "deskstar-7k160"}, Disks: 2, RAID: &spec.RAID{Level: "0"}}
	eng := sim.NewEngine(1)
	a, err := raidsim.NewStack(eng, st, "a/", nil)
	require.NoError(t, err)
	b, err := raidsim.NewStack(eng, st, "b/", nil)
	require.NoError(t, err)
	require.Len(t, a.Drives, 2)
	assert.Equal(t, "a/disk1", a.Drives[1].Name())
	assert.Equal(t, "b/disk0", b.Drives[0].Name())
	assert.Equal(t, "a/array", a.Array.Name())
	assert.Same(t, a.Array, a.Top)
	assert.Nil(t, a.Cache)
	st.Disks = 300
	_, err = raidsim.NewStack(eng, st, "", nil)
	assert.ErrorContains(t, err, "stack.disks: 300 is outside 0..256")
}

// TestExperimentRampUp: a phase's ramp-up requests are left out of its
// figures (IOMeter's ramp-up, as the scenario examples use it), and a
// ramp-up that leaves nothing to measure is an error.
func TestExperimentRampUp(t *testing.T) {
	x := experiment("deskstar-7k160", spec.Job{RW: "randwrite", BS: 4096, IOs: 1000})
	all := runOne(t, x).Phases[0]
	x.Phases[0].RampIOs = 400
	after := runOne(t, x).Phases[0]
	assert.EqualValues(t, 1000, all.All.IOs, "IOs counted without ramp-up")
	assert.EqualValues(t, 600, after.All.IOs, "IOs counted after a ramp-up of 400")
	// The drive's write cache absorbs the first writes at bus speed, so
	// leaving them out lowers the rate.
	assert.Less(t, after.All.IOPS, all.All.IOPS, "IOPS after the ramp-up against over all")
	x.Phases[0].RampIOs = 1000
	_, err := raidsim.Run(x)
	assert.ErrorContains(t, err, "phases[0].ramp_ios: 1000 leaves none")
}
