package main

import (
	"fmt"
	"io"
	"strconv"

	"github.com/raidsim/raidsim"
	"github.com/raidsim/raidsim/spec"
	"github.com/raidsim/raidsim/teach"
)

// explainFlags are `raidsim explain`'s: the experiment flags of `raidsim
// run` and how many requests to tell.
var explainFlags = explainTable()

func explainTable() []*runFlag {
	var t []*runFlag
	for _, f := range runFlags {
		if f.group != groupOutput {
			t = append(t, f)
		}
	}
	return append(t, &runFlag{name: "requests", group: groupOutput, metavar: "N", example: "3",
		usage: fmt.Sprintf("tell the life of the first N host requests (1 to %d; default all, at most %d)", maxExplain, defaultExplain)})
}

// defaultExplain is how many requests explain tells without --requests,
// and maxExplain the most it tells.
const (
	defaultExplain = 10
	maxExplain     = 1000
)

// maxExplainRun bounds the requests of a run explain makes: it runs the
// whole experiment to tell its first few requests.
const maxExplainRun = 1_000_000

// checkExplainRun refuses an experiment that plans more requests than
// maxExplainRun (--ios 0 over a whole drive is millions).
func checkExplainRun(x *spec.Experiment) error {
	pl, err := x.Plan()
	if err != nil {
		return nil // the run names it
	}
	if n := raidsim.PlannedRequests(pl); n > maxExplainRun {
		return usagef("--ios: explain runs the whole experiment to tell its first requests, and this one plans %s requests (ios 0 is one pass over the region); give --ios up to %s", thousands(n), thousands(maxExplainRun))
	}
	return nil
}

// runExplain is `raidsim explain`: the experiment the flags describe,
// run, the life of its first requests told as indented trees.
func runExplain(args []string, stdout, _ io.Writer) error {
	flags, err := parseTable("explain", explainFlags, args, stdout, explainHelp)
	if err != nil {
		return err
	}
	n := defaultExplain
	if v, ok := lastValue(flags, "requests"); ok {
		k, err := strconv.Atoi(v)
		if err != nil || k < 1 || k > maxExplain {
			return usagef("--requests: want 1 to %d, got %q", maxExplain, v)
		}
		n = k
	}
	b, err := experimentOf(flags)
	if err != nil {
		return err
	}
	if err := checkExplainRun(&b.x); err != nil {
		return err
	}
	e, err := teach.Explain(&b.x, n)
	if err != nil {
		return b.explain(err)
	}
	return e.WriteText(stdout)
}

const explainHelpText = `Usage: raidsim explain [flags]

Runs an experiment, as raidsim run does, and tells the life of its first
requests as indented trees with virtual timestamps: the volume cache (hit,
absorbed, merged, destaged later with which neighbours), the RAID 5 plan
(read-modify-write, reconstruct-write or full stripe, the parity member,
and why md chose it), each member I/O with its drive's phases (queue wait,
seek distance and time, rotational wait from the platter's angle to the
first sector's, media transfer, bus), and a one-line summary. The phases of
a request follow its critical path, so they add up to its latency.

Example:
  raidsim explain --drive deskstar-7k160 --raid 5 --disks 4 --stripe 64KiB \
      --rw randwrite --bs 4KiB --ios 3 --seed 1
`

func explainHelp(w io.Writer) {
	fmt.Fprint(w, explainHelpText)
	writeGroups(w, explainFlags)
}
