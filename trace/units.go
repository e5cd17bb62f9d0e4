package trace

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// sizeUnits maps a lower-cased unit suffix to its multiplier. Every
// multiplier is a power of 1024; see ParseSize.
var sizeUnits = map[string]int64{
	"": 1, "b": 1,
	"k": 1 << 10, "kb": 1 << 10, "kib": 1 << 10,
	"m": 1 << 20, "mb": 1 << 20, "mib": 1 << 20,
	"g": 1 << 30, "gb": 1 << 30, "gib": 1 << 30,
	"t": 1 << 40, "tb": 1 << 40, "tib": 1 << 40,
	"p": 1 << 50, "pb": 1 << 50, "pib": 1 << 50,
}

// ParseSize parses a byte count written as a non-negative whole number
// with an optional unit: "512", "4k", "4KiB", "1MiB", "1g", "2 TiB".
//
// Units are case-insensitive and every one is a power of 1024: k, K, KB,
// kB and KiB all mean 1024 bytes, and likewise M, G, T and P. This is how
// fio reads sizes with its default kb_base=1024, except that fio's default
// mode reads the IEC forms (KiB) as powers of 1000; here KiB always means
// 1024, as IEC defines it. A decimal multiple has no suffix: write the
// digits ("4000"). Fractions ("1.5g") and negative numbers are errors, as
// is a result that does not fit in an int64.
func ParseSize(s string) (int64, error) {
	t := strings.TrimSpace(s)
	i := 0
	for i < len(t) && t[i] >= '0' && t[i] <= '9' {
		i++
	}
	if i == 0 {
		return 0, fmt.Errorf("trace: size %q: want a whole number of bytes with an optional unit (4k, 1MiB)", s)
	}
	unit := strings.ToLower(strings.TrimSpace(t[i:]))
	mult, ok := sizeUnits[unit]
	if !ok {
		return 0, fmt.Errorf("trace: size %q: unknown unit %q (use B, K/KiB, M/MiB, G/GiB, T/TiB or P/PiB)", s, t[i:])
	}
	n, err := strconv.ParseInt(t[:i], 10, 64)
	if err != nil || n > math.MaxInt64/mult {
		return 0, fmt.Errorf("trace: size %q: too large", s)
	}
	return n * mult, nil
}

// FormatSize writes n bytes with the largest binary unit that divides it
// exactly ("4KiB", "1536KiB", "3000"), so ParseSize(FormatSize(n)) == n
// for every n >= 0.
func FormatSize(n int64) string {
	units := [...]string{"PiB", "TiB", "GiB", "MiB", "KiB"}
	if n > 0 {
		for i, u := range units {
			m := int64(1) << (10 * (len(units) - i))
			if n%m == 0 {
				return strconv.FormatInt(n/m, 10) + u
			}
		}
	}
	return strconv.FormatInt(n, 10)
}

// RW is an access pattern, named as fio's rw option names it. The zero
// value is RWRead, fio's default.
type RW uint8

const (
	// RWRead is sequential reads (fio rw=read).
	RWRead RW = iota
	// RWWrite is sequential writes (rw=write).
	RWWrite
	// RWRandRead is random reads (rw=randread).
	RWRandRead
	// RWRandWrite is random writes (rw=randwrite).
	RWRandWrite
	// RWReadWrite is sequential mixed reads and writes sharing one
	// advancing offset (rw=rw or rw=readwrite); Workload.RWMixRead sets
	// the mix.
	RWReadWrite
	// RWRandRW is random mixed reads and writes (rw=randrw).
	RWRandRW
	// RWTrim is sequential trims (discards, rw=trim).
	RWTrim
	// RWRandTrim is random trims (rw=randtrim).
	RWRandTrim
	numRW
)

var rwNames = [numRW]string{"read", "write", "randread", "randwrite", "rw", "randrw", "trim", "randtrim"}

// String returns fio's name for the pattern ("randread"); RWReadWrite is
// "rw".
func (p RW) String() string {
	if p < numRW {
		return rwNames[p]
	}
	return fmt.Sprintf("rw(%d)", uint8(p))
}

// Valid reports whether p is one of the defined patterns.
func (p RW) Valid() bool { return p < numRW }

// Random reports whether offsets are drawn at random (randread, randwrite,
// randrw) rather than advancing sequentially.
func (p RW) Random() bool {
	return p == RWRandRead || p == RWRandWrite || p == RWRandRW || p == RWRandTrim
}

