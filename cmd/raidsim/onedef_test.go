package main

import (
	"bytes"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"

	"github.com/raidsim/raidsim/cmd/raidsim/playground"
	"github.com/raidsim/raidsim/spec"
)

// TestOneDefinitionRendersEverywhere: a key's definition lives in one
// place, spec.Fields. Change its default and doc there and every
// rendering follows: raidsim run --help, the key reference
// (docs/config-keys.md), the playground's controls and the sweep's
// figure labels. (TestDefaultsAreWhatThePlanUses in spec ties the
// definition to what the layers use.)
func TestOneDefinitionRendersEverywhere(t *testing.T) {
	const path = "stack.raid.stripe_unit"
	changed := spec.Fields()
	for i := range changed {
		if changed[i].Path == path {
			changed[i].Default, changed[i].Doc, changed[i].Label = "96KiB", "the chunk, as changed in one place", "chunk"
		}
	}
	saved := keys
	keys = changed
	defer func() { keys = saved }()

	var help bytes.Buffer
	writeGroups(&help, runFlags)
	assert.Contains(t, help.String(), "[stack.raid.stripe_unit; default: 96KiB;", "--help")
	assert.Contains(t, help.String(), "the chunk, as changed in one place", "--help")

	var ref bytes.Buffer
	require.NoError(t, spec.WriteReference(&ref, changed))
	assert.Contains(t, ref.String(), "| `stripe_unit` | the chunk, as changed in one place | bytes | `96KiB` (no 0) |", "the key reference")

	controls, err := playground.Controls(changed)
	require.NoError(t, err)
	found := false
	for _, c := range controls {
		if c.Path == path {
			found = true
			assert.Equal(t, "96KiB", c.Start, "the playground starts at the default")
			assert.Equal(t, "chunk", c.Label, "the playground's label")
			assert.Equal(t, "the chunk, as changed in one place", c.Doc, "the playground's tooltip")
		}
	}
	assert.True(t, found, "the playground has a stripe unit control")
	assert.Equal(t, "chunk", axisWords("stack.raid.stripe_unit"), "the sweep's axis label")
}

// TestSweepDocsUseRealKeys: the sweep examples in the docs (package
// sweep's, raidsim sweep --help, the README) name keys of the
// experiment and values spec accepts there (they once swept
// stack.cache.size over 0, which spec refuses).
func TestSweepDocsUseRealKeys(t *testing.T) {
	axis := regexp.MustCompile(`(?m)^(?://\s*|\s*)((?:stack|phases)[\w.\[\]]*): (\[.*\])`)
	listed := regexp.MustCompile(`(?m)path: ((?:stack|phases)[\w.\[\]]*)\n(?://)?\s*values: (\[.*\])`)
	n := 0
	for _, file := range []string{"../../sweep/doc.go", "../../sweep/sweep.go", "../../README.md", "../../examples/sweep-batch/sweep.yaml"} {
		b, err := os.ReadFile(file)
		require.NoError(t, err)
		text := strings.ReplaceAll(string(b), "\t", " ")
		for _, m := range append(axis.FindAllStringSubmatch(text, -1), listed.FindAllStringSubmatch(text, -1)...) {
			checkAxis(t, file, m[1], m[2])
			n++
		}
	}
	for _, m := range axis.FindAllStringSubmatch(sweepHelp, -1) {
		checkAxis(t, "raidsim sweep --help", m[1], m[2])
		n++
	}
	assert.GreaterOrEqual(t, n, 8, "sweep examples found")
}

// checkAxis sets each value of a swept path on a 4-drive RAID 5 with a
// volume cache and checks the experiment is valid at that path.
func checkAxis(t *testing.T, where, path, values string) {
	t.Helper()
	_, ok := spec.FieldAt(path)
	if path != "stack.cache" {
		assert.True(t, ok, "%s: %s is not a key", where, path)
	}
	var vals []any
	require.NoError(t, yaml.Unmarshal([]byte(strings.SplitN(values, "#", 2)[0]), &vals), "%s: %s", where, values)
	for _, v := range vals {
		x := spec.Experiment{Stack: spec.Stack{Disks: 4, RAID: &spec.RAID{Level: "5"}, Cache: &spec.Cache{}},
			Phases: []spec.Phase{{Job: spec.Job{RW: "randrw", IOs: 10}}, {Job: spec.Job{RW: "read", IOs: 10}}}}
		text, err := yaml.Marshal(v)
		require.NoError(t, err)
		if v == nil {
			text = []byte("null")
		}
		if err := spec.Set(&x, path, strings.TrimSpace(string(text))); err != nil {
			t.Errorf("%s: %s: %v: %v", where, path, v, err)
			continue
		}
		assert.NoError(t, x.Validate(), "%s: %s: %v", where, path, v)
	}
}

// TestReadmeCommandsWriteUnderOut: the README's commands write files
// only under out/, which git ignores, never into the checkout's tracked
// files (they once left job.log, run.json and fitted* there and
// rewrote docs/stripe-cache.svg); and the set-up says how to install
// the binary the prose calls raidsim.
func TestReadmeCommandsWriteUnderOut(t *testing.T) {
	b, err := os.ReadFile("../../README.md")
	require.NoError(t, err)
	readme := string(b)
	assert.Contains(t, readme, "go install ./cmd/raidsim")
	assert.Contains(t, readme, "mkdir -p out")
	ignore, err := os.ReadFile("../../.gitignore")
	require.NoError(t, err)
	assert.Contains(t, strings.Fields(string(ignore)), "/out/")
	writes := regexp.MustCompile(`(?:--out|--plot|--cdf|--trace-events|--cpuprofile|>)\s+(\S+)`)
	n := 0
	for _, line := range strings.Split(readme, "\n") {
		cmd, _, _ := strings.Cut(line, "#")
		if !strings.Contains(cmd, "raidsim ") {
			continue
		}
		for _, m := range writes.FindAllStringSubmatch(cmd, -1) {
			if m[1] == "-" || m[1] == "text" || strings.HasPrefix(m[1], "FILE") || strings.Contains(m[1], "DIR") {
				continue
			}
			n++
			assert.True(t, strings.HasPrefix(m[1], "out/"), "README writes %s outside out/: %s", m[1], line)
		}
	}
	assert.GreaterOrEqual(t, n, 5, "file-writing README commands found")
}
