package raidsim

import (
	"fmt"

	"github.com/raidsim/raidsim/metrics"
	"github.com/raidsim/raidsim/ssd"
)

// SSDReport is a solid-state drive's flash-side figures over the run
// (after preconditioning).
type SSDReport struct {
	// Precondition is the state the drive was put in before the run:
	// none, fill or steady.
	Precondition string `json:"precondition"`
	// WriteAmplification is flash writes over host writes during the run
	// (0 without writes).
	WriteAmplification float64 `json:"write_amplification"`
	// GCPageMoves counts map units garbage collection copied.
	GCPageMoves int64 `json:"gc_page_moves"`
	// Erases counts block erases during the run.
	Erases int64 `json:"erases"`
	// MaxEraseCount is the most any block was erased (wear),
	// preconditioning included.
	MaxEraseCount int64 `json:"max_erase_count"`
	// FreeBlocksMin is the fewest free blocks any die had.
	FreeBlocksMin int64 `json:"free_blocks_min"`
	// SLCCacheHits counts map units written into the pseudo-SLC cache
	// (absent for drives without one).
	SLCCacheHits *int64 `json:"slc_cache_hits,omitempty"`
	// BufferStalls counts writes that waited for room in the write
	// buffer.
	BufferStalls int64 `json:"buffer_stalls"`
	// PowerLossProtection reports a write buffer kept by capacitors.
	PowerLossProtection bool `json:"power_loss_protection"`
}

// ssdReport summarizes an SSD's statistics for Report.Disks.
func ssdReport(d *ssd.Drive) DiskReport {
	p := d.Params()
	st := d.Stats()
	sr := &SSDReport{
		Precondition: d.Preconditioned().Kind.String(), WriteAmplification: st.WriteAmplification,
		GCPageMoves: st.GCPageMoves, Erases: st.Erases, MaxEraseCount: st.MaxEraseCount,
		FreeBlocksMin: st.FreeBlocksMin, BufferStalls: st.BufferStalls, PowerLossProtection: p.PowerLossProtection,
	}
	if p.SLCCache > 0 {
		sr.SLCCacheHits = &st.SLCUnits
	}
	return DiskReport{
		Name: d.Name(), Model: p.Name, WriteCache: p.WriteBuffer > 0, Scheduler: "fcfs",
		QueueDepth: p.QueueDepth, IOs: st.Reads + st.Writes + st.Flushes + st.Trims,
		Utilization: st.Utilization, BufferReadHits: st.BufferReadHits, WriteCacheHits: st.BufferedWrites,
		DirtyBytesAtEnd: d.VolatileBytes(), SSD: sr,
	}
}

// ssdTable is one row of flash figures per SSD, or nil without SSDs.
func (r *Report) ssdTable() *metrics.Table {
	t := &metrics.Table{
		Title:  "\nSSDs",
		Header: []string{"ssd", "precondition", "write ampl.", "GC moves", "erases", "max erases", "free blocks min", "SLC writes", "buffer stalls"},
	}
	for _, d := range r.Disks {
		s := d.SSD
		if s == nil {
			continue
		}
		slc := "-"
		if s.SLCCacheHits != nil {
			slc = fmt.Sprint(*s.SLCCacheHits)
		}
		t.AddRow(d.Name, s.Precondition, metrics.FormatFixed(s.WriteAmplification, 2), fmt.Sprint(s.GCPageMoves),
			fmt.Sprint(s.Erases), fmt.Sprint(s.MaxEraseCount), fmt.Sprint(s.FreeBlocksMin), slc, fmt.Sprint(s.BufferStalls))
	}
	if len(t.Rows) == 0 {
		return nil
	}
	return t
}