// Mixed reports whether the pattern mixes reads and writes (rw, randrw).
func (p RW) Mixed() bool { return p == RWReadWrite || p == RWRandRW }

// MarshalText returns String's text, so configs hold "randrw".
func (p RW) MarshalText() ([]byte, error) {
	if !p.Valid() {
		return nil, fmt.Errorf("trace: unknown rw %d", uint8(p))
	}
	return []byte(p.String()), nil
}

// UnmarshalText parses text with ParseRW.
func (p *RW) UnmarshalText(text []byte) error {
	v, err := ParseRW(string(text))
	if err != nil {
		return err
	}
	*p = v
	return nil
}

// ParseRW parses fio's rw values: read, write, randread, randwrite, rw
// (also readwrite), randrw, trim and randtrim. Case and surrounding
// spaces are ignored. fio's mixed trim patterns (trimwrite, randtrimwrite)
// are not accepted.
func ParseRW(s string) (RW, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	if t == "readwrite" {
		return RWReadWrite, nil
	}
	for i, n := range rwNames {
		if t == n {
			return RW(i), nil
		}
	}
	return 0, fmt.Errorf("trace: rw %q: want read, write, randread, randwrite, rw, readwrite, randrw, trim or randtrim", s)
}

// BSSplitEntry is one block size of a bssplit and its share of requests.
type BSSplitEntry struct {
	// Size is the block size in bytes.
	Size int64
	// Percent is the share of requests of this size, 0..100. The shares of
	// a split sum to 100.
	Percent float64
}

// percentTolerance absorbs rounding when shares that were split equally
// ("4k/:8k/:16k/") are summed.
const percentTolerance = 1e-6

// ParseBSSplit parses fio's bssplit syntax: size/percent entries
// separated by colons, "4k/50:64k/50". An entry with an empty percent
// ("4k/50:8k/:16k/") shares what the others leave of 100 equally with the
// other empty ones, as fio does. Shares must then sum to 100. fio's
// separate read and write splits (a comma) are not supported.
func ParseBSSplit(s string) ([]BSSplitEntry, error) {
	t := strings.TrimSpace(s)
	if t == "" {
		return nil, fmt.Errorf("trace: bssplit %q: empty", s)
	}
	if strings.Contains(t, ",") {
		return nil, fmt.Errorf("trace: bssplit %q: separate read and write splits (a comma) are not supported", s)
	}
	parts := strings.Split(t, ":")
	out := make([]BSSplitEntry, 0, len(parts))
	var sum float64
	blanks := 0
	for _, p := range parts {
		sizeText, pctText, _ := strings.Cut(p, "/")
		size, err := ParseSize(sizeText)
		if err != nil {
			return nil, fmt.Errorf("trace: bssplit %q: entry %q: %w", s, p, err)
		}
		if size == 0 {
			return nil, fmt.Errorf("trace: bssplit %q: entry %q: block size must be positive", s, p)
		}
		pct := math.NaN() // blank: filled below
		if pt := strings.TrimSpace(pctText); pt != "" {
			pct, err = strconv.ParseFloat(pt, 64)
			if err != nil || !(pct >= 0 && pct <= 100) {
				return nil, fmt.Errorf("trace: bssplit %q: entry %q: percent %q is not a number from 0 to 100", s, p, pctText)
			}
			sum += pct
		} else {
			blanks++
		}
		out = append(out, BSSplitEntry{Size: size, Percent: pct})
	}
	if sum > 100+percentTolerance {
		return nil, fmt.Errorf("trace: bssplit %q: percents sum to %g, more than 100", s, sum)
	}
	if blanks > 0 {
		share := (100 - sum) / float64(blanks)
		for i := range out {
			if math.IsNaN(out[i].Percent) {
				out[i].Percent = share
			}
		}
	} else if math.Abs(sum-100) > percentTolerance {
		return nil, fmt.Errorf("trace: bssplit %q: percents sum to %g, not 100", s, sum)
	}
	return out, nil
}

// DistKind names a random_distribution family.
type DistKind uint8

const (
	// Uniform spreads offsets evenly over the region (fio "random").
	Uniform DistKind = iota
	// Zipf gives block of popularity rank k a probability proportional
	// to 1/k^theta.
	Zipf
	// Pareto is fio's power law: a fraction h of the blocks receives a
	// fraction 1-h of the accesses (h = 0.2 is the 80/20 rule).
	Pareto
	// Normal is a bell around the middle of the region whose standard
	// deviation is a percentage of the region.
	Normal
	numDist
)

