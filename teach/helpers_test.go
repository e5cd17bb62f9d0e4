package teach_test

import "github.com/raidsim/raidsim/spec"

// experiment returns a one-phase experiment, seed 1: job on one drive
// of preset.
func experiment(preset string, job spec.Job) *spec.Experiment {
	return &spec.Experiment{
		Seed:   1,
		Stack:  spec.Stack{Drive: spec.Drive{Preset: preset}},
		Phases: []spec.Phase{{Job: job}},
	}
}
