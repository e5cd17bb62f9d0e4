package main

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/raidsim/raidsim"
	"github.com/raidsim/raidsim/trace"
)

// runLimitFlags bound a run: its memory and its progress line.
var runLimitFlags = []*runFlag{
	{name: "max-memory", group: groupOutput, metavar: "SIZE|off", example: "8GiB",
		usage: "refuse a run whose memory estimate passes SIZE, and stop one whose heap does (default: GOMEMLIMIT, else the machine's memory; off: no check)"},
	{name: "check-contents", group: groupOutput, example: "true",
		usage: "with --power-loss-at: give every write real bytes and, at the power loss, compare the array's members with them: lost and torn writes, wrong ranges, inconsistent stripes (an array with redundancy, --write-cache off)"},
	{name: "progress", group: groupOutput, metavar: "auto|on|off", example: "off",
		usage: "a progress line on stderr: requests done of planned, elapsed and left (auto: when stderr is a terminal and the run takes over 2 s)"},
}

// progressAfter is how long a run goes before its progress line shows.
var progressAfter = 2 * time.Second

// runLimits is what --max-memory and --progress ask.
type runLimits struct {
	maxMemory int64 // 0: the default limit, -1: none
	progress  string
	contents  bool // --check-contents
	// after and every pace the progress line (2 s, 1 s; tests shorten them).
	after, every time.Duration
}

// runLimitsOf reads --max-memory and --progress.
func runLimitsOf(flags []given) (runLimits, error) {
	l := runLimits{progress: "auto", after: progressAfter, every: time.Second}
	ue := &usageError{}
	if v, ok := lastValue(flags, "max-memory"); ok {
		if v == "off" {
			l.maxMemory = -1
		} else if n, err := trace.ParseSize(v); err != nil || n <= 0 {
			ue.lines = append(ue.lines, fmt.Sprintf("--max-memory: want a size such as 8GiB, or off, got %q", v))
		} else {
			l.maxMemory = n
		}
	}
	if v, ok := lastValue(flags, "check-contents"); ok {
		b, err := strconv.ParseBool(v)
		if err != nil {
			ue.lines = append(ue.lines, fmt.Sprintf("--check-contents: want true or false, got %q", v))
		}
		l.contents = b
	}
	if v, ok := lastValue(flags, "progress"); ok {
		switch v {
		case "auto", "on", "off":
			l.progress = v
		default:
			ue.lines = append(ue.lines, fmt.Sprintf("--progress: want auto, on or off, got %q", v))
		}
	}
	if len(ue.lines) > 0 {
		return l, ue
	}
	return l, nil
}

// progressLine draws "phase 1/2 write: 1,234,567 of 122,096,646
// requests (1.0%), 0:12 elapsed, ~19:48 left, 12.3 s simulated" on
// stderr, redrawn at most every l.every once the run has taken l.after.
type progressLine struct {
	w           io.Writer
	after, each time.Duration
	start, last time.Time
	drawn       bool
}

// progressOf returns the run's progress callback and a function that
// clears the line, or nil and a no-op when there is no line.
func (l runLimits) progressOf(stderr io.Writer) (func(raidsim.Progress) error, func()) {
	if l.progress == "off" || l.progress == "auto" && !isTerminal(stderr) {
		return nil, func() {}
	}
	p := &progressLine{w: stderr, after: l.after, each: l.every, start: time.Now()}
	return p.update, p.clear
}

func (p *progressLine) update(pr raidsim.Progress) error {
	now := time.Now()
	elapsed := now.Sub(p.start)
	if elapsed < p.after || p.drawn && now.Sub(p.last) < p.each {
		return nil
	}
	p.last, p.drawn = now, true
	var b strings.Builder
	fmt.Fprintf(&b, "\rphase %d/%d", pr.Phase+1, pr.Phases)
	if pr.PhaseName != "" {
		fmt.Fprintf(&b, " %s", pr.PhaseName)
	}
	fmt.Fprintf(&b, ": %s", thousands(pr.Completed))
	if pr.Planned > 0 {
		fmt.Fprintf(&b, " of %s requests (%.1f%%)", thousands(pr.Planned), 100*float64(pr.Completed)/float64(pr.Planned))
	} else {
		b.WriteString(" requests")
	}
	fmt.Fprintf(&b, ", %s elapsed", clock(elapsed))
	if pr.Planned > 0 && pr.Completed > 0 {
		left := time.Duration(float64(elapsed) * float64(pr.Planned-pr.Completed) / float64(pr.Completed))
		fmt.Fprintf(&b, ", ~%s left", clock(left))
	}
	fmt.Fprintf(&b, ", %.1f s simulated\033[K", pr.Now.Seconds())
	_, err := io.WriteString(p.w, b.String())
	return err
}

func (p *progressLine) clear() {
	if p.drawn {
		fmt.Fprint(p.w, "\r\033[K")
	}
}

// thousands formats n with commas: 1,234,567.
func thousands(n int64) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
