// Command raidsim simulates storage stacks in virtual time.
//
// Usage:
//
//	raidsim                 run the built-in demo (one drive, five workloads)
//	raidsim drives [--json] list the drive presets with derived figures
//	raidsim run [flags]     run an experiment: a fio-style workload or a trace on a drive, an array, a cache
//	raidsim explain [flags] tell the life of a run's first requests, layer by layer
//	raidsim fio JOBFILE...  run fio job files on a simulated stack; fio's text or JSON output
//	raidsim gen [flags]     write an experiment's synthetic workload as a trace (CSV or fio iolog)
//	raidsim convert IN OUT  rewrite a trace in another format
//	raidsim validate        score a DiskSim drive model against a measured trace
//	raidsim calibrate       fit a drive model's unpublished parameters to a measured trace
//	raidsim sweep           run a grid of what-ifs in parallel
//	raidsim bench [flags]   time an experiment (default: the stack benchmark): requests/s, allocs, peak RSS
//	raidsim iozone [flags]  iozone's write, rewrite, read and reread over file and record sizes, behind a host
//	raidsim mrc [flags]     miss-ratio curves of a trace: exact LRU, SHARDS, simulated policies
//	raidsim trace stats FILE  describe a trace before replaying it
//	raidsim serve           the playground: raidsim in the browser (WebAssembly) on localhost
//	raidsim version         the module version and commit (also --version)
//	raidsim help            show this help
//
// Flags are GNU-style (--name value or --name=value) and every command
// prints its flags with --help. The flags of `raidsim run` each set one
// field of the experiment (spec.Experiment) by its key path, so a
// command line, a config file and Go code describe the same thing and
// give the same report. Sizes take fio's forms (4KiB, 4k, 1MiB, 512);
// every run is deterministic for a given --seed.
package main

import (
	"fmt"
	"io"
	"os"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

const usage = `raidsim simulates hard disks, RAID arrays and write-back caches in virtual time.

Usage:
  raidsim                  run the built-in demo: one drive, five workloads, one table
  raidsim drives [--json]  list the drive presets with derived figures
  raidsim run [flags]      run an experiment: a fio-style workload or a trace on a drive, an array, a cache
  raidsim explain [flags]  tell the life of a run's first requests: cache, RAID plan, each drive's seek and rotation
  raidsim fio JOBFILE...   run fio job files on the simulated stack, print fio's report: [stack flags] [--output-format=json]
  raidsim gen [flags]      write an experiment's synthetic workload as a trace: --out FILE [--to csv|fio]
  raidsim convert IN OUT   rewrite a trace in another format: [--from auto] [--to csv|fio]
  raidsim validate         score a DiskSim model on a measured trace: --disksim FILE.parv --trace FILE
  raidsim calibrate        fit a preset's or DiskSim model's unpublished parameters to a measured trace: --drive PRESET|--disksim FILE.parv --trace FILE
  raidsim sweep            run a grid of what-ifs in parallel: --config FILE [--workers N] [--shard I/N] [--csv|--json] [--plot FILE.svg]
  raidsim bench [flags]    time an experiment (default: the stack benchmark): requests/s, ns and allocs per request, peak RSS
  raidsim iozone [flags]   iozone's write, rewrite, read and reread over file and record sizes behind a host: --host nas-1gb --file-sizes 64KiB,1GiB
  raidsim reliability      odds of data loss: MTTDL (Markov and Monte Carlo) and loss per year of RAID 1/5/6/10: --raid 5 --disks 4 --capacity 2TB --afr 2 --ure 1e-14
  raidsim mrc              miss ratio against cache size for a trace, per replacement policy: --trace FILE [--policy lru,arc,...] [--plot FILE.svg]
  raidsim trace stats FILE describe a trace: mix, sizes, sequentiality, inter-arrival, burstiness, footprint, reuse [--json] [--plot FILE.svg]
  raidsim serve            the playground in your browser: http://127.0.0.1:8080/ [--addr HOST:PORT]
  raidsim version          the module version and the commit it was built from (also raidsim --version)
  raidsim help             show this help

Every command lists its flags with --help (raidsim run --help).
`

// commands are the subcommands, by name.
var commands = map[string]func(args []string, stdout, stderr io.Writer) error{
	"demo":        runDemo,
	"drives":      runDrives,
	"run":         runRun,
	"explain":     runExplain,
	"serve":       runServe,
	"gen":         runGen,
	"fio":         runFio,
	"convert":     runConvert,
	"validate":    runValidate,
	"calibrate":   runCalibrate,
	"sweep":       runSweep,
	"bench":       runBench,
	"iozone":      runIOzone,
	"reliability": runReliability,
	"mrc":         runMRC,
	"trace":       runTrace,
	"version":     runVersion,
}

// run is main without the process: it returns the exit status.
func run(args []string, stdout, stderr io.Writer) int {
	cmd := "demo"
	if len(args) > 0 {
		cmd, args = args[0], args[1:]
	}
	switch cmd {
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, usage)
		return 0
	case "--version", "-version", "-V":
		cmd = "version"
	}
	f, ok := commands[cmd]
	if !ok {
		fmt.Fprintf(stderr, "raidsim: unknown command %q (see raidsim help)\n", cmd)
		return 2
	}
	return reportError(stderr, cmd, f(args, stdout, stderr))
}
