package campaign

import (
	"flag"
	"testing"

	"github.com/raidsim/raidsim/internal/testhooks"
)

var (
	seedFlag      = flag.Uint64("seed", 0, "campaign: run only the schedule of this seed, printing it (a failure names its seed)")
	schedulesFlag = flag.Int("schedules", ciSchedules, "campaign: how many schedules TestCampaign runs (go run ./cmd/campaign -soak 10m for a timed soak)")
)

// ciSchedules is how many schedules the CI form runs.
const ciSchedules = 2000

// campaign runs n schedules from seed 1 and returns the first that
// violates the property, or nil, with counts by kind.
func campaign(t *testing.T, n int) (bad *Result, badSched Schedule, tally map[string]int) {
	t.Helper()
	tally = map[string]int{}
	for seed := uint64(1); seed <= uint64(n); seed++ {
		s := Draw(seed)
		res, err := Run(s)
		if err != nil {
			t.Fatalf("%v\n%v", s, err)
		}
		tally["schedules"]++
		switch {
		case s.PowerLoss > 0:
			tally["power loss"]++
		case res.Exceeded:
			tally["beyond redundancy"]++
		default:
			tally["within redundancy"]++
		}
		if res.Wrong > 0 {
			tally["with sectors lost"]++
		}
		if len(res.Violations) > 0 {
			return res, s, tally
		}
	}
	return nil, Schedule{}, tally
}

// TestCampaign is the CI form of the fault campaign: 2,000 schedules
// (the -schedules flag sets another count; -seed runs one).
func TestCampaign(t *testing.T) {
	if *seedFlag != 0 {
		s := Draw(*seedFlag)
		res, err := Run(s)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%v\n%+v", s, *res)
		if len(res.Violations) > 0 {
			t.Fatalf("violations: %v", res.Violations)
		}
		return
	}
	bad, s, tally := campaign(t, *schedulesFlag)
	t.Logf("%v", tally)
	if bad != nil {
		t.Fatalf("%v\nviolations: %v\n(go test ./internal/campaign -run TestCampaign -seed %d reproduces it)", s, bad.Violations, s.Seed)
	}
}

// TestCampaignCatchesBrokenParity: with read-modify-write leaving the
// old data out of the parity (testhooks.BrokenParity) the CI form finds
// a violation.
func TestCampaignCatchesBrokenParity(t *testing.T) {
	testhooks.BrokenParity.Store(true)
	defer testhooks.BrokenParity.Store(false)
	bad, s, tally := campaign(t, ciSchedules)
	if bad == nil {
		t.Fatalf("the broken parity update went unnoticed over %v", tally)
	}
	t.Logf("caught after %d schedules, by seed %d: %v", tally["schedules"], s.Seed, bad.Violations[0])
}
