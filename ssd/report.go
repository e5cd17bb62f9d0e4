package ssd

import (
	"fmt"
	"time"

	"github.com/raidsim/raidsim/drive"
	"github.com/raidsim/raidsim/sim"
)

// Report is an SSD's section of a run's report (after preconditioning):
// its settings, its host-side figures and its flash figures, with the
// JSON names the raidsim report uses.
type Report struct {
	// Name is the drive's name in the stack ("disk0"); Kind is "ssd";
	// Model the model's name (Params.Name).
	Name  string `json:"name"`
	Kind  string `json:"kind"`
	Model string `json:"model"`
	// Interface is "sata" or "nvme".
	Interface string `json:"interface"`
	// WriteCache reports a write buffer that acknowledges writes before
	// their program; PowerLossProtection one kept by capacitors.
	WriteCache          bool `json:"write_cache"`
	PowerLossProtection bool `json:"power_loss_protection"`
	// QueueDepth is the drive's command queue depth.
	QueueDepth int `json:"queue_depth"`
	// Precondition is the state the drive was put in before the run:
	// none, fill or steady.
	Precondition string `json:"precondition"`
	// IOs counts the requests the drive completed, flushes and trims
	// included.
	IOs int64 `json:"ios"`
	// Utilization is the fraction of the run, 0..1, during which a
	// request was outstanding; DieUtilization the dies' mean busy share
	// (reads, programs, erases, garbage collection).
	Utilization    float64 `json:"utilization_ratio"`
	DieUtilization float64 `json:"die_utilization_ratio"`
	// WriteAmplification is flash writes over host writes during the run
	// (0 without writes).
	WriteAmplification float64 `json:"write_amplification"`
	// GCPageMoves counts map units garbage collection copied,
	// BackgroundGCs the blocks it cleaned while the drive was idle, and
	// GCSeconds the die time it took (summed over dies).
	GCPageMoves   int64   `json:"gc_page_moves"`
	BackgroundGCs int64   `json:"background_gcs"`
	GCSeconds     float64 `json:"gc_s"`
	// Erases counts block erases during the run; MaxEraseCount is the
	// most any block was erased (wear), preconditioning included.
	Erases        int64 `json:"erases"`
	MaxEraseCount int64 `json:"max_erase_count"`
	// FreeBlocksMin is the fewest free blocks any die had.
	FreeBlocksMin int64 `json:"free_blocks_min"`
	// SLCCache is the pseudo-SLC cache's state (nil without one).
	SLCCache *SLCReport `json:"slc_cache,omitempty"`
	// WriteBufferBytes is the write buffer's size; BufferMeanBytes and
	// BufferPeakBytes the time-weighted mean and the most of it in use.
	WriteBufferBytes int64   `json:"write_buffer_bytes"`
	BufferMeanBytes  float64 `json:"buffer_mean_bytes"`
	BufferPeakBytes  int64   `json:"buffer_peak_bytes"`
	// BufferReadHits counts map units read from the write buffer;
	// WriteCacheHits writes acknowledged from it; BufferStalls writes
	// that waited for room in it.
	BufferReadHits int64 `json:"buffer_read_hits"`
	WriteCacheHits int64 `json:"write_cache_hits"`
	BufferStalls   int64 `json:"buffer_stalls"`
	// DirtyAtEndBytes is the data acknowledged but only in a volatile
	// write buffer when the report was made: what a power failure then
	// would lose.
	DirtyAtEndBytes int64 `json:"dirty_at_end_bytes"`
}

// SLCReport is the pseudo-SLC cache's part of an SSD's report.
type SLCReport struct {
	// SizeBytes is the cache's size (Params.SLCCache); UsedBytes the data
	// in it when the report was made, not yet moved to native cells.
	SizeBytes int64 `json:"size_bytes"`
	UsedBytes int64 `json:"used_bytes"`
	// WrittenBytes is the data programmed into it during the run, and
	// MigratedBytes the data moved from it to native cells while idle.
	WrittenBytes  int64 `json:"written_bytes"`
	MigratedBytes int64 `json:"migrated_bytes"`
}

