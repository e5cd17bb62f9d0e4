package smr

import (
	"fmt"

	"github.com/raidsim/raidsim/disk"
	"github.com/raidsim/raidsim/drive"
	"github.com/raidsim/raidsim/sim"
)

// KindName is the kind name of these drives: SMR drives and the CMR
// drives they are compared with.
const KindName = "smr"

// Kind is the SMR drives' kind (with their CMR siblings): its presets
// and their models.
var Kind = drive.NewKind(KindName, PresetNames, Preset, NewModel)

// Model is checked Params and the checked platter model under them.
type Model struct {
	p       Params
	platter *disk.Model
}

// NewModel validates p and derives its platter (disk.Spec.Derive of
// Params.Platter sized to PlatterCapacity), reporting every problem.
func NewModel(p Params) (*Model, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	s := p.platterSpec()
	if p.Recording == CMR {
		s.Name = p.Name
	}
	dp, err := s.Derive()
	if err != nil {
		return nil, fmt.Errorf("smr: %s: platter: %w", p.Name, err)
	}
	dm, err := disk.NewModel(dp)
	if err != nil {
		return nil, fmt.Errorf("smr: %s: platter: %w", p.Name, err)
	}
	if dm.Capacity() < p.PlatterCapacity() {
		return nil, fmt.Errorf("smr: %s: the platter holds %d bytes, the layout needs %d", p.Name, dm.Capacity(), p.PlatterCapacity())
	}
	return &Model{p: p, platter: dm}, nil
}

// Kind returns "smr".
func (m *Model) Kind() string { return KindName }

// Name returns the model's name.
func (m *Model) Name() string { return m.p.Name }

// Capacity returns the host-visible size in bytes.
func (m *Model) Capacity() int64 { return m.p.Capacity }

// SectorSize returns the sector size in bytes.
func (m *Model) SectorSize() int { return m.platter.SectorSize() }

// Params returns the model's parameters.
func (m *Model) Params() Params { return m.p }

// Platter returns the model of the platter under the translation layer.
func (m *Model) Platter() *disk.Model { return m.platter }

// NewDevice builds one drive: a CMR model's is its platter (a
// *disk.Drive); an SMR model's a *Drive over its platter, empty (every
// band's write pointer at its start, as a new drive ships).
func (m *Model) NewDevice(eng *sim.Engine, name string, obs *sim.Observer) (drive.Device, error) {
	if m.p.Recording == CMR {
		return m.platter.NewDrive(eng, name, obs)
	}
	return m.NewDrive(eng, name, obs)
}

// NewDrive builds an SMR drive (an error for a CMR model). obs sees the
// platter's requests, under the name name+"/platter".
func (m *Model) NewDrive(eng *sim.Engine, name string, obs *sim.Observer) (*Drive, error) {
	if m.p.Recording != SMR {
		return nil, fmt.Errorf("smr: %s is a CMR model: build it with NewDevice", m.p.Name)
	}
	media, err := m.platter.NewDrive(eng, name+"/platter", obs)
	if err != nil {
		return nil, err
	}
	return newDrive(eng, m.p, media, name), nil
}

// Datasheet is a model's headline figures for `raidsim drives`: the
// platter's, with the recording and the translation layer's sizes.
type Datasheet struct {
	Name      string `json:"name"`
	Kind      string `json:"kind"`
	Recording string `json:"recording"`
	// CapacityBytes is the host-visible size.
	CapacityBytes int64 `json:"capacity_bytes"`
	// RPM is the spindle speed; OuterSustainedMBps and
	// InnerSustainedMBps the platter's whole-cylinder media rates in
	// MB/s (10^6 bytes/s); AverageSeekMS the mean seek; BufferBytes the
	// DRAM buffer.
	RPM                int     `json:"rpm"`
	OuterSustainedMBps float64 `json:"outer_sustained_mb_per_s"`
	InnerSustainedMBps float64 `json:"inner_sustained_mb_per_s"`
	AverageSeekMS      float64 `json:"average_seek_ms"`
	BufferBytes        int64   `json:"buffer_bytes"`
	// MediaCacheBytes, BandBytes, Bands and MediaCacheExtents are the
	// SMR layout (zero for CMR); CleanIdleDelayS the idle time before
	// cleaning starts, in seconds.
	MediaCacheBytes   int64   `json:"media_cache_bytes"`
	BandBytes         int64   `json:"band_bytes"`
	Bands             int64   `json:"bands"`
	MediaCacheExtents int     `json:"media_cache_extents"`
	CleanIdleDelayS   float64 `json:"clean_idle_delay_s"`
}

// Datasheet derives the model's figures.
func (m *Model) Datasheet() (drive.Datasheet, error) {
	f, err := disk.ComputeFigures(m.platter.Params())
	if err != nil {
		return nil, err
	}
	return &Datasheet{Name: m.p.Name, Kind: KindName, Recording: m.p.Recording.String(), CapacityBytes: m.p.Capacity,
		RPM: f.RPM, OuterSustainedMBps: f.OuterSustained / 1e6, InnerSustainedMBps: f.InnerSustained / 1e6,
		AverageSeekMS: f.AverageSeek.Seconds() * 1e3, BufferBytes: f.BufferSize,
		MediaCacheBytes: m.p.MediaCacheBytes, BandBytes: m.p.BandBytes, Bands: m.p.Bands(),
		MediaCacheExtents: m.p.MediaCacheExtents, CleanIdleDelayS: m.p.CleanIdleDelay.Seconds()}, nil
}

var datasheetTable = drive.Table{
	Title: "Drive presets by recording: drive-managed SMR and CMR (MB/s = 10^6 bytes/s)",
	Header: []string{"preset", "recording", "capacity GB", "rpm", "outer sust.", "inner sust.", "avg seek ms",
		"buffer MiB", "media cache GiB", "band MiB", "map extents", "clean after s"},
	Notes: []string{
		"media cache: conventional tracks at the outer diameter absorbing writes as a log; band: the unit an SMR drive rewrites.",
		"map extents: the most LBA ranges the indirection map holds; clean after: the idle time before the drive cleans bands.",
	},
}

// Row is the model's row of the recording presets' table.
func (f *Datasheet) Row() drive.Row {
	row := drive.Row{Table: datasheetTable, Cells: []drive.Cell{
		drive.Text(f.Name), drive.Text(f.Recording), drive.Fixed(float64(f.CapacityBytes)/1e9, 1), drive.Int(int64(f.RPM)),
		drive.Fixed(f.OuterSustainedMBps, 1), drive.Fixed(f.InnerSustainedMBps, 1), drive.Fixed(f.AverageSeekMS, 2),
		drive.Fixed(float64(f.BufferBytes)/(1<<20), 0),
	}}
	if f.Recording != SMR.String() {
		row.Cells = append(row.Cells, drive.Text("-"), drive.Text("-"), drive.Text("-"), drive.Text("-"))
		return row
	}
	row.Cells = append(row.Cells, drive.Fixed(float64(f.MediaCacheBytes)/(1<<30), 1),
		drive.Fixed(float64(f.BandBytes)/(1<<20), 1), drive.Int(int64(f.MediaCacheExtents)), drive.Fixed(f.CleanIdleDelayS, 1))
	return row
}

var _ drive.Model = (*Model)(nil)
