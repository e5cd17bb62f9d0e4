package raidsim_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/raidsim/raidsim"
	"github.com/raidsim/raidsim/disk"
	"github.com/raidsim/raidsim/smr"
	"github.com/raidsim/raidsim/spec"
	"github.com/raidsim/raidsim/ssd"
)

// reportSchema is the published JSON Schema of the report.
const reportSchema = "docs/report.schema.json"

// compileSchema compiles docs/report.schema.json.
func compileSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	f, err := os.Open(reportSchema)
	require.NoError(t, err)
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	require.NoError(t, err)
	c := jsonschema.NewCompiler()
	require.NoError(t, c.AddResource(reportSchema, doc))
	s, err := c.Compile(reportSchema)
	require.NoError(t, err)
	return s
}

// validate checks a JSON report against the schema.
func validate(t *testing.T, s *jsonschema.Schema, name string, report []byte) {
	t.Helper()
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(report))
	require.NoError(t, err, name)
	assert.NoError(t, s.Validate(v), "%s does not follow %s", name, reportSchema)
}

// TestGoldenReportsFollowTheSchema: every golden JSON report follows the
// published schema.
func TestGoldenReportsFollowTheSchema(t *testing.T) {
	s := compileSchema(t)
	goldens := []string{"testdata/report.json"}
	for _, g := range goldens {
		b, err := os.ReadFile(g)
		require.NoError(t, err)
		validate(t, s, g, b)
	}
}

// schemaExperiments between them fill every section and optional field
// of the report: SSDs with a pseudo-SLC cache and trims, a host with a
// page cache and a network dropping flushes, a rebuild with UREs and a
// power loss, a phase cut by its runtime, a second failure that stops
// the rebuild and fails requests, a cache that fills, and a trace that
// outruns its drive, with recorded latencies, and one sorted before
// replay.
var schemaExperiments = map[string]string{
	"raidz-smr-rebuild": `
stack:
  drive: {preset: wd40efrx}
  disks: 4
  raid: {level: raidz1, fill: 0.00001, fill_streams: 4, scan_batch: 64}
  failures: [{member: 0, at: 0s}]
  rebuild: {member: 0, at: 1ms, drive: wd40efax}
phases: [{rw: randwrite, bs: 4KiB, iodepth: 4, ios: 200, size: 64MiB}]`,
	"ssd": `
stack: {drive: {preset: samsung-970-evo-plus}}
power_loss_at: 1ms
phases:
  - {rw: randwrite, bs: 64KiB, iodepth: 32, ios: 2000}
  - {rw: randtrim, bs: 1MiB, ios: 20}`,
	"host-rebuild": `
stack:
  drive: {preset: deskstar-7k160, spec: {capacity: 64MiB}}
  disks: 3
  raid: {level: 5, stripe_unit: 16KiB}
  failures: [{member: 0, at: 0s}]
  rebuild: {member: 0, at: 1ms}
  faults: {ure: 1e-7, erc: 7s}
  cache: {size: 4MiB, non_volatile: true}
  host: {preset: nas-1gb, flushes: false}
power_loss_at: 20ms
phases:
  - {rw: randrw, rwmixread: 70, bssplit: 4k/70:64k/30, iodepth: 4, ios: 300, fsync: 8}
  - {rw: read, percentage_random: 20, ios: 100000, runtime: 50ms}`,
	"failures": `
stack:
  drive: {preset: deskstar-7k160, spec: {capacity: 64MiB}}
  disks: 4
  raid: {level: 5}
  failures: [{member: 0, at: 0s}, {member: 1, at: 5ms}]
  rebuild: {member: 0, at: 1ms}
  cache: {size: 1MiB}
phases: [{rw: randrw, bs: 64KiB, iodepth: 8, ios: 400}]`,
	"cache-device": `
stack:
  drive: {preset: deskstar-7k160, spec: {capacity: 256MiB}}
  disks: 4
  raid: {level: 6}
  cache: {size: 8MiB, replacement: arc, sequential_cutoff: 256KiB, device: {preset: intel-x25m-g2, power_loss_protection: false}}
power_loss_at: 5ms
warmup: 50
phases:
  - {rw: randrw, rwmixread: 70, iodepth: 8, ios: 300, size: 16MiB}
  - {rw: read, bs: 64KiB, ios: 20}`,
	"trace": `
stack: {drive: {preset: deskstar-7k500}, cache: {size: 256KiB, block: 4KiB}}
phases: [{trace: {path: testdata/traces/sample-msr.csv, speed: 1000, map: wrap}}]`,
	"jobs": `
stack: {drive: {preset: deskstar-7k160, spec: {capacity: 256MiB}}, disks: 4, raid: {level: 5}, cache: {size: 4MiB}}
phases:
  - runtime: 2s
    jobs:
      - {name: reader, rw: randread, iodepth: 4, ios: 200, rate_iops: "100", rate_process: poisson, io_submit_mode: offload}
      - {name: writer, rw: write, bs: 64KiB, ios: 100, thinktime: 2ms, thinktime_blocks: 4, thinktime_spin: 1ms, thinktime_blocks_type: issue, numjobs: 2, offset_increment: 64MiB, group_reporting: true}
      - {name: late, rw: randrw, rate: "1MiB,512KiB", ios: 50, wait_for: reader, startdelay: 5ms, new_group: true}
      - {name: timed, rw: read, time_based: true, runtime: 100ms}`,
	"trace-reordered": `
stack: {drive: {preset: deskstar-7k500}}
phases:
  - {name: by time, trace: {path: testdata/traces/sample-msr-unsorted.csv.gz, reorder_window: 1s}}
  - {name: by records, trace: {path: testdata/traces/sample-msr-unsorted.csv.gz, reorder: 16}}`,
}