// Report returns the drive's section of a run's report, from its
// statistics so far.
func (d *Drive) Report() drive.Report {
	st := d.Stats()
	p := &d.p
	r := &Report{
		Name: d.name, Kind: KindName, Model: p.Name, Interface: p.Interface.String(),
		WriteCache: p.WriteBuffer > 0, PowerLossProtection: p.PowerLossProtection, QueueDepth: p.QueueDepth,
		Precondition: d.precondition.Kind.String(), IOs: st.Reads + st.Writes + st.Flushes + st.Trims,
		Utilization: st.Utilization, DieUtilization: st.DieUtilization, WriteAmplification: st.WriteAmplification,
		GCPageMoves: st.GCPageMoves, BackgroundGCs: st.BackgroundGCs, GCSeconds: st.GCTime.Seconds(),
		Erases: st.Erases, MaxEraseCount: st.MaxEraseCount, FreeBlocksMin: st.FreeBlocksMin,
		WriteBufferBytes: p.WriteBuffer, BufferMeanBytes: st.BufferMeanBytes, BufferPeakBytes: st.BufferPeakBytes,
		BufferReadHits: st.BufferReadHits, WriteCacheHits: st.BufferedWrites, BufferStalls: st.BufferStalls,
		DirtyAtEndBytes: d.VolatileBytes(),
	}
	if p.SLCCache > 0 {
		r.SLCCache = &SLCReport{SizeBytes: p.SLCCache, UsedBytes: st.SLCUsedBytes,
			WrittenBytes: st.SLCUnits * d.unitBytes, MigratedBytes: st.SLCMigratedUnits * d.unitBytes}
	}
	return r
}

// Common returns the figures every kind of drive reports.
func (r *Report) Common() drive.Common {
	buf := map[bool]string{true: "on", false: "off"}[r.WriteCache]
	if r.PowerLossProtection && r.WriteCache {
		buf = "on, power-loss protected"
	}
	iface, queue := "NVMe", "queue"
	if r.Interface == SATA.String() {
		iface, queue = "SATA", "NCQ"
	}
	return drive.Common{
		Name: r.Name, Kind: KindName, Model: r.Model,
		Settings:   fmt.Sprintf("%s, write buffer %s, %s depth %d", iface, buf, queue, r.QueueDepth),
		WriteCache: r.WriteCache, QueueDepth: r.QueueDepth, IOs: r.IOs,
		UtilizationRatio: r.Utilization, DirtyAtEndBytes: r.DirtyAtEndBytes,
	}
}

// reportTable is the head of the SSDs' text table.
var reportTable = drive.Table{
	Title: "\nSSDs",
	Header: []string{"ssd", "precondition", "IOs", "utilization", "die util.", "write ampl.", "GC moves", "GC s",
		"erases", "free blocks min", "SLC used KiB", "buffer mean KiB", "buffer peak KiB", "buffer stalls",
		"dirty at end KiB"},
}

// Row is the drive's row of the SSDs' text table.
func (r *Report) Row() drive.Row {
	slc := drive.Text("-")
	if r.SLCCache != nil {
		slc = drive.KiB(r.SLCCache.UsedBytes)
	}
	return drive.Row{Table: reportTable, Cells: []drive.Cell{
		drive.Text(r.Name), drive.Text(r.Precondition), drive.Int(r.IOs), drive.Fixed(r.Utilization, 3),
		drive.Fixed(r.DieUtilization, 3), drive.Fixed(r.WriteAmplification, 2), drive.Int(r.GCPageMoves),
		drive.Fixed(r.GCSeconds, 3), drive.Int(r.Erases), drive.Int(r.FreeBlocksMin), slc,
		drive.Fixed(r.BufferMeanBytes/1024, 0), drive.KiB(r.BufferPeakBytes), drive.Int(r.BufferStalls),
		drive.KiB(r.DirtyAtEndBytes),
	}}
}

// PowerLossWhy says why a power failure would lose lost bytes of the
// drive's data, or why none.
func (r *Report) PowerLossWhy(lost int64) string {
	switch {
	case !r.WriteCache:
		return "none: write cache off, a write is reported done only once on stable media"
	case r.PowerLossProtection:
		return "none: the SSD's capacitors program its write buffer to flash"
	case lost == 0:
		return "none: its write cache had written everything to stable media"
	}
	return "the SSD reported the write done from its DRAM buffer; not yet programmed to flash"
}

// KindName is the SSDs' kind name.
const KindName = "ssd"

// Kind is the solid-state drives' kind: its presets and their models.
var Kind = drive.NewKind(KindName, PresetNames, Preset, NewModel)

// Kind returns "ssd".
func (m *Model) Kind() string { return KindName }

// Name returns the model's name (Params.Name).
func (m *Model) Name() string { return m.p.Name }

// WithPrecondition returns a copy of the model whose drives are built
// in state kind (see Drive.Precondition).
func (m *Model) WithPrecondition(kind Precondition) *Model {
	c := *m
	c.pre = kind
	return &c
}

// NewDevice is NewDrive, for code that builds any kind of drive.
func (m *Model) NewDevice(eng *sim.Engine, name string, obs *sim.Observer) (drive.Device, error) {
	return m.NewDrive(eng, name, obs)
}

