package raid

import (
	"fmt"
	"time"

	"github.com/raidsim/raidsim/sim"
)

// counters are the array-wide counts kept while running.
type counters struct {
	reads, writes, flushes int64
	readBytes, writeBytes  int64
	fullStripe, rmw, rcw   int64
	degradedWrites         int64
	prereads, prereadBytes int64
	degradedReads          int64
	reconstructed          int64
	waits                  int64
	errors                 int64
	repairs, repairedBytes int64
}

// MemberStats is one member slot's share of the work.
type MemberStats struct {
	// Index is the member's slot in the array.
	Index int
	// Name is the member device's Name() when it has one (disk.Drive
	// does), else "member<Index>".
	Name string
	// Failed reports that the member has failed and is not rebuilt.
	Failed bool
	// FailedAt is the virtual time of the failure (when Failed).
	FailedAt sim.Time
	// Kicked reports that the array failed the member itself, after a
	// write to it failed (md_error), rather than Fail or FailAt.
	Kicked bool
	// Reads, Writes and Flushes count member requests completed without
	// error; IOs is Reads + Writes (flushes excluded).
	Reads, Writes, Flushes, IOs int64
	// ReadBytes and WriteBytes sum their lengths.
	ReadBytes, WriteBytes int64
	// Errors counts member requests that completed with an error.
	Errors int64
	// BusyTime is the time at least one request was outstanding on the
	// member; Utilization is BusyTime / Elapsed.
	BusyTime    time.Duration
	Utilization float64
}

// RebuildStats reports a rebuild's progress.
type RebuildStats struct {
	// Started reports that Rebuild was called; Active that it is still
	// running; Done that it completed and the member is healthy again.
	Started, Active, Done bool
	// Member is the slot being (or that was) rebuilt.
	Member int
	// Bytes of Total bytes of the spare are rebuilt; Progress is their
	// ratio, 0..1.
	Bytes, Total int64
	Progress     float64
	// Start and End are the virtual times the rebuild began and ended;
	// Duration is End - Start, or the time so far while Active.
	Start, End sim.Time
	Duration   time.Duration
	// Err is why the rebuild stopped early, if it did.
	Err error
}

// Stats is a snapshot of the array's counters.
type Stats struct {
	// Elapsed is the virtual time since New.
	Elapsed time.Duration
	// Reads, Writes and Flushes count requests accepted by Submit;
	// ReadBytes and WriteBytes sum their lengths.
	Reads, Writes, Flushes int64
	ReadBytes, WriteBytes  int64
	// Errors counts requests completed with an error (for example
	// ErrDataLost).
	Errors int64
	// FullStripeWrites, RMWWrites and RCWWrites count RAID 5 stripe
	// updates by method: whole stripe (no reads), read-modify-write and
	// reconstruct-write. A request spanning stripes counts once per
	// stripe.
	FullStripeWrites, RMWWrites, RCWWrites int64
	// DegradedWrites counts RAID 5 stripe updates made while a member of
	// the stripe was unavailable (included in the counts above, or on
	// their own when the parity member is the one missing).
	DegradedWrites int64
	// PrereadIOs and PrereadBytes count the member reads RAID 5 writes
	// made before writing.
	PrereadIOs, PrereadBytes int64
	// DegradedReads counts read requests that reconstructed data of a
	// failed member from the others; ReconstructedBytes sums what they
	// reconstructed.
	DegradedReads, ReconstructedBytes int64
	// OrderingWaits counts requests that waited for an earlier
	// overlapping write (on RAID 5, a write to the same stripe).
	OrderingWaits int64
	// Repairs counts member reads that failed (an unreadable sector) and
	// were served from the redundancy instead, and RepairedBytes the
	// bytes then written back to the member (md's read-error repair).
	Repairs, RepairedBytes int64
	// LostBytes is the data a rebuild could not recover (see
	// Array.LostRanges).
	LostBytes int64
	// Members has one entry per member slot.
	Members []MemberStats
	// Rebuild reports the current or last rebuild.
	Rebuild RebuildStats
}

// Stats returns the counters so far.
func (a *Array) Stats() Stats {
	now := a.eng.Now()
	el := now.Sub(a.created)
	c := a.ct
	s := Stats{
		Elapsed: el, Reads: c.reads, Writes: c.writes, Flushes: c.flushes,
		ReadBytes: c.readBytes, WriteBytes: c.writeBytes, Errors: c.errors,
		FullStripeWrites: c.fullStripe, RMWWrites: c.rmw, RCWWrites: c.rcw, DegradedWrites: c.degradedWrites,
		PrereadIOs: c.prereads, PrereadBytes: c.prereadBytes,
		DegradedReads: c.degradedReads, ReconstructedBytes: c.reconstructed, OrderingWaits: c.waits,
		Repairs: c.repairs, RepairedBytes: c.repairedBytes, LostBytes: a.LostBytes(),
		Members: make([]MemberStats, a.n),
	}
	for i := range a.mem {
		m := &a.mem[i]
		busy := m.busy
		if m.outstanding > 0 {
			busy += now.Sub(m.busySince)
		}
		name := fmt.Sprintf("member%d", i)
		if nd, ok := m.dev.(interface{ Name() string }); ok {
			name = nd.Name()
		}
		ms := MemberStats{Index: i, Name: name, Failed: m.failed, Reads: m.reads, Writes: m.writes, Flushes: m.flushes,
			IOs: m.reads + m.writes, ReadBytes: m.readBytes, WriteBytes: m.writeBytes, Errors: m.errors, BusyTime: busy}
		if m.failed {
			ms.FailedAt, ms.Kicked = m.failedAt, m.kicked
		}
		if el > 0 {
			ms.Utilization = float64(busy) / float64(el)
		}
		s.Members[i] = ms
	}
	if rb := a.rb; rb != nil {
		r := RebuildStats{Started: true, Active: rb.active, Member: rb.member, Total: rb.rows * a.u,
			Bytes: rb.row * a.u, Start: rb.started, End: rb.finished, Err: rb.err}
		r.Done = !rb.active && rb.err == nil && rb.row >= rb.rows
		if r.Total > 0 {
			r.Progress = float64(r.Bytes) / float64(r.Total)
		}
		if rb.active {
			r.Duration = now.Sub(rb.started)
		} else {
			r.Duration = rb.finished.Sub(rb.started)
		}
		s.Rebuild = r
	}
	return s
}
