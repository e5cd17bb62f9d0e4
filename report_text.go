package raidsim

import (
	"fmt"
	"io"
	"math"
	"strings"
	"time"

	"github.com/raidsim/raidsim/drive"
	"github.com/raidsim/raidsim/metrics"
	"github.com/raidsim/raidsim/trace"
)

// WriteText writes the report as the tables `raidsim run` prints: the
// stack, each phase's workload and latency summary (a one-phase run
// shows just the one), then the array, the volume cache, the drives and
// the power-loss view.
func (r *Report) WriteText(w io.Writer) error {
	tw := &textWriter{w: w}
	tw.printf("%s\n", r.stackLine())
	if wu := r.Warmup; wu != nil {
		switch {
		case !wu.Ended:
			tw.printf("warm-up: never ended (%d requests left out, every one)\n", wu.ExcludedRequests)
		case wu.Until == "cache_full":
			tw.printf("warm-up: the %d requests until the volume cache filled, at %.3f s, are left out of the figures below (the drives' cover the whole run)\n", wu.ExcludedRequests, wu.EndS)
		default:
			tw.printf("warm-up: the first %d requests, to %.3f s, are left out of the figures below (the drives' cover the whole run)\n", wu.ExcludedRequests, wu.EndS)
		}
	}
	if len(r.Phases) == 1 {
		ph := &r.Phases[0]
		ph.writeSource(tw, &r.Seed)
		tw.printf("\n")
		tw.phaseBody(ph)
	} else {
		tw.printf("%s: %d phases, seed %d\n", r.Name, len(r.Phases), r.Seed)
		for i := range r.Phases {
			ph := &r.Phases[i]
			tw.printf("\n== Phase %d: %s (%.3f s simulated)\n", i+1, ph.Name, ph.SimSeconds)
			ph.writeSource(tw, nil)
			tw.printf("\n")
			tw.phaseBody(ph)
		}
		tw.printf("\n== Total (%.3f s simulated)\n\n", r.Total.SimSeconds)
		tw.phaseBody(&r.Total)
	}
	tw.table(r.raidTable())
	tw.table(r.cacheTable())
	tw.table(r.hostTable())
	for _, t := range r.drivesTables() {
		tw.table(t)
	}
	for _, t := range r.powerLossTables() {
		tw.table(t)
	}
	return tw.err
}

// textWriter keeps the first write error.
type textWriter struct {
	w   io.Writer
	err error
}

func (t *textWriter) printf(format string, args ...any) {
	if t.err == nil {
		_, t.err = fmt.Fprintf(t.w, format, args...)
	}
}

func (t *textWriter) table(tab *metrics.Table) {
	if tab != nil && t.err == nil {
		t.err = tab.WriteText(t.w)
	}
}

// phaseBody writes a phase's latency summary, the trace's own recorded
// latencies beside it, and its failures.
func (t *textWriter) phaseBody(ph *PhaseReport) {
	if t.err == nil {
		t.err = ph.Summary.WriteText(t.w)
	}
	t.table(ph.measuredTable())
	t.table(ph.jobsTable())
	if ph.FailedRequests > 0 {
		t.printf("failed requests: %d (first: %s)\n", ph.FailedRequests, ph.FirstError)
	}
}

// stackLine describes the stack in one line.
func (r *Report) stackLine() string {
	if len(r.Disks) == 0 {
		return "no drives"
	}
	d := r.Disks[0].Common()
	stack := "drive " + d.Model
	if a := r.RAID; a != nil {
		stack = fmt.Sprintf("%s over %d x %s, stripe unit %s", a.Level, a.Members, d.Model, trace.FormatSize(a.StripeUnit))
		if a.Layout != "" {
			stack += ", " + a.Layout
		}
	}
	return fmt.Sprintf("%s (%s)", stack, d.Settings)
}

