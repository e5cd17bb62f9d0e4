package raidsim

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/raidsim/raidsim/cache"
	"github.com/raidsim/raidsim/drive"
	"github.com/raidsim/raidsim/host"
	"github.com/raidsim/raidsim/metrics"
	"github.com/raidsim/raidsim/raid"
	"github.com/raidsim/raidsim/trace"
)

// SchemaVersion is the version of the JSON report's layout: it changes
// when a field is renamed, moved or given another meaning, so scripts
// reading reports can check it.
const SchemaVersion = 2

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
	// Disks holds one entry per drive in the stack, over the whole run:
	// each the report of its kind (a *disk.Report, an *ssd.Report),
	// whose Common method gives what every kind reports.
	Disks []drive.Report `json:"disks"`
	// RAID reports the array, when the stack has one.
	RAID *RAIDReport `json:"raid,omitempty"`
	// Cache reports the volume cache, when the stack has one.
	Cache *cache.Report `json:"cache,omitempty"`
	// Host reports the host layer over the whole run, when the stack
	// has one (stack.host.preset). Each phase's own figures are in
	// PhaseReport.Host.
	Host *host.Report `json:"host,omitempty"`
	// PowerLoss is what a power failure at spec.Experiment.PowerLossAt
	// would have lost (nil when not asked for).
	PowerLoss *PowerLossReport `json:"power_loss,omitempty"`
	// Warmup says what the run's warm-up left out, when it had one.
	Warmup *WarmupReport `json:"warmup,omitempty"`
	// Faults is what the drives' fault wrappers injected
	// (stack.faults), or nil.
	Faults *FaultsReport `json:"faults,omitempty"`
}

// PhaseReport is one phase's requests, or the whole run's (Report.Total).
// Its JSON form puts the read, write and all summaries, flushes and
// sim_s beside the workload that produced them.
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
		r.Disks = append(r.Disks, d.Report())
	}
	if s.Array != nil {
		r.RAID = &RAIDReport{Report: s.Array.Report()}
	}
	if s.RAIDZ != nil {
		r.RAID = &RAIDReport{Report: s.RAIDZ.Report()}
	}
	if s.Cache != nil {
		c := s.Cache.Report()
		r.Cache = &c
	}
	if s.Host != nil {
		h := s.Host.Report()
		r.Host = &h
	}
}

// RAIDReport is the array's section of the report (raid.Report) and a
// planned rebuild's outcome.
type RAIDReport struct {
	raid.Report
	// Rebuild is the planned rebuild's outcome (stack.rebuild), or nil.
	Rebuild *RebuildReport `json:"rebuild,omitempty"`
}

// WorkloadInfo describes the workload of a report in fio's terms, so a
// report says what produced it.
type WorkloadInfo struct {
	// RW is the access pattern (fio rw), e.g. "randread".
	RW string `json:"rw"`
	// RWMixRead is the percentage of reads of a mixed pattern.
	RWMixRead int `json:"rwmixread_pct,omitempty"`
	// BS is the block size in bytes (0 when a bssplit was used).
	BS int64 `json:"bs_bytes"`
	// BSSplit is the block size mix (fio bssplit), e.g. "4KiB/70:64KiB/30".
	BSSplit string `json:"bssplit,omitempty"`
	// IODepth is the number of requests kept outstanding.
	IODepth int `json:"iodepth"`
	// Offset and Size bound the region addressed, in bytes; Size 0 means
	// to the end of the device.
	Offset int64 `json:"offset_bytes"`
	Size   int64 `json:"size_bytes"`
	// IOs is the number of requests issued.
	IOs int64 `json:"ios"`
	// RandomDistribution is the random_distribution, e.g. "uniform", "zipf:1.2".
	RandomDistribution string `json:"random_distribution"`
	// PercentageRandom is the share of random requests in a sequential
	// pattern (fio percentage_random).
	PercentageRandom int `json:"percentage_random_pct,omitempty"`
	// Fsync is the number of writes between flushes (fio fsync; 0:
	// none).
	Fsync int `json:"fsync,omitempty"`
	// Seed is the run seed.
	Seed uint64 `json:"seed"`
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