// Datasheet is an SSD model's headline figures (ComputeFigures) in the
// units a data sheet gives them (ms, MB/s of 10^6 bytes, IOPS): the JSON
// and the row `raidsim drives` prints.
type Datasheet struct {
	// Name is the model's name; Kind is "ssd"; CapacityBytes the user
	// capacity.
	Name          string `json:"name"`
	Kind          string `json:"kind"`
	CapacityBytes int64  `json:"capacity_bytes"`
	// Interface is "sata" or "nvme", InterfaceMBps its link rate.
	Interface     string  `json:"interface"`
	InterfaceMBps float64 `json:"interface_mb_per_s"`
	// Dies is channels x ways x dies per chip; RawFlashBytes the flash
	// behind the user capacity.
	Dies          int   `json:"dies"`
	RawFlashBytes int64 `json:"raw_flash_bytes"`
	// OverProvisioning is the spare flash over the user capacity, 0..1.
	OverProvisioning float64 `json:"over_provisioning_ratio"`
	// ReadLatency4KMS is an unloaded 4 KiB read in ms; the IOPS and
	// MB/s figures are the bounds of the slowest resource on each path
	// (4 KiB random, 128 KiB sequential), fresh drive.
	ReadLatency4KMS   float64 `json:"read_latency_4k_ms"`
	RandomRead4KIOPS  float64 `json:"random_read_4k_iops"`
	RandomWrite4KIOPS float64 `json:"random_write_4k_iops"`
	SeqReadMBps       float64 `json:"seq_read_mb_per_s"`
	SeqWriteMBps      float64 `json:"seq_write_mb_per_s"`
	// SeqWriteNativeMBps is the sequential write bound past the pseudo-SLC
	// cache.
	SeqWriteNativeMBps float64 `json:"seq_write_after_slc_mb_per_s"`
	// SLCCacheBytes and WriteBufferBytes are the pseudo-SLC cache's and
	// the DRAM write buffer's sizes.
	SLCCacheBytes    int64 `json:"slc_cache_bytes"`
	WriteBufferBytes int64 `json:"write_buffer_bytes"`
	// SteadyWA is the analytic steady-state write amplification
	// (GreedyWriteAmplificationBlock).
	SteadyWA float64 `json:"steady_write_amplification"`
}

// Datasheet derives the model's Datasheet.
func (m *Model) Datasheet() (drive.Datasheet, error) {
	f := m.ComputeFigures()
	p := &m.p
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
	return &Datasheet{
		Name: p.Name, Kind: KindName, CapacityBytes: f.Capacity, Interface: p.Interface.String(),
		InterfaceMBps: p.LinkRate / 1e6, Dies: f.Dies, RawFlashBytes: f.RawFlash, OverProvisioning: p.OverProvisioning,
		ReadLatency4KMS: ms(f.ReadLatency4K), RandomRead4KIOPS: f.RandomRead4K, RandomWrite4KIOPS: f.RandomWrite4K,
		SeqReadMBps: f.SeqRead / 1e6, SeqWriteMBps: f.SeqWrite / 1e6, SeqWriteNativeMBps: f.SeqWriteNative / 1e6,
		SLCCacheBytes: p.SLCCache, WriteBufferBytes: p.WriteBuffer, SteadyWA: f.SteadyWA,
	}, nil
}

// datasheetTable is the head of the SSD presets' table.
var datasheetTable = drive.Table{
	Title: "\nSSD presets (bounds of the slowest resource on each path, fresh drive)",
	Header: []string{"preset", "capacity GB", "interface", "dies", "OP %", "read 4K ms", "rand read IOPS",
		"rand write IOPS", "seq read MB/s", "seq write MB/s", "after SLC", "steady WA"},
	Notes: []string{
		"read 4K: an unloaded read (command, controller, page read, channel, link).",
		"IOPS, MB/s: the least of link, controller, dies and channels (4 KiB, 128 KiB).",
		"steady WA: greedy GC, uniform random writes, the preset's spare and block size (Desnoyers 2012).",
		"Measure them: raidsim run --drive NAME --precondition fill.",
	},
}

// Row is the model's row of the SSD presets' table.
func (f *Datasheet) Row() drive.Row {
	return drive.Row{Table: datasheetTable, Cells: []drive.Cell{
		drive.Text(f.Name), drive.Fixed(float64(f.CapacityBytes)/1e9, 1), drive.Text(f.Interface), drive.Int(int64(f.Dies)),
		drive.Fixed(100*f.OverProvisioning, 1), drive.Fixed(f.ReadLatency4KMS, 3),
		drive.Fixed(f.RandomRead4KIOPS, 0), drive.Fixed(f.RandomWrite4KIOPS, 0),
		drive.Fixed(f.SeqReadMBps, 0), drive.Fixed(f.SeqWriteMBps, 0),
		drive.Fixed(f.SeqWriteNativeMBps, 0), drive.Fixed(f.SteadyWA, 2),
	}}
}

var (
	_ drive.Model  = (*Model)(nil)
	_ drive.Device = (*Drive)(nil)
)
