//go:build long

package main

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRebuildDriveWhatIf: the what-if, a 4-disk RAIDZ1 of CMR
// drives rebuilt onto an SMR replacement, reports the rebuild, the
// replacement's write sizes and its media cache series; the same onto a
// CMR replacement is faster.
func TestRebuildDriveWhatIf(t *testing.T) {
	args := []string{"run", "--drive", "wd40efrx", "--raid", "raidz1", "--disks", "4", "--fill", "0.0003", "--fill-streams", "8",
		"--scan-batch", "500", "--fail-disk", "0@0s", "--rebuild", "0@1s", "--ios", "50", "--json"}
	seconds := map[string]float64{}
	for _, spare := range []string{"wd40efax", "wd40efrx"} {
		code, out, errOut := runCLI(t, append(args, "--rebuild-drive", spare)...)
		require.Equal(t, 0, code, errOut)
		var rep struct {
			RAID struct {
				Level   string  `json:"level"`
				Seconds float64 `json:"rebuild_s"`
				Rebuild struct {
					Done  bool `json:"done"`
					Spare struct {
						Model      string `json:"model"`
						WriteSizes []struct {
							UpTo  int64 `json:"up_to_bytes"`
							Count int64 `json:"count"`
						} `json:"write_sizes"`
						Series *struct {
							Names []string `json:"names"`
						} `json:"series"`
					} `json:"spare"`
				} `json:"rebuild"`
			} `json:"raid"`
		}
		require.NoError(t, json.Unmarshal([]byte(out), &rep), out)
		assert.Equal(t, "RAIDZ1", rep.RAID.Level)
		assert.True(t, rep.RAID.Rebuild.Done, spare)
		assert.Equal(t, spare, rep.RAID.Rebuild.Spare.Model)
		require.NotEmpty(t, rep.RAID.Rebuild.Spare.WriteSizes)
		assert.Equal(t, int64(64<<10), rep.RAID.Rebuild.Spare.WriteSizes[0].UpTo, "44 KiB record columns")
		if spare == "wd40efax" {
			require.NotNil(t, rep.RAID.Rebuild.Spare.Series, "the SMR drive's media cache over time")
			assert.Contains(t, rep.RAID.Rebuild.Spare.Series.Names, "cache_used_bytes")
		}
		seconds[spare] = rep.RAID.Seconds
	}
	assert.Greater(t, seconds["wd40efax"], seconds["wd40efrx"], "the SMR replacement resilvers RAIDZ1 more slowly")
}
