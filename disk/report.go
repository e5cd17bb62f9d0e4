package disk

import (
	"fmt"
	"time"

	"github.com/raidsim/raidsim/drive"
	"github.com/raidsim/raidsim/sim"
)

// Report is a drive's section of a run's report: its settings and its
// statistics, with the JSON names the raidsim report uses.
type Report struct {
	// Name is the drive's name in the stack ("disk0"); Kind is "disk";
	// Model the drive model (Params.Name).
	Name  string `json:"name"`
	Kind  string `json:"kind"`
	Model string `json:"model"`
	// WriteCache reports whether the drive's write cache was on.
	WriteCache bool `json:"write_cache"`
	// Scheduler is the drive's queue scheduler.
	Scheduler string `json:"scheduler"`
	// QueueDepth is the drive's tagged queue depth.
	QueueDepth int `json:"queue_depth"`
	// IOs counts the requests the drive completed, flushes included.
	IOs int64 `json:"ios"`
	// Utilization is the fraction of the run the drive was busy, 0..1.
	Utilization float64 `json:"utilization_ratio"`
	// Seeks counts arm movements and MeanSeekCylinders their mean distance in
	// cylinders.
	Seeks             int64   `json:"seeks"`
	MeanSeekCylinders float64 `json:"mean_seek_cylinders"`
	// BufferReadHits counts reads served from the drive's buffer.
	BufferReadHits int64 `json:"buffer_read_hits"`
	// WriteCacheHits counts writes acknowledged from the write cache.
	WriteCacheHits int64 `json:"write_cache_hits"`
	// Destages counts background writes of cached data to the platters.
	Destages int64 `json:"destages"`
	// DirtyPeakBytes is the most acknowledged-but-unwritten data held at
	// once.
	DirtyPeakBytes int64 `json:"dirty_peak_bytes"`
	// MeanTaggedQueue is the time-weighted mean number of commands in the
	// drive's tagged queue (NCQ), at most QueueDepth.
	MeanTaggedQueue float64 `json:"mean_tagged_queue"`
	// MeanHostQueue is the time-weighted mean number of requests waiting
	// in the host's queue for a free tag.
	MeanHostQueue float64 `json:"mean_host_queue"`
	// DirtyAtEndBytes is the data acknowledged to the host but only in
	// the drive's volatile cache when the report was made: what a power
	// failure at that instant would lose.
	DirtyAtEndBytes int64 `json:"dirty_at_end_bytes"`
}

// Report returns the drive's section of a run's report, from its
// statistics so far.
func (d *Drive) Report() drive.Report {
	st := d.Stats()
	return &Report{
		Name: d.name, Kind: KindName, Model: d.p.Name, WriteCache: d.p.WriteCache,
		Scheduler: d.p.Scheduler.String(), QueueDepth: d.p.QueueDepth,
		IOs:         st.Reads + st.Writes + st.Flushes,
		Utilization: st.Utilization, Seeks: st.Seeks, MeanSeekCylinders: st.MeanSeekDistance,
		BufferReadHits: st.ReadHits, WriteCacheHits: st.WriteCacheHits, Destages: st.Destages,
		DirtyPeakBytes: st.DirtyBytesPeak, MeanTaggedQueue: st.MeanTaggedQueue, MeanHostQueue: st.MeanHostQueue,
		DirtyAtEndBytes: st.DirtyBytes,
	}
}

// Common returns the figures every kind of drive reports.
func (r *Report) Common() drive.Common {
	wc := map[bool]string{true: "on", false: "off"}[r.WriteCache]
	return drive.Common{
		Name: r.Name, Kind: KindName, Model: r.Model,
		Settings:   fmt.Sprintf("drive write cache %s, %s, NCQ depth %d", wc, r.Scheduler, r.QueueDepth),
		WriteCache: r.WriteCache, QueueDepth: r.QueueDepth, IOs: r.IOs,
		UtilizationRatio: r.Utilization, DirtyAtEndBytes: r.DirtyAtEndBytes,
	}
}

// reportTable is the head of the disks' text table.
var reportTable = drive.Table{
	Title: "\nDrives",
	Header: []string{"disk", "IOs", "utilization", "seeks", "mean seek cyl", "buffer hits", "cached writes",
		"destages", "NCQ queue", "host queue", "dirty at end KiB"},
}

// Row is the drive's row of the disks' text table.
func (r *Report) Row() drive.Row {
	return drive.Row{Table: reportTable, Cells: []drive.Cell{
		drive.Text(r.Name), drive.Int(r.IOs), drive.Fixed(r.Utilization, 3), drive.Int(r.Seeks),
		drive.Fixed(r.MeanSeekCylinders, 0), drive.Int(r.BufferReadHits), drive.Int(r.WriteCacheHits),
		drive.Int(r.Destages), drive.Fixed(r.MeanTaggedQueue, 2), drive.Fixed(r.MeanHostQueue, 2),
		drive.KiB(r.DirtyAtEndBytes),
	}}
}

// PowerLossWhy says why a power failure would lose lost bytes of the
// drive's data, or why none.
func (r *Report) PowerLossWhy(lost int64) string {
	switch {
	case !r.WriteCache:
		return "none: write cache off, a write is reported done only once on stable media"
	case lost == 0:
		return "none: its write cache had written everything to stable media"
	}
	return "the drive reported the write done from its write cache; not yet on the platters"
}

