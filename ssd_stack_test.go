package raidsim_test

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/raidsim/raidsim"
	"github.com/raidsim/raidsim/drive"
	"github.com/raidsim/raidsim/spec"
	"github.com/raidsim/raidsim/ssd"
)

// smallSSD is the X25-M's make-up at 4 GB, so steady-state
// preconditioning takes a fraction of a second.
func smallSSD(plp bool) *ssd.Params {
	p := ssd.IntelX25MG2()
	p.Capacity = 4e9
	p.PowerLossProtection = plp
	return &p
}

// TestSSDSingleReport: one SSD reports its flash figures in its disks[]
// entry, in JSON and in its own text table (no disk columns).
func TestSSDSingleReport(t *testing.T) {
	x := experiment("intel-x25m-g2", spec.Job{RW: "randwrite", BS: 4096, IODepth: 32, IOs: 5000, Size: 8 << 30})
	x.Stack.Drive.Precondition = "fill"
	rep := runOne(t, x)
	require.Len(t, rep.Disks, 1)
	s := ssdReport(t, rep.Disks[0])
	assert.Equal(t, "fill", s.Precondition)
	assert.GreaterOrEqual(t, s.WriteAmplification, 1.0)
	assert.InDelta(t, 8600, rep.Total.Write.IOPS, 0.15*8600, "the data sheet's random write rate")
	var js, txt bytes.Buffer
	require.NoError(t, rep.WriteJSON(&js))
	for _, k := range []string{`"kind": "ssd"`, `"write_amplification"`, `"gc_page_moves"`, `"erases"`, `"max_erase_count"`, `"free_blocks_min"`} {
		assert.Contains(t, js.String(), k)
	}
	assert.NotContains(t, js.String(), "slc_cache", "the X25-M has no pseudo-SLC cache")
	require.NoError(t, rep.WriteText(&txt))
	assert.Contains(t, txt.String(), "SSDs")
	assert.Contains(t, txt.String(), "write ampl.")
	assert.Contains(t, txt.String(), "die util.")
	for _, disk := range []string{"seeks", "mean seek cyl", "NCQ queue", "host queue", "\nDrives"} {
		assert.NotContains(t, txt.String(), disk, "an SSD row has no disk column")
	}
}

// TestSSDSteadyStateInStack: a steady-state SSD under random writes
// collects garbage: write amplification well above 1, erases, and writes
// slower than on the fresh drive.
func TestSSDSteadyStateInStack(t *testing.T) {
	var iops [2]float64
	for i, pc := range []string{"none", "steady"} {
		x := experiment("", spec.Job{RW: "randwrite", BS: 4096, IODepth: 32, IOs: 20000})
		x.Stack.Drive = spec.Drive{SSDModel: smallSSD(false), Precondition: pc}
		rep := runOne(t, x)
		iops[i] = rep.Total.Write.IOPS
		if pc == "steady" {
			s := ssdReport(t, rep.Disks[0])
			assert.Greater(t, s.WriteAmplification, 2.0)
			assert.Positive(t, s.Erases)
			assert.Positive(t, s.GCPageMoves)
			assert.Positive(t, s.GCSeconds)
		}
	}
	assert.Less(t, iops[1], 0.8*iops[0], "steady-state random writes fall below the fresh figure")
}

