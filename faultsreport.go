package raidsim

import (
	"fmt"

	"github.com/raidsim/raidsim/sim"
	"github.com/raidsim/raidsim/spec"
)

// RebuildReport is a planned rebuild's outcome (spec.Stack.Rebuild).
type RebuildReport struct {
	// Member is the slot rebuilt onto the spare.
	Member int `json:"member"`
	// Done reports that the rebuild completed (its time is
	// raid.Report.RebuildSeconds).
	Done bool `json:"done"`
	// Error is why the rebuild did not run or stopped early.
	Error string `json:"error,omitempty"`
	// Spare is what the rebuild wrote to the replacement drive.
	Spare *SpareReport `json:"spare,omitempty"`
	// ForegroundMeanMS is the mean latency of the run's requests, and
	// HealthyMeanMS the same experiment's on a healthy array (no
	// failure, rebuild or faults); ForegroundSlowdown is their ratio.
	ForegroundMeanMS   float64 `json:"foreground_mean_ms"`
	HealthyMeanMS      float64 `json:"healthy_mean_ms"`
	ForegroundSlowdown float64 `json:"foreground_slowdown"`
}

// FaultsReport is what the drives' fault wrappers injected.
type FaultsReport struct {
	// UREs counts sectors made unreadable by the per-bit error rate;
	// MediaErrors the drive reads they failed; Timeouts the commands
	// the host's timer gave up on.
	UREs        int64 `json:"ures"`
	MediaErrors int64 `json:"media_errors"`
	Timeouts    int64 `json:"timeouts"`
	// RecoverySeconds is the drives' total error-recovery time.
	RecoverySeconds float64 `json:"recovery_s"`
	// Remapped counts unreadable sectors a write made good.
	Remapped int64 `json:"remapped_sectors"`
}

// addFaults adds what the fault wrappers injected.
func (r *Report) addFaults(s *Stack) {
	if len(s.Faults) == 0 {
		return
	}
	f := &FaultsReport{}
	for _, d := range s.Faults {
		st := d.Stats()
		f.UREs += st.UREs
		f.MediaErrors += st.MediaErrors
		f.Timeouts += st.Timeouts
		f.RecoverySeconds += st.Recovery.Seconds()
		f.Remapped += st.Rewritten
	}
	r.Faults = f
}

// finishRebuild runs the engine until a planned rebuild has ended, and
// reports it.
func (r *runner) finishRebuild() *RebuildReport {
	s, pl := r.stack, r.plan
	if pl.Rebuild == nil || s.rebuild == nil {
		return nil
	}
	rr := &RebuildReport{Member: pl.Rebuild.Member}
	for {
		rb := s.RebuildStats()
		started := rb.Started || s.rebuild.err != nil
		if started && !rb.Active || !r.eng.Step() {
			break
		}
	}
	rb := s.RebuildStats()
	rr.Done = rb.Done
	if s.Spare != nil {
		rr.Spare = s.Spare.Report()
	}
	switch {
	case s.rebuild.err != nil:
		rr.Error = s.rebuild.err.Error()
	case rb.Err != nil:
		rr.Error = rb.Err.Error()
	case !rb.Started:
		rr.Error = "the rebuild never started"
	}
	return rr
}

// healthyBaseline runs pl without its failures, rebuild and faults and
// fills rr's slowdown against it.
func healthyBaseline(pl *spec.Plan, rep *Report, rr *RebuildReport) error {
	base := *pl
	base.Failures, base.Rebuild, base.Faults = nil, nil, nil
	base.PowerLoss = false
	healthy, err := RunPlan(&base, RunOptions{})
	if err != nil {
		return fmt.Errorf("raidsim: healthy baseline: %w", err)
	}
	rr.ForegroundMeanMS = rep.Total.All.LatencyMS.Mean
	rr.HealthyMeanMS = healthy.Total.All.LatencyMS.Mean
	if rr.HealthyMeanMS > 0 {
		rr.ForegroundSlowdown = rr.ForegroundMeanMS / rr.HealthyMeanMS
	}
	return nil
}

var _ sim.Handler = (*rebuildEvent)(nil)