// writeSource says what produced a phase's requests, with the seed
// when it is given.
func (ph *PhaseReport) writeSource(t *textWriter, seed *uint64) {
	if wl := ph.Workload; wl != nil {
		t.printf("workload %s", wl.describe())
		if seed != nil {
			t.printf(" seed=%d", *seed)
		}
		t.printf("\n")
	}
	if tr := ph.Trace; tr != nil {
		t.printf("trace %s (format %s, %s loop, %d records replayed, %d skipped)\n", tr.Path, tr.Format, tr.Mode, tr.Records, tr.Skipped)
		if tr.Map != "" {
			how := "map " + tr.Map
			if tr.MapDefault {
				how += ", the format's default; map reject refuses them"
			}
			t.printf("mapped: %d records ended past the stack and were moved onto it (%s)\n", tr.Mapped, how)
		}
		if tr.Reordered != nil {
			t.printf("reordered: %d records, at most %v late (%s)\n", *tr.Reordered,
				time.Duration(math.Round(tr.MaxLateS*1e9)), tr.windowWords())
		}
		if tr.Warning != "" {
			t.printf("warning: %s\n", tr.Warning)
		}
	}
	for _, bw := range ph.Background {
		t.printf("beside it: %s\n", bw.describe())
	}
	for _, j := range ph.Jobs {
		name := j.Name
		if j.Jobs > 1 {
			name = fmt.Sprintf("%s (%d jobs)", name, j.Jobs)
		}
		t.printf("job %s, group %d: %s\n", name, j.Group, j.Workload.describe())
	}
	if ph.HostFlushesDropped > 0 {
		t.printf("host dropped %d flushes\n", ph.HostFlushesDropped)
	}
	if ph.RuntimeReached {
		t.printf("stopped by its runtime\n")
	}
}

// describe writes a workload in fio's words.
func (wl *WorkloadInfo) describe() string {
	bs := "bs=" + trace.FormatSize(wl.BS)
	if wl.BSSplit != "" {
		bs = "bssplit=" + wl.BSSplit
	}
	var b strings.Builder
	fmt.Fprintf(&b, "rw=%s %s iodepth=%d ios=%d", wl.RW, bs, wl.IODepth, wl.IOs)
	if wl.RWMixRead != 0 {
		fmt.Fprintf(&b, " rwmixread=%d", wl.RWMixRead)
	}
	if wl.PercentageRandom != 0 {
		fmt.Fprintf(&b, " percentage_random=%d", wl.PercentageRandom)
	}
	if wl.Fsync != 0 {
		fmt.Fprintf(&b, " fsync=%d", wl.Fsync)
	}
	for _, kv := range [][2]string{{"rate", wl.Rate}, {"rate_iops", wl.RateIOPS}, {"rate_process", wl.RateProcess}} {
		if kv[1] != "" {
			fmt.Fprintf(&b, " %s=%s", kv[0], kv[1])
		}
	}
	if wl.Offload {
		b.WriteString(" io_submit_mode=offload")
	}
	if wl.ThinktimeS > 0 {
		fmt.Fprintf(&b, " thinktime=%v thinktime_blocks=%d", time.Duration(math.Round(wl.ThinktimeS*1e9)), wl.ThinktimeBlocks)
		if wl.ThinktimeSpinS > 0 {
			fmt.Fprintf(&b, " thinktime_spin=%v", time.Duration(math.Round(wl.ThinktimeSpinS*1e9)))
		}
		if wl.ThinktimeOnIssue {
			b.WriteString(" thinktime_blocks_type=issue")
		}
	}
	return b.String()
}

// measuredTable compares the simulated latencies with those the trace
// recorded, when it recorded any.
func (ph *PhaseReport) measuredTable() *metrics.Table {
	tr := ph.Trace
	if tr == nil || tr.Measured == nil {
		return nil
	}
	t := &metrics.Table{
		Title:  "\nLatency, simulated vs recorded in the trace (ms)",
		Header: []string{"", "mean", "p50", "p95", "p99", "max"},
	}
	for _, row := range []struct {
		name string
		l    metrics.LatencySummary
	}{{"simulated", ph.All.LatencyMS}, {"trace", *tr.Measured}} {
		t.AddRow(row.name, metrics.FormatSig(row.l.Mean, 4), metrics.FormatSig(row.l.P50, 4),
			metrics.FormatSig(row.l.P95, 4), metrics.FormatSig(row.l.P99, 4), metrics.FormatSig(row.l.Max, 4))
	}
	return t
}

// raidTable is the array's counters.
func (r *Report) raidTable() *metrics.Table {
	a := r.RAID
	if a == nil {
		return nil
	}
	failed := "none"
	if len(a.FailedMembers) > 0 {
		failed = strings.Trim(fmt.Sprint(a.FailedMembers), "[]")
	}
	t := &metrics.Table{
		Title:  "\nArray",
		Header: []string{"full-stripe writes", "rmw writes", "rcw writes", "pre-read KiB", "degraded reads", "failed members"},
	}
	t.AddRow(fmt.Sprint(a.FullStripeWrites), fmt.Sprint(a.RMWWrites), fmt.Sprint(a.RCWWrites),
		kib(a.PrereadBytes), fmt.Sprint(a.DegradedReads), failed)
	t.Notes = a.faultNotes()
	return t
}

