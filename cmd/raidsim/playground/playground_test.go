package playground_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/raidsim/raidsim/cmd/raidsim/playground"
	"github.com/raidsim/raidsim/host"
	"github.com/raidsim/raidsim/spec"
	"github.com/raidsim/raidsim/ssd"
)

// TestRunResult: a playground run has the numbers, curves, stripe map
// and explain trees the page draws, consistent with each other.
func TestRunResult(t *testing.T) {
	s := playground.Defaults()
	s["phases[0].ios"] = "300"
	r, err := playground.Run(s)
	require.NoError(t, err)
	assert.Positive(t, r.IOPS)
	assert.Equal(t, 4, r.Members)
	require.NotEmpty(t, r.CDF)
	assert.InDelta(t, 1.0, r.CDF[len(r.CDF)-1].Y, 1e-9, "the CDF reaches 1")
	require.Len(t, r.Throughput, 50)
	var done float64
	for i, p := range r.Throughput {
		done += p.Y * (r.Throughput[1].X - r.Throughput[0].X)
		assert.GreaterOrEqual(t, p.Y, 0.0, "step %d", i)
	}
	assert.InDelta(t, 300, done, 1, "the throughput curve counts every request")
	require.Len(t, r.Requests, playground.MapRequests)
	for _, q := range r.Requests[:10] {
		assert.Len(t, q.Touches, 4, "a small RAID 5 write: two pre-reads and two writes")
		for _, x := range q.Touches {
			assert.Less(t, x.Member, 4)
		}
		assert.Contains(t, q.Explain, "in short:")
	}
	assert.Contains(t, r.Command, "raidsim run --drive deskstar-7k160")
	assert.Contains(t, r.Report, "RAID 5 over 4 x deskstar-7k160")
}

// TestRunJSONErrors: bad settings come back as {"error": ...}.
func TestRunJSONErrors(t *testing.T) {
	for in, want := range map[string]string{
		`{"stack.drive.preset":"floppy"}`: `stack.drive.preset: "floppy" is not a choice`,
		`{"phases[0].ios":"0"}`:           `phases[0].ios: "0": want 1 to 20000`,
		`{"stack.raid.level":"7"}`:        `stack.raid.level: "7" is not a choice`,
		`not json`:                        "settings:",
		`{"phases[0].rw":"sideways"}`:     `phases[0].rw: "sideways" is not a choice`,
		`{"stack.colour":"red"}`:          "stack.colour: not a control",
		`{"stack.disks":"2"}`:             "stack.disks: RAID 5 needs at least 3 drives",
	} {
		out := playground.RunJSON(in)
		var e struct{ Error string }
		require.NoError(t, json.Unmarshal([]byte(out), &e))
		assert.Contains(t, e.Error, want, in)
	}
}

// TestControlsComeFromTheFieldTable: the page's controls are keys of
// spec.Fields with their labels, docs, the layers' names as choices and
// the keys' bounds: RAID 6, the SSDs and the hosts are there because
// the layers have them.
func TestControlsComeFromTheFieldTable(t *testing.T) {
	byPath := map[string]playground.Control{}
	for _, c := range playground.PageControls() {
		f, ok := spec.FieldAt(c.Path)
		require.True(t, ok, c.Path)
		assert.Equal(t, f.Words(), c.Label, c.Path)
		assert.Equal(t, f.Doc, c.Doc, c.Path)
		for _, v := range f.Values {
			if c.Path == "stack.raid.level" && strings.HasPrefix(v, "raidz") {
				continue // the page's views are md's
			}
			assert.True(t, slices.ContainsFunc(c.Options, func(o playground.Option) bool { return o.Value == v }), "%s: %s is a choice", c.Path, v)
		}
		if f.Bounds != nil {
			assert.LessOrEqual(t, c.Max, f.Bounds.Max, c.Path)
		}
		byPath[c.Path] = c
	}
	options := func(path string) []string {
		var out []string
		for _, o := range byPath[path].Options {
			out = append(out, o.Value)
		}
		return out
	}
	assert.Contains(t, options("stack.raid.level"), "6")
	assert.Subset(t, options("stack.drive.preset"), ssd.PresetNames())
	assert.Subset(t, options("stack.host.preset"), host.Presets())
}

// TestEveryChoiceRuns: each choice of each select runs from the page's
// starting settings (an SSD, RAID 6, a host behind the stack).
func TestEveryChoiceRuns(t *testing.T) {
	for _, c := range playground.PageControls() {
		for _, o := range c.Options {
			s := playground.Defaults()
			s["phases[0].ios"], s[c.Path] = "40", o.Value
			if c.Path == "stack.raid.level" && o.Value == "6" {
				s["stack.disks"] = "5"
			}
			if c.Path == "stack.drive.precondition" && o.Value != "none" {
				s["stack.drive.preset"] = "intel-x25m-g2"
				s["stack.raid.level"] = "none"
				if o.Value == "steady" {
					continue // random overwrites of 160 GB take seconds; fill shows an SSD
				}
			}
			r, err := playground.Run(s)
			if !assert.NoError(t, err, "%s=%s", c.Path, o.Value) {
				continue
			}
			if !strings.HasSuffix(o.Value, "trim") { // the figures count reads and writes
				assert.Positive(t, r.IOPS, "%s=%s", c.Path, o.Value)
			}
			assert.NotEmpty(t, r.Requests, "%s=%s", c.Path, o.Value)
		}
	}
}