// TestReportsFollowTheSchema: reports filling every section follow the
// schema, so its closed objects (no property it does not list) keep it
// and the report in step.
func TestReportsFollowTheSchema(t *testing.T) {
	s := compileSchema(t)
	names := make([]string, 0, len(schemaExperiments))
	for n := range schemaExperiments {
		names = append(names, n)
	}
	sort.Strings(names)
	seen := map[string]bool{}
	for _, n := range names {
		rep := run(t, schemaExperiments[n])
		b := []byte(jsonOf(t, rep))
		validate(t, s, n, b)
		collectKeys(t, b, seen)
	}
	custom := experiment("", spec.Job{RW: "randread", BS: 4096, IOs: 10})
	custom.Stack.Drive = spec.Drive{Custom: &ramModel{latency: time.Millisecond}}
	b := []byte(jsonOf(t, runOne(t, custom)))
	validate(t, s, "a kind of drive of its own", b)
	b = []byte(jsonOf(t, runOne(t, systorReplay(t))))
	validate(t, s, "a SYSTOR '17 trace, wrapped and reordered by default", b)
	collectKeys(t, b, seen)
	contents, err := raidsim.RunPlan(planOf(t, "stack: {disks: 4, raid: {level: 5}, drive: {write_cache: false}, cache: {size: 4MiB}}\n"+
		"power_loss_at: 50ms\nphases: [{rw: randwrite, bs: 16KiB, iodepth: 8, ios: 400, size: 64MiB}]"), raidsim.RunOptions{CheckContents: true})
	require.NoError(t, err)
	b = []byte(jsonOf(t, contents))
	validate(t, s, "a power loss with --check-contents", b)
	collectKeys(t, b, seen)

	golden, err := os.ReadFile("testdata/report.json")
	require.NoError(t, err)
	collectKeys(t, golden, seen)
	var missed []string
	for _, k := range goKeys(t) {
		if !seen[k] {
			missed = append(missed, k)
		}
	}
	assert.Empty(t, missed, "report fields no schema test fills: add an experiment to schemaExperiments")
}

// collectKeys adds the object keys of a JSON document to seen.
func collectKeys(t *testing.T, doc []byte, seen map[string]bool) {
	t.Helper()
	var v any
	require.NoError(t, json.Unmarshal(doc, &v))
	var walk func(any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, x := range v {
				seen[k] = true
				walk(x)
			}
		case []any:
			for _, x := range v {
				walk(x)
			}
		}
	}
	walk(v)
}

// reportTypes are the Go types of the report: the root's Report and the
// report section of every kind of drive.
var reportTypes = []reflect.Type{reflect.TypeFor[raidsim.Report](), reflect.TypeFor[disk.Report](), reflect.TypeFor[ssd.Report](), reflect.TypeFor[smr.Report]()}

