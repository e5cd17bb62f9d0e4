package raidsim_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/raidsim/raidsim"
	"github.com/raidsim/raidsim/disk"
	"github.com/raidsim/raidsim/host"
	"github.com/raidsim/raidsim/sim"
	"github.com/raidsim/raidsim/spec"
)

// TestHostRebuildDriverCostOnce: with a host and a planned rebuild,
// every drive command, the spare's included, pays the host's driver
// cost once: the driver's core time is CommandCost per command plus
// DriverPerKiB per KiB moved, over every drive. (The spare was wrapped
// in the driver twice and paid it twice.)
func TestHostRebuildDriverCostOnce(t *testing.T) {
	x := &spec.Experiment{Seed: 1,
		Stack: spec.Stack{
			Drive: spec.Drive{Preset: "deskstar-7k160", Spec: &spec.DriveSpec{Capacity: 64 << 20}},
			Disks: 2, RAID: &spec.RAID{Level: "1"}, Host: spec.Host{Preset: "server"},
			Failures: []spec.Failure{{Member: 0}}, Rebuild: &spec.Rebuild{Member: 0},
		},
		Phases: []spec.Phase{{Job: spec.Job{RW: "randrw", BS: 4096, IODepth: 4, IOs: 400}}},
	}
	pl, err := x.Plan()
	require.NoError(t, err)
	eng := sim.NewEngine(pl.Seed)
	s, err := raidsim.Build(eng, pl, "", nil)
	require.NoError(t, err)
	_, err = raidsim.RunPhase(eng, s, pl, &pl.Phases[0])
	require.NoError(t, err)
	eng.Run() // the rebuild and the write-back, to their end
	require.NoError(t, s.RebuildErr())
	rb := s.Array.Stats().Rebuild
	require.True(t, rb.Done, "the 64 MiB member is rebuilt")

	require.Len(t, s.Drives, 3, "two members and the spare")
	var cmds, kib int64
	for i, d := range s.Drives {
		st := d.(*disk.Drive).Stats()
		n := st.Reads + st.Writes + st.Flushes
		if i > 0 {
			require.Positive(t, n, "drive %d served commands", i)
		}
		require.Zero(t, (st.ReadBytes+st.WriteBytes)%1024, "whole KiB moved")
		cmds, kib = cmds+n, kib+(st.ReadBytes+st.WriteBytes)/1024
	}
	p := s.Host.Params()
	want := time.Duration(cmds)*p.CommandCost + time.Duration(kib)*p.DriverPerKiB
	assert.Equal(t, want, s.Host.Stats().CPU[host.KindDriver], "%d commands, %d KiB", cmds, kib)
}
