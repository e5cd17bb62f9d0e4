//go:build unix

package main

import (
	"runtime"
	"syscall"
	"time"
)

// resources returns the CPU time the process has used (user and system)
// and its peak resident set size in bytes, or -1 for both if the
// system does not say.
func resources() (cpu time.Duration, peakRSS int64) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return -1, -1
	}
	cpu = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	peakRSS = int64(ru.Maxrss) << 10 // KiB on Linux and the BSDs
	if runtime.GOOS == "darwin" || runtime.GOOS == "ios" {
		peakRSS = int64(ru.Maxrss) // bytes there
	}
	return cpu, peakRSS
}
