package spec_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/raidsim/raidsim/spec"
)

// TestTimesPastTheRunRefused: pacing or a rebuild rate that would carry
// virtual time past sim.MaxInputTime (146 years) is refused where it
// enters, naming the key, the value and the bound; just inside it is
// not.
func TestTimesPastTheRunRefused(t *testing.T) {
	for _, tc := range []struct{ yaml, want string }{
		{"phases: [{rw: write, rate: 1, ios: 4294967296}]",
			"phases[0].rate: 4294967296 writes of at least 4096 bytes at this rate take 5.57e+05 years, past the longest run (146 years)"},
		{"phases: [{rw: randrw, rwmixread: 50, rate_iops: '1,1000000', ios: 4294967296}]", ""}, // 68 years
		{"phases: [{thinktime: 1h, thinktime_blocks: 2, ios: 4294967296}]",
			"phases[0].thinktime: 1h0m0s after every 2 of 4294967296 requests is 2.45e+05 years of stalls"},
		{"phases: [{jobs: [{rw: write, rate: 1, size: 1GiB}]}]", ""},
		{"phases: [{jobs: [{rw: write, rate: 1}]}]",
			"phases[0].jobs[0].rate: 122096646 writes of at least 4096 bytes at this rate take 1.58e+04 years"},
		{"stack: {disks: 2, raid: {level: 1, rebuild_rate: 100}, failures: [{member: 0, at: 0s}], rebuild: {member: 0, at: 1s}}\nphases: [{ios: 10}]",
			"stack.raid.rebuild_rate: 100 bytes/s rebuilds a 500107862016-byte member in 158 years, past the longest run (146 years): give a higher rate, or 0 for none"},
		{"stack: {disks: 2, raid: {level: 1, rebuild_rate: 200}, failures: [{member: 0, at: 0s}], rebuild: {member: 0, at: 1s}}\nphases: [{ios: 10}]", ""},
	} {
		x, err := spec.Parse([]byte(tc.yaml), "x.yaml")
		if err == nil {
			err = x.Validate()
		}
		if tc.want == "" {
			assert.NoError(t, err, tc.yaml)
			continue
		}
		require.Error(t, err, tc.yaml)
		assert.Contains(t, err.Error(), tc.want)
	}
}