// TestSSDArraysAndCache: RAID 0 and RAID 5 of SSDs, with and without a
// volume cache, serve a mixed load with trims; each member reports its
// flash figures.
func TestSSDArraysAndCache(t *testing.T) {
	for _, level := range []string{"0", "5"} {
		for _, cached := range []bool{false, true} {
			x := experiment("", spec.Job{RW: "randrw", BS: 16 << 10, IODepth: 16, IOs: 3000})
			x.Stack.Drive = spec.Drive{SSDModel: smallSSD(false)}
			x.Stack.RAID = &spec.RAID{Level: level, StripeUnit: 128 << 10}
			if cached {
				x.Stack.Cache = &spec.Cache{Size: 64 << 20}
			}
			x.Phases = append(x.Phases, spec.Phase{Job: spec.Job{RW: "randtrim", BS: 1 << 20, IODepth: 4, IOs: 50}})
			rep := runOne(t, x)
			assert.Zero(t, rep.Total.FailedRequests)
			require.NotNil(t, rep.Phases[1].Trim, "the trim phase reports its trims")
			assert.Equal(t, int64(50), rep.Phases[1].Trim.IOs)
			require.NotEmpty(t, rep.Disks)
			for _, d := range rep.Disks {
				s := ssdReport(t, d)
				assert.Positive(t, s.IOs, s.Name)
				if !cached { // else the cache holds every write, and reads of unwritten data touch no flash
					assert.Positive(t, s.DieUtilization, s.Name)
				}
			}
		}
	}
}

// TestSSDPowerLoss: the power-loss view counts an SSD's volatile write
// buffer mid-run, and nothing with power-loss protection.
func TestSSDPowerLoss(t *testing.T) {
	for _, plp := range []bool{false, true} {
		x := experiment("", spec.Job{RW: "randwrite", BS: 4096, IODepth: 32, IOs: 20000})
		x.Stack.Drive = spec.Drive{SSDModel: smallSSD(plp)}
		x.PowerLossAt = new(spec.Duration(100 * time.Millisecond))
		pl := runOne(t, x).PowerLoss
		require.NotNil(t, pl)
		require.Len(t, pl.DriveCacheBytes, 1)
		if plp {
			assert.Zero(t, pl.LostBytes, "capacitors program the buffer")
		} else {
			assert.Positive(t, pl.DriveCacheBytes[0], "random writes keep the buffer full")
			assert.LessOrEqual(t, pl.DriveCacheBytes[0], smallSSD(false).WriteBuffer)
		}
	}
}

// TestSSDSpecErrors: disk keys on an SSD and preconditioning a disk are
// errors naming the key.
func TestSSDSpecErrors(t *testing.T) {
	x := experiment("intel-x25m-g2", spec.Job{RW: "randread", IOs: 10})
	x.Stack.Drive.Scheduler = "fcfs"
	x.Stack.Drive.Precondition = "sideways"
	_, err := raidsim.Run(x)
	require.Error(t, err)
	for _, want := range []string{"stack.drive.scheduler", "stack.drive.precondition"} {
		assert.True(t, strings.Contains(err.Error(), want), "%v lacks %s", err, want)
	}
	x = experiment("deskstar-7k500", spec.Job{RW: "randread", IOs: 10})
	x.Stack.Drive.Precondition = "steady"
	_, err = raidsim.Run(x)
	require.ErrorContains(t, err, "only SSDs are preconditioned")
}

// TestSSDArrayPreconditionedOnce: every member of an array of SSDs is
// in the state asked for (the first preconditioned, the others given its
// state).
func TestSSDArrayPreconditionedOnce(t *testing.T) {
	x := experiment("", spec.Job{RW: "randwrite", BS: 4096, IODepth: 16, IOs: 2000})
	x.Stack.Drive = spec.Drive{SSDModel: smallSSD(false), Precondition: "steady"}
	x.Stack.RAID = &spec.RAID{Level: "0", StripeUnit: 128 << 10}
	rep := runOne(t, x)
	require.Len(t, rep.Disks, 2)
	for _, d := range rep.Disks {
		s := ssdReport(t, d)
		assert.Equal(t, "steady", s.Precondition, s.Name)
		assert.Positive(t, s.MaxEraseCount, "%s: worn by preconditioning", s.Name)
	}
}

// ssdReport returns d as an SSD's report, or fails the test.
func ssdReport(t *testing.T, d drive.Report) *ssd.Report {
	t.Helper()
	s, ok := d.(*ssd.Report)
	require.True(t, ok, "%s is a %s, not an SSD", d.Common().Name, d.Common().Kind)
	return s
}
