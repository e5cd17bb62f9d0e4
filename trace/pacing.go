package trace

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/raidsim/raidsim/sim"
)

// Pacing is how a job paces its requests, with fio's rate and thinktime
// options. The zero value issues every request as soon as a slot of the
// job's iodepth is free: a closed loop.
//
// # Rate
//
// A rated direction (read, write, trim) has a schedule: the time from
// the job's start at which its next request is due. Linear pacing
// (fio's default) makes it the bytes issued in that direction over
// Rate (so a RateIOPS of N with one block size issues the k-th request
// at k/N s); with a bssplit and RateIOPS alone each request adds 1/N s;
// Poisson pacing (rate_process=poisson) adds an exponential gap of mean
// 1/N s, N being the rate over the smallest block size of the
// direction. Before each request the job looks at its direction's
// schedule, as fio's rate_ddir does: due or past, it issues at once,
// catching up a schedule it fell behind; ahead, a mixed job takes the
// other direction if that one is due, and otherwise waits for the
// earlier of the two. In fio's default inline submit mode a job that
// waits first waits for its requests in flight to complete, then for
// the time it was ahead (fio's io_u_quiesce then usec_sleep); with
// Offload (io_submit_mode=offload) it only waits the time. Flushes are
// never rated.
//
// # Think time
//
// After each read, write or trim it issues, a job with ThinkTime counts
// the blocks completed (or, with ThinkOnIssue, issued) since it last
// thought; every ThinkTimeBlocks of them (default 1) it waits for its
// requests in flight, spins for ThinkTimeSpin (CPU time: the job's usr
// CPU) and sleeps the rest of ThinkTime, as fio's handle_thinktime
// does. A rated job then catches up its schedule.
type Pacing struct {
	// Rate caps the bytes per second of reads, writes and trims
	// (indexed by Direction); zero leaves a direction uncapped (fio
	// rate). Where both are set, Rate wins over RateIOPS.
	Rate [3]int64
	// RateIOPS caps the requests per second of each direction (fio
	// rate_iops).
	RateIOPS [3]int64
	// Poisson draws the gaps between a direction's requests from an
	// exponential distribution (fio rate_process=poisson); false spaces
	// them evenly (linear).
	Poisson bool
	// Offload waits for a rated request's time without first waiting
	// for the requests in flight (fio io_submit_mode=offload).
	Offload bool
	// ThinkTime is the stall after every ThinkTimeBlocks blocks (fio
	// thinktime); zero never stalls.
	ThinkTime time.Duration
	// ThinkTimeSpin is the part of each stall spent on the CPU (fio
	// thinktime_spin); a spin longer than ThinkTime makes the stall
	// that long.
	ThinkTimeSpin time.Duration
	// ThinkTimeBlocks is the blocks between stalls (fio
	// thinktime_blocks); zero means 1.
	ThinkTimeBlocks int
	// ThinkOnIssue counts issued blocks rather than completed ones
	// (fio thinktime_blocks_type=issue).
	ThinkOnIssue bool
}

// Direction indexes Pacing's per-direction rates: Read, Write, Trim.
type Direction int

// The directions of Pacing.Rate and Pacing.RateIOPS.
const (
	DirRead Direction = iota
	DirWrite
	DirTrim
)

// direction returns op's Direction, or -1 for a flush.
func direction(op sim.Op) Direction {
	switch op {
	case sim.Read:
		return DirRead
	case sim.Write:
		return DirWrite
	case sim.Trim:
		return DirTrim
	}
	return -1
}

// Rated reports whether any direction has a rate.
func (p Pacing) Rated() bool {
	for d := range 3 {
		if p.Rate[d] > 0 || p.RateIOPS[d] > 0 {
			return true
		}
	}
	return false
}

// MaxRateIOPS bounds RateIOPS (a request every nanosecond).
const MaxRateIOPS = int64(time.Second)

// MaxThinkTime bounds ThinkTime and ThinkTimeSpin.
const MaxThinkTime = time.Hour

// MaxThinkTimeBlocks bounds ThinkTimeBlocks.
const MaxThinkTimeBlocks = 1 << 30

// Validate reports every problem of p at once, each naming the field.
func (p Pacing) Validate() error {
	var errs []error
	bad := func(field, format string, args ...any) {
		errs = append(errs, fmt.Errorf("trace: Pacing.%s: "+format, append([]any{field}, args...)...))
	}
	for d := range 3 {
		if p.Rate[d] < 0 {
			bad(fmt.Sprintf("Rate[%d]", d), "%d is negative", p.Rate[d])
		}
		if p.RateIOPS[d] < 0 || p.RateIOPS[d] > MaxRateIOPS {
			bad(fmt.Sprintf("RateIOPS[%d]", d), "%d is outside 0..%d", p.RateIOPS[d], MaxRateIOPS)
		}
	}
	if p.ThinkTime < 0 || p.ThinkTime > MaxThinkTime {
		bad("ThinkTime", "%v is outside 0..%v", p.ThinkTime, MaxThinkTime)
	}
	if p.ThinkTimeSpin < 0 || p.ThinkTimeSpin > MaxThinkTime {
		bad("ThinkTimeSpin", "%v is outside 0..%v", p.ThinkTimeSpin, MaxThinkTime)
	}
	if p.ThinkTimeBlocks < 0 || p.ThinkTimeBlocks > MaxThinkTimeBlocks {
		bad("ThinkTimeBlocks", "%d is outside 0..%d", p.ThinkTimeBlocks, MaxThinkTimeBlocks)
	}
	if p.ThinkTime == 0 && (p.ThinkTimeSpin != 0 || p.ThinkTimeBlocks != 0 || p.ThinkOnIssue) {
		bad("ThinkTime", "is 0: ThinkTimeSpin, ThinkTimeBlocks and ThinkOnIssue need a think time")
	}
	return errors.Join(errs...)
}

// ParsePerDirection parses fio's comma-separated values for reads,
// writes and trims ("1m,500k"): one value applies to all three, two to
// reads and writes, an empty one leaves its direction at 0 (",500k"
// caps only writes; "500k," only reads). parse reads one value.
func ParsePerDirection(s string, parse func(string) (int64, error)) ([3]int64, error) {
	var out [3]int64
	parts := strings.Split(s, ",")
	if len(parts) > 3 {
		return out, fmt.Errorf("trace: %q: at most three values (reads, writes, trims)", s)
	}
	for i, p := range parts {
		if strings.TrimSpace(p) == "" {
			continue
		}
		v, err := parse(p)
		if err != nil {
			return out, fmt.Errorf("trace: %q: %w", s, err)
		}
		if v < 0 {
			return out, fmt.Errorf("trace: %q: %d is negative", s, v)
		}
		out[i] = v
	}
	if len(parts) == 1 {
		out[1], out[2] = out[0], out[0]
	}
	return out, nil
}

// ParseCount reads a whole number, as rate_iops gives it.
func ParseCount(s string) (int64, error) {
	v, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%q is not a whole number", s)
	}
	return v, nil
}

// FormatPerDirection writes three per-direction values as
// ParsePerDirection reads them, with format for each non-zero one: one
// value when all three agree.
func FormatPerDirection(v [3]int64, format func(int64) string) string {
	f := func(x int64) string {
		if x == 0 {
			return ""
		}
		return format(x)
	}
	if v[0] == v[1] && v[1] == v[2] {
		return f(v[0])
	}
	if v[2] == 0 {
		return f(v[0]) + "," + f(v[1])
	}
	return f(v[0]) + "," + f(v[1]) + "," + f(v[2])
}
