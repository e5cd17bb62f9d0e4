package trace

import (
	"math"
	"strings"
	"testing"
)

func TestParseSize(t *testing.T) {
	good := []struct {
		in   string
		want int64
	}{
		{"0", 0},
		{"512", 512},
		{"512b", 512},
		{"512B", 512},
		{"4k", 4096},
		{"4K", 4096},
		{"4kb", 4096},
		{"4kB", 4096},
		{"4KiB", 4096},
		{"4kib", 4096},
		{" 4 KiB ", 4096},
		{"1m", 1 << 20},
		{"1MiB", 1 << 20},
		{"64MB", 64 << 20},
		{"1g", 1 << 30},
		{"2GiB", 2 << 30},
		{"3t", 3 << 40},
		{"1TiB", 1 << 40},
		{"1p", 1 << 50},
		{"8191PiB", 8191 << 50},
		{"9223372036854775807", math.MaxInt64},
	}
	for _, tc := range good {
		got, err := ParseSize(tc.in)
		if err != nil || got != tc.want {
			t.Errorf("ParseSize(%q) = %d, %v; want %d", tc.in, got, err, tc.want)
		}
	}
	bad := []struct{ in, msg string }{
		{"", "whole number"},
		{"k", "whole number"},
		{"-4k", "whole number"},
		{"1.5g", "unknown unit"},
		{"4x", `unknown unit "x"`},
		{"4kk", "unknown unit"},
		{"4 KiBs", "unknown unit"},
		{"8192PiB", "too large"},
		{"9223372036854775808", "too large"},
		{"99999999999999999999k", "too large"},
	}
	for _, tc := range bad {
		got, err := ParseSize(tc.in)
		if err == nil {
			t.Errorf("ParseSize(%q) = %d, want an error", tc.in, got)
			continue
		}
		if !strings.Contains(err.Error(), tc.msg) || !strings.Contains(err.Error(), "trace: size") {
			t.Errorf("ParseSize(%q) error %q, want it to mention %q", tc.in, err, tc.msg)
		}
	}
}

func TestFormatSize(t *testing.T) {
	for _, tc := range []struct {
		n    int64
		want string
	}{
		{0, "0"}, {512, "512"}, {4096, "4KiB"}, {1536 << 10, "1536KiB"},
		{1 << 20, "1MiB"}, {3 << 30, "3GiB"}, {1 << 40, "1TiB"}, {5 << 50, "5PiB"}, {4000, "4000"},
	} {
		if got := FormatSize(tc.n); got != tc.want {
			t.Errorf("FormatSize(%d) = %q, want %q", tc.n, got, tc.want)
		}
		if back, err := ParseSize(FormatSize(tc.n)); err != nil || back != tc.n {
			t.Errorf("ParseSize(FormatSize(%d)) = %d, %v", tc.n, back, err)
		}
	}
}

