package raidsim

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/raidsim/raidsim/cache"
	"github.com/raidsim/raidsim/disk"
	"github.com/raidsim/raidsim/host"
	"github.com/raidsim/raidsim/metrics"
	"github.com/raidsim/raidsim/raid"
	"github.com/raidsim/raidsim/trace"
)

// SchemaVersion is the version of the JSON report's layout: it changes
// when a field is renamed, moved or given another meaning, so scripts
// reading reports can check it.
const SchemaVersion = 1

// Report is the result of a run: each phase, the whole run, and the
// stack's statistics at the end. Its JSON form (WriteJSON) carries
// schema_version; its text form (WriteText) is the tables `raidsim run`
// prints.
type Report struct {
	// SchemaVersion is SchemaVersion.
	SchemaVersion int `json:"schema_version"`
	// Name and Seed are the experiment's.
	Name string `json:"name"`
	Seed uint64 `json:"seed"`
	// Phases holds each phase's requests, in order.
	Phases []PhaseReport `json:"phases"`
	// Total covers every request of every phase, over the run's
	// simulated time from the first request to the last completion.
	Total PhaseReport `json:"total"`
	// Disks holds one entry per drive in the stack, over the whole run.
	Disks []DiskReport `json:"disks"`
	// SSD is the one drive's flash figures when the stack is a single
	// SSD (also in its Disks entry).
	SSD *SSDReport `json:"ssd,omitempty"`
	// RAID reports the array, when the stack has one.
	RAID *RAIDReport `json:"raid,omitempty"`
	// Cache reports the volume cache, when the stack has one.
	Cache *CacheReport `json:"cache,omitempty"`
	// Host reports the host layer over the whole run, when the stack
	// has one (stack.host.preset).
	Host *HostReport `json:"host,omitempty"`
	// PowerLoss is what a power failure at spec.Experiment.PowerLossAt
	// would have lost (nil when not asked for).
	PowerLoss *PowerLossReport `json:"power_loss,omitempty"`
	// Faults is what the drives' fault wrappers injected
	// (stack.faults), or nil.
	Faults *FaultsReport `json:"faults,omitempty"`
}

// PhaseReport is one phase's requests, or the whole run's (Report.Total).
// Its JSON form puts the read, write and all summaries, flushes and
// sim_seconds beside the workload that produced them.
type PhaseReport struct {
	// Name is the phase's name ("total" for the whole run).
	Name string `json:"name"`
	metrics.Summary
	// Latency holds the latency histograms behind Summary (read, write,
	// all, flush), for CDFs and merging; not in the JSON.
	Latency *metrics.Recorder `json:"-"`
	// Workload echoes the phase's synthetic job (nil for a trace and for
	// the total).
	Workload *WorkloadInfo `json:"workload,omitempty"`
	// Background echoes the jobs run beside Workload, with the requests
	// each issued.
	Background []*WorkloadInfo `json:"background,omitempty"`
	// Trace describes the trace replayed (nil for a synthetic phase).
	Trace *TraceReport `json:"trace,omitempty"`
	// FailedRequests counts requests that completed with an error (for example
	// reads of a RAID 5 array that lost two members); they are left out
	// of the read, write and all summaries.
	FailedRequests int64 `json:"failed_requests"`
	// FirstError is the first of those errors, with its request number.
	FirstError string `json:"first_error,omitempty"`
	// RuntimeReached reports a phase stopped by its runtime before its
	// job was done.
	RuntimeReached bool `json:"runtime_reached,omitempty"`
	// HostFlushesDropped counts Flush requests the host discarded instead
	// of sending them (stack.host.flushes: false).
	HostFlushesDropped int64 `json:"host_flushes_dropped,omitempty"`
	// Host is the host layer's share of the phase (CPU utilization, page
	// cache, network), when the stack has one.
	Host *host.Summary `json:"host,omitempty"`
}

