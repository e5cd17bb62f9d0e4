package raid_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/raidsim/raidsim/raid"
	"github.com/raidsim/raidsim/sim"
	"github.com/raidsim/raidsim/simtest"
)

// TestUpdatesInFlight: the write hole is open while a stripe's data and
// parity writes (or a mirror's copies) are in flight, and only then.
func TestUpdatesInFlight(t *testing.T) {
	const u = 64 << 10
	for _, tc := range []struct {
		name    string
		cfg     raid.Config
		n       int
		writes  []int64 // offsets of 4 KiB writes submitted together
		maxOpen int
	}{
		{"raid5 one small write", raid.Config{Level: raid.RAID5, StripeUnit: u}, 4, []int64{0}, 1},
		{"raid5 two stripes", raid.Config{Level: raid.RAID5, StripeUnit: u}, 4, []int64{0, 3 * u}, 2},
		{"raid5 same stripe, ordered", raid.Config{Level: raid.RAID5, StripeUnit: u}, 4, []int64{0, 4096}, 1},
		{"raid1", raid.Config{Level: raid.RAID1, StripeUnit: u}, 2, []int64{0, 8192}, 2},
		{"raid10", raid.Config{Level: raid.RAID10, StripeUnit: u}, 4, []int64{0}, 1},
		{"raid0 has no redundancy", raid.Config{Level: raid.RAID0, StripeUnit: u}, 2, []int64{0, u}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			eng := sim.NewEngine(1)
			_, devs := memMembers(t, eng, tc.n, 16<<20)
			recs := make([]*simtest.Recorder, tc.n)
			for i := range devs {
				recs[i] = simtest.NewRecorder(eng, devs[i])
				devs[i] = recs[i]
			}
			a, err := raid.New(eng, tc.cfg, devs, "md0", nil)
			require.NoError(t, err)
			done := 0
			for _, off := range tc.writes {
				require.NoError(t, a.Submit(&sim.Request{Op: sim.Write, Offset: off, Length: 4096, Done: func(*sim.Request) { done++ }}))
			}
			memberWrites := func() int {
				n := 0
				for _, r := range recs {
					for _, q := range r.Requests() {
						if q.Op == sim.Write {
							n++
						}
					}
				}
				return n
			}
			peak := 0
			for eng.Step() {
				open := a.UpdatesInFlight()
				peak = max(peak, open)
				if open > 0 {
					assert.Positive(t, memberWrites(), "open before any member write was sent")
				}
			}
			assert.Equal(t, len(tc.writes), done)
			assert.Equal(t, tc.maxOpen, peak, "most updates open at once")
			assert.Zero(t, a.UpdatesInFlight(), "every update closed at the end")
		})
	}
}
