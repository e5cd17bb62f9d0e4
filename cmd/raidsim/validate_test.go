package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/raidsim/raidsim/internal/shareddata"
)

// TestMain names, in go test's output, the tests that skipped because the
// data beside the repository (../shared: DiskSim's models, trace samples)
// is absent.
func TestMain(m *testing.M) { shareddata.Main(m) }

// validationFiles returns the paths of a drive's DiskSim model and its
// measured validate trace in ../shared, or skips t when either is absent.
func validationFiles(t *testing.T, drive string) (model, trace string) {
	t.Helper()
	return shareddata.Dir(t, "disksim-models", drive+".parv"), shareddata.Dir(t, "traces", drive+".validate.trace")
}

// TestValidateFigures pins raidsim's fit to the two measured traces.
// DiskSim 4.0's own figures on them (tools/disksim/BUILD.md: simulated
// means 3.970625 and 15.574722 ms, demerits 0.267721 and 0.305653 ms by
// DiskSim's rms program) are what exact mode must give: the demerit
// within 0.005 ms, the mean within 0.1%. Refined mode must do at least
// as well as DiskSim with the mean within 2%, and its pinned figures show
// any regression.
func TestValidateFigures(t *testing.T) {
	for _, tc := range []struct {
		drive, mode    string
		requests       int
		measured       float64
		simulated      float64
		demerit        float64
		disksimDemerit float64
	}{
		{"atlas10k", "refined", 10000, 3.893, 3.865, 0.110, 0.268},
		{"hp_c3323a", "refined", 9074, 15.765, 15.845, 0.250, 0.306},
		{"atlas10k", "exact", 10000, 3.893, 3.970625, 0.267721, 0.267721},
		{"hp_c3323a", "exact", 9074, 15.765, 15.574722, 0.305653, 0.305653},
	} {
		model, trace := validationFiles(t, tc.drive)
		var out, errb bytes.Buffer
		err := runValidate([]string{"--disksim", model, "--trace", trace, "--disksim-mode", tc.mode, "--json"}, &out, &errb)
		if err != nil {
			t.Fatalf("%s: %v %s", tc.drive, err, errb.String())
		}
		var res map[string]any
		if err := json.Unmarshal(out.Bytes(), &res); err != nil {
			t.Fatalf("%s: %v\n%s", tc.drive, err, out.String())
		}
		num := func(k string) float64 {
			v, ok := res[k].(float64)
			if !ok {
				t.Fatalf("%s: JSON lacks %q: %s", tc.drive, k, out.String())
			}
			return v
		}
		meas, sim, dm, pct := num("measured_mean_ms"), num("simulated_mean_ms"), num("demerit_ms"), num("demerit_pct")
		if int(num("requests")) != tc.requests || math.Abs(meas-tc.measured) > 0.0005 || res["mode"] != tc.mode {
			t.Errorf("%s: %v requests, measured mean %.4f ms, %v mode; want %d, %.3f, %s", tc.drive, res["requests"], meas, res["mode"], tc.requests, tc.measured, tc.mode)
		}
		if tc.mode == "exact" {
			if math.Abs(sim-tc.simulated) > 0.001*tc.simulated || math.Abs(dm-tc.disksimDemerit) > 0.005 {
				t.Errorf("%s exact: simulated mean %.6f ms, demerit %.6f ms; DiskSim's %.6f, %.6f", tc.drive, sim, dm, tc.simulated, tc.disksimDemerit)
			}
			continue
		}
		if math.Abs(sim-tc.simulated) > 0.003 || math.Abs(dm-tc.demerit) > 0.003 {
			t.Errorf("%s: simulated mean %.4f ms, demerit %.4f ms; pinned %.3f, %.3f", tc.drive, sim, dm, tc.simulated, tc.demerit)
		}
		if dm > tc.disksimDemerit || math.Abs(sim-meas)/meas > 0.02 {
			t.Errorf("%s: demerit %.3f ms (DiskSim %.3f), mean off by %.2f%%", tc.drive, dm, tc.disksimDemerit, 100*(sim-meas)/meas)
		}
		if math.Abs(pct-100*dm/meas) > 1e-6 {
			t.Errorf("%s: demerit %.4f%%, want %.4f%%", tc.drive, pct, 100*dm/meas)
		}
	}
}

