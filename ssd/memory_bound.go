package ssd

import "math"

// Memory a drive holds, measured (TestMemoryBound, TestMemoryByWhatIsTouched).
const (
	// memoryPerBlock is the per-erase-block state, fresh, filled or
	// steady: under 64 bytes.
	memoryPerBlock = 64
	// memoryPerUnit is a unit written or moved: a forward-map entry and
	// a reverse-map slot, under 40 bytes.
	memoryPerUnit = 40
	// memoryTables is the map's starting tables (65,536 forward entries,
	// a 1 MiB reverse arena) and the drive's queues: about 4.5 MB on
	// the 970 EVO Plus; 8 MiB bounds it.
	memoryTables = 8 << 20
)

// MemoryBound returns an upper bound, in bytes, of the memory one drive
// of m holds once the host has written `written` bytes to it: its erase
// blocks' state, the map's starting tables, and an entry for every unit
// written or moved by garbage collection (at the steady-state write
// amplification), at most every unit of the drive. Payloads that runs
// with Request.Data store are not counted. It is what a caller checks
// before building many drives (raidsim's up-front memory estimate).
func (m *Model) MemoryBound(written int64) int64 {
	g := &m.g
	touched := float64(max(written, 0)) / float64(g.unitSize) * max(m.ComputeFigures().SteadyWA, 1)
	units := math.Min(touched, float64(g.units))
	return memoryTables + memoryPerBlock*g.blocks() + int64(units)*memoryPerUnit
}
