package main

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/raidsim/raidsim"
	"github.com/raidsim/raidsim/trace"
)

// configFlags are the run flags that combine with --config; every other
// flag describes the stack or the workload, which the config file holds.
var configFlags = map[string]bool{"config": true, "json": true, "seed": true, "timeline": true, "power-loss-at": true}

// runConfig is `raidsim run --config FILE`: the config's phases on its
// stack, each phase's summary and the total.
func runConfig(o *runOptions, stdout io.Writer) error {
	var clash []string
	for name := range o.set {
		if !configFlags[name] {
			clash = append(clash, "--"+name)
		}
	}
	if len(clash) > 0 {
		sort.Strings(clash)
		return fmt.Errorf("%s: the config file describes the stack and the workload; drop %s or edit the config (only --json, --seed, --timeline and --power-loss-at combine with --config)",
			strings.Join(clash, ", "), map[bool]string{true: "them", false: "it"}[len(clash) > 1])
	}
	if o.timeline < 0 || o.timeline > maxTimeline {
		return fmt.Errorf("--timeline: want 0 to %d requests, got %d", maxTimeline, o.timeline)
	}
	if o.timeline > 0 && o.json {
		return fmt.Errorf("--timeline prints a table: drop --json or --timeline")
	}
	cfg, err := raidsim.LoadConfig(o.config)
	if err != nil {
		return err
	}
	if o.set["seed"] {
		cfg.Seed = o.seed
	}
	if o.set["power-loss-at"] {
		if o.powerLossAt < 0 {
			return fmt.Errorf("--power-loss-at: %v is negative", o.powerLossAt)
		}
		cfg.PowerLossAt = raidsim.Duration(o.powerLossAt)
	}
	var tl *raidsim.Timeline
	if o.timeline > 0 {
		tl = raidsim.NewTimeline(o.timeline)
	}
	var rep *raidsim.ConfigReport
	if tl != nil {
		rep, err = cfg.RunObserved(tl.Observer())
	} else {
		rep, err = cfg.Run()
	}
	if err != nil {
		return err
	}
	if o.json {
		return rep.WriteJSON(stdout)
	}
	if err := writeConfigText(stdout, cfg, rep); err != nil {
		return err
	}
	if tl == nil {
		return nil
	}
	fmt.Fprintln(stdout)
	t := tl.Table()
	return t.WriteText(stdout)
}

// writeConfigText prints each phase's summary, then the whole run with
// the stack's statistics.
func writeConfigText(w io.Writer, cfg *raidsim.Config, rep *raidsim.ConfigReport) error {
	fmt.Fprintf(w, "%s: %d phases, seed %d\n", rep.Name, len(rep.Phases), cfg.Seed)
	for i, ph := range rep.Phases {
		fmt.Fprintf(w, "\n== Phase %d: %s (%.3f s simulated)\n", i+1, ph.Name, ph.SimSeconds)
		if wl := ph.Workload; wl != nil {
			bs := "bs=" + trace.FormatSize(wl.BS)
			if wl.BSSplit != "" {
				bs = "bssplit=" + wl.BSSplit
			}
			extra := ""
			if wl.RWMixRead != 0 {
				extra += fmt.Sprintf(" rwmixread=%d", wl.RWMixRead)
			}
			if wl.PercentageRandom != 0 {
				extra += fmt.Sprintf(" percentage_random=%d", wl.PercentageRandom)
			}
			if wl.Fsync != 0 {
				extra += fmt.Sprintf(" fsync=%d", wl.Fsync)
			}
			fmt.Fprintf(w, "workload rw=%s %s iodepth=%d ios=%d%s\n", wl.RW, bs, wl.IODepth, wl.IOs, extra)
		}
		if tr := ph.Trace; tr != nil {
			fmt.Fprintf(w, "trace %s (format %s, %s loop, %d records replayed, %d skipped)\n", tr.Path, tr.Format, tr.Mode, tr.Records, tr.Skipped)
		}
		if ph.HostFlushesDropped > 0 {
			fmt.Fprintf(w, "host dropped %d flushes\n", ph.HostFlushesDropped)
		}
		fmt.Fprintln(w)
		if err := ph.Summary.WriteText(w); err != nil {
			return err
		}
		if ph.Failed > 0 {
			fmt.Fprintf(w, "failed requests: %d (first: %s)\n", ph.Failed, ph.FirstError)
		}
	}
	fmt.Fprintf(w, "\n== Total (%.3f s simulated)\n", rep.Total.SimSeconds)
	return writeRunText(w, nil, &rep.Total)
}
