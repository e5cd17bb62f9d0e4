package spec

import (
	"bytes"
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"

	"github.com/raidsim/raidsim/internal/keypath"
	"github.com/raidsim/raidsim/simtest"
)

// keyPaths lists the canonical path of every key of Experiment, walking
// its types (a background job's keys are the phase's, so not again).
func keyPaths() []string {
	var out []string
	var walk func(t reflect.Type, path string)
	walk = func(t reflect.Type, path string) {
		t = elem(t)
		if t.Kind() != reflect.Struct || t == sizeType || t == durationType {
			return
		}
		keys, _ := fieldKeys(t)
		for _, f := range reflect.VisibleFields(t) {
			k, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
			idx, ok := keys[k]
			if !ok || !slices.Equal(idx, f.Index) {
				continue
			}
			p := join(path, k)
			if c, _ := canonical(strings.ReplaceAll(p, "[]", "[0]")); c != p {
				continue // a background job's keys: the phase's
			}
			out = append(out, p)
			if f.Type.Kind() == reflect.Slice {
				p += "[]"
			}
			walk(f.Type, p)
		}
	}
	walk(reflect.TypeFor[Experiment](), "")
	return out
}

// TestEveryKeyHasOneDefinition: every key of Experiment has exactly one
// definition in the field table, and every definition names a key.
func TestEveryKeyHasOneDefinition(t *testing.T) {
	paths := keyPaths()
	require.Greater(t, len(paths), 100)
	for _, p := range paths {
		n := 0
		for _, f := range fields {
			if f.Path == p {
				n++
			}
		}
		assert.Equal(t, 1, n, "%s: definitions", p)
	}
	for _, f := range fields {
		assert.Contains(t, paths, f.Path, "a definition of no key")
		assert.NotEmpty(t, f.Doc, f.Path)
		assert.False(t, strings.HasSuffix(f.Doc, "."), "%s: a doc line ends without a period", f.Path)
		kinds := 0
		for _, d := range []string{f.Default, f.DefaultText, f.Unset} {
			if d != "" {
				kinds++
			}
		}
		if f.Required {
			kinds++
		}
		assert.Equal(t, 1, kinds, "%s: one of Default, DefaultText, Unset or Required", f.Path)
		if f.DefaultText != "" {
			assert.NotNil(t, f.defaultOf, "%s: a default in words needs its check (defaultOf)", f.Path)
		}
		if f.Values != nil {
			assert.Equal(t, "text", f.Kind(), f.Path)
		}
	}
	f, ok := FieldAt("phases[3].background[1].bs")
	require.True(t, ok)
	assert.Equal(t, "phases[].bs", f.Path, "a background job's keys are the phase's")
	_, ok = FieldAt("stack.colour")
	assert.False(t, ok)
}

