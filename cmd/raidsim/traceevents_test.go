package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/raidsim/raidsim/traceevents"
)

// span is an X event in integer nanoseconds.
type span struct {
	pid, tid   int
	start, end int64
	name       string
}

func nanos(us float64) int64 { return int64(math.Round(us * 1e3)) }

// TestTraceEvents: the trace-event file of a 2,000-request RAID 5 plus
// 2 MiB write-back cache run parses, has one thread per drive, spans that nest
// properly on every thread, and flow arrows that lead from host writes
// through their destages to the drives' member I/Os. TestTraceEvents10k
// (build tag long) checks the same of 10,000 requests and an 8 MiB cache.
func TestTraceEvents(t *testing.T) { checkTraceEventsRun(t, 2000, "2MiB") }

// checkTraceEventsRun writes the trace events of ios random 4 KiB reads
// and writes on a RAID 5 under a write-back cache of cache bytes, and
// checks them.
func checkTraceEventsRun(t *testing.T, ios int, cache string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "t.json")
	code, _, errOut := runCLI(t, "run", "--drive", "deskstar-7k160", "--raid", "5", "--disks", "4", "--rw", "randrw",
		"--bs", "4KiB", "--ios", strconv.Itoa(ios), "--iodepth", "8", "--cache", cache, "--json", "--trace-events", path)
	require.Equal(t, 0, code, errOut)
	raw, err := os.ReadFile(path)
	require.NoError(t, err)
	var f traceevents.File
	require.NoError(t, json.Unmarshal(raw, &f), "the file parses")

	threads := map[[2]int]string{}
	var spans []span
	flows := map[int][2]traceevents.Event{}
	for _, e := range f.TraceEvents {
		switch e.Ph {
		case "M":
			if e.Name == "thread_name" {
				threads[[2]int{e.Pid, e.Tid}] = e.Args["name"].(string)
			}
		case "X":
			spans = append(spans, span{e.Pid, e.Tid, nanos(e.Ts), nanos(e.Ts) + nanos(e.Dur), e.Name})
		case "s":
			fl := flows[e.ID]
			fl[0] = e
			flows[e.ID] = fl
		case "f":
			fl := flows[e.ID]
			fl[1] = e
			flows[e.ID] = fl
		}
	}
	var drives []string
	for k, name := range threads {
		if k[0] == 2 {
			drives = append(drives, name)
		}
	}
	slices.Sort(drives)
	assert.Equal(t, []string{"disk0", "disk1", "disk2", "disk3"}, drives, "one track per drive")
	byThread := checkNesting(t, spans)
	checkFlows(t, flows, byThread)
}

// checkNesting checks that the spans of each thread nest, and returns
// them by thread in start order (enclosing first).
func checkNesting(t *testing.T, spans []span) map[[2]int][]span {
	t.Helper()
	by := map[[2]int][]span{}
	for _, s := range spans {
		k := [2]int{s.pid, s.tid}
		by[k] = append(by[k], s)
	}
	bad := 0
	for k, ss := range by {
		slices.SortStableFunc(ss, func(a, b span) int {
			if a.start != b.start {
				return int(a.start - b.start)
			}
			return int(b.end - b.start - (a.end - a.start))
		})
		var stack []span
		for _, s := range ss {
			for len(stack) > 0 && stack[len(stack)-1].end <= s.start {
				stack = stack[:len(stack)-1]
			}
			if len(stack) > 0 && s.end > stack[len(stack)-1].end {
				if bad < 5 {
					t.Errorf("thread %v: %q [%d, %d) overlaps %q [%d, %d) without nesting", k, s.name, s.start, s.end,
						stack[len(stack)-1].name, stack[len(stack)-1].start, stack[len(stack)-1].end)
				}
				bad++
			}
			stack = append(stack, s)
		}
		by[k] = ss
	}
	assert.Zero(t, bad, "spans that do not nest")
	return by
}

