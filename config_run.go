package raidsim

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/raidsim/raidsim/sim"
)

// ConfigReport is the result of a Config's run: one report per phase, in
// order, and the whole run's.
type ConfigReport struct {
	// Name is the config's name.
	Name string `json:"name"`
	// Phases holds each phase's requests: the read, write and all
	// summaries, flushes, sim_seconds (the phase's run time from its
	// first request to its last completion) and its workload or trace.
	Phases []PhaseReport `json:"phases"`
	// Total covers every request of every phase, over the run's
	// simulated time, and the stack's statistics (disks, raid, cache) at
	// the end.
	Total Report `json:"total"`
}

// PhaseReport is one phase's share of a run: a Report without stack
// statistics, under the phase's name.
type PhaseReport struct {
	// Name is the phase's name.
	Name string `json:"name"`
	Report
}

// Run runs the config's phases in order on one stack (one engine, the
// same devices: caches keep their contents between phases) and reports
// each phase and the whole. The same Config gives byte-identical JSON.
func (c *Config) Run() (*ConfigReport, error) {
	return c.RunObserved(nil)
}

// RunObserved is Run with every layer's hooks sent to obs (nil for none),
// for timelines and logs.
func (c *Config) RunObserved(obs *sim.Observer) (*ConfigReport, error) {
	pl, err := c.compile()
	if err != nil {
		return nil, err
	}
	pl.x.Observer = obs
	phases, total, err := pl.x.runPhases(pl.phases, pl.host)
	if err != nil {
		return nil, err
	}
	rep := &ConfigReport{Name: c.Name, Total: *total, Phases: make([]PhaseReport, len(phases))}
	for i, r := range phases {
		rep.Phases[i] = PhaseReport{Name: pl.phases[i].name, Report: *r}
	}
	return rep, nil
}

// Experiment returns the Experiment of the config's stack and its first
// phase (when synthetic or a trace), for code that takes an Experiment
// (Generate, timelines); the config must be valid.
func (c *Config) Experiment() (Experiment, error) {
	pl, err := c.compile()
	if err != nil {
		return Experiment{}, err
	}
	x := pl.x
	if len(pl.phases) > 0 {
		x.Workload, x.Trace = pl.phases[0].workload, pl.phases[0].trace
	}
	return x, nil
}

// WriteJSON writes the report as indented JSON.
func (r *ConfigReport) WriteJSON(w io.Writer) error {
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return fmt.Errorf("raidsim: report: %w", err)
	}
	_, err = w.Write(append(b, '\n'))
	return err
}
