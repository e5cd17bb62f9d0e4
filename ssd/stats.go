package ssd

import (
	"time"

	"github.com/raidsim/raidsim/sim"
)

// Stats are a drive's counters since the run began (after
// preconditioning). Drive.Stats returns a copy with the derived figures
// filled in. Units are map units (Params.MapUnit bytes).
type Stats struct {
	// Reads, Writes, Flushes and Trims count completed requests.
	Reads, Writes, Flushes, Trims int64
	// ReadBytes, WriteBytes and TrimBytes count their bytes.
	ReadBytes, WriteBytes, TrimBytes int64

	// FlashReads counts page reads from the flash array.
	FlashReads int64
	// BufferReadHits counts units read from the write buffer.
	BufferReadHits int64
	// UnmappedReads counts units read that hold no data (never written
	// or trimmed): they return zeroes without touching flash.
	UnmappedReads int64
	// BufferStalls counts writes that waited for room in the buffer.
	BufferStalls int64
	// BufferedWrites counts writes acknowledged from the write buffer
	// (before their program).
	BufferedWrites int64
	// BufferPeakBytes and BufferMeanBytes are the most and the
	// time-weighted mean of the write buffer in use, in bytes.
	BufferPeakBytes int64
	BufferMeanBytes float64
	// SLCUsedBytes is the data held in the pseudo-SLC cache now, not
	// yet moved to native cells, in bytes.
	SLCUsedBytes int64

	// Programs counts (multi-plane) page programs of host data;
	// ProgramUnits the units they wrote.
	Programs, ProgramUnits int64
	// HostUnits counts units the host wrote (mapped by the FTL).
	HostUnits int64
	// GCPageMoves counts valid units garbage collection copied.
	GCPageMoves int64
	// Erases counts block erases.
	Erases int64
	// BackgroundGCs counts blocks cleaned while the drive was idle.
	BackgroundGCs int64
	// GCTime is the die time garbage collection took (summed over dies).
	GCTime time.Duration
	// DieTime is the time the dies have been busy reading, programming,
	// erasing and collecting garbage, summed over dies (work scheduled
	// past now not counted); DieUtilization is the dies' mean busy share
	// of the elapsed time, 0..1.
	DieTime        time.Duration
	DieUtilization float64
	// MaxEraseCount is the highest erase count of any block (wear),
	// preconditioning included.
	MaxEraseCount int64
	// FreeBlocksMin is the fewest free blocks any die had, ever
	// (preconditioning included): the free-block low water.
	FreeBlocksMin int64
	// SLCUnits counts units programmed into the pseudo-SLC cache;
	// SLCMigratedUnits those moved from it to native cells when idle.
	SLCUnits, SLCMigratedUnits int64
	// WriteAmplification is flash page programs over host page
	// programs, as the literature defines it, each counted once
	// programmed: host units (ProgramUnits) plus garbage collection's
	// copies plus units moved out of the pseudo-SLC cache
	// (SLCMigratedUnits), over ProgramUnits. A copy counts when the host
	// write that forced it is programmed (background GC's when its work
	// ends), so writes still in the buffer count on neither side; 0
	// before any program.
	WriteAmplification float64

	// Elapsed is the virtual time since the drive was created.
	Elapsed time.Duration
	// BusyTime is the time at least one request was outstanding;
	// Utilization is BusyTime / Elapsed.
	BusyTime    time.Duration
	Utilization float64

	created sim.Time
}

// Stats returns the counters with derived figures filled in.
func (d *Drive) Stats() Stats {
	s := d.st
	fs := d.f.stats()
	s.HostUnits = int64(fs.hostUnits - d.base.hostUnits)
	s.GCPageMoves = int64(fs.gcMoves - d.base.gcMoves)
	s.Erases = int64(fs.erases - d.base.erases)
	s.MaxEraseCount = int64(fs.maxErase)
	s.FreeBlocksMin = int64(fs.freeMin)
	if s.ProgramUnits > 0 {
		s.WriteAmplification = float64(s.ProgramUnits+d.gcProgrammed+s.SLCMigratedUnits) / float64(s.ProgramUnits)
	}
	s.Elapsed = d.eng.Now().Sub(s.created)
	s.DieTime = d.dieTime()
	if d.outstanding > 0 {
		s.BusyTime += d.eng.Now().Sub(d.busySince)
	}
	if s.Elapsed > 0 {
		s.Utilization = float64(s.BusyTime) / float64(s.Elapsed)
		s.DieUtilization = min(float64(s.DieTime)/(float64(s.Elapsed)*float64(len(d.dies))), 1)
		d.accrueBuffer(d.eng.Now())
		s.BufferMeanBytes = d.bufArea / float64(s.Elapsed)
	}
	s.SLCUsedBytes = d.slcUsed * d.unitBytes
	return s
}

// dieTime is the time the dies have been busy up to now, summed over
// dies.
func (d *Drive) dieTime() time.Duration {
	now := d.eng.Now()
	t := d.st.DieTime
	for i := range d.dies {
		q := &d.dies[i].spans
		for k := 0; k < q.n && q.at(k).start < now; k++ {
			t += min(q.at(k).end, now).Sub(q.at(k).start)
		}
	}
	return t
}
