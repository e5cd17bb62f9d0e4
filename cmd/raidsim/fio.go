package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"

	"github.com/raidsim/raidsim"
	"github.com/raidsim/raidsim/spec"
	"github.com/spf13/pflag"
)

// groupFio heads `raidsim fio`'s own flags in --help.
const groupFio = "fio"

// fioFlags are the flags of `raidsim fio`: run's experiment, stack and
// host flags (the stack the job file runs on), and fio's output flags.
var fioFlags = fioTable()

func fioTable() []*runFlag {
	return append(stackFlags(),
		&runFlag{name: "output-format", group: groupFio, metavar: "FORMAT", example: "json",
			usage: "normal (fio's text layout, the default), json (fio's JSON: fio version, jobs[] with read/write/trim, clat_ns percentiles...) or json+ (with the latency bins fio_jsonplus_clat2csv reads)"},
		&runFlag{name: "ignore-unknown", group: groupFio, example: "true",
			usage: "run without the job file's options raidsim does not model (each named on stderr) instead of refusing them"},
	)
}

const fioHelpText = `Usage: raidsim fio [stack flags] [--output-format normal|json|json+] [--ignore-unknown] JOBFILE...

Runs fio job files on a simulated stack (the stack flags below, or
--config FILE's stack; the base is raidsim run's: one %s) and prints
fio's report: its normal text layout, or with --output-format=json its
JSON (fio 3.33's keys, filled where the simulation knows the value), so
fio's own tools and scripts read it; json+ adds the latency bins (fio's
fio_jsonplus_clat2csv turns them into CSV).

A job file is fio's INI: [global] and job sections, include FILE,
${VAR} from the environment; each job file after the first starts with a
stonewall. Jobs between stonewalls run at once (a phase), each reported
on its own or by reporting group (new_group, group_reporting). Options
are fio's names:

  workload   rw (readwrite), rwmixread, rwmixwrite, bs (blocksize), bssplit,
             iodepth, number_ios, io_size, random_distribution,
             percentage_random, fsync, randseed, kb_base
  pacing     rate, rate_iops, rate_process, io_submit_mode, thinktime,
             thinktime_spin, thinktime_blocks, thinktime_blocks_type
  jobs       name, numjobs, startdelay, runtime, time_based, stonewall,
             wait_for, new_group, group_reporting
  placement  filename, size, offset, offset_increment
  engine     ioengine (sync engines, fio's default psync among them, keep one
             request outstanding whatever iodepth; libaio, io_uring,
             posixaio keep iodepth), direct, buffered
  output     percentile_list, clat_percentiles, lat_percentiles

Files: filename=/dev/... is the whole volume (size and offset may be
percentages of it); other files, and each clone's own file when a job
names none (fio's jobname.N.0), lie one after another from the volume's
start, each on a 1 MiB boundary. Options that steer fio on a real machine
(thread, cpus_allowed, invalidate, norandommap, randrepeat, ...) change
nothing; random offsets are drawn afresh each time, as with fio's
norandommap. Any other option is refused, named with its file and line,
unless --ignore-unknown. Buffered jobs (direct=0, fio's default) go
through the host's page cache when the stack has a host (--host).
`

func fioHelp(w io.Writer) {
	fmt.Fprintf(w, fioHelpText, spec.DefaultPreset)
	writeGroupsOn(w, fioFlags, baseExperiment())
}

// runFio is `raidsim fio`.
func runFio(args []string, stdout, stderr io.Writer) error {
	fs := flagSet("fio", fioFlags)
	var flags []given
	files, err := parseFlags(fs, args, stdout, fioHelp, func(fl *pflag.Flag, value string) error {
		flags = append(flags, given{lookupFlag(fioFlags, fl.Name), value})
		return nil
	})
	if err != nil {
		return err
	}
	if len(files) == 0 {
		return usagef("give one or more fio job files")
	}
	for _, g := range flags {
		if g.f.name == "set" && spec.Under(strings.TrimSpace(strings.SplitN(g.value, "=", 2)[0]), "phases") {
			return usagef("--set %s: the job files give the phases; set their options there", g.value)
		}
	}
	format, ignore, err := fioOutputOf(flags)
	if err != nil {
		return err
	}
	b, err := experimentOf(flags)
	if err != nil {
		return err
	}
	jf, err := readFioJobFiles(files)
	if err != nil {
		return err
	}
	pl, err := b.x.Plan()
	if err != nil {
		return b.explain(err)
	}
	_, seedGiven := lastValue(flags, "seed")
	r, err := fioExperiment(jf, b.x, pl.Capacity, seedGiven, ignore)
	if err != nil {
		return err
	}
	for _, n := range r.notes {
		fmt.Fprintln(stderr, "note:", n)
	}
	if pl, err = r.x.Plan(); err != nil {
		return r.explain(err)
	}
	rep, err := raidsim.RunPlan(pl, raidsim.RunOptions{})
	if err != nil {
		return err
	}
	results := fioResults(r, pl, rep)
	if format != "normal" {
		out, err := json.MarshalIndent(fioJSON(jf, results, format == "json+"), "", "  ")
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(stdout, "%s\n", out)
		return err
	}
	return writeFioText(stdout, r, results)
}

// fioOutputOf reads --output-format and --ignore-unknown.
func fioOutputOf(flags []given) (format string, ignore bool, err error) {
	ue := &usageError{}
	format = "normal"
	if v, ok := lastValue(flags, "output-format"); ok {
		switch v {
		case "json", "json+", "normal":
			format = v
		default:
			ue.lines = append(ue.lines, fmt.Sprintf("--output-format: want normal, json or json+, got %q", v))
		}
	}
	if v, ok := lastValue(flags, "ignore-unknown"); ok {
		if ignore, err = strconv.ParseBool(v); err != nil {
			ue.lines = append(ue.lines, fmt.Sprintf("--ignore-unknown: want true or false, got %q", v))
		}
	}
	if len(ue.lines) > 0 {
		return "", false, ue
	}
	return format, ignore, nil
}

// jobPath matches the key path of a phase's job in a spec error.
var jobPath = regexp.MustCompile(`^phases\[(\d+)\]\.jobs\[(\d+)\]\.?`)

// explain names each problem the plan found in a job by the job's
// section in its file.
func (r *fioRun) explain(err error) error {
	var se *spec.Error
	if !errors.As(err, &se) {
		return err
	}
	var errs []error
	for _, fe := range se.Fields {
		m := jobPath.FindStringSubmatch(fe.Path)
		if m == nil {
			errs = append(errs, fmt.Errorf("%s: %s", fe.Path, fe.Msg))
			continue
		}
		p, _ := strconv.Atoi(m[1])
		k, _ := strconv.Atoi(m[2])
		j := r.phases[p][k]
		errs = append(errs, fmt.Errorf("%s: job %s: %s: %s", j.sec.at, j.job.Name, fe.Path[len(m[0]):], fe.Msg))
	}
	return errors.Join(errs...)
}
