//go:build long

package ssd

import "testing"

// TestForegroundGCPacedLong is TestForegroundGCPaced on both drives.
func TestForegroundGCPacedLong(t *testing.T) { checkForegroundGCPaced(t, gcPacedCases) }
