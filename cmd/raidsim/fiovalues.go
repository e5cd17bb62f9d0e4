package main

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// fio's value syntax (fio's HOWTO, "Parameter types"): sizes with an
// optional unit whose k is kb_base bytes (1024 by default) unless
// written with i (KiB is always 1024), durations with a default unit
// per option, switches written bare or as 0/1.

// fioSizeUnits are the size suffixes by their power of the base, in
// lower case.
var fioSizeUnits = map[string]int{"": 0, "b": 0, "k": 1, "kb": 1, "kib": 1, "m": 2, "mb": 2, "mib": 2,
	"g": 3, "gb": 3, "gib": 3, "t": 4, "tb": 4, "tib": 4, "p": 5, "pb": 5, "pib": 5}

// parseFioSize reads a size in bytes: a whole or decimal number (or
// 0x hex) with an optional unit; kbBase is 1024 or 1000.
func parseFioSize(s string, kbBase int64) (int64, error) {
	t := strings.TrimSpace(s)
	if h, ok := strings.CutPrefix(strings.ToLower(t), "0x"); ok {
		n, err := strconv.ParseInt(h, 16, 64)
		if err != nil || n < 0 {
			return 0, fmt.Errorf("%q is not a size", s)
		}
		return n, nil
	}
	i := 0
	for i < len(t) && (t[i] >= '0' && t[i] <= '9' || t[i] == '.') {
		i++
	}
	unit := strings.ToLower(strings.TrimSpace(t[i:]))
	pow, ok := fioSizeUnits[unit]
	if i == 0 || !ok {
		return 0, fmt.Errorf("%q is not a size (a number with an optional unit: 4k, 64KiB, 1m, 2g)", s)
	}
	base := float64(kbBase)
	if strings.Contains(unit, "i") {
		base = 1024
	}
	v, err := strconv.ParseFloat(t[:i], 64)
	if err != nil {
		return 0, fmt.Errorf("%q is not a size", s)
	}
	v *= math.Pow(base, float64(pow))
	if v != math.Trunc(v) || v >= 1<<62 {
		return 0, fmt.Errorf("%q is not a whole number of bytes below 2^62", s)
	}
	return int64(v), nil
}

// fioTimeUnits are the duration suffixes, in lower case.
var fioTimeUnits = map[string]time.Duration{"ns": time.Nanosecond, "nsec": time.Nanosecond,
	"us": time.Microsecond, "usec": time.Microsecond, "ms": time.Millisecond, "msec": time.Millisecond,
	"s": time.Second, "sec": time.Second, "m": time.Minute, "min": time.Minute, "h": time.Hour, "d": 24 * time.Hour}

// parseFioTime reads a duration: a number with an optional unit, unit
// when it has none (seconds for runtime and startdelay, microseconds
// for thinktime, as fio reads them).
func parseFioTime(s string, unit time.Duration) (time.Duration, error) {
	t := strings.TrimSpace(s)
	i := 0
	for i < len(t) && (t[i] >= '0' && t[i] <= '9' || t[i] == '.') {
		i++
	}
	u := unit
	if suffix := strings.ToLower(strings.TrimSpace(t[i:])); suffix != "" {
		var ok bool
		if u, ok = fioTimeUnits[suffix]; !ok {
			return 0, fmt.Errorf("%q is not a duration (a number with an optional unit: us, ms, s, m, h)", s)
		}
	}
	v, err := strconv.ParseFloat(t[:i], 64)
	if i == 0 || err != nil {
		return 0, fmt.Errorf("%q is not a duration (a number with an optional unit: us, ms, s, m, h)", s)
	}
	d := v * float64(u)
	if d >= float64(math.MaxInt64) {
		return 0, fmt.Errorf("%q is too long", s)
	}
	return time.Duration(d), nil
}

// parseFioBool reads a switch: bare (on) or 0/1, true/false.
func parseFioBool(o fioOption) (bool, error) {
	if o.bare {
		return true, nil
	}
	b, err := strconv.ParseBool(o.value)
	if err != nil {
		return false, fmt.Errorf("%q: want 0 or 1", o.value)
	}
	return b, nil
}

// parseFioInt reads a whole number in [lo, hi].
func parseFioInt(s string, lo, hi int64) (int64, error) {
	n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	if err != nil || n < lo || n > hi {
		return 0, fmt.Errorf("%q: want a whole number from %d to %d", s, lo, hi)
	}
	return n, nil
}

// parseFioPercent reads "N%" and returns N/100, and whether s is one.
func parseFioPercent(s string) (float64, bool, error) {
	t, ok := strings.CutSuffix(strings.TrimSpace(s), "%")
	if !ok {
		return 0, false, nil
	}
	v, err := strconv.ParseFloat(t, 64)
	if err != nil || v < 0 || v > 100 {
		return 0, true, fmt.Errorf("%q: want a percentage from 0%% to 100%%", s)
	}
	return v / 100, true, nil
}
