package disk

import "github.com/raidsim/raidsim/sim"

// Rotation is computed exactly in integers. Angles are measured in units
// of 1/unitsPerRev of a revolution, with unitsPerRev = 60e9: the platter
// turns rpm revolutions in 60e9 ns, so it advances rpm units per
// nanosecond and one revolution takes unitsPerRev/rpm ns. Angle 0 is the
// angle at t = 0; the angle at t is (t mod 60e9) * rpm mod unitsPerRev,
// which never drifts however long the run.
const unitsPerRev int64 = 60_000_000_000

// lateTolerance is how many nanoseconds late the head may reach a sector
// and still catch it: it absorbs the rounding of transfer times to whole
// nanoseconds, so a transfer that continues exactly where the previous
// one ended does not lose a revolution.
const lateTolerance = 2

// angleAt returns the platter's angle at time t.
func angleAt(t sim.Time, rpm int64) int64 {
	return int64(t) % unitsPerRev * rpm % unitsPerRev
}

// xferNs returns the nanoseconds k sectors of zone z take to pass under
// the head, rounded up.
func (z *zoneInfo) xferNs(k int64) int64 {
	return (k*unitsPerRev + z.den - 1) / z.den
}

// sectorsIn returns how many whole sectors of zone z pass under the head
// in d ns.
func (z *zoneInfo) sectorsIn(d int64) int64 {
	if d <= 0 {
		return 0
	}
	return d * z.den / unitsPerRev
}

// revNs returns one revolution in ns (rounded down).
func revNs(rpm int64) int64 { return unitsPerRev / rpm }
