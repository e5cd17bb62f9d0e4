package main

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/raidsim/raidsim/internal/outfile"
	"github.com/raidsim/raidsim/lifelog"
	"github.com/raidsim/raidsim/sim"
	"github.com/raidsim/raidsim/traceevents"
)

// defaultTraceEventsLimit bounds a trace-event file: requests and
// destages recorded (a few hundred bytes each in the file).
const defaultTraceEventsLimit = 100_000

// traceEventFlags are the flags of a trace-event file, shared by run
// and sweep.
var traceEventFlags = []*runFlag{
	{name: "trace-events", group: groupOutput, metavar: "FILE.json", example: "t.json",
		usage: "also write every request and drive command as a Chrome trace-event file: open it in ui.perfetto.dev or chrome://tracing"},
	{name: "trace-events-limit", group: groupOutput, metavar: "N", example: "5000",
		usage: fmt.Sprintf("with --trace-events: record the first N requests and destages (default %d)", defaultTraceEventsLimit)},
	{name: "trace-events-until", group: groupOutput, metavar: "DURATION", example: "2s",
		usage: "with --trace-events: record only requests submitted in the first DURATION of virtual time"},
}

// traceEventsOut is where and how much of a run to write as trace
// events.
type traceEventsOut struct {
	path string
	log  lifelog.Log
	file *outfile.File // opened before the run, committed after it
}

// traceEventsOf reads the trace-event flags: nil without --trace-events.
func traceEventsOf(flags []given) (*traceEventsOut, error) {
	t := &traceEventsOut{log: lifelog.Log{MaxRoots: defaultTraceEventsLimit}}
	ue := &usageError{}
	bounded := ""
	for _, g := range flags {
		switch g.f.name {
		case "trace-events":
			t.path = g.value
		case "trace-events-limit":
			n, err := strconv.Atoi(g.value)
			if err != nil || n < 1 || n > 10_000_000 {
				ue.lines = append(ue.lines, fmt.Sprintf("--trace-events-limit: want 1 to 10000000 requests, got %q", g.value))
			}
			t.log.MaxRoots, bounded = n, "--"+g.f.name
		case "trace-events-until":
			d, err := time.ParseDuration(g.value)
			if err != nil || d <= 0 {
				ue.lines = append(ue.lines, fmt.Sprintf("--trace-events-until: want a positive duration such as 2s, got %q", g.value))
			}
			t.log.Until, bounded = sim.Time(d), "--"+g.f.name
		}
	}
	if t.path == "" && bounded != "" {
		ue.lines = append(ue.lines, bounded+" needs --trace-events FILE.json")
	}
	if len(ue.lines) > 0 {
		return nil, ue
	}
	if t.path == "" {
		return nil, nil
	}
	return t, nil
}

// observer returns the hooks that record the run; nil for no file.
func (t *traceEventsOut) observer() *sim.Observer {
	if t == nil {
		return nil
	}
	return t.log.Observer()
}

// open checks the file against the output policy and opens it, before
// the run, so that a bad name fails before the work.
func (t *traceEventsOut) open(p outfile.Policy) error {
	if t == nil {
		return nil
	}
	f, err := p.Create(outfile.Target{Name: "--trace-events", Path: t.path, Exts: traceEventExts})
	t.file = f
	return err
}

// abort removes the file opened, if it was not written.
func (t *traceEventsOut) abort() {
	if t != nil {
		t.file.Abort()
	}
}

// write writes the file, and says on stderr what was left out.
func (t *traceEventsOut) write(stderr io.Writer) error {
	if t == nil {
		return nil
	}
	w := bufio.NewWriter(t.file)
	err := traceevents.Write(w, &t.log)
	if err == nil {
		err = w.Flush()
	}
	if err != nil {
		t.file.Abort()
		return fmt.Errorf("--trace-events %s: %w", t.path, err)
	}
	if err := t.file.Commit(); err != nil {
		return err
	}
	if t.log.Cut > 0 {
		fmt.Fprintf(stderr, "trace events: %s holds the first %d requests and destages, to %.3f ms of virtual time; "+
			"%d later ones were left out (--trace-events-limit, --trace-events-until)\n",
			t.path, len(t.log.Roots), float64(t.log.CutAt)/1e6, t.log.Cut)
	}
	return nil
}

// sweepTrace is `raidsim sweep --trace-events FILE --trace-point N`:
// the trace events of one point of the sweep.
type sweepTrace struct {
	path      string
	pointFlag string // --trace-point as given
	point     int
	out       *traceEventsOut
}

// check reports the flags' problems.
func (s *sweepTrace) check() []string {
	switch {
	case s.path == "" && s.pointFlag != "":
		return []string{"--trace-point needs --trace-events FILE.json"}
	case s.path == "":
		return nil
	case s.pointFlag == "":
		return []string{"--trace-events: name the point to record with --trace-point N (its index, as --list prints it)"}
	}
	n, err := strconv.Atoi(s.pointFlag)
	if err != nil || n < 0 {
		return []string{fmt.Sprintf("--trace-point: want a point index (0 or more), got %q", s.pointFlag)}
	}
	s.point = n
	s.out = &traceEventsOut{path: s.path, log: lifelog.Log{MaxRoots: defaultTraceEventsLimit}}
	return nil
}

// observer returns the hooks for point i: the log's for the point
// recorded, nil for the others.
func (s *sweepTrace) observer(i int) *sim.Observer {
	if s.out == nil || i != s.point {
		return nil
	}
	return s.out.observer()
}

// write writes the file once the points lo to hi-1 have run.
func (s *sweepTrace) write(lo, hi int, stderr io.Writer) error {
	if s.out == nil {
		return nil
	}
	if s.point < lo || s.point >= hi {
		return fmt.Errorf("--trace-point %d: this run has points %d to %d", s.point, lo, hi-1)
	}
	return s.out.write(stderr)
}
