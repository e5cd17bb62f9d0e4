package main

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/raidsim/raidsim"
	"github.com/raidsim/raidsim/spec"
	"github.com/raidsim/raidsim/ssd"
)

// TestMQSimDeviceA: examples/configs/mqsim-device-a.yaml, MQSim's
// X25-M-class device written key by key, plans the device MQSim
// describes (10 channels x 4 chips x 1 die x 2 planes x 4096 blocks x 128
// pages x 4 KiB: 160 GiB of flash, 7% of it spare) and runs through the
// CLI (fewer requests here, and no preconditioning, for time).
func TestMQSimDeviceA(t *testing.T) {
	const file = "../../examples/configs/mqsim-device-a.yaml"
	x, err := spec.Load(file)
	require.NoError(t, err)
	pl, err := x.Plan()
	require.NoError(t, err)
	m, ok := pl.Drive.(*ssd.Model)
	require.True(t, ok, "an SSD")
	p := m.Params()
	assert.Equal(t, []int{10, 4, 1, 2, 128, 4096}, []int{p.Channels, p.WaysPerChannel, p.DiesPerChip, p.PlanesPerDie, p.PagesPerBlock, p.PageSize})
	flash := 10.0 * 4 * 1 * 2 * 4096 * 128 * 4096
	assert.InDelta(t, 0.93*flash, float64(p.Capacity), 4096, "MQSim's logical space: the flash less 7%")
	assert.InDelta(t, flash, float64(p.Capacity)*(1+p.OverProvisioning), 4096*1.1, "the same flash")
	assert.Equal(t, ssd.Greedy, p.GC)
	assert.Equal(t, []string{"50µs", "900µs", "3.5ms"}, []string{p.ReadTime.String(), p.ProgramTime.String(), p.EraseTime.String()})
	assert.Equal(t, ssd.SATA, p.Interface)

	code, out, errOut := runCLI(t, "run", "--config", file, "--precondition", "none",
		"--set", "phases[0].ios=200", "--set", "phases[1].ios=200")
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "drive mqsim-device-a (SATA")
	assert.Contains(t, out, "== Phase 2: random 4 KiB write, QD32")
}

// TestOverProvisioningInAConfig: a config file sets an SSD's
// over-provisioning (stack.drive.ssd.over_provisioning) on top of a
// preset, and the steady-state write amplification of random writes
// follows the analytic model of greedy garbage collection
// (ssd.GreedyWriteAmplification, Desnoyers 2012): within 10% at 7% and
// 28% spare, and less than half at 28% what it is at 7%.
func TestOverProvisioningInAConfig(t *testing.T) {
	dir := t.TempDir()
	was := map[float64]float64{}
	for _, op := range []float64{0.07, 0.28} {
		file := filepath.Join(dir, fmt.Sprintf("op%.0f.yaml", op*100))
		require.NoError(t, os.WriteFile(file, []byte(fmt.Sprintf(`
stack:
  drive:
    preset: intel-x25m-g2
    precondition: steady      # random overwrites until write amplification settles
    ssd:                      # a 2 GB slice of the X25-M on one die, so a test runs it in a second
      capacity: 2GB
      channels: 1
      ways_per_channel: 1
      dies_per_chip: 1
      over_provisioning: %g
phases:
  - {rw: randwrite, bs: 4KiB, iodepth: 8, ios: 40000}
`, op)), 0o644))
		x, err := spec.Load(file)
		require.NoError(t, err)
		rep, err := raidsim.Run(x)
		require.NoError(t, err)
		r, ok := rep.Disks[0].(*ssd.Report)
		require.True(t, ok)
		want := ssd.GreedyWriteAmplification(1 + op)
		t.Logf("over-provisioning %.0f%%: write amplification %.3f, model %.3f (%+.1f%%)", op*100, r.WriteAmplification, want, 100*(r.WriteAmplification/want-1))
		assert.InDelta(t, 1, r.WriteAmplification/want, 0.10, "over-provisioning %g", op)
		was[op] = r.WriteAmplification
	}
	assert.Less(t, was[0.28], was[0.07]/2, "more spare flash, far less garbage collection")
}
