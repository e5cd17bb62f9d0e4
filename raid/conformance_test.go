package raid_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/raidsim/raidsim/raid"
	"github.com/raidsim/raidsim/sim"
	"github.com/raidsim/raidsim/simtest"
)

// levels lists a configuration of every level and RAID 5 layout.
var levels = []struct {
	name    string
	cfg     raid.Config
	members int
}{
	{"level=0", raid.Config{Level: raid.RAID0, StripeUnit: 16 << 10}, 3},
	{"level=1", raid.Config{Level: raid.RAID1, StripeUnit: 16 << 10}, 2},
	{"level=5/layout=left-symmetric", raid.Config{Level: raid.RAID5, StripeUnit: 16 << 10}, 4},
	{"level=5/layout=left-asymmetric", raid.Config{Level: raid.RAID5, StripeUnit: 8 << 10, Layout: raid.LeftAsymmetric}, 5},
	{"level=5/layout=right-symmetric", raid.Config{Level: raid.RAID5, StripeUnit: 16 << 10, Layout: raid.RightSymmetric}, 3},
	{"level=5/layout=right-asymmetric", raid.Config{Level: raid.RAID5, StripeUnit: 4 << 10, Layout: raid.RightAsymmetric, Raid5Write: raid.WriteRMW}, 4},
	{"level=5/rcw", raid.Config{Level: raid.RAID5, StripeUnit: 16 << 10, Raid5Write: raid.WriteRCW, ParityRate: 1 << 30}, 5},
	{"level=6/members=4", raid.Config{Level: raid.RAID6, StripeUnit: 16 << 10}, 4},
	{"level=6/members=6", raid.Config{Level: raid.RAID6, StripeUnit: 8 << 10}, 6},
	{"level=10", raid.Config{Level: raid.RAID10, StripeUnit: 16 << 10}, 4},
}

// memMembers makes n MemDevice members of capacity bytes each.
func memMembers(t testing.TB, eng *sim.Engine, n int, capacity int64) ([]*simtest.MemDevice, []sim.Device) {
	t.Helper()
	mems := make([]*simtest.MemDevice, n)
	devs := make([]sim.Device, n)
	for i := range n {
		m, err := simtest.NewMemDevice(eng, simtest.MemConfig{Capacity: capacity,
			ReadLatency: time.Duration(100+37*i) * time.Microsecond, WriteLatency: time.Duration(150+23*i) * time.Microsecond})
		if err != nil {
			t.Fatal(err)
		}
		mems[i], devs[i] = m, m
	}
	return mems, devs
}

func TestConformance(t *testing.T) {
	for _, lv := range levels {
		t.Run(lv.name, func(t *testing.T) {
			simtest.TestDevice(t, func(t *testing.T) (sim.Device, *sim.Engine) {
				eng := sim.NewEngine(1)
				_, devs := memMembers(t, eng, lv.members, 16<<20)
				a, err := raid.New(eng, lv.cfg, devs, "md0", nil)
				if err != nil {
					t.Fatal(err)
				}
				return a, eng
			}, simtest.WithData())
		})
	}
}

// TestConformanceDegraded runs the suite on arrays with one member
// failed before the first request.
func TestConformanceDegraded(t *testing.T) {
	for _, lv := range levels {
		if lv.cfg.Level == raid.RAID0 {
			continue
		}
		for _, failed := range []int{0, lv.members - 1} {
			t.Run(fmt.Sprintf("%s/failed=%d", lv.name, failed), func(t *testing.T) {
				simtest.TestDevice(t, func(t *testing.T) (sim.Device, *sim.Engine) {
					eng := sim.NewEngine(1)
					_, devs := memMembers(t, eng, lv.members, 16<<20)
					a, err := raid.New(eng, lv.cfg, devs, "md0", nil)
					if err != nil {
						t.Fatal(err)
					}
					if err := a.Fail(failed); err != nil {
						t.Fatal(err)
					}
					return a, eng
				}, simtest.WithData())
			})
		}
	}
}

// TestConformance4KSerial runs the suite on 4096-byte-sector members
// that serve one request at a time, RAID 5 and RAID 10 stacked as RAID 0
// over two RAID 1 arrays.
func TestConformance4KSerial(t *testing.T) {
	members := func(t *testing.T, eng *sim.Engine, n int) []sim.Device {
		devs := make([]sim.Device, n)
		for i := range devs {
			m, err := simtest.NewMemDevice(eng, simtest.MemConfig{Capacity: 8 << 20, SectorSize: 4096,
				ReadLatency: 80 * time.Microsecond, WriteLatency: 120 * time.Microsecond, Serial: true})
			if err != nil {
				t.Fatal(err)
			}
			devs[i] = m
		}
		return devs
	}
	t.Run("level=5", func(t *testing.T) {
		simtest.TestDevice(t, func(t *testing.T) (sim.Device, *sim.Engine) {
			eng := sim.NewEngine(1)
			a, err := raid.New(eng, raid.Config{Level: raid.RAID5, StripeUnit: 32 << 10}, members(t, eng, 5), "md0", nil)
			if err != nil {
				t.Fatal(err)
			}
			return a, eng
		}, simtest.WithData())
	})
	t.Run("level=0-over-1", func(t *testing.T) {
		simtest.TestDevice(t, func(t *testing.T) (sim.Device, *sim.Engine) {
			eng := sim.NewEngine(1)
			var pairs []sim.Device
			for i := range 2 {
				p, err := raid.New(eng, raid.Config{Level: raid.RAID1}, members(t, eng, 2), fmt.Sprintf("md%d", i+1), nil)
				if err != nil {
					t.Fatal(err)
				}
				pairs = append(pairs, p)
			}
			a, err := raid.New(eng, raid.Config{Level: raid.RAID0, StripeUnit: 16 << 10}, pairs, "md0", nil)
			if err != nil {
				t.Fatal(err)
			}
			return a, eng
		}, simtest.WithData())
	})
}