// context returns an experiment in which the section holding path is
// present with the key itself left out, decoded from a file named
// ctx.yaml.
func context(t *testing.T, path string, ssdDrive bool) *Experiment {
	t.Helper()
	x := Experiment{Phases: []Phase{{Job: Job{RW: "randrw", IOs: 100, IODepth: 4}}}}
	array := func() { x.Stack.Disks, x.Stack.RAID = 4, &RAID{Level: "5"} }
	switch {
	case Under(path, "phases[0].trace"):
		x.Phases[0].Job = Job{Trace: &Trace{Path: "t.csv"}}
	case path == "phases[0].ramp_ios":
		x.Phases[0].IOs = 0
	case slices.Contains([]string{"stack.raid.recordsize", "stack.raid.ashift", "stack.raid.fill", "stack.raid.fill_streams", "stack.raid.scan_batch"}, path):
		x.Stack.Disks, x.Stack.RAID = 4, &RAID{Level: "raidz1"}
	case Under(path, "phases[0].jobs"):
		x.Phases[0].Jobs = []PhaseJob{{Name: "a", Job: x.Phases[0].Job}}
		x.Phases[0].Job = Job{}
	case path == "phases[0].thinktime_spin", path == "phases[0].thinktime_blocks", path == "phases[0].thinktime_blocks_type":
		x.Phases[0].ThinkTime = Duration(time.Millisecond)
	case path == "phases[0].rate_process", path == "phases[0].io_submit_mode":
		x.Phases[0].RateIOPS = "100"
	case path == "phases[0].offset_increment", path == "phases[0].group_reporting":
		x.Phases[0].NumJobs = 2
	case path == "phases[0].time_based":
		x.Phases[0].IOs, x.Phases[0].Runtime = 0, Duration(time.Second)
	case path == "stack.disks", Under(path, "stack.raid"):
		array()
	case Under(path, "stack.failures"), Under(path, "stack.rebuild"):
		array()
		x.Stack.Failures = []Failure{{Member: 0}}
		x.Stack.Rebuild = &Rebuild{Member: 0}
	case Under(path, "stack.cache"), Under(path, "stack.host"):
		array()
		x.Stack.Cache = &Cache{}
		if Under(path, "stack.host") && path != "stack.host.preset" {
			x.Stack.Host.Preset = "nas-1gb"
		}
	case Under(path, "stack.drive.disk"):
		x.Stack.Drive.Disk = &DiskParams{}
	case Under(path, "stack.drive.ssd"):
		x.Stack.Drive.Preset, x.Stack.Drive.SSD = "intel-x25m-g2", &SSDSpec{}
	case Under(path, "stack.drive.spec"):
		x.Stack.Drive.Preset, x.Stack.Drive.Spec = DefaultPreset, &DriveSpec{}
	case Under(path, "stack.faults"):
		x.Stack.Faults = &Faults{}
	}
	if ssdDrive || path == "stack.drive.precondition" {
		x.Stack.Drive.Preset = "samsung-970-evo-plus"
	}
	if Under(path, "stack.cache.device") {
		x.Stack.Cache.Device = &CacheDevice{}
	}
	if path == "stack.cache.high_water" {
		x.Stack.Cache.LowWater = cacheDefaults.LowWater // else high_water alone destages to empty
	}
	var tree map[string]any
	b, err := yaml.Marshal(&x)
	require.NoError(t, err)
	require.NoError(t, yaml.Unmarshal(b, &tree))
	steps, err := keypath.Parse(path)
	require.NoError(t, err)
	if m, ok := keypath.Lookup(tree, steps[:len(steps)-1]); ok {
		delete(m.(map[string]any), steps[len(steps)-1].Key) // the key under test is left out
	}
	out, p := decodeTree(tree, "dir/ctx.yaml")
	require.Empty(t, p, path)
	return out
}

// effective is a plan with the layers' defaults filled, so two plans
// that build the same stack compare equal.
func effective(pl *Plan) *Plan {
	c := *pl
	if c.Cache != nil {
		cc := c.Cache.WithDefaults()
		c.Cache = &cc
	}
	if c.Host != nil {
		h := *c.Host
		h.PageCache.Size = h.PageCacheSize()
		c.Host = &h
	}
	return &c
}

// instance is the path of a field with list indices 0.
func instance(f Field) string { return strings.ReplaceAll(f.Path, "[]", "[0]") }

// TestDefaultsAreWhatThePlanUses: every default the table gives, as a
// value or in words, is what the layers use when the key is left out:
// setting the key to it plans the same stack and workload.
func TestDefaultsAreWhatThePlanUses(t *testing.T) {
	checked := 0
	for _, f := range fields {
		if f.Default == "" && f.defaultOf == nil {
			continue
		}
		for _, ssdDrive := range []bool{false, true} {
			path := instance(f)
			if ssdDrive && !appliesToSSD(path) {
				continue
			}
			x := context(t, path, ssdDrive)
			pl, err := x.Plan()
			require.NoError(t, err, path)
			def := f.Default
			if f.defaultOf != nil {
				def = f.defaultOf(x, pl)
			}
			require.NoError(t, Set(x, path, def), "%s: %s", path, def)
			pl2, err := x.Plan()
			require.NoError(t, err, "%s: %s", path, def)
			assert.Equal(t, effective(pl), effective(pl2), "%s: the default %q is not what the plan uses (ssd %v)", path, def, ssdDrive)
			checked++
		}
	}
	assert.Greater(t, checked, 90)
}

// appliesToSSD reports whether an SSD takes the key.
func appliesToSSD(path string) bool {
	return slices.Contains([]string{"stack.drive.write_cache", "stack.drive.queue_depth", "stack.drive.precondition"}, path)
}

