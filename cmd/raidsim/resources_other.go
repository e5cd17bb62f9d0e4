//go:build !unix

package main

import "time"

// resources returns -1, -1: this system's CPU time and peak resident set
// size are not read.
func resources() (cpu time.Duration, peakRSS int64) { return -1, -1 }
