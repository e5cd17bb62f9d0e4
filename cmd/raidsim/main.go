// Command raidsim simulates storage stacks in virtual time.
//
// Usage:
//
//	raidsim                 run the built-in demo (one drive, five workloads)
//	raidsim drives [--json] list the drive presets with derived figures
//	raidsim run [flags]     run a fio-style workload or a trace on a drive or array
//	raidsim gen [flags]     write a synthetic workload as a trace (CSV or fio iolog)
//	raidsim convert IN OUT  rewrite a trace in another format
//	raidsim validate        score a DiskSim drive model against a measured trace
//	raidsim help            show this help
//
// `raidsim run --help` lists the run flags. Sizes take fio's forms
// (4KiB, 4k, 1MiB, 512); every run is deterministic for a given --seed.
package main

import (
	"errors"
	"flag"
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
  raidsim run [flags]      run a fio-style workload or a trace on a drive or array (raidsim run --help)
  raidsim gen [flags]      write a synthetic workload as a trace: --to csv|fio --out FILE
  raidsim convert IN OUT   rewrite a trace in another format: [--from auto] [--to csv|fio]
  raidsim validate         score a DiskSim model on a measured trace: --disksim FILE.parv --trace FILE
  raidsim sweep            run a grid of what-ifs in parallel: --config FILE [--workers N] [--shard I/N] [--csv|--json] [--plot FILE.svg]
  raidsim help             show this help
`

// run is main without the process: it returns the exit status.
func run(args []string, stdout, stderr io.Writer) int {
	cmd := "demo"
	if len(args) > 0 {
		cmd, args = args[0], args[1:]
	}
	var err error
	switch cmd {
	case "demo":
		err = runDemo(args, stdout)
	case "drives":
		err = runDrives(args, stdout, stderr)
	case "run":
		err = runRun(args, stdout, stderr)
	case "gen":
		err = runGen(args, stdout, stderr)
	case "convert":
		err = runConvert(args, stdout, stderr)
	case "validate":
		err = runValidate(args, stdout, stderr)
	case "sweep":
		err = runSweep(args, stdout, stderr)
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, usage)
		return 0
	default:
		fmt.Fprintf(stderr, "raidsim: unknown command %q\n\n%s", cmd, usage)
		return 2
	}
	switch {
	case err == nil:
		return 0
	case errors.Is(err, flag.ErrHelp):
		return 0
	case errors.Is(err, errUsage):
		return 2
	default:
		fmt.Fprintf(stderr, "raidsim %s: %v\n", cmd, err)
		return 1
	}
}

// errUsage marks an error already reported by a flag set.
var errUsage = errors.New("usage")
