package raidsim

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/raidsim/raidsim/disk"
	"github.com/raidsim/raidsim/metrics"
	"github.com/raidsim/raidsim/sim"
	"github.com/raidsim/raidsim/trace"
)

// Experiment is one synthetic workload replayed on one drive: the unit of
// work of `raidsim run` and of each row of the demo. It is plain data, so
// a what-if is a copy with one field changed.
type Experiment struct {
	// Drive is the drive model, usually from disk.Preset with fields
	// overridden (WriteCache, Scheduler, QueueDepth, ...).
	Drive disk.Params
	// Workload is the fio-style workload. Its IODepth sets how many
	// requests closed-loop replay keeps outstanding.
	Workload trace.Workload
	// Seed seeds every random stream of the run; the same Experiment and
	// Seed give a byte-identical Report.
	Seed uint64
	// Observer, when set, receives the drive's hooks (phases of every
	// request) for timelines and logs.
	Observer *sim.Observer
}

// Report is the result of an Experiment. Its JSON form puts the read,
// write and all summaries, flushes and sim_seconds at the top level, with
// the workload and per-disk statistics beside them.
type Report struct {
	metrics.Summary
	// Workload echoes what was run.
	Workload WorkloadInfo `json:"workload"`
	// Disks holds one entry per drive in the stack.
	Disks []DiskReport `json:"disks"`
}

// WorkloadInfo describes the workload of a report in fio's terms, so a
// report says what produced it.
type WorkloadInfo struct {
	// RW is the access pattern (fio rw), e.g. "randread".
	RW string `json:"rw"`
	// RWMixRead is the percentage of reads of a mixed pattern.
	RWMixRead int `json:"rwmixread,omitempty"`
	// BS is the block size in bytes (0 when a bssplit was used).
	BS int64 `json:"bs"`
	// BSSplit is the block size mix (fio bssplit), e.g. "4KiB/70:64KiB/30".
	BSSplit string `json:"bssplit,omitempty"`
	// IODepth is the number of requests kept outstanding.
	IODepth int `json:"iodepth"`
	// Offset and Size bound the region addressed, in bytes; Size 0 means
	// to the end of the device.
	Offset int64 `json:"offset"`
	Size   int64 `json:"size"`
	// IOs is the number of requests issued.
	IOs int64 `json:"ios"`
	// Distribution is the random_distribution, e.g. "uniform", "zipf:1.2".
	Distribution string `json:"random_distribution"`
	// Seed is the run seed.
	Seed uint64 `json:"seed"`
}

// DiskReport is one drive's share of a run.
type DiskReport struct {
	// Name is the drive's name in the stack ("disk0").
	Name string `json:"name"`
	// Model is the drive model (disk.Params.Name).
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
	Utilization float64 `json:"utilization"`
	// Seeks counts arm movements and MeanSeekCyls their mean distance in
	// cylinders.
	Seeks        int64   `json:"seeks"`
	MeanSeekCyls float64 `json:"mean_seek_cylinders"`
	// ReadHits counts reads served from the drive's buffer.
	ReadHits int64 `json:"buffer_read_hits"`
	// WriteCacheHits counts writes acknowledged from the write cache.
	WriteCacheHits int64 `json:"write_cache_hits"`
	// Destages counts background writes of cached data to the platters.
	Destages int64 `json:"destages"`
	// DirtyBytesPeak is the most acknowledged-but-unwritten data held at
	// once, in bytes.
	DirtyBytesPeak int64 `json:"dirty_bytes_peak"`
	// MeanQueueLength is the time-weighted mean number of requests in the
	// drive.
	MeanQueueLength float64 `json:"mean_queue_length"`
	// DirtyBytesAtExit is the data, in bytes, acknowledged to the host but
	// only in the drive's volatile cache when the last request completed:
	// what a power failure at that instant would lose.
	DirtyBytesAtExit int64 `json:"dirty_bytes_at_end"`
}

// Run simulates the experiment to completion and returns its report.
// Every problem with the drive or the workload is reported at once.
func (x Experiment) Run() (*Report, error) {
	p := x.Drive
	p.FillDefaults()
	if err := p.Validate(); err != nil {
		return nil, err
	}
	eng := sim.NewEngine(x.Seed)
	d, err := disk.New(eng, p, "disk0", x.Observer)
	if err != nil {
		return nil, err
	}
	w := x.Workload.WithDefaults()
	if err := w.Validate(d.Capacity(), d.SectorSize()); err != nil {
		return nil, err
	}
	src, err := trace.NewSynthetic(w, eng.Rand("workload"), d.Capacity(), d.SectorSize())
	if err != nil {
		return nil, err
	}
	var rec metrics.Recorder
	res, err := trace.Replay(eng, d, src, trace.ReplayOptions{
		Mode:       trace.ClosedLoop,
		IODepth:    w.IODepth,
		OnComplete: func(_ *trace.Record, r *sim.Request) { rec.Observe(r) },
		Observer:   x.Observer,
	})
	if err != nil {
		return nil, fmt.Errorf("raidsim: %w", err)
	}
	if res.Failed > 0 {
		return nil, fmt.Errorf("raidsim: %d requests failed", res.Failed)
	}
	st := d.Stats()
	rep := &Report{
		Summary: rec.Summarize(res.Elapsed()),
		Workload: WorkloadInfo{
			RW: w.RW.String(), BS: w.BS, IODepth: w.IODepth,
			Offset: w.Offset, Size: w.Size, IOs: res.Issued,
			Distribution: w.RandomDistribution.String(), Seed: x.Seed,
		},
		Disks: []DiskReport{{
			Name: d.Name(), Model: p.Name, WriteCache: p.WriteCache,
			Scheduler: p.Scheduler.String(), QueueDepth: p.QueueDepth,
			IOs:         st.Reads + st.Writes + st.Flushes,
			Utilization: st.Utilization, Seeks: st.Seeks, MeanSeekCyls: st.MeanSeekDistance,
			ReadHits: st.ReadHits, WriteCacheHits: st.WriteCacheHits, Destages: st.Destages,
			DirtyBytesPeak: st.DirtyBytesPeak, MeanQueueLength: st.MeanQueueLength,
			DirtyBytesAtExit: st.DirtyBytes,
		}},
	}
	if w.RW.Mixed() {
		rep.Workload.RWMixRead = w.RWMixRead
	}
	if len(w.BSSplit) > 0 {
		parts := make([]string, len(w.BSSplit))
		for i, e := range w.BSSplit {
			parts[i] = fmt.Sprintf("%s/%g", trace.FormatSize(e.Size), e.Percent)
		}
		rep.Workload.BS, rep.Workload.BSSplit = 0, strings.Join(parts, ":")
	}
	return rep, nil
}

// WriteJSON writes the report as indented JSON.
func (r *Report) WriteJSON(w io.Writer) error {
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return fmt.Errorf("raidsim: report: %w", err)
	}
	_, err = w.Write(append(b, '\n'))
	return err
}
