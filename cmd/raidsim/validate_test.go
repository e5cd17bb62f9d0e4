package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
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

// TestValidateFigures pins raidsim's fit to the two measured traces:
// DiskSim 4.0's own demerit figures on them are 0.268 ms (atlas10k) and
// 0.306 ms (hp_c3323a); raidsim must do at least as well with the mean
// within 2%, and the pinned figures show any regression.
func TestValidateFigures(t *testing.T) {
	for _, tc := range []struct {
		drive          string
		requests       int
		measured       float64
		simulated      float64
		demerit        float64
		disksimDemerit float64
	}{
		{"atlas10k", 10000, 3.893, 3.865, 0.110, 0.268},
		{"hp_c3323a", 9074, 15.765, 15.845, 0.250, 0.306},
	} {
		model, trace := validationFiles(t, tc.drive)
		var out, errb bytes.Buffer
		err := runValidate([]string{"--disksim", model, "--trace", trace, "--json"}, &out, &errb)
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
		if int(num("requests")) != tc.requests || math.Abs(meas-tc.measured) > 0.0005 {
			t.Errorf("%s: %v requests, measured mean %.4f ms; want %d, %.3f", tc.drive, res["requests"], meas, tc.requests, tc.measured)
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
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--trace", "x"}, "--disksim and --trace are required"},
		{[]string{"--disksim", "x.parv", "--trace", "t", "extra"}, "unexpected argument"},
		{[]string{"--disksim", "x.parv", "--trace", "t", "--format", "msr"}, "only \"validate\""},
		{[]string{"--disksim", "nosuch.parv", "--trace", "t"}, "nosuch.parv"},
		{[]string{"--bogus"}, "unknown flag: --bogus"},
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
