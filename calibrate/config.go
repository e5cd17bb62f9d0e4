package calibrate

import (
	"fmt"
	"io"
	"strings"
	"time"
)

// ConfigInfo is what WriteConfig says about a fit in the config's header
// and its phase.
type ConfigInfo struct {
	// Name is the fitted drive's name (default: Base's name with
	// "-calibrated").
	Name string
	// TracePath is the measured trace, replayed by the config's phase at
	// one request outstanding; TraceFormat its format.
	TracePath, TraceFormat string
}

// WriteConfig writes the fitted model r of family f as a raidsim config
// file (YAML): the drive is f's preset (when f.Preset is set) with the
// fitted figures in stack.drive.spec over it and the fitted read-ahead in
// stack.drive.read_ahead, and its one phase replays the measured trace at
// one request outstanding. `raidsim run --config FILE` and spec.Load read
// it; the drive it describes is r.Model.
func WriteConfig(w io.Writer, f SpecFamily, r Result, info ConfigInfo) error {
	if len(r.Values) != len(specParams) {
		return fmt.Errorf("calibrate: WriteConfig: a result of %d values is not a SpecFamily fit", len(r.Values))
	}
	s := f.Spec(r.Values)
	name := info.Name
	if name == "" {
		name = f.Base.Name + "-calibrated"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# %s: %s calibrated by raidsim calibrate on %s (%d requests, %d models evaluated)\n",
		name, f.Base.Name, baseName(info.TracePath), r.After.Requests, r.Evaluations)
	fmt.Fprintf(&b, "# demerit %.3f ms before, %.3f ms after (%s)\n", r.Before.DemeritMs, r.After.DemeritMs, Improvement(r))
	fmt.Fprintf(&b, "name: %s\nstack:\n  drive:\n", yamlString(name))
	if f.Preset != "" {
		fmt.Fprintf(&b, "    preset: %s\n", yamlString(f.Preset))
	}
	b.WriteString("    spec:\n")
	fmt.Fprintf(&b, "      name: %s\n", yamlString(name))
	if f.Preset == "" {
		writeBaseSpec(&b, f)
	}
	for _, kv := range []struct {
		key string
		v   time.Duration
	}{
		{"read_overhead", s.ReadOverhead}, {"write_overhead", s.WriteOverhead},
		{"track_to_track", s.TrackToTrack}, {"average_seek", s.AverageSeek}, {"full_stroke", s.FullStroke},
		{"head_switch", s.HeadSwitch}, {"write_settle", s.WriteSettle},
	} {
		fmt.Fprintf(&b, "      %s: %s   # fitted\n", kv.key, kv.v)
	}
	fmt.Fprintf(&b, "    read_ahead: %s   # fitted\n", r.ReadAhead)
	b.WriteString("phases:\n  - name: measured trace\n    trace:\n")
	fmt.Fprintf(&b, "      path: %s\n", yamlString(info.TracePath))
	if info.TraceFormat != "" {
		fmt.Fprintf(&b, "      format: %s\n", yamlString(info.TraceFormat))
	}
	b.WriteString("      iodepth: 1\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// writeBaseSpec writes the data-sheet figures of a base with no preset.
func writeBaseSpec(b *strings.Builder, f SpecFamily) {
	s := f.Base
	fmt.Fprintf(b, "      capacity: %d\n", s.Capacity)
	if s.SectorSize != 0 {
		fmt.Fprintf(b, "      sector_size: %d\n", s.SectorSize)
	}
	fmt.Fprintf(b, "      rpm: %d\n      heads: %d\n", s.RPM, s.Heads)
	if s.Zones != 0 {
		fmt.Fprintf(b, "      zones: %d\n", s.Zones)
	}
	for _, kv := range []struct {
		key string
		v   float64
	}{
		{"outer_sustained", s.OuterSustained}, {"inner_sustained", s.InnerSustained},
		{"outer_instant", s.OuterInstant}, {"inner_instant", s.InnerInstant}, {"interface_rate", s.InterfaceRate},
	} {
		if kv.v != 0 {
			fmt.Fprintf(b, "      %s: %g\n", kv.key, kv.v/1e6)
		}
	}
	if s.BufferSize != 0 {
		fmt.Fprintf(b, "      buffer_size: %d\n", s.BufferSize)
	}
}

// yamlString quotes s for YAML when it is not a plain word.
func yamlString(s string) string {
	plain := s != ""
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.ContainsRune("-_./", c)) {
			plain = false
			break
		}
	}
	if plain {
		return s
	}
	return fmt.Sprintf("%q", s)
}

// Improvement says how much better the fitted model scores than the
// starting one: "66.0% better".
func Improvement(r Result) string {
	if !(r.Before.DemeritMs > 0) {
		return "no change"
	}
	pct := 100 * (r.Before.DemeritMs - r.After.DemeritMs) / r.Before.DemeritMs
	if pct < 0 {
		return fmt.Sprintf("%.1f%% worse", -pct)
	}
	return fmt.Sprintf("%.1f%% better", pct)
}
