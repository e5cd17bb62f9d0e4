//go:build long

package main

import "testing"

// TestNVMeArrayLong runs the example as shipped: eight 7.68 TB drives a
// level, Window of virtual time a run.
func TestNVMeArrayLong(t *testing.T) {
	rs, err := Runs(Rate, Window)
	if err != nil {
		t.Fatal(err)
	}
	checkDirections(t, rs)
}