// outer returns the outermost span of thread k that contains ns.
func outer(by map[[2]int][]span, k [2]int, ns int64) (span, bool) {
	for _, s := range by[k] {
		if s.start <= ns && ns < s.end {
			return s, true
		}
	}
	return span{}, false
}

// checkFlows checks that every flow starts inside a span and finishes
// at the start of one, and that host writes reach drives through
// destages.
func checkFlows(t *testing.T, flows map[int][2]traceevents.Event, by map[[2]int][]span) {
	t.Helper()
	require.NotEmpty(t, flows)
	next := map[span][]span{} // request span -> spans its flows reach
	for id, fl := range flows {
		s, f := fl[0], fl[1]
		require.Equal(t, "s", s.Ph, "flow %d has a start", id)
		require.Equal(t, "f", f.Ph, "flow %d has a finish", id)
		assert.Equal(t, "e", f.Bp, "bound to the enclosing slice")
		from, ok1 := outer(by, [2]int{s.Pid, s.Tid}, nanos(s.Ts))
		to, ok2 := outer(by, [2]int{f.Pid, f.Tid}, nanos(f.Ts))
		require.True(t, ok1 && ok2, "flow %d: both ends inside spans", id)
		assert.Equal(t, to.start, nanos(f.Ts), "flow %d ends where its target starts", id)
		next[from] = append(next[from], to)
	}
	viaDestage := 0
	for from, tos := range next {
		if from.pid != 1 || !strings.HasPrefix(from.name, "write") {
			continue
		}
		for _, d := range tos {
			switch {
			case strings.HasPrefix(d.name, "destage"):
				for _, m := range next[d] {
					if m.pid == 2 {
						viaDestage++
					}
				}
			}
		}
	}
	assert.Positive(t, viaDestage, "host writes lead through destages to member I/Os on the drives")
	reads := 0
	for from, tos := range next {
		if from.pid == 1 && strings.HasPrefix(from.name, "read") && len(tos) > 0 {
			reads++
		}
	}
	assert.Positive(t, reads, "host reads that miss lead to their I/Os below")
}

// TestTraceEventsFlags: a bound without a file, and a cut run's message.
func TestTraceEventsFlags(t *testing.T) {
	code, _, errOut := runCLI(t, "run", "--trace-events-limit", "5")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "--trace-events-limit needs --trace-events FILE.json")
	path := filepath.Join(t.TempDir(), "t.json")
	code, _, errOut = runCLI(t, "run", "--ios", "50", "--trace-events", path, "--trace-events-limit", "10")
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, errOut, "holds the first 10 requests")
	raw, err := os.ReadFile(path)
	require.NoError(t, err)
	var f traceevents.File
	require.NoError(t, json.Unmarshal(raw, &f))
	assert.Contains(t, f.OtherData["cut"], "40 later requests left out")
}

// TestSweepTraceEvents: one point of a sweep, as trace events: the
// example sweep's point 5 (64 KiB stripe unit, 16 MiB cache) has its
// drives and its destages.
func TestSweepTraceEvents(t *testing.T) {
	path := filepath.Join(t.TempDir(), "p5.json")
	code, _, errOut := runCLI(t, "sweep", "--config", sweepYAML, "--metric", "iops", "--trace-events", path, "--trace-point", "5")
	require.Equal(t, 0, code, errOut)
	raw, err := os.ReadFile(path)
	require.NoError(t, err)
	var f traceevents.File
	require.NoError(t, json.Unmarshal(raw, &f))
	destages, drives := 0, map[string]bool{}
	for _, e := range f.TraceEvents {
		if e.Ph == "X" && strings.HasPrefix(e.Name, "destage") {
			destages++
		}
		if e.Ph == "M" && e.Name == "thread_name" && e.Pid == 2 {
			drives[e.Args["name"].(string)] = true
		}
	}
	assert.Positive(t, destages, "point 5 has a volume cache")
	assert.Len(t, drives, 4)
	code, _, errOut = runCLI(t, "sweep", "--config", sweepYAML, "--trace-events", path, "--trace-point", "16")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "--trace-point 16: this run has points 0 to 15")
}
