// Package counters counts how often the expensive set-up steps of a run
// happen (a drive model checked, a drive built), so a test can show that
// an experiment is checked once and each device built once. The counts
// are process-wide and only ever read by tests.
package counters

import "sync/atomic"

var (
	// DriveModelsChecked counts disk.Params.Validate calls.
	DriveModelsChecked atomic.Int64
	// DrivesBuilt counts drives made by the disk package.
	DrivesBuilt atomic.Int64
)
