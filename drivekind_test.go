package raidsim_test

import (
	"bytes"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/raidsim/raidsim/drive"
	"github.com/raidsim/raidsim/sim"
	"github.com/raidsim/raidsim/simtest"
	"github.com/raidsim/raidsim/spec"
)

// ramModel is a kind of drive written for this test alone: a RAM disk
// with a fixed latency, built on simtest.MemDevice.
type ramModel struct{ latency time.Duration }

func (m *ramModel) Kind() string      { return "ram" }
func (m *ramModel) Name() string      { return "ramdisk-1g" }
func (m *ramModel) Capacity() int64   { return 1 << 30 }
func (m *ramModel) SectorSize() int   { return 512 }
func (m *ramModel) latencyMS() string { return fmt.Sprint(m.latency.Seconds() * 1000) }

func (m *ramModel) NewDevice(eng *sim.Engine, name string, _ *sim.Observer) (drive.Device, error) {
	mem, err := simtest.NewMemDevice(eng, simtest.MemConfig{Capacity: m.Capacity(), SectorSize: 512,
		ReadLatency: m.latency, WriteLatency: m.latency})
	if err != nil {
		return nil, err
	}
	return &ramDrive{MemDevice: mem, name: name, model: m}, nil
}

func (m *ramModel) Datasheet() (drive.Datasheet, error) { return ramSheet{m.Name()}, nil }

type ramSheet struct {
	Name string `json:"name"`
}

func (s ramSheet) Row() drive.Row {
	return drive.Row{Table: drive.Table{Title: "RAM disks", Header: []string{"preset"}}, Cells: []drive.Cell{drive.Text(s.Name)}}
}

type ramDrive struct {
	*simtest.MemDevice
	name  string
	model *ramModel
}

func (d *ramDrive) Name() string      { return d.name }
func (d *ramDrive) DirtyBytes() int64 { return 0 }
func (d *ramDrive) Report() drive.Report {
	st := d.Stats()
	return &ramReport{Name: d.name, Kind: "ram", IOs: st.Reads + st.Writes + st.Flushes, LatencyMS: d.model.latencyMS()}
}

// ramReport is the RAM disk's report section.
type ramReport struct {
	Name      string `json:"name"`
	Kind      string `json:"kind"`
	IOs       int64  `json:"ios"`
	LatencyMS string `json:"latency_ms"`
}

func (r *ramReport) Common() drive.Common {
	return drive.Common{Name: r.Name, Kind: r.Kind, Model: "ramdisk-1g", Settings: "battery-backed", IOs: r.IOs}
}

func (r *ramReport) Row() drive.Row {
	return drive.Row{Table: drive.Table{Title: "\nRAM disks", Header: []string{"ram", "IOs"}},
		Cells: []drive.Cell{drive.Text(r.Name), drive.Int(r.IOs)}}
}

func (r *ramReport) PowerLossWhy(int64) string { return "none: battery-backed" }

// TestNewDriveKind: a kind of drive the module has never seen, given as
// spec.Drive.Custom, is built into an array, run, and reported in JSON,
// text and the power-loss view, with no change anywhere else.
func TestNewDriveKind(t *testing.T) {
	x := experiment("", spec.Job{RW: "randwrite", BS: 4096, IODepth: 4, IOs: 200})
	x.Stack.Drive = spec.Drive{Custom: &ramModel{latency: 100 * time.Microsecond}}
	x.Stack.RAID, x.Stack.Disks = &spec.RAID{Level: "1"}, 2
	at := spec.Duration(time.Millisecond)
	x.PowerLossAt = &at
	rep := runOne(t, x)
	assert.InDelta(t, 0.1, rep.Total.Write.LatencyMS.Mean, 1e-9, "the kind's own latency")
	require.Len(t, rep.Disks, 2)
	assert.EqualValues(t, 200, rep.Disks[1].Common().IOs, "RAID 1 writes both copies")
	js := jsonOf(t, rep)
	assert.Contains(t, js, `"kind": "ram"`)
	assert.Contains(t, js, `"latency_ms": "0.1"`)
	var txt bytes.Buffer
	require.NoError(t, rep.WriteText(&txt))
	assert.Contains(t, txt.String(), "RAID 1 over 2 x ramdisk-1g, stripe unit 64KiB (battery-backed)")
	assert.Contains(t, txt.String(), "\nRAM disks\nram")
	assert.Contains(t, txt.String(), "none: battery-backed")

	x.Stack.Drive.Scheduler = "fcfs"
	_, err := x.Plan()
	assert.ErrorContains(t, err, "stack.drive.scheduler: is not a setting of ram drives")
}