var distNames = [numDist]string{"uniform", "zipf", "pareto", "normal"}

// String returns the family's name as fio writes it, with Uniform as
// "uniform" (fio also accepts "random").
func (k DistKind) String() string {
	if k < numDist {
		return distNames[k]
	}
	return fmt.Sprintf("dist(%d)", uint8(k))
}

// Defaults fio uses when zipf or pareto is given without a value.
const (
	// DefaultZipfTheta is the theta of a bare "zipf".
	DefaultZipfTheta = 1.1
	// DefaultParetoH is the h of a bare "pareto".
	DefaultParetoH = 0.2
)

// Distribution is a random_distribution setting: a family and its
// parameter. The zero value is Uniform.
type Distribution struct {
	// Kind is the family.
	Kind DistKind
	// Param is the family's parameter: theta (> 0) for Zipf, h (0 < h < 1)
	// for Pareto, the standard deviation as a percentage of the region
	// (0 < p <= 100) for Normal. Uniform ignores it.
	Param float64
}

// String writes d as ParseDistribution reads it: "uniform", "zipf:1.2".
func (d Distribution) String() string {
	if d.Kind == Uniform {
		return "uniform"
	}
	return d.Kind.String() + ":" + strconv.FormatFloat(d.Param, 'g', -1, 64)
}

// Validate reports a family it does not know or a parameter outside the
// family's range.
func (d Distribution) Validate() error {
	p := d.Param
	switch d.Kind {
	case Uniform:
		return nil
	case Zipf:
		// Unlike fio, theta = 1 is allowed: the sampler does not divide
		// by 1-theta.
		if !(p > 0) || math.IsInf(p, 1) {
			return fmt.Errorf("zipf theta %g out of range (want theta > 0)", p)
		}
	case Pareto:
		if !(p > 0 && p < 1) {
			return fmt.Errorf("pareto h %g out of range (want 0 < h < 1)", p)
		}
	case Normal:
		if !(p > 0 && p <= 100) {
			return fmt.Errorf("normal deviation %g%% out of range (want 0 < percent <= 100)", p)
		}
	default:
		return fmt.Errorf("unknown distribution kind %d", uint8(d.Kind))
	}
	return nil
}

// MarshalText returns String's text.
func (d Distribution) MarshalText() ([]byte, error) {
	if err := d.Validate(); err != nil {
		return nil, fmt.Errorf("trace: %w", err)
	}
	return []byte(d.String()), nil
}

// UnmarshalText parses text with ParseDistribution.
func (d *Distribution) UnmarshalText(text []byte) error {
	v, err := ParseDistribution(string(text))
	if err != nil {
		return err
	}
	*d = v
	return nil
}

// ParseDistribution parses fio's random_distribution values: "uniform"
// (or "random"), "zipf:theta", "pareto:h" and "normal:percent". A bare
// "zipf" or "pareto" takes fio's default (DefaultZipfTheta,
// DefaultParetoH); "normal" needs its deviation. fio's zoned
// distributions and normal's center argument are not supported.
func ParseDistribution(s string) (Distribution, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	name, val, hasVal := strings.Cut(t, ":")
	var d Distribution
	switch name {
	case "uniform", "random":
		if hasVal {
			return d, fmt.Errorf("trace: random_distribution %q: uniform takes no value", s)
		}
		return d, nil
	case "zipf":
		d = Distribution{Kind: Zipf, Param: DefaultZipfTheta}
	case "pareto":
		d = Distribution{Kind: Pareto, Param: DefaultParetoH}
	case "normal":
		d = Distribution{Kind: Normal, Param: math.NaN()}
	default:
		return d, fmt.Errorf("trace: random_distribution %q: want uniform, zipf:theta, pareto:h or normal:percent", s)
	}
	if hasVal {
		p, err := strconv.ParseFloat(strings.TrimSpace(val), 64)
		if err != nil {
			return Distribution{}, fmt.Errorf("trace: random_distribution %q: value %q is not a number", s, val)
		}
		d.Param = p
	} else if math.IsNaN(d.Param) {
		return Distribution{}, fmt.Errorf("trace: random_distribution %q: normal needs its deviation (normal:percent)", s)
	}
	if err := d.Validate(); err != nil {
		return Distribution{}, fmt.Errorf("trace: random_distribution %q: %w", s, err)
	}
	return d, nil
}
