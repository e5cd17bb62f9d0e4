package raidsim

import (
	"fmt"
	"io"

	"github.com/raidsim/raidsim/sim"
	"github.com/raidsim/raidsim/spec"
	"github.com/raidsim/raidsim/trace"
)

// jobMix runs a phase's workload and its background workloads at once in
// one closed loop: each job owns iodepth slots, and a completed request's
// slot takes the next record of the same job. Records carry their job's
// index in Device. The mix ends when the first job (the phase's own
// workload) ends.
type jobMix struct {
	jobs   []trace.Reader
	depths []int
	filled int     // records handed out while filling the slots
	last   int     // job of the request that completed last
	issued []int64 // reads and writes handed out per job
}

// newJobMix prepares ph's background generators beside main; drop
// wraps each (the host dropping flushes).
func newJobMix(eng *sim.Engine, dev sim.Device, ph *spec.PhasePlan, main trace.Reader, drop func(trace.Reader) trace.Reader) (*jobMix, error) {
	m := &jobMix{jobs: []trace.Reader{main}, depths: []int{ph.Workload.IODepth}}
	for j, bw := range ph.Background {
		src, err := trace.NewSynthetic(bw, eng.Rand(fmt.Sprintf("%s/bg%d", ph.Stream, j)), dev.Capacity(), dev.SectorSize())
		if err != nil {
			return nil, err
		}
		m.jobs = append(m.jobs, drop(src))
		m.depths = append(m.depths, bw.IODepth)
	}
	m.issued = make([]int64, len(m.jobs))
	return m, nil
}

// depth returns the slots of every job together.
func (m *jobMix) depth() int {
	n := 0
	for _, d := range m.depths {
		n += d
	}
	return min(n, trace.MaxIODepth)
}

// observe wraps a completion callback to note the completed job.
func (m *jobMix) observe(next func(*trace.Record, *sim.Request)) func(*trace.Record, *sim.Request) {
	return func(rec *trace.Record, r *sim.Request) {
		m.last = rec.Device
		next(rec, r)
	}
}

// Next returns the next record of the job whose slot is free.
func (m *jobMix) Next() (trace.Record, error) {
	j := m.last
	if n := m.filled; n < m.depth() {
		m.filled++
		for j = 0; j < len(m.depths)-1 && n >= m.depths[j]; j++ {
			n -= m.depths[j]
		}
	}
	rec, err := m.jobs[j].Next()
	if err != nil {
		return rec, err // the first job's end ends the phase; the others do not end first
	}
	rec.Device = j
	if rec.Op != sim.Flush {
		m.issued[j]++
	}
	return rec, nil
}

// deadline ends a reader once virtual time reaches end.
type deadline struct {
	r       trace.Reader
	eng     *sim.Engine
	end     sim.Time
	reached bool
}

// Next returns r's next record, or io.EOF from end on.
func (d *deadline) Next() (trace.Record, error) {
	if d.eng.Now() >= d.end {
		d.reached = true
		return trace.Record{}, io.EOF
	}
	return d.r.Next()
}