// KindName is the disks' kind name.
const KindName = "disk"

// Kind is the hard disks' kind: its presets and their models.
var Kind = drive.NewKind(KindName, PresetNames, Preset, NewModel)

// Kind returns "disk".
func (m *Model) Kind() string { return KindName }

// Name returns the model's name (Params.Name).
func (m *Model) Name() string { return m.p.Name }

// NewDevice is NewDrive, for code that builds any kind of drive.
func (m *Model) NewDevice(eng *sim.Engine, name string, obs *sim.Observer) (drive.Device, error) {
	return m.NewDrive(eng, name, obs)
}

// Datasheet is a disk model's headline figures in the units a data sheet
// gives them (ms, MB/s of 10^6 bytes), derived from its parameters by
// the model: the JSON and the row `raidsim drives` prints.
type Datasheet struct {
	// Name is the model's name; Kind is "disk".
	Name string `json:"name"`
	Kind string `json:"kind"`
	// CapacityBytes is the addressable size.
	CapacityBytes int64 `json:"capacity_bytes"`
	// RPM is the spindle speed; Surfaces, Cylinders and Zones the
	// geometry.
	RPM       int `json:"rpm"`
	Surfaces  int `json:"surfaces"`
	Cylinders int `json:"cylinders"`
	Zones     int `json:"zones"`
	// MeanRotationalLatencyMS is half a revolution, AverageSeekMS the
	// seek curve's mean over random cylinder pairs, RandomAccess4KMS a
	// random 4 KiB read at queue depth 1, all in ms.
	MeanRotationalLatencyMS float64 `json:"mean_rotational_latency_ms"`
	AverageSeekMS           float64 `json:"average_seek_ms"`
	RandomAccess4KMS        float64 `json:"random_4k_access_ms"`
	// OuterMediaMBps and InnerMediaMBps are one track's media rate in
	// the outer and inner zones, the Sustained ones whole cylinders with
	// their head and cylinder switches, InterfaceMBps the bus: MB/s.
	OuterMediaMBps     float64 `json:"outer_media_mb_per_s"`
	InnerMediaMBps     float64 `json:"inner_media_mb_per_s"`
	OuterSustainedMBps float64 `json:"outer_sustained_mb_per_s"`
	InnerSustainedMBps float64 `json:"inner_sustained_mb_per_s"`
	InterfaceMBps      float64 `json:"interface_mb_per_s"`
	// BufferBytes is the drive's buffer.
	BufferBytes int64 `json:"buffer_bytes"`
}

// Datasheet derives the model's Datasheet (see ComputeFigures).
func (m *Model) Datasheet() (drive.Datasheet, error) {
	f, err := ComputeFigures(m.p)
	if err != nil {
		return nil, err
	}
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
	return &Datasheet{
		Name: m.p.Name, Kind: KindName, CapacityBytes: f.Capacity, RPM: f.RPM,
		Surfaces: f.Surfaces, Cylinders: f.Cylinders, Zones: f.Zones,
		MeanRotationalLatencyMS: ms(f.MeanRotationalLatency), AverageSeekMS: ms(f.AverageSeek),
		RandomAccess4KMS: ms(f.RandomAccess4K),
		OuterMediaMBps:   f.OuterInstant / 1e6, InnerMediaMBps: f.InnerInstant / 1e6,
		OuterSustainedMBps: f.OuterSustained / 1e6, InnerSustainedMBps: f.InnerSustained / 1e6,
		InterfaceMBps: f.InterfaceRate / 1e6, BufferBytes: f.BufferSize,
	}, nil
}

// datasheetTable is the head of the disk presets' table.
var datasheetTable = drive.Table{
	Title: "Drive presets (figures derived from each model, MB/s = 10^6 bytes/s)",
	Header: []string{"preset", "capacity GB", "rpm", "rot. latency ms", "avg seek ms",
		"random 4K ms", "outer MB/s", "inner MB/s", "outer sust.", "inner sust.", "buffer MiB"},
	Notes: []string{
		"rot. latency: half a revolution. avg seek: the fitted curve averaged over uniformly random cylinder pairs.",
		"random 4K: overhead + average seek + half a revolution + transfer, the mean access at queue depth 1.",
		"outer/inner MB/s: one track's media rate; sust.: whole cylinders with head and cylinder switches.",
	},
}

// Row is the model's row of the disk presets' table.
func (f *Datasheet) Row() drive.Row {
	return drive.Row{Table: datasheetTable, Cells: []drive.Cell{
		drive.Text(f.Name), drive.Fixed(float64(f.CapacityBytes)/1e9, 1), drive.Int(int64(f.RPM)),
		drive.Fixed(f.MeanRotationalLatencyMS, 2), drive.Fixed(f.AverageSeekMS, 2), drive.Fixed(f.RandomAccess4KMS, 2),
		drive.Fixed(f.OuterMediaMBps, 1), drive.Fixed(f.InnerMediaMBps, 1),
		drive.Fixed(f.OuterSustainedMBps, 1), drive.Fixed(f.InnerSustainedMBps, 1),
		drive.Fixed(float64(f.BufferBytes)/(1<<20), 0),
	}}
}

var (
	_ drive.Model             = (*Model)(nil)
	_ drive.Device            = (*Drive)(nil)
	_ drive.DirtyExtentLister = (*Drive)(nil)
)
