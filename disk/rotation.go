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

// angleAt returns the angle at time t of a platter turning at rpm that
// was at angle phase (0 <= phase < unitsPerRev) at t = 0.
func angleAt(t sim.Time, rpm, phase int64) int64 {
	return (int64(t)%unitsPerRev*rpm + phase) % unitsPerRev
}

// angle returns the drive's platter angle at time t.
func (d *Drive) angle(t sim.Time) int64 { return angleAt(t, d.rpm, d.phase) }

// spindlePhase returns the platter's angle at t = 0 for a drive named
// name: 0 when its spindle is synchronized, otherwise drawn from the
// engine's stream "<name>/spindle", as DiskSim gives every drive outside
// a syncset a random initial rotational offset.
func spindlePhase(eng *sim.Engine, name string, synced bool) int64 {
	if synced {
		return 0
	}
	return eng.Rand(name + "/spindle").Int64N(unitsPerRev)
}

// spindleRPM returns the spindle speed of a drive named name: p.RPM,
// varied by p.RPMErrorPercent (drawn from the engine's stream
// "<name>/rpm") unless the spindle is synchronized.
func spindleRPM(eng *sim.Engine, name string, p *Params) int {
	if p.RPMErrorPercent == 0 || p.SpindleSync {
		return p.RPM
	}
	dev := float64(p.RPM) * p.RPMErrorPercent / 100
	r := float64(p.RPM) + dev*(2*eng.Rand(name+"/rpm").Float64()-1)
	return max(int(r+0.5), 1)
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