// addStack adds the stack's statistics at the end of the run.
func (r *Report) addStack(s *Stack) {
	for _, d := range s.Drives {
		r.Disks = append(r.Disks, diskReport(d))
	}
	for _, d := range s.SSDs {
		r.Disks = append(r.Disks, ssdReport(d))
	}
	if len(r.Disks) == 1 {
		r.SSD = r.Disks[0].SSD
	}
	if s.Array != nil {
		r.RAID = raidReport(s.Array)
	}
	if s.Cache != nil {
		r.Cache = cacheReport(s.Cache)
	}
	if s.Host != nil {
		r.Host = hostReport(s.Host, r.Total.Host)
	}
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
	// RandomDistribution is the random_distribution, e.g. "uniform", "zipf:1.2".
	RandomDistribution string `json:"random_distribution"`
	// PercentageRandom is the share of random requests in a sequential
	// pattern (fio percentage_random).
	PercentageRandom int `json:"percentage_random,omitempty"`
	// Fsync is the number of writes between flushes (fio fsync; 0:
	// none).
	Fsync int `json:"fsync,omitempty"`
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
	// DirtyBytesPeak is the most acknowledged-but-unwritten data held at
	// once, in bytes.
	DirtyBytesPeak int64 `json:"dirty_bytes_peak"`
	// MeanTaggedQueue is the time-weighted mean number of commands in the
	// drive's tagged queue (NCQ), at most QueueDepth.
	MeanTaggedQueue float64 `json:"mean_tagged_queue"`
	// MeanHostQueue is the time-weighted mean number of requests waiting
	// in the host's queue for a free tag.
	MeanHostQueue float64 `json:"mean_host_queue"`
	// DirtyBytesAtEnd is the data, in bytes, acknowledged to the host but
	// only in the drive's volatile cache when the last request completed:
	// what a power failure at that instant would lose.
	DirtyBytesAtEnd int64 `json:"dirty_bytes_at_end"`
	// SSD holds a solid-state drive's flash figures (nil for disks).
	SSD *SSDReport `json:"ssd,omitempty"`
}

// CacheReport is the volume cache's share of a run: its configuration
// and cache.Summary's figures (read_hit_ratio, coalescing_factor,
// full_stripe_destage_fraction, dirty_peak_bytes, stall_seconds, ...).
type CacheReport struct {
	// Mode is "write-back", "write-through" or "off".
	Mode string `json:"mode"`
	// SizeBytes is the cache memory.
	SizeBytes int64 `json:"size_bytes"`
	// NonVolatile reports a battery- or flash-backed cache.
	NonVolatile bool `json:"non_volatile"`
	cache.Summary
	// OverwrittenBytes is the bytes of absorbed writes that landed on
	// dirty data and so never went below.
	OverwrittenBytes int64 `json:"overwritten_bytes"`
	// DirtyBytesAtEnd is the acknowledged data only in cache memory when
	// the last request completed: what a power failure then would lose
	// from a volatile cache.
	DirtyBytesAtEnd int64 `json:"dirty_bytes_at_end"`
}

// cacheReport summarizes a cache's statistics.
func cacheReport(c *cache.Cache) *CacheReport {
	st := c.Stats()
	cfg := c.Config()
	return &CacheReport{
		Mode: cfg.Mode.String(), SizeBytes: cfg.Size, NonVolatile: cfg.NonVolatile,
		Summary: st.Summary(), OverwrittenBytes: st.OverwrittenBytes, DirtyBytesAtEnd: st.DirtyBytes,
	}
}

