//go:build !linux

package raidsim

// physicalMemory returns 0: this system's memory is not read, so a run
// is held only to GOMEMLIMIT or RunOptions.MaxMemory.
func physicalMemory() int64 { return 0 }
