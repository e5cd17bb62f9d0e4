package exact

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestPicosecondsTruncatesAsX87 checks dm_time_dtoi as the reference
// build computes it: the product with 10^9 in an x87 register (64-bit
// mantissa), truncated. The double nearest 0.004292 is
// 0.0042919999999999998083..., so the product is 4,291,999.99999999998
// ps: a double rounds it up to 4,292,000, the x87 register keeps it
// below and truncation gives 4,291,999 (DiskSim's seek of 21 cylinders
// on an HPL curve of 2.606865 + 0.004292 ms a cylinder is 2,696,996,978
// ps, 22 ps short of the decimal figure). A product that is exact, or
// a little above a whole picosecond, truncates to that picosecond.
func TestPicosecondsTruncatesAsX87(t *testing.T) {
	for _, c := range []struct {
		ms   float64
		want int64
	}{
		{0.004292, 4291999},
		{2.606865, 2606864999},
		{0.060311, 60310999},
		{0.5, 500000000},
		{1, 1000000000},
		{0.1, 100000000},       // 0.1000000000000000055...: above, stays
		{1.337182, 1337182000}, // 1.33718200000000000927...: above, stays
		{0, 0},
	} {
		assert.Equal(t, c.want, Picoseconds(c.ms), "%v ms", c.ms)
	}
	assert.Equal(t, int64(2696996978), 21*Picoseconds(0.004292)+Picoseconds(2.606865))
}

// TestPeriodPs checks the revolution time dm_mech_g1_loadparams
// computes: 1000 / (rpm / 60) ms with the quotients in x87 registers,
// then dm_time_dtoi. At 8,000 rpm DiskSim has 7,500,000,000 ps (read
// from the reference binary with gdb); doubles round rpm/60 up to
// 133.33333333333334 and give 7.499999999999999 ms, a picosecond
// short.
func TestPeriodPs(t *testing.T) {
	for rpm, want := range map[int]int64{
		7200:  8333333333,
		8000:  7500000000,
		4000:  15000000000,
		5400:  11111111111,
		10025: 5985037406,
		15000: 4000000000,
	} {
		assert.Equal(t, want, periodPs(rpm), "%d rpm", rpm)
	}
}

// testMech is a 7,200 rpm drive (8,333,333,333 ps a revolution) with
// one zone of 256 sectors a track and no skews: sector s starts at
// angle s * 2^24.
func testMech(t *testing.T) *mech {
	t.Helper()
	l, err := newLayout(&Layout{Sparing: sectPerZone, RangeSize: 1, Surfaces: 1, Cylinders: 4,
		Zones: []Zone{{FirstCyl: 0, LastCyl: 3, BlocksPerTrack: 256}}})
	if err != nil {
		t.Fatal(err)
	}
	return newMech(&Mech{RPM: 7200}, l)
}

// TestRotateSteps checks dm_rotate_g1's fixed point: a time turns the
// platter by (t * 2^24 / period) * 2^8, truncated, so a quarter of a
// revolution (2,083,333,333 ps, itself truncated) falls one step of 2^8
// short of 2^30, and a whole revolution comes back to the same angle.
func TestRotateSteps(t *testing.T) {
	m := testMech(t)
	assert.Equal(t, int64(8333333333), m.period)
	assert.Equal(t, uint32(1<<30-256), m.rotate(2083333333))
	assert.Equal(t, uint32(0), m.rotate(m.period))
	assert.Equal(t, uint32(0), m.rotate(1), "less than a step turns nothing")
	assert.Equal(t, uint32(256), m.rotate(m.period/(1<<24)+1))
}

// TestRotTimeSteps checks dm_rottime_g1: the angle is shifted right by
// 12 bits before it is scaled, so a wait moves in steps of period /
// 2^20 (7,947 ps at 7,200 rpm) and an angle below one step costs
// nothing.
func TestRotTimeSteps(t *testing.T) {
	m := testMech(t)
	assert.Equal(t, int64(2083333333), m.rotTime(0, 1<<30))
	assert.Equal(t, int64(0), m.rotTime(0, 4095))
	assert.Equal(t, int64(7947), m.rotTime(0, 4096))
	assert.Equal(t, int64(0), m.rotTime(12345, 12345))
	// b behind a: nearly a whole turn, (2^20 - 1) steps.
	assert.Equal(t, int64(8333325385), m.rotTime(1<<30+256, 1<<30))
}

// TestLatencyCatchOrMiss checks dm_latency_g1 for a sector starting at
// 2^30 (sector 64): a head at that angle reads it at once, a head one
// rotate step (2^8) past it waits a revolution less a rottime step,
// which is how a difference of one step in the platter's angle turns
// into 8.33 ms at 7,200 rpm (docs/disksim-fidelity.md, pair 38).
func TestLatencyCatchOrMiss(t *testing.T) {
	m := testMech(t)
	for _, c := range []struct {
		theta uint32
		want  int64
	}{
		{0, 2083333333},
		{1 << 30, 0},
		{1<<30 + 256, 8333325385},
		{1<<30 - 4096, 7947},
	} {
		wait, extra := m.latency(state{theta: c.theta}, 64, 1, false)
		assert.Equal(t, c.want, wait, "theta %d", c.theta)
		assert.Equal(t, int64(0), extra)
	}
}
