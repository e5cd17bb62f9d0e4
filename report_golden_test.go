package raidsim_test

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"unicode"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/raidsim/raidsim"
	"github.com/raidsim/raidsim/simtest"
)

// goldenExperiment touches every part of the report: two phases (one
// with a background job), RAID 5 with a failed member, a volume cache,
// and the power-loss view.
const goldenExperiment = `
name: golden
seed: 3
power_loss_at: 150ms
stack:
  drive: {preset: deskstar-7k160}
  disks: 4
  raid: {level: 5, stripe_unit: 32KiB}
  failures: [{member: 3, at: 100ms}]
  cache: {size: 4MiB}
phases:
  - {name: writes, rw: randwrite, bs: 8KiB, ios: 1000, iodepth: 8, size: 256MiB}
  - name: reads beside writes
    rw: randread
    ios: 200
    size: 256MiB
    background: [{rw: write, bs: 64KiB, offset: 1GiB}]
`

// TestReportJSONGolden pins the JSON report's layout and figures (go test
// -run TestReportJSONGolden -update rewrites testdata/report.json; a
// layout change must also bump raidsim.SchemaVersion).
func TestReportJSONGolden(t *testing.T) {
	rep := run(t, goldenExperiment)
	var b bytes.Buffer
	require.NoError(t, rep.WriteJSON(&b))
	simtest.Golden(t, "report.json", b.Bytes())
	var m map[string]any
	require.NoError(t, json.Unmarshal(b.Bytes(), &m))
	assert.EqualValues(t, raidsim.SchemaVersion, m["schema_version"])
}

// TestReportTextGolden pins the text report of the same run.
func TestReportTextGolden(t *testing.T) {
	rep := run(t, goldenExperiment)
	var b bytes.Buffer
	require.NoError(t, rep.WriteText(&b))
	simtest.Golden(t, "report.txt", b.Bytes())
}

// TestReportJSONNamesAreTheGoNames: every JSON key of the report (a
// drive kind's section included) is the snake_case of its Go field's
// name, seconds shortened to s, so the two never drift apart; a unit may
// follow (_bytes, _ratio, _pct, ...).
func TestReportJSONNamesAreTheGoNames(t *testing.T) {
	n := 0
	walkJSON(reportTypes, func(owner reflect.Type, f reflect.StructField, tag string) {
		n++
		want := snake(f.Name)
		for _, long := range []string{"_seconds", "_second"} {
			if w, ok := strings.CutSuffix(want, long); ok {
				want = w + "_s"
				break
			}
		}
		// fio's own run-together spellings (iodepth, bssplit, rwmixread)
		// count as the Go name.
		if tag != "" && !strings.HasPrefix(tag, want) && !strings.HasPrefix(tag, strings.ReplaceAll(want, "_", "")) {
			t.Errorf("%s.%s is %q in JSON", owner.Name(), f.Name, tag)
		}
	})
	assert.Greater(t, n, 100)
}

// snake turns a Go name into snake_case: IOs -> ios, RAIDReport ->
// raid_report, LatencyMS -> latency_ms, MeanSeekCylinders ->
// mean_seek_cylinders.
func snake(name string) string {
	var b strings.Builder
	r := []rune(name)
	for i, c := range r {
		upper := unicode.IsUpper(c)
		if upper && i > 0 && (unicode.IsLower(r[i-1]) || i+1 < len(r) && unicode.IsLower(r[i+1]) && unicode.IsUpper(r[i-1]) && !(r[i+1] == 's' && i+2 == len(r))) {
			b.WriteByte('_')
		}
		b.WriteRune(unicode.ToLower(c))
	}
	return b.String()
}