// RAIDReport is the array's share of a run.
type RAIDReport struct {
	// Level is "RAID 0", "RAID 1", "RAID 5" or "RAID 10".
	Level string `json:"level"`
	// Members is the number of member drives.
	Members int `json:"members"`
	// StripeUnit is the bytes each member holds of one stripe.
	StripeUnit int64 `json:"stripe_unit"`
	// Layout is the RAID 5 or 6 parity layout (empty for other levels).
	Layout string `json:"layout,omitempty"`
	// FullStripeWrites, RMWWrites and RCWWrites count RAID 5 stripe
	// updates by method: whole stripe (no reads), read-modify-write,
	// reconstruct-write.
	FullStripeWrites int64 `json:"full_stripe_writes"`
	RMWWrites        int64 `json:"rmw_writes"`
	RCWWrites        int64 `json:"rcw_writes"`
	// PrereadBytes counts bytes RAID 5 writes read before writing.
	PrereadBytes int64 `json:"preread_bytes"`
	// DegradedReads counts reads that reconstructed a failed member's
	// data from the others.
	DegradedReads int64 `json:"degraded_reads"`
	// FailedMembers lists the members failed at the end of the run.
	FailedMembers []int `json:"failed_members"`
	// Errors counts array requests that completed with an error.
	Errors int64 `json:"errors"`
	// RepairedSectors counts sectors rewritten from the redundancy after
	// a member read failed (md's read-error repair).
	RepairedSectors int64 `json:"repaired_sectors,omitempty"`
	// LostBytes is the data a rebuild could not recover (a URE met with
	// no redundancy left), and LostRanges its logical ranges as
	// "OFFSET+LENGTH" in bytes.
	LostBytes  int64    `json:"lost_bytes,omitempty"`
	LostRanges []string `json:"lost_ranges,omitempty"`
	// RebuildSeconds is how long the planned rebuild (stack.rebuild)
	// took, or ran when it stopped early, in virtual seconds; Rebuild
	// tells the rest of its outcome.
	RebuildSeconds float64        `json:"rebuild_seconds,omitempty"`
	Rebuild        *RebuildReport `json:"rebuild,omitempty"`
}

// raidReport summarizes an array's statistics.
func raidReport(a *raid.Array) *RAIDReport {
	st := a.Stats()
	cfg := a.Config()
	r := &RAIDReport{
		Level: cfg.Level.String(), Members: len(st.Members), StripeUnit: cfg.StripeUnit,
		FullStripeWrites: st.FullStripeWrites, RMWWrites: st.RMWWrites, RCWWrites: st.RCWWrites,
		PrereadBytes: st.PrereadBytes, DegradedReads: st.DegradedReads, Errors: st.Errors,
		FailedMembers: []int{},
	}
	if cfg.Level == raid.RAID5 || cfg.Level == raid.RAID6 {
		r.Layout = cfg.Layout.String()
	}
	for _, m := range st.Members {
		if m.Failed {
			r.FailedMembers = append(r.FailedMembers, m.Index)
		}
	}
	return r
}

// diskReport summarizes a drive's statistics.
func diskReport(d *disk.Drive) DiskReport {
	p := d.Params()
	st := d.Stats()
	return DiskReport{
		Name: d.Name(), Model: p.Name, WriteCache: p.WriteCache,
		Scheduler: p.Scheduler.String(), QueueDepth: p.QueueDepth,
		IOs:         st.Reads + st.Writes + st.Flushes,
		Utilization: st.Utilization, Seeks: st.Seeks, MeanSeekCylinders: st.MeanSeekDistance,
		BufferReadHits: st.ReadHits, WriteCacheHits: st.WriteCacheHits, Destages: st.Destages,
		DirtyBytesPeak: st.DirtyBytesPeak, MeanTaggedQueue: st.MeanTaggedQueue, MeanHostQueue: st.MeanHostQueue,
		DirtyBytesAtEnd: st.DirtyBytes,
	}
}

// workloadInfo describes w for a report.
func workloadInfo(w trace.Workload, ios int64, seed uint64) *WorkloadInfo {
	wi := &WorkloadInfo{
		RW: w.RW.String(), BS: w.BS, IODepth: w.IODepth,
		Offset: w.Offset, Size: w.Size, IOs: ios,
		RandomDistribution: w.RandomDistribution.String(), Seed: seed,
		PercentageRandom: w.PercentageRandom, Fsync: w.Fsync,
	}
	if w.RW.Mixed() {
		wi.RWMixRead = w.RWMixRead
	}
	if len(w.BSSplit) > 0 {
		parts := make([]string, len(w.BSSplit))
		for i, e := range w.BSSplit {
			parts[i] = fmt.Sprintf("%s/%g", trace.FormatSize(e.Size), e.Percent)
		}
		wi.BS, wi.BSSplit = 0, strings.Join(parts, ":")
	}
	return wi
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
