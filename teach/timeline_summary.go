package teach

import (
	"fmt"
	"time"

	"github.com/raidsim/raidsim/lifelog"
	"github.com/raidsim/raidsim/metrics"
	"github.com/raidsim/raidsim/sim"
)

// PhaseSummary averages, over a whole run, where requests spent their
// time: each host request's critical path (which adds up to its
// latency) by op, and every drive command's service phases (host
// requests' member I/Os, destages and read-ahead alike). Attach
// Observer() to a run; it keeps sums, not requests.
type PhaseSummary struct {
	// Host sums host requests by op (read, write, flush).
	Host [3]PhaseSums
	// Drive sums drive commands by op.
	Drive [3]PhaseSums

	log lifelog.Log
}

// PhaseSums is a count of requests and their summed time by label
// (lifelog.Labels: the phases, then other).
type PhaseSums struct {
	N       int64
	Latency time.Duration
	By      [8]time.Duration
}

// NewPhaseSummary returns an empty summary.
func NewPhaseSummary() *PhaseSummary {
	s := &PhaseSummary{}
	s.log = lifelog.Log{Discard: true, Finished: s.finished}
	return s
}

// Observer returns the hooks that feed the summary.
func (s *PhaseSummary) Observer() *sim.Observer { return s.log.Observer() }

func (s *PhaseSummary) finished(l *lifelog.Life) {
	if !l.Background && int(l.Op) < len(s.Host) {
		s.Host[l.Op].add(l)
	}
	l.Walk(func(c *lifelog.Life) {
		if len(c.Children) == 0 && len(c.Layers) > 0 && isDriveName(c.Layers[0]) && int(c.Op) < len(s.Drive) {
			s.Drive[c.Op].add(c)
		}
	})
}

func (p *PhaseSums) add(l *lifelog.Life) {
	p.N++
	p.Latency += l.Completed.Sub(l.Submitted)
	t := lifelog.Totals(l.Breakdown())
	for i := range t {
		p.By[i] += t[i]
	}
}

// isDriveName reports whether a device name is a drive's as raidsim.Build
// names them ("disk0", "xdisk3").
func isDriveName(name string) bool {
	_, ok := lifelog.DriveIndex(name)
	return ok
}

// Table renders the averages in milliseconds per request.
func (s *PhaseSummary) Table() metrics.Table {
	tb := metrics.Table{
		Title:  "Where the time went: mean ms per request",
		Header: append(append([]string{"requests", "op", "count"}, lifelog.Labels...), "latency"),
		Notes: []string{"Host rows follow each request's critical path, so their phases add up to the mean " +
			"latency. Drive rows are every command the drives served (member I/Os, destages, read-ahead).",
			"At queue depth above one a queued drive command shows little overhead: NCQ decodes it while " +
				"the drive serves others."},
	}
	rows := func(who string, sums *[3]PhaseSums) {
		for op, p := range sums {
			if p.N == 0 {
				continue
			}
			row := []string{who, sim.Op(op).String(), fmt.Sprint(p.N)}
			for _, d := range p.By {
				row = append(row, metrics.FormatFixed(float64(d)/1e6/float64(p.N), 3))
			}
			tb.AddRow(append(row, metrics.FormatFixed(float64(p.Latency)/1e6/float64(p.N), 3))...)
		}
	}
	rows("host", &s.Host)
	rows("drive", &s.Drive)
	return tb
}
