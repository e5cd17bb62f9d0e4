//go:build unix

package main

import (
	"runtime"
	"syscall"
)

// peakRSS returns the process's peak resident set size in bytes, or -1
// if the system does not say.
func peakRSS() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return -1
	}
	if runtime.GOOS == "darwin" || runtime.GOOS == "ios" {
		return int64(ru.Maxrss) // bytes there
	}
	return int64(ru.Maxrss) << 10 // KiB on Linux and the BSDs
}
