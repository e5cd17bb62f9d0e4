package raidsim

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
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
	// Jobs reports each of the phase's concurrent jobs (phases[].jobs,
	// numjobs), or each reporting group of them (group_reporting), in
	// order; the phase's own figures cover them all.
	Jobs []JobReport `json:"jobs,omitempty"`
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

// JobReport is one of a phase's concurrent jobs, or a run of jobs of one
// reporting group that set group_reporting, reported as one (as fio's
// group_reporting does).
type JobReport struct {
	// Name is the job's name (the first job's, for a group).
	Name string `json:"name"`
	// Group is its reporting group in the phase, from 0; Jobs the
	// jobs (clones) it covers.
	Group int `json:"group"`
	Jobs  int `json:"jobs"`
	// Summary is its requests over its runtime (sim_s): from its
	// start to its last completion.
	metrics.Summary
	// Latency holds the histograms behind Summary; not in the JSON.
	Latency *metrics.Recorder `json:"-"`
	// Workload echoes its workload (the first job's, for a group), with
	// the reads and writes issued (all its jobs').
	Workload *WorkloadInfo `json:"workload"`
	// StartS is when it started, from the phase's first request.
	StartS float64 `json:"start_s"`
	// SpinS is the CPU time its think time spun (thinktime_spin).
	SpinS float64 `json:"spin_s,omitempty"`
	// IODepths counts its submissions by the requests it then had
	// outstanding, that one included, in fio's bins: 1, 2-3, 4-7, 8-15,
	// 16-31, 32-63, 64 and more.
	IODepths [7]int64 `json:"iodepths"`
	// FailedRequests counts its requests that failed (left out of
	// Summary).
	FailedRequests int64 `json:"failed_requests,omitempty"`
	// RuntimeReached reports a job stopped by a runtime before its end.
	RuntimeReached bool `json:"runtime_reached,omitempty"`
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
	// Rate and RateIOPS are the caps on bytes and requests per second,
	// as fio writes them ("1MiB", "100,50"); RateProcess is "poisson"
	// for exponential gaps (absent: linear); Offload is
	// io_submit_mode=offload.
	Rate        string `json:"rate,omitempty"`
	RateIOPS    string `json:"rate_iops,omitempty"`
	RateProcess string `json:"rate_process,omitempty"`
	Offload     bool   `json:"offload,omitempty"`
	// ThinktimeS, ThinktimeSpinS and ThinkTimeBlocks are the think time
	// (s), its spin (s) and the blocks between stalls; ThinktimeOnIssue
	// counts the blocks issued.
	ThinktimeS       float64 `json:"thinktime_s,omitempty"`
	ThinktimeSpinS   float64 `json:"thinktime_spin_s,omitempty"`
	ThinktimeBlocks  int     `json:"thinktime_blocks,omitempty"`
	ThinktimeOnIssue bool    `json:"thinktime_on_issue,omitempty"`
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
	pc := w.Pacing
	wi.Rate = trace.FormatPerDirection(pc.Rate, trace.FormatSize)
	wi.RateIOPS = trace.FormatPerDirection(pc.RateIOPS, func(n int64) string { return strconv.FormatInt(n, 10) })
	if pc.Poisson {
		wi.RateProcess = "poisson"
	}
	wi.Offload = pc.Offload
	if pc.ThinkTime > 0 {
		wi.ThinktimeS, wi.ThinktimeSpinS = pc.ThinkTime.Seconds(), pc.ThinkTimeSpin.Seconds()
		wi.ThinktimeBlocks, wi.ThinktimeOnIssue = max(pc.ThinkTimeBlocks, 1), pc.ThinkOnIssue
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