// TestValidateOutput checks the text report, the text plot and the SVG.
func TestValidateOutput(t *testing.T) {
	model, trace := validationFiles(t, "hp_c3323a")
	svg := filepath.Join(t.TempDir(), "cdf.svg")
	var out, errb bytes.Buffer
	args := []string{"--disksim", model, "--trace", trace, "--format", "validate", "-v"}
	if err := runValidate(append(args, "--plot", "text"), &out, &errb); err != nil {
		t.Fatal(err, errb.String())
	}
	s := out.String()
	for _, want := range []string{"drive HP_C3323A_validate", "9074 requests", "measured mean     15.765 ms", "demerit", "% of the measured mean",
		"    p50                16.000", "    p90                26.750", "    p99                37.112", "  largest gap: simulated ",
		"parameters not used", "disksim_disk: Print stats", "CDF of service time", "1.0 |", "0.0 |"} {
		if !strings.Contains(s, want) {
			t.Errorf("text output lacks %q:\n%s", want, s)
		}
	}
	out.Reset()
	if err := runValidate(append(args, "--plot", svg), &out, &errb); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(svg)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(b, []byte("<svg ")) || !bytes.Contains(b, []byte("<polyline")) || !bytes.HasSuffix(b, []byte("</svg>\n")) ||
		!strings.Contains(out.String(), "CDF plot written to") {
		t.Errorf("SVG: %.200s ... ; output %s", b, out.String())
	}
}

func TestValidateErrors(t *testing.T) {
	blk := filepath.Join(t.TempDir(), "b.blkparse")
	if err := os.WriteFile(blk, []byte("  8,0    0        1     0.000000000  1234  Q   R 2048 + 8 [fio]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--trace", "x"}, "--disksim and --trace are required"},
		{[]string{"--disksim", "x.parv", "--trace", "t", "extra"}, "unexpected argument"},
		{[]string{"--disksim", miniParv, "--disksim-mode", "refined", "--trace", "nosuch.trace", "--format", "msr"}, "nosuch.trace: no such file"},
		{[]string{"--disksim", miniParv, "--disksim-mode", "refined", "--trace", blk, "--format", "blkparse"}, "the trace records no measured service times"},
		{[]string{"--disksim", "nosuch.parv", "--trace", "t"}, "nosuch.parv"},
		{[]string{"--bogus"}, "unknown flag: --bogus"},
		{[]string{"--disksim", miniParv, "--trace", "t"}, "DiskSim rejects it (a controller takes only buses below it)"},
		{[]string{"--disksim", miniParv, "--trace", "t", "--disksim-mode", "fast"}, "--disksim-mode \"fast\": want exact or refined"},
		{[]string{"--disksim", miniParv, "--trace", blk, "--max-requests", "-1"}, "--max-requests -1: want 0 (all) or more"},
	} {
		var out, errb bytes.Buffer
		err := runValidate(tc.args, &out, &errb)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: %v, want %q", tc.args, err, tc.want)
		}
	}
	var out, errb bytes.Buffer
	if err := runValidate([]string{"--help"}, &out, &errb); !errors.Is(err, errHelp) || !strings.Contains(out.String(), "Usage: raidsim validate") {
		t.Errorf("--help: %v, stdout %q", err, out.String())
	}
}