func TestParseRW(t *testing.T) {
	good := map[string]RW{
		"read": RWRead, "write": RWWrite, "randread": RWRandRead, "randwrite": RWRandWrite,
		"rw": RWReadWrite, "readwrite": RWReadWrite, "randrw": RWRandRW, " RandRW ": RWRandRW,
		"trim": RWTrim, "randtrim": RWRandTrim,
	}
	for in, want := range good {
		got, err := ParseRW(in)
		if err != nil || got != want {
			t.Errorf("ParseRW(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "trimwrite", "randtrimwrite", "rand", "read,write"} {
		if got, err := ParseRW(in); err == nil || !strings.Contains(err.Error(), `"`+in+`"`) {
			t.Errorf("ParseRW(%q) = %v, %v; want an error quoting the input", in, got, err)
		}
	}
	for p := range numRW {
		var back RW
		text, err := p.MarshalText()
		if err != nil || back.UnmarshalText(text) != nil || back != p {
			t.Errorf("%v does not round-trip through text (%q, %v)", p, text, err)
		}
	}
	if _, err := RW(numRW).MarshalText(); err == nil {
		t.Error("MarshalText of an unknown RW succeeded")
	}
	flags := []struct {
		p             RW
		random, mixed bool
	}{
		{RWRead, false, false}, {RWWrite, false, false}, {RWRandRead, true, false},
		{RWRandWrite, true, false}, {RWReadWrite, false, true}, {RWRandRW, true, true},
	}
	for _, f := range flags {
		if f.p.Random() != f.random || f.p.Mixed() != f.mixed {
			t.Errorf("%v: Random %v Mixed %v, want %v %v", f.p, f.p.Random(), f.p.Mixed(), f.random, f.mixed)
		}
	}
}

func TestParseBSSplit(t *testing.T) {
	good := []struct {
		in   string
		want []BSSplitEntry
	}{
		{"4k/100", []BSSplitEntry{{4096, 100}}},
		{"4k/50:64k/50", []BSSplitEntry{{4096, 50}, {65536, 50}}},
		{"4k/10:64k/50:32k/40", []BSSplitEntry{{4096, 10}, {65536, 50}, {32768, 40}}},
		{"4k/50:8k/:16k/", []BSSplitEntry{{4096, 50}, {8192, 25}, {16384, 25}}},
		{"4k", []BSSplitEntry{{4096, 100}}},
		{"512/0.5:4k/99.5", []BSSplitEntry{{512, 0.5}, {4096, 99.5}}},
		{"4k/0:8k/100", []BSSplitEntry{{4096, 0}, {8192, 100}}},
	}
	for _, tc := range good {
		got, err := ParseBSSplit(tc.in)
		if err != nil || len(got) != len(tc.want) {
			t.Errorf("ParseBSSplit(%q) = %v, %v; want %v", tc.in, got, err, tc.want)
			continue
		}
		for i := range got {
			if got[i].Size != tc.want[i].Size || math.Abs(got[i].Percent-tc.want[i].Percent) > 1e-9 {
				t.Errorf("ParseBSSplit(%q)[%d] = %v, want %v", tc.in, i, got[i], tc.want[i])
			}
		}
	}
	bad := []struct{ in, msg string }{
		{"", "empty"},
		{"4k/50:64k/40", "sum to 90"},
		{"4k/60:64k/60", "more than 100"},
		{"4x/50:4k/50", "unknown unit"},
		{"0/100", "positive"},
		{"4k/abc", `percent "abc"`},
		{"4k/-5:8k/105", "percent"},
		{"4k/50::8k/50", `entry ""`},
		{"4k/50:8k/50,4k/100", "comma"},
		{"4k/NaN", "percent"},
	}
	for _, tc := range bad {
		got, err := ParseBSSplit(tc.in)
		if err == nil {
			t.Errorf("ParseBSSplit(%q) = %v, want an error", tc.in, got)
			continue
		}
		if !strings.Contains(err.Error(), tc.msg) || !strings.Contains(err.Error(), `bssplit "`) {
			t.Errorf("ParseBSSplit(%q) error %q, want it to mention %q", tc.in, err, tc.msg)
		}
	}
}

func TestParseDistribution(t *testing.T) {
	good := []struct {
		in   string
		want Distribution
	}{
		{"uniform", Distribution{}},
		{"random", Distribution{}},
		{"zipf", Distribution{Zipf, DefaultZipfTheta}},
		{"zipf:1.2", Distribution{Zipf, 1.2}},
		{"zipf:0.8", Distribution{Zipf, 0.8}},
		{"zipf:1", Distribution{Zipf, 1}},
		{"Pareto:0.3", Distribution{Pareto, 0.3}},
		{"pareto", Distribution{Pareto, DefaultParetoH}},
		{"normal:20", Distribution{Normal, 20}},
		{"normal:100", Distribution{Normal, 100}},
	}
	for _, tc := range good {
		got, err := ParseDistribution(tc.in)
		if err != nil || got != tc.want {
			t.Errorf("ParseDistribution(%q) = %v, %v; want %v", tc.in, got, err, tc.want)
		}
		// String and Parse are inverses.
		back, err := ParseDistribution(got.String())
		if err != nil || back != got {
			t.Errorf("ParseDistribution(%q) = %v, %v; want %v", got.String(), back, err, got)
		}
	}
	bad := []struct{ in, msg string }{
		{"", "want uniform"},
		{"gauss:3", "want uniform"},
		{"zoned:50/10:50/90", "want uniform"},
		{"uniform:3", "no value"},
		{"zipf:0", "theta"},
		{"zipf:-1", "theta"},
		{"zipf:x", `value "x"`},
		{"zipf:+Inf", "theta"},
		{"zipf:NaN", "theta"},
		{"pareto:0", "pareto h"},
		{"pareto:1", "pareto h"},
		{"normal", "deviation"},
		{"normal:0", "deviation"},
		{"normal:101", "deviation"},
	}
	for _, tc := range bad {
		got, err := ParseDistribution(tc.in)
		if err == nil {
			t.Errorf("ParseDistribution(%q) = %v, want an error", tc.in, got)
			continue
		}
		if !strings.Contains(err.Error(), tc.msg) || !strings.Contains(err.Error(), `random_distribution "`+tc.in+`"`) {
			t.Errorf("ParseDistribution(%q) error %q, want it to quote the input and mention %q", tc.in, err, tc.msg)
		}
	}
	var d Distribution
	if err := d.UnmarshalText([]byte("zipf:1.5")); err != nil || d != (Distribution{Zipf, 1.5}) {
		t.Errorf("UnmarshalText: %v, %v", d, err)
	}
	if text, err := d.MarshalText(); err != nil || string(text) != "zipf:1.5" {
		t.Errorf("MarshalText: %q, %v", text, err)
	}
	if _, err := (Distribution{Kind: numDist}).MarshalText(); err == nil {
		t.Error("MarshalText of an unknown kind succeeded")
	}
}

func FuzzParseSize(f *testing.F) {
	for _, s := range []string{"4k", "1MiB", "512", " 2 g", "-1", "9223372036854775807", "1.5k", "8192PiB"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n, err := ParseSize(s)
		if err != nil {
			return
		}
		if n < 0 {
			t.Fatalf("ParseSize(%q) = %d, negative", s, n)
		}
		if back, err := ParseSize(FormatSize(n)); err != nil || back != n {
			t.Fatalf("ParseSize(FormatSize(%d)) = %d, %v", n, back, err)
		}
	})
}

func FuzzParseBSSplit(f *testing.F) {
	for _, s := range []string{"4k/50:64k/50", "4k/50:8k/:16k/", "4k", "::", "4k/1e2", "4k/50,8k/50"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		split, err := ParseBSSplit(s)
		if err != nil {
			return
		}
		w := Workload{BSSplit: split, IODepth: 1}
		// Every accepted split has positive sizes and shares summing to
		// 100, so only alignment and region checks may fail.
		err = w.Validate(1<<62, 1)
		if err != nil && !strings.Contains(err.Error(), "Size") {
			t.Fatalf("ParseBSSplit(%q) = %v, which Validate rejects: %v", s, split, err)
		}
	})
}

func FuzzParseDistribution(f *testing.F) {
	for _, s := range []string{"zipf:1.2", "pareto:0.2", "normal:10", "uniform", "zipf:", ":", "normal:1e400"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, err := ParseDistribution(s)
		if err != nil {
			return
		}
		if err := d.Validate(); err != nil {
			t.Fatalf("ParseDistribution(%q) = %v, which Validate rejects: %v", s, d, err)
		}
		if back, err := ParseDistribution(d.String()); err != nil || back != d {
			t.Fatalf("%v does not round-trip: %v, %v", d, back, err)
		}
	})
}
