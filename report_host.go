package raidsim

import (
	"fmt"

	"github.com/raidsim/raidsim/host"
	"github.com/raidsim/raidsim/metrics"
	"github.com/raidsim/raidsim/trace"
)

// hostStats snapshots the host layer, if any.
func (r *runner) hostStats() *host.Stats {
	if r.stack.Host == nil {
		return nil
	}
	st := r.stack.Host.Stats()
	return &st
}

// hostSummary summarizes the host layer from a snapshot (nil: from the
// start of the run) to now, or returns nil without a host layer.
func (r *runner) hostSummary(from *host.Stats) *host.Summary {
	if r.stack.Host == nil {
		return nil
	}
	var f host.Stats
	if from != nil {
		f = *from
	}
	s := host.Summarize(f, r.stack.Host.Stats())
	return &s
}

// hostTable is one row per phase (and the total) of the host's CPU,
// page cache and network figures.
func (r *Report) hostTable() *metrics.Table {
	h := r.Host
	if h == nil {
		return nil
	}
	pc := "no page cache"
	if h.PageCacheBytes > 0 {
		pc = trace.FormatSize(h.PageCacheBytes) + " page cache"
	} else if h.Direct {
		pc = "O_DIRECT"
	}
	t := &metrics.Table{
		Title: fmt.Sprintf("\nHost (%s, %s, %s)", h.Preset, plural(h.Cores, "core"), pc),
		Header: []string{"phase", "CPU %", "CPU s", "syscall", "copy", "network", "driver", "parity", "stripe cache",
			"volume cache", "page cache hits", "dirty peak KiB", "throttle s", "network %"},
	}
	row := func(name string, s *host.Summary) {
		c := s.CPUSeconds
		f := func(v float64) string { return metrics.FormatFixed(v, 3) }
		t.AddRow(name, metrics.FormatFixed(s.CPUUtilizationPct, 2), f(c.Total), f(c.Syscall), f(c.Copy), f(c.Network),
			f(c.Driver), f(c.Parity), f(c.StripeCache), f(c.VolumeCache), metrics.FormatFixed(s.PageCacheHitRatio, 3),
			kib(s.DirtyPeakBytes), f(s.ThrottleSeconds), metrics.FormatFixed(s.NetworkUtilizationPct, 1))
	}
	for i := range r.Phases {
		if s := r.Phases[i].Host; s != nil {
			row(r.Phases[i].Name, s)
		}
	}
	row("total", &h.Summary)
	return t
}

// plural returns "1 core" or "2 cores".
func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}