// TestValidateGaps checks the percentiles and the gaps by class, in
// text and JSON, on the tiny model of the calibrate package's testdata
// and a made-up trace (no ../shared needed): the figures must agree with
// each other and with a direct comparison.
func TestValidateGaps(t *testing.T) {
	tr := writeMiniTrace(t, 300)
	var out, errb bytes.Buffer
	if err := runValidate([]string{"--disksim", miniParv, "--trace", tr, "--disksim-mode", "refined", "--json"}, &out, &errb); err != nil {
		t.Fatal(err, errb.String())
	}
	var res validateResult
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, c := range res.Classes {
		n += c.Requests
		if c.Weight > res.Classes[0].Weight {
			t.Errorf("class %q weighs more than the first", c.Name)
		}
	}
	if n != 300 || res.Requests != 300 || len(res.Classes) < 2 || res.DemeritMs <= 0 {
		t.Errorf("%d requests in %d classes, %d in all; want 300", n, len(res.Classes), res.Requests)
	}
	if res.LargestGap != res.Classes[0].Describe() || !strings.HasPrefix(res.LargestGap, "simulated ") {
		t.Errorf("largest gap %q, first class %+v", res.LargestGap, res.Classes[0])
	}
	m := res.Measured
	if !(m.P50 <= m.P90 && m.P90 <= m.P99) || m.Mean != res.MeasuredMeanMs || res.Simulated.Mean != res.SimulatedMeanMs {
		t.Errorf("measured %+v, simulated %+v", m, res.Simulated)
	}
	// The trace's service times are 1.5 + (37 i mod 6000) µs: its
	// median, 90th and 99th percentiles by hand.
	var svc []float64
	for i := range 300 {
		svc = append(svc, float64(1500+(i*37)%6000)/1000)
	}
	slices.Sort(svc)
	if m.P50 != svc[149] || m.P90 != svc[269] || m.P99 != svc[296] {
		t.Errorf("measured percentiles %+v, want %g %g %g", m, svc[149], svc[269], svc[296])
	}
	out.Reset()
	if err := runValidate([]string{"--disksim", miniParv, "--trace", tr, "--disksim-mode", "refined", "--max-requests", "100"}, &out, &errb); err != nil || !strings.Contains(out.String(), ", 100 requests, refined mode\n") {
		t.Errorf("--max-requests 100: %v\n%s", err, out.String())
	}
	out.Reset()
	if err := runValidate([]string{"--disksim", miniParv, "--trace", tr, "--disksim-mode", "refined"}, &out, &errb); err != nil {
		t.Fatal(err)
	}
	s := out.String()
	for _, want := range []string{
		fmt.Sprintf("    p50             %9.3f %10.3f %+8.3f\n", m.P50, res.Simulated.P50, res.Simulated.P50-m.P50),
		fmt.Sprintf("    p99             %9.3f %10.3f %+8.3f\n", m.P99, res.Simulated.P99, res.Simulated.P99-m.P99),
		"  largest gap: " + res.LargestGap + "\n",
		fmt.Sprintf("    %-48s %6d", res.Classes[0].Name, res.Classes[0].Requests),
	} {
		if !strings.Contains(s, want) {
			t.Errorf("text lacks %q:\n%s", want, s)
		}
	}
}

// TestValidatePerRequest checks --per-request: DiskSim's requests.tsv
// columns, one line a request in trace order, the responses averaging
// to the simulated mean; in exact mode on the shared HP C3323A model,
// DiskSim's own mean (BUILD.md: 15.574722 ms).
func TestValidatePerRequest(t *testing.T) {
	check := func(args []string, n int, mean float64) {
		t.Helper()
		path := filepath.Join(t.TempDir(), "requests.tsv")
		var out, errb bytes.Buffer
		if err := runValidate(append(args, "--per-request", path, "--json"), &out, &errb); err != nil {
			t.Fatal(err, errb.String())
		}
		var res validateResult
		if err := json.Unmarshal(out.Bytes(), &res); err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
		if lines[0] != "arrival_ms\tdevno\tblkno\tbcount\trw\tflags\tresponse_ms\tmeasured_ms" || len(lines) != n+1 {
			t.Fatalf("%d lines, header %q", len(lines), lines[0])
		}
		sum, last := 0.0, -1.0
		for _, l := range lines[1:] {
			f := strings.Split(l, "\t")
			a, _ := strconv.ParseFloat(f[0], 64)
			r, _ := strconv.ParseFloat(f[6], 64)
			if len(f) != 8 || a < last || (f[4] == "R") != (f[5] == "0x1") {
				t.Fatalf("line %q", l)
			}
			last = a
			sum += r
		}
		if got := sum / float64(n); math.Abs(got-res.SimulatedMeanMs) > 1e-6 || (mean > 0 && math.Abs(got-mean) > 1e-6) {
			t.Errorf("mean response %.6f ms, simulated mean %.6f, want %.6f", got, res.SimulatedMeanMs, mean)
		}
	}
	check([]string{"--disksim", miniParv, "--disksim-mode", "refined", "--trace", writeMiniTrace(t, 50)}, 50, 0)
	model, trace := validationFiles(t, "hp_c3323a")
	check([]string{"--disksim", model, "--trace", trace}, 9074, 15.574722)
}
