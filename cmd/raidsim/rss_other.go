//go:build !unix

package main

// peakRSS returns -1: this system's peak resident set size is not read.
func peakRSS() int64 { return -1 }
