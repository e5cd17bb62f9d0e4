package trace

import (
	"fmt"
	"strings"
	"time"
)

// OrderError reports a record whose time is earlier than that of a record
// before it: an open-loop Replay of a trace that is not sorted by time,
// or a record out of order by more than Reorder's window. Replay and
// Reorder return it in a *ParseError naming the record's line, or
// wrapped in an error naming its record number; find it with errors.As.
type OrderError struct {
	// Time is the record's time and Previous the later time of the
	// record before it (for Reorder, of the last record it returned),
	// both measured from the first record read.
	Time, Previous time.Duration
	// Window is the reorder window, in records, that was too small; 0
	// when the trace was not reordered.
	Window int
}

// Error says what is out of order and how to replay the trace anyway:
// with a reorder window (raidsim's --reorder N, or reorder: N in a
// config), or a larger one.
func (e *OrderError) Error() string {
	if e.Window == 0 {
		return fmt.Sprintf("time %s s is before the previous record's %s s (times from the first record): "+
			"the trace is not sorted by time; replay with --reorder N (config: reorder: N) to sort within a window of N records",
			seconds(e.Time), seconds(e.Previous))
	}
	return fmt.Sprintf("time %s s is before the %s s of a record already replayed (times from the first record): "+
		"the trace is out of order by more than the reorder window of %d records; replay with a larger --reorder N (config: reorder: N)",
		seconds(e.Time), seconds(e.Previous), e.Window)
}

// orderError places err at the record src read last, the n-th: a
// *ParseError when src knows its file and line, "trace: record n: ..."
// otherwise.
func orderError(src Reader, n int64, err *OrderError) error {
	if f, l := Position(src); l > 0 {
		return &ParseError{File: f, Line: l, Err: err}
	}
	return fmt.Errorf("trace: record %d: %w", n, err)
}

// seconds formats d in seconds with at least three decimals and as many
// as it needs, up to nanoseconds: "1.300", "0.000001500", "-2.000".
func seconds(d time.Duration) string {
	sign, ns := "", uint64(d)
	if d < 0 {
		sign, ns = "-", -ns
	}
	frac := strings.TrimRight(fmt.Sprintf("%09d", ns%1e9), "0")
	for len(frac) < 3 {
		frac += "0"
	}
	return fmt.Sprintf("%s%d.%s", sign, ns/1e9, frac)
}
