//go:build long

package main

import "testing"

// TestTraceEvents10k: TestTraceEvents on 10,000 requests.
func TestTraceEvents10k(t *testing.T) { checkTraceEventsRun(t, 10000, "8MiB") }
