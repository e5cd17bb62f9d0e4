package raidz

import (
	"fmt"

	"github.com/raidsim/raidsim/raid"
)

// Stats are the array's counters.
type Stats struct {
	// Reads, Writes, Trims and Flushes count host requests; ReadBytes and
	// WriteBytes their bytes; Errors those that failed.
	Reads, Writes, Trims, Flushes, Errors int64
	ReadBytes, WriteBytes                 int64
	// RMWReads counts writes that read their record's old data first
	// (they covered it in part).
	RMWReads int64
	// DegradedReads counts record reads that reconstructed columns of
	// unusable children; ReconstructedBytes those columns' bytes.
	DegradedReads, ReconstructedBytes int64
	// AllocatedBytes is the vdev space records take.
	AllocatedBytes int64
}

// Stats returns the counters so far.
func (a *Array) Stats() Stats {
	c := a.ct
	return Stats{Reads: c.reads, Writes: c.writes, Trims: c.trims, Flushes: c.flushes, Errors: c.errors,
		ReadBytes: c.readBytes, WriteBytes: c.writeBytes, RMWReads: c.rmwReads,
		DegradedReads: c.degradedReads, ReconstructedBytes: c.reconstructed, AllocatedBytes: a.AllocatedBytes()}
}

// RebuildStats returns the current or last resilver's progress in
// package raid's terms, for reports shared with md's levels.
func (a *Array) RebuildStats() raid.RebuildStats {
	s, ok := a.Scan()
	if !ok || !s.Resilver {
		return raid.RebuildStats{}
	}
	rs := raid.RebuildStats{Started: true, Active: s.Active, Done: !s.Active && s.Err == nil, Member: s.Member,
		Bytes: s.Bytes, Total: s.Total, Start: s.Start, End: s.End, Err: s.Err}
	if s.Total > 0 {
		rs.Progress = float64(s.Bytes) / float64(s.Total)
	}
	end := s.End
	if s.Active {
		end = a.eng.Now()
	}
	rs.Duration = end.Sub(s.Start)
	return rs
}

// Report is the array's section of a run's report, in package raid's
// terms: Level "RAIDZ1".."RAIDZ3", StripeUnit the recordsize.
func (a *Array) Report() raid.Report {
	c := a.ct
	r := raid.Report{Level: fmt.Sprintf("RAIDZ%d", a.g.Parity), Members: len(a.members), StripeUnit: a.cfg.RecordSize,
		PrereadBytes: 0, DegradedReads: c.degradedReads, Errors: c.errors,
		FailedMembers: []int{}, LostRanges: []string{}}
	r.FailedMembers = append(r.FailedMembers, a.Failed()...)
	if rb := a.RebuildStats(); rb.Started {
		r.RebuildSeconds = rb.Duration.Seconds()
	}
	return r
}
