package smr

import (
	"fmt"

	"github.com/raidsim/raidsim/drive"
)

// Report is an SMR drive's section of a run's report.
type Report struct {
	Name  string `json:"name"`
	Kind  string `json:"kind"`
	Model string `json:"model"`
	// WriteCache reports the platter's volatile write cache; QueueDepth
	// its tagged queue.
	WriteCache bool `json:"write_cache"`
	QueueDepth int  `json:"queue_depth"`
	// IOs counts host requests; Utilization is the platter's busy
	// fraction, 0..1.
	IOs         int64   `json:"ios"`
	Utilization float64 `json:"utilization_ratio"`
	// CacheWrites and DirectWrites count write pieces sent to the media
	// cache and straight to bands.
	CacheWrites      int64 `json:"cache_writes"`
	CacheWriteBytes  int64 `json:"cache_write_bytes"`
	DirectWrites     int64 `json:"direct_writes"`
	DirectWriteBytes int64 `json:"direct_write_bytes"`
	// BandCleans, IdleCleans and ForegroundCleans count band cleanings;
	// CleanS the time spent cleaning, StallS the time writes waited for
	// cache space, in seconds.
	BandCleans       int64   `json:"band_cleans"`
	IdleCleans       int64   `json:"idle_cleans"`
	ForegroundCleans int64   `json:"foreground_cleans"`
	CleanS           float64 `json:"clean_s"`
	StallS           float64 `json:"stall_s"`
	// CleanReadBytes and CleanWriteBytes are the platter traffic of
	// cleaning.
	CleanReadBytes  int64 `json:"clean_read_bytes"`
	CleanWriteBytes int64 `json:"clean_write_bytes"`
	// CachePeakBytes and CacheAtEndBytes are the media cache log's
	// length at its most and at the end; ExtentsPeak the map's most.
	CachePeakBytes  int64 `json:"cache_peak_bytes"`
	CacheAtEndBytes int64 `json:"cache_at_end_bytes"`
	ExtentsPeak     int   `json:"extents_peak"`
	// DirtyAtEndBytes is the platter's volatile write cache's unwritten
	// data at the end.
	DirtyAtEndBytes int64 `json:"dirty_at_end_bytes"`
}

// Report returns the drive's section of a run's report.
func (d *Drive) Report() drive.Report {
	st := d.Stats()
	ps := d.media.Stats()
	mp := d.media.Params()
	return &Report{Name: d.name, Kind: KindName, Model: d.p.Name, WriteCache: mp.WriteCache, QueueDepth: mp.QueueDepth,
		IOs: st.Reads + st.Writes + st.Trims + st.Flushes, Utilization: ps.Utilization,
		CacheWrites: st.CacheWrites, CacheWriteBytes: st.CacheWriteBytes,
		DirectWrites: st.DirectWrites, DirectWriteBytes: st.DirectWriteBytes,
		BandCleans: st.BandCleans, IdleCleans: st.IdleCleans, ForegroundCleans: st.ForegroundCleans,
		CleanS: st.CleanTime.Seconds(), StallS: st.StallTime.Seconds(),
		CleanReadBytes: st.CleanReadBytes, CleanWriteBytes: st.CleanWriteBytes,
		CachePeakBytes: st.CachePeakBytes, CacheAtEndBytes: st.CacheUsedBytes, ExtentsPeak: st.ExtentsPeak,
		DirtyAtEndBytes: d.DirtyBytes()}
}

// Common returns the figures every kind of drive reports.
func (r *Report) Common() drive.Common {
	wc := "platter write cache off"
	if r.WriteCache {
		wc = "platter write cache on"
	}
	return drive.Common{Name: r.Name, Kind: r.Kind, Model: r.Model,
		Settings:   fmt.Sprintf("drive-managed SMR, %s, NCQ depth %d", wc, r.QueueDepth),
		WriteCache: r.WriteCache, QueueDepth: r.QueueDepth, IOs: r.IOs,
		UtilizationRatio: r.Utilization, DirtyAtEndBytes: r.DirtyAtEndBytes}
}

var reportTable = drive.Table{
	Title: "SMR drives (shingle translation layer)",
	Header: []string{"drive", "IOs", "util", "cache writes", "direct writes", "band cleans", "idle", "foreground",
		"clean s", "stall s", "cache peak MiB", "extents peak"},
	Notes: []string{
		"cache writes: write pieces appended to the media cache; direct: whole bands or appends at a band's write pointer.",
		"band cleans: read a band and its cached fragments, rewrite it; stall: time writes waited for cache space.",
	},
}

// Row is the drive's row of the SMR drives' table.
func (r *Report) Row() drive.Row {
	return drive.Row{Table: reportTable, Cells: []drive.Cell{
		drive.Text(r.Name), drive.Int(r.IOs), drive.Fixed(r.Utilization, 3), drive.Int(r.CacheWrites),
		drive.Int(r.DirectWrites), drive.Int(r.BandCleans), drive.Int(r.IdleCleans), drive.Int(r.ForegroundCleans),
		drive.Fixed(r.CleanS, 1), drive.Fixed(r.StallS, 1), drive.Fixed(float64(r.CachePeakBytes)/(1<<20), 1),
		drive.Int(int64(r.ExtentsPeak)),
	}}
}

// PowerLossWhy says why a power failure would lose lost bytes.
func (r *Report) PowerLossWhy(lost int64) string {
	switch {
	case !r.WriteCache:
		return "none: the platter's write cache is off and the media cache is persistent"
	case lost == 0:
		return "none: the platter's write cache had written everything (the media cache is persistent)"
	}
	return "the drive reported the write done from its DRAM write cache; not yet in the media cache or its band"
}