// faultNotes tell a rebuild's outcome, the sectors repaired and the data
// lost, naming its ranges.
func (a *RAIDReport) faultNotes() []string {
	var notes []string
	if rb := a.Rebuild; rb != nil {
		state := "done"
		if !rb.Done {
			state = "not done: " + rb.Error
		}
		notes = append(notes, fmt.Sprintf("rebuild of member %d: %s s (%s); foreground mean %s ms, %s ms healthy: %sx slower",
			rb.Member, metrics.FormatFixed(a.RebuildSeconds, 3), state, metrics.FormatSig(rb.ForegroundMeanMS, 4),
			metrics.FormatSig(rb.HealthyMeanMS, 4), metrics.FormatFixed(rb.ForegroundSlowdown, 2)))
		if sp := rb.Spare; sp != nil {
			notes = append(notes, sp.text())
		}
	}
	if a.RepairedSectors > 0 {
		notes = append(notes, fmt.Sprintf("repaired %d sectors: member reads that failed were served from the redundancy and rewritten", a.RepairedSectors))
	}
	if a.LostBytes > 0 {
		notes = append(notes, fmt.Sprintf("lost %d bytes (%s) in %d ranges (byte offset+length): %s", a.LostBytes,
			trace.FormatSize(a.LostBytes), len(a.LostRanges), strings.Join(a.LostRanges, " ")))
	}
	return notes
}

// cacheTable is the volume cache's counters.
func (r *Report) cacheTable() *metrics.Table {
	c := r.Cache
	if c == nil {
		return nil
	}
	filled := "never"
	if c.FilledAtSeconds != nil {
		filled = metrics.FormatFixed(*c.FilledAtSeconds, 3)
	}
	t := &metrics.Table{
		Title: fmt.Sprintf("\nVolume cache (%s, %s%s)", trace.FormatSize(c.SizeBytes), c.Mode, map[bool]string{true: ", non-volatile"}[c.NonVolatile]),
		Header: []string{"read hits", "absorbed writes", "destages", "coalescing", "full-stripe", "dirty peak KiB",
			"stalls", "stall s", "filled at s", "dirty at end KiB"},
	}
	t.AddRow(metrics.FormatFixed(c.ReadHitRatio, 3), fmt.Sprint(c.WritesAbsorbed), fmt.Sprint(c.Destages),
		metrics.FormatFixed(c.CoalescingFactor, 2), metrics.FormatFixed(c.FullStripeDestageRatio, 3),
		kib(c.DirtyPeakBytes), fmt.Sprint(c.Stalls), metrics.FormatFixed(c.StallSeconds, 3), filled,
		kib(c.DirtyAtEndBytes))
	return t
}

// drivesTables are the drives' rows, one table per kind of drive, in
// the order of the drives.
func (r *Report) drivesTables() []*metrics.Table {
	rows := make([]drive.Row, len(r.Disks))
	for i, d := range r.Disks {
		rows[i] = d.Row()
	}
	return textTables(drive.Tables(rows))
}

// textTables makes metrics tables of drive tables.
func textTables(tt []drive.TextTable) []*metrics.Table {
	out := make([]*metrics.Table, len(tt))
	for i, t := range tt {
		out[i] = &metrics.Table{Title: t.Title, Header: t.Header, Notes: t.Notes, Rows: t.Rows}
	}
	return out
}

// kib prints b bytes in KiB, exactly (3072, 2.5): the unit of every
// byte column of the text report, named in its header.
func kib(b int64) string { return drive.KiB(b).String() }

// windowWords names the window a trace was reordered within.
func (tr *TraceReport) windowWords() string {
	if tr.ReorderRecords > 0 {
		return fmt.Sprintf("window of %d records", tr.ReorderRecords)
	}
	return fmt.Sprintf("window %v", time.Duration(math.Round(tr.ReorderWindowS*1e9)))
}

// jobsTable lists a phase's concurrent jobs (or reporting groups), one
// row each.
func (ph *PhaseReport) jobsTable() *metrics.Table {
	if len(ph.Jobs) == 0 {
		return nil
	}
	t := &metrics.Table{Title: "\nJobs", Header: []string{"job", "group", "jobs", "reads", "writes", "IOPS", "MB/s",
		"mean ms", "p99 ms", "start s", "runtime s"}}
	for _, j := range ph.Jobs {
		t.AddRow(j.Name, fmt.Sprint(j.Group), fmt.Sprint(j.Jobs), fmt.Sprint(j.Read.IOs), fmt.Sprint(j.Write.IOs),
			metrics.FormatFixed(j.All.IOPS, 1), metrics.FormatFixed(j.All.MBPerS, 2),
			metrics.FormatFixed(j.All.LatencyMS.Mean, 2), metrics.FormatFixed(j.All.LatencyMS.P99, 2),
			metrics.FormatFixed(j.StartS, 3), metrics.FormatFixed(j.SimSeconds, 3))
	}
	return t
}
