package raid_test

import (
	"strings"
	"testing"
	"time"

	"github.com/raidsim/raidsim/raid"
	"github.com/raidsim/raidsim/sim"
	"github.com/raidsim/raidsim/simtest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func mem(t *testing.T, eng *sim.Engine, capacity int64, ss int) sim.Device {
	t.Helper()
	m, err := simtest.NewMemDevice(eng, simtest.MemConfig{Capacity: capacity, SectorSize: ss})
	require.NoError(t, err)
	return m
}

func TestValidateReportsEveryProblem(t *testing.T) {
	eng := sim.NewEngine(1)
	err := raid.Config{Level: raid.RAID5, StripeUnit: 6000}.Validate(mem(t, eng, 1<<20, 512), mem(t, eng, 1<<20, 4096))
	require.Error(t, err)
	msg := err.Error()
	for _, want := range []string{
		"raid: RAID 5 needs at least 3 members, got 2",
		"raid: members have different sector sizes: member 0 has 512 bytes, member 1 has 4096",
		"raid: Config.StripeUnit 6000 bytes is not a multiple of member 0's sector size (512 bytes)",
		"raid: Config.StripeUnit 6000 bytes is not a multiple of member 1's sector size (4096 bytes)",
	} {
		assert.Contains(t, msg, want)
	}

	err = raid.Config{Level: 7, StripeUnit: -1, Layout: 9, Raid5Write: 7, ReadPolicy: 3, ParityRate: -2, RebuildRate: -3}.Validate()
	require.Error(t, err)
	assert.Len(t, strings.Split(err.Error(), "\n"), 7, err.Error())
	assert.Contains(t, err.Error(), "raid: Config.Level: unknown level 7 (want 0, 1, 5, 6 or 10)")

	d := mem(t, eng, 1<<20, 512)
	err = raid.Config{Level: raid.RAID10, StripeUnit: 4096}.Validate(d, d, d)
	assert.EqualError(t, err, "raid: RAID 10 needs an even number of members, got 3")
	err = raid.Config{Level: raid.RAID1, StripeUnit: 4096}.Validate(d)
	assert.EqualError(t, err, "raid: RAID 1 needs at least 2 members, got 1")
	err = raid.Config{Level: raid.RAID0, StripeUnit: 2 << 20}.Validate(d, d)
	assert.EqualError(t, err, "raid: the smallest member (1048576 bytes) is smaller than one stripe unit (2097152 bytes)")
	assert.NoError(t, raid.Config{}.WithDefaults().Validate(d, d))

	_, err = raid.New(eng, raid.Config{Level: raid.RAID5}, nil, "md0", nil)
	assert.ErrorContains(t, err, "raid: RAID 5 needs at least 3 members, got 0")
}

func TestUnequalMembersUseTheSmallest(t *testing.T) {
	eng := sim.NewEngine(1)
	devs := []sim.Device{mem(t, eng, 1<<20, 512), mem(t, eng, 3<<20, 512), mem(t, eng, 1<<20+4096, 512)}
	cfg := raid.Config{Level: raid.RAID5, StripeUnit: 64 << 10}
	assert.NoError(t, cfg.Validate(devs...), "unequal capacities are not an error")
	assert.Equal(t, []string{"raid: members have unequal capacities (1048576 to 3145728 bytes); each is used up to 1048576 bytes"}, cfg.Notes(devs...))
	a, err := raid.New(eng, cfg, devs, "md0", nil)
	require.NoError(t, err)
	assert.Equal(t, int64(2<<20), a.Capacity())
	g := a.Geometry()
	assert.Equal(t, raid.Geometry{Level: raid.RAID5, Members: 3, DataMembers: 2, StripeUnit: 64 << 10, FullStripe: 128 << 10, MemberBytes: 1 << 20}, g)

	// Capacity rounds down to whole stripes.
	devs = []sim.Device{mem(t, eng, 1<<20+512, 512), mem(t, eng, 1<<20+512, 512)}
	a, err = raid.New(eng, raid.Config{Level: raid.RAID0, StripeUnit: 64 << 10}, devs, "md1", nil)
	require.NoError(t, err)
	assert.Equal(t, int64(2<<20), a.Capacity())
}

func TestParseFailure(t *testing.T) {
	f, err := raid.ParseFailure("1@1.5s")
	require.NoError(t, err)
	assert.Equal(t, raid.Failure{Member: 1, At: 1500 * time.Millisecond}, f)
	assert.Equal(t, "1@1.5s", f.String())
	for _, bad := range []string{"1", "x@1s", "-1@1s", "1@soon", "1@-2s"} {
		_, err := raid.ParseFailure(bad)
		assert.Error(t, err, bad)
	}
}