// goKeys returns every JSON key the report's Go types can produce.
func goKeys(t *testing.T) []string {
	t.Helper()
	keys := map[string]bool{}
	walkJSON(reportTypes, func(_ reflect.Type, _ reflect.StructField, tag string) { keys[tag] = true })
	out := make([]string, 0, len(keys))
	for k := range keys {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// walkJSON calls f for every JSON field of the types and the types they
// hold (structs of this module, through pointers, slices and embedding).
func walkJSON(types []reflect.Type, f func(owner reflect.Type, field reflect.StructField, tag string)) {
	seen := map[reflect.Type]bool{}
	var walk func(reflect.Type)
	walk = func(t0 reflect.Type) {
		for t0.Kind() == reflect.Pointer || t0.Kind() == reflect.Slice {
			t0 = t0.Elem()
		}
		if t0.Kind() != reflect.Struct || seen[t0] || !strings.HasPrefix(t0.PkgPath(), "github.com/raidsim/raidsim") {
			return
		}
		seen[t0] = true
		for _, fd := range reflect.VisibleFields(t0) {
			tag, _, _ := strings.Cut(fd.Tag.Get("json"), ",")
			if tag == "-" || !fd.IsExported() || fd.Anonymous {
				continue
			}
			f(t0, fd, tag)
			walk(fd.Type)
		}
	}
	for _, t := range types {
		walk(t)
	}
}

// TestSchemaListsEveryReportField: the schema names every JSON key the
// report's Go types produce, and no other.
func TestSchemaListsEveryReportField(t *testing.T) {
	raw, err := os.ReadFile(reportSchema)
	require.NoError(t, err)
	var doc any
	require.NoError(t, json.Unmarshal(raw, &doc))
	inSchema := map[string]bool{}
	var walk func(any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			if p, ok := v["properties"].(map[string]any); ok {
				for k := range p {
					inSchema[k] = true
				}
			}
			for _, x := range v {
				walk(x)
			}
		case []any:
			for _, x := range v {
				walk(x)
			}
		}
	}
	walk(doc)
	keys := goKeys(t)
	for _, k := range keys {
		assert.True(t, inSchema[k], "%q is in the report but not in %s", k, reportSchema)
	}
	for k := range inSchema {
		assert.True(t, slices.Contains(keys, k), "%q is in %s but no report field has it", k, reportSchema)
	}
}

// TestReportVocabulary: JSON names carry their unit as a suffix
// (_bytes, _s, _ms, _pct, _ratio for 0..1), never a unit in the middle
// or spelled out.
func TestReportVocabulary(t *testing.T) {
	bad := regexp.MustCompile(`_seconds?$|_fraction$|_percent(age)?$|_bytes_[a-z_]+$|^utilization$`)
	walkJSON(reportTypes, func(owner reflect.Type, f reflect.StructField, tag string) {
		if tag == "" {
			return
		}
		if strings.HasSuffix(tag, "_bytes_per_s") {
			return // a rate: bytes per second
		}
		assert.False(t, bad.MatchString(tag), "%s.%s is %q: give the unit as a suffix (_bytes, _s, _ms, _pct, _ratio)", owner.Name(), f.Name, tag)
		if strings.Contains(tag, "utilization") {
			assert.True(t, strings.HasSuffix(tag, "_ratio") || strings.HasSuffix(tag, "_pct"), "%s: a utilization says _ratio or _pct", tag)
		}
	})
}

// systorReplay replays a small SYSTOR '17 trace of a 5 TB LUN, one
// record late, with no map or reorder given: the format's defaults
// wrap and sort it.
func systorReplay(t *testing.T) *spec.Experiment {
	t.Helper()
	path := filepath.Join(t.TempDir(), "systor.csv")
	text := "Timestamp,Response,IOType,LUN,Offset,Size\n" +
		"1456095145.100000000,0.000806000,R,0,899056122368,131072\n" +
		"1456095145.200000000,0.000800000,W,0,4256049987072,4096\n" +
		"1456095145.150000000,0.008044000,R,0,1048576,4096\n" +
		"1456095145.300000000,0.000700000,R,0,5029320000000,8192\n"
	require.NoError(t, os.WriteFile(path, []byte(text), 0o600))
	return experiment("", spec.Job{Trace: &spec.Trace{Path: path}})
}