// TestBoundsAreEnforced: a number at the bounds the table gives is
// accepted, one past them refused, at the key's path.
func TestBoundsAreEnforced(t *testing.T) {
	for _, f := range fields {
		if f.Bounds == nil || f.Kind() == "list" {
			continue
		}
		path := instance(f)
		step := 1.0
		if k := f.Kind(); k == "number" || k == "duration" {
			step = max(f.Bounds.Max/1e6, 1e-9)
		}
		for _, v := range []float64{f.Bounds.Min, f.Bounds.Max, f.Bounds.Max + step, f.Bounds.Min - step} {
			if v == 0 {
				continue // zero: a key left out (TestNoZeroRefusesZero)
			}
			ok := v >= f.Bounds.Min && v <= f.Bounds.Max
			if path == "stack.cache.low_water" && v == f.Bounds.Max {
				ok = false // below high_water, itself at most 1
			}
			x := context(t, path, false)
			if path == "stack.cache.size" {
				x.Stack.Cache.Block = 1 << 20 // the most blocks the index takes
			}
			val := f.FormatValue(v)
			if err := Set(x, path, val); err != nil {
				assert.False(t, ok, "%s=%s: %v", path, val, err)
				continue
			}
			err := x.Validate()
			assert.Equal(t, ok, !problemAt(err, path), "%s=%s: %v", path, val, err)
		}
	}
}

// problemAt reports whether err has a problem at path.
func problemAt(err error, path string) bool {
	var e *Error
	if !errors.As(err, &e) {
		return false
	}
	for _, f := range e.Fields {
		if f.Path == path {
			return true
		}
	}
	return false
}

// TestEnumerationsAreTheLayers: every name an enumeration lists is
// taken, and a name it does not list is refused with the list.
func TestEnumerationsAreTheLayers(t *testing.T) {
	for _, f := range fields {
		if f.Values == nil {
			continue
		}
		path := instance(f)
		for _, v := range f.Values {
			x := context(t, path, false)
			require.NoError(t, Set(x, path, v), path)
			assert.False(t, problemAt(x.Validate(), path), "%s=%s", path, v)
		}
		x := context(t, path, false)
		require.NoError(t, Set(x, path, "no-such-name"))
		err := x.Validate()
		require.True(t, problemAt(err, path), "%s=no-such-name: %v", path, err)
		if path != "stack.drive.preset" && path != "stack.raid.level" {
			assert.Contains(t, err.Error(), orList(f.Values), path)
		}
	}
}

// TestNoZeroRefusesZero: a key marked NoZero refuses an explicit zero,
// naming its default; the others take it.
func TestNoZeroRefusesZero(t *testing.T) {
	for _, f := range fields {
		k := f.Kind()
		if k == "section" || k == "list" || k == "any" || f.Type().Kind() == reflect.Pointer {
			continue
		}
		path := instance(f)
		zero := "0"
		switch k {
		case "text":
			zero = `""`
		case "boolean":
			zero = "false"
		}
		err := Set(context(t, path, false), path, zero)
		if f.NoZero {
			require.Error(t, err, path)
			assert.Contains(t, err.Error(), "leave the key out for the default, "+f.DefaultWords(), path)
		} else {
			assert.NoError(t, err, path)
		}
	}
}

// TestKeyReferenceIsCurrent: docs/config-keys.md is the reference
// WriteReference renders from the field table (-update rewrites it).
func TestKeyReferenceIsCurrent(t *testing.T) {
	var b bytes.Buffer
	require.NoError(t, WriteReference(&b, Fields()))
	const file = "../docs/config-keys.md"
	if simtest.Updating() {
		require.NoError(t, os.WriteFile(file, b.Bytes(), 0o644))
	}
	want, err := os.ReadFile(file)
	require.NoError(t, err, "run go test ./spec -run TestKeyReferenceIsCurrent -update")
	assert.Equal(t, string(want), b.String(), "docs/config-keys.md is stale: run go test ./spec -run TestKeyReferenceIsCurrent -update")
	for _, f := range fields {
		assert.Contains(t, b.String(), "| `"+f.Key()+"` | "+cell(f.meaning()), f.Path)
	}
}

// TestGoCommentsLeaveDefaultsToTheTable: the comments of Experiment's
// fields say what each is, and leave defaults and bounds to the table,
// so they cannot disagree with it.
func TestGoCommentsLeaveDefaultsToTheTable(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "types.go", nil, parser.ParseComments)
	require.NoError(t, err)
	bounds := regexp.MustCompile(`\d\.\.\d|\(default|; default|default \d`)
	ast.Inspect(f, func(n ast.Node) bool {
		if fl, ok := n.(*ast.Field); ok && fl.Doc != nil && len(fl.Names) > 0 {
			assert.False(t, bounds.MatchString(fl.Doc.Text()), "%s: %q", fl.Names[0].Name, fl.Doc.Text())
		}
		return true
	})
}
