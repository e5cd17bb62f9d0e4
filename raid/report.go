package raid

import "fmt"

// Report is the array's section of a run's report: its geometry and its
// counters, with the JSON names the raidsim report uses.
type Report struct {
	// Level is "RAID 0", "RAID 1", "RAID 5", "RAID 6" or "RAID 10".
	Level string `json:"level"`
	// Members is the number of member slots.
	Members int `json:"members"`
	// StripeUnit is the bytes each member holds of one stripe.
	StripeUnit int64 `json:"stripe_unit_bytes"`
	// Layout is the RAID 5 or 6 parity layout (empty for other levels).
	Layout string `json:"layout,omitempty"`
	// FullStripeWrites, RMWWrites and RCWWrites count RAID 5 and 6
	// stripe updates by method: whole stripe (no reads),
	// read-modify-write, reconstruct-write.
	FullStripeWrites int64 `json:"full_stripe_writes"`
	RMWWrites        int64 `json:"rmw_writes"`
	RCWWrites        int64 `json:"rcw_writes"`
	// PrereadBytes counts bytes writes read before writing.
	PrereadBytes int64 `json:"preread_bytes"`
	// DegradedReads counts reads that reconstructed a failed member's
	// data from the others.
	DegradedReads int64 `json:"degraded_reads"`
	// FailedMembers lists the members failed when the report was made.
	FailedMembers []int `json:"failed_members"`
	// Errors counts array requests that completed with an error.
	Errors int64 `json:"errors"`
	// RepairedSectors counts sectors rewritten from the redundancy after
	// a member read failed (md's read-error repair).
	RepairedSectors int64 `json:"repaired_sectors"`
	// LostBytes is the data a rebuild could not recover (a URE met with
	// no redundancy left), and LostRanges its logical ranges as
	// "OFFSET+LENGTH" in bytes; zero and empty are answers too (nothing
	// lost).
	LostBytes  int64    `json:"lost_bytes"`
	LostRanges []string `json:"lost_ranges"`
	// RebuildSeconds is how long the rebuild took, or has run when it
	// stopped early or is still running, in virtual seconds (0 without
	// one).
	RebuildSeconds float64 `json:"rebuild_s,omitempty"`
}

// Report returns the array's section of a run's report, from its
// statistics so far.
func (a *Array) Report() Report {
	st := a.Stats()
	r := Report{
		Level: a.cfg.Level.String(), Members: len(st.Members), StripeUnit: a.cfg.StripeUnit,
		FullStripeWrites: st.FullStripeWrites, RMWWrites: st.RMWWrites, RCWWrites: st.RCWWrites,
		PrereadBytes: st.PrereadBytes, DegradedReads: st.DegradedReads, Errors: st.Errors,
		FailedMembers: []int{}, LostRanges: []string{},
		RepairedSectors: st.RepairedBytes / int64(a.ss), LostBytes: st.LostBytes,
	}
	if a.cfg.Level == RAID5 || a.cfg.Level == RAID6 {
		r.Layout = a.cfg.Layout.String()
	}
	for _, m := range st.Members {
		if m.Failed {
			r.FailedMembers = append(r.FailedMembers, m.Index)
		}
	}
	for _, e := range a.lostRanges {
		r.LostRanges = append(r.LostRanges, fmt.Sprintf("%d+%d", e.Offset, e.Length))
	}
	if st.Rebuild.Started {
		r.RebuildSeconds = st.Rebuild.Duration.Seconds()
	}
	return r
}
