package raid_test

import (
	"bytes"
	"testing"

	"github.com/raidsim/raidsim/raid"
	"github.com/raidsim/raidsim/sim"
	"github.com/raidsim/raidsim/simtest"
)

// TestTrimWholeChunks: a trim reaches the members as whole stripe units
// (RAID 0, 1, 10) or whole stripes on every member (RAID 5); what it
// covers only partly keeps its data, what it covers whole reads back as
// zeroes, and on RAID 5 parity still matches the data (a degraded read
// of the trimmed stripe reconstructs zeroes).
func TestTrimWholeChunks(t *testing.T) {
	for _, lv := range levels {
		t.Run(lv.name, func(t *testing.T) {
			eng := sim.NewEngine(1)
			mems, devs := memMembers(t, eng, lv.members, 4<<20)
			a, err := raid.New(eng, lv.cfg, devs, "md0", nil)
			if err != nil {
				t.Fatal(err)
			}
			u, fs := a.StripeUnit(), a.FullStripe()
			unit := u
			if lv.cfg.Level == raid.RAID5 || lv.cfg.Level == raid.RAID6 {
				unit = fs
			}
			data := bytes.Repeat([]byte{0x5a}, int(6*fs))
			run(t, eng, a, &sim.Request{Op: sim.Write, Offset: 0, Length: int64(len(data)), Data: data})
			lo, hi := unit+512, 4*unit+512 // units 2 and 3 whole; 1 and 4 in part
			before := trims(mems)
			run(t, eng, a, &sim.Request{Op: sim.Trim, Offset: lo, Length: hi - lo})
			got := make([]byte, len(data))
			run(t, eng, a, &sim.Request{Op: sim.Read, Offset: 0, Length: int64(len(got)), Data: got})
			for i, b := range got {
				want := byte(0x5a)
				if int64(i) >= 2*unit && int64(i) < 4*unit {
					want = 0
				}
				if b != want {
					t.Fatalf("byte %d = %#x, want %#x", i, b, want)
				}
			}
			perUnit := int64(1)
			switch lv.cfg.Level {
			case raid.RAID1:
				perUnit = 2
			case raid.RAID10:
				perUnit = 2
			case raid.RAID5, raid.RAID6:
				perUnit = int64(lv.members)
			}
			if n := trims(mems) - before; n != 2*perUnit {
				t.Errorf("members got %d trims, want %d", n, 2*perUnit)
			}
			if lv.cfg.Level == raid.RAID5 || lv.cfg.Level == raid.RAID6 {
				if err := a.Fail(0); err != nil {
					t.Fatal(err)
				}
				run(t, eng, a, &sim.Request{Op: sim.Read, Offset: 0, Length: int64(len(got)), Data: got})
				for i := 2 * unit; i < 4*unit; i++ {
					if got[i] != 0 {
						t.Fatalf("degraded read of trimmed byte %d = %#x: parity disagrees", i, got[i])
					}
				}
			}
		})
	}
}

// trims sums the trims the members accepted.
func trims(mems []*simtest.MemDevice) int64 {
	var n int64
	for _, m := range mems {
		n += m.Stats().Trims
	}
	return n
}

// run submits r to d and runs the engine until it is idle; r must
// succeed.
func run(t *testing.T, eng *sim.Engine, d sim.Device, r *sim.Request) {
	t.Helper()
	done := false
	r.Done = func(*sim.Request) { done = true }
	if err := d.Submit(r); err != nil {
		t.Fatal(err)
	}
	eng.Run()
	if !done || r.Err != nil {
		t.Fatalf("%v: done %v, err %v", r, done, r.Err)
	}
}
