package trace

import (
	"fmt"
	"strings"
	"time"

	"github.com/raidsim/raidsim/sim"
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
	// when the trace was not reordered by a count of records.
	Window int
	// WindowTime is the reorder window, in time, that was too small
	// (ReorderWithin); 0 when the trace was not reordered by time.
	WindowTime time.Duration
}

// Error says what is out of order and how to replay the trace anyway:
// with a reorder window (raidsim's --reorder-window D or --reorder N,
// reorder_window: D or reorder: N in a config), or a larger one.
func (e *OrderError) Error() string {
	if e.WindowTime > 0 {
		return fmt.Sprintf("time %s s is before the %s s of a record already replayed (times from the first record): "+
			"the trace is out of order by more than the reorder window of %s s; replay with a larger --reorder-window D (config: reorder_window: D) or --reorder N",
			seconds(e.Time), seconds(e.Previous), seconds(e.WindowTime))
	}
	if e.Window == 0 {
		return fmt.Sprintf("time %s s is before the previous record's %s s (times from the first record): "+
			"the trace is not sorted by time; replay with --reorder-window D (config: reorder_window: D) to sort records up to D late, "+
			"or --reorder N (config: reorder: N) to sort within a window of N records",
			seconds(e.Time), seconds(e.Previous))
	}
	return fmt.Sprintf("time %s s is before the %s s of a record already replayed (times from the first record): "+
		"the trace is out of order by more than the reorder window of %d records; replay with a larger --reorder N (config: reorder: N)",
		seconds(e.Time), seconds(e.Previous), e.Window)
}

// orderError places err at the record src read last, the n-th: a
// *ParseError when src knows its file and line, "trace: record n: ..."
// otherwise.
// TimeRangeError is an open-loop record whose time after the first
// record, divided by the replay's speed, lies past sim.MaxInputTime
// (about 146 years): virtual time cannot reach it.
type TimeRangeError struct {
	// Time is the record's time after the first record's; Speed the
	// replay's speed factor.
	Time  time.Duration
	Speed float64
}

func (e *TimeRangeError) Error() string {
	at := e.Time.Seconds() / e.Speed
	return fmt.Sprintf("time %s s after the first record at speed %g is %.4g s into the replay, past the latest a run can reach (%.4g s, about 146 years): replay a shorter window of the trace or at a higher speed",
		seconds(e.Time), e.Speed, at, sim.MaxInputTime.Seconds())
}

func orderError(src Reader, n int64, err error) error {
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

// ReorderStats says how far out of time order the records a reorder
// reader sorted were, as it read them.
type ReorderStats struct {
	// Late counts the records read after a record with a later time:
	// those the reorder moved back.
	Late int64
	// MaxLate is the most any record was late: the latest time read
	// before it less its own time.
	MaxLate time.Duration
}

// lateness keeps ReorderStats as records are read.
type lateness struct {
	ReorderStats
	seen   bool
	latest sim.Time
}

// note counts a record of time t read after those noted before.
func (l *lateness) note(t sim.Time) {
	if l.seen && t < l.latest {
		l.Late++
		l.MaxLate = max(l.MaxLate, l.latest.Sub(t))
	}
	if !l.seen || t > l.latest {
		l.latest, l.seen = t, true
	}
}

// defaultReorderWindows are the windows DefaultReorderWindow gives, by
// format: the published traces whose records are not written in time
// order.
var defaultReorderWindows = map[Format]time.Duration{
	// Tencent CBS stamps records in whole seconds, and its records step
	// back by one stamp where the collectors' streams interleave (the
	// sample in ../shared/traces: 1,297 of 50,000 records one second
	// late, up to 9,114 records back). One stamp of resolution plus one
	// of jitter.
	FormatTencent: 2 * time.Second,
	// SYSTOR '17 stamps records in nanoseconds, but its per-LUN
	// collectors interleave with jitter: the published sample has 287
	// of 999 records late, by at most 67.6 ms (16 records back). The
	// window is about 15 times that worst case (inferred: the full
	// traces' jitter is not published).
	FormatSystor17: time.Second,
}

// DefaultReorderWindow returns the time window within which records of
// a trace of format f are sorted before an open-loop replay, so that a
// published trace replays as published: 2 s for Tencent CBS (1-second
// timestamps that step back), 1 s for SYSTOR '17 (collectors' jitter of
// tens of milliseconds), and 0 for every other format, whose tools
// write records in time order (a late record then stops the replay with
// an *OrderError). See ReorderWithin.
func DefaultReorderWindow(f Format) time.Duration { return defaultReorderWindows[f] }
