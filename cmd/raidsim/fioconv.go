package main

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/raidsim/raidsim/spec"
	"github.com/raidsim/raidsim/trace"
)

// fioJob is one job section of a job file read into the experiment's
// terms: a phases[].jobs entry, and what places it on the volume.
type fioJob struct {
	sec *fioSection
	job spec.PhaseJob
	// file is the file it addresses (fio filename); empty for a file
	// of its own per clone, as fio names them jobname.N.0.
	file   string
	device bool // file is a block device: the whole volume
	// The region in the file and the clones' step, in bytes, or as a
	// share of the volume (a device's only).
	size, offset, inc      int64
	sizePct, offsetPct     float64
	hasSize, hasOffset     bool
	hasSizePct, hasOffPct  bool
	ioSize                 int64 // io_size: bytes to transfer, 0 for one pass
	numIOs                 int64 // number_ios
	bs                     [3]int64
	bsSet                  bool
	iodepth                int
	engine                 string
	direct                 bool
	kbBase                 int64
	stonewall              bool
	randseed               uint64
	hasSeed                bool
	percentiles            []float64
	clatPercent, latPercnt bool
	ignored                []fioOption // options not modelled, run without (--ignore-unknown)
}

// fioDefaultPercentiles are fio's default percentile_list.
var fioDefaultPercentiles = []float64{1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99, 99.5, 99.9, 99.95, 99.99}

// fioSyncEngines are fio's synchronous I/O engines: a job on one has one
// request outstanding whatever its iodepth, as fio runs it. psync is
// fio's default on Linux.
var fioSyncEngines = map[string]bool{"sync": true, "psync": true, "vsync": true, "pvsync": true, "pvsync2": true, "mmap": true}

// fioAsyncEngines keep iodepth requests outstanding.
var fioAsyncEngines = map[string]bool{"libaio": true, "io_uring": true, "posixaio": true, "windowsaio": true, "solarisaio": true}

// fioAliases are fio's other names for the options below.
var fioAliases = map[string]string{"readwrite": "rw", "blocksize": "bs", "io_limit": "io_size",
	"wait_for_previous": "stonewall", "timeout": "runtime"}

// fioNoEffect are options that steer fio on a real machine (threads or
// processes, CPU placement, cache invalidation, its random map and
// repeatability, file creation, its clock and what it measures):
// accepted, they change nothing in a simulation. description is prose.
var fioNoEffect = map[string]bool{"description": true, "thread": true, "invalidate": true, "randrepeat": true,
	"allrandrepeat": true, "norandommap": true, "overwrite": true, "fallocate": true, "create_on_open": true,
	"clocksource": true, "gtod_reduce": true, "cpus_allowed": true, "cpus_allowed_policy": true, "cpumask": true,
	"nice": true, "prio": true, "prioclass": true, "lockmem": true, "unlink": true, "directory": true,
	"disable_slat": true, "disable_bw_measurement": true}

// fioHandlers read each option fio names and raidsim models.
var fioHandlers = map[string]func(j *fioJob, o fioOption) error{
	"name":       func(j *fioJob, o fioOption) error { j.job.Name = o.value; return nil },
	"rw":         fioRW,
	"rwmixread":  func(j *fioJob, o fioOption) error { return fioMix(j, o, false) },
	"rwmixwrite": func(j *fioJob, o fioOption) error { return fioMix(j, o, true) },
	"bs":         fioBS,
	"bssplit":    fioBSSplit,
	"iodepth":    fioIntField(func(j *fioJob, n int64) { j.iodepth = int(n) }, 1, trace.MaxIODepth),
	"size": fioRegion(func(j *fioJob) (*int64, *float64, *bool, *bool) {
		return &j.size, &j.sizePct, &j.hasSize, &j.hasSizePct
	}),
	"offset": fioRegion(func(j *fioJob) (*int64, *float64, *bool, *bool) {
		return &j.offset, &j.offsetPct, &j.hasOffset, &j.hasOffPct
	}),
	"offset_increment":      fioSizeField(func(j *fioJob, n int64) { j.inc = n }),
	"io_size":               fioSizeField(func(j *fioJob, n int64) { j.ioSize = n }),
	"number_ios":            fioIntField(func(j *fioJob, n int64) { j.numIOs = n }, 0, 1<<32),
	"filename":              fioFilename,
	"ioengine":              fioEngine,
	"direct":                fioSwitch(func(j *fioJob, b bool) { j.direct = b }),
	"buffered":              fioSwitch(func(j *fioJob, b bool) { j.direct = !b }),
	"random_distribution":   fioText(func(j *fioJob, v string) { j.job.RandomDistribution = v }),
	"percentage_random":     fioIntField(func(j *fioJob, n int64) { j.job.PercentageRandom = int(n) }, 0, 100),
	"fsync":                 fioIntField(func(j *fioJob, n int64) { j.job.Fsync = int(n) }, 0, math.MaxInt32),
	"rate":                  fioRate,
	"rate_iops":             fioText(func(j *fioJob, v string) { j.job.RateIOPS = v }),
	"rate_process":          fioText(func(j *fioJob, v string) { j.job.RateProcess = v }),
	"io_submit_mode":        fioText(func(j *fioJob, v string) { j.job.IOSubmitMode = v }),
	"thinktime":             fioTimeField(time.Microsecond, func(j *fioJob, d time.Duration) { j.job.ThinkTime = spec.Duration(d) }),
	"thinktime_spin":        fioTimeField(time.Microsecond, func(j *fioJob, d time.Duration) { j.job.ThinkTimeSpin = spec.Duration(d) }),
	"thinktime_blocks":      fioIntField(func(j *fioJob, n int64) { j.job.ThinkTimeBlocks = int(n) }, 1, math.MaxInt32),
	"thinktime_blocks_type": fioText(func(j *fioJob, v string) { j.job.ThinkTimeBlocksType = v }),
	"startdelay":            fioTimeField(time.Second, func(j *fioJob, d time.Duration) { j.job.StartDelay = spec.Duration(d) }),
	"runtime":               fioTimeField(time.Second, func(j *fioJob, d time.Duration) { j.job.Runtime = spec.Duration(d) }),
	"time_based":            fioSwitch(func(j *fioJob, b bool) { j.job.TimeBased = b }),
	"numjobs":               fioIntField(func(j *fioJob, n int64) { j.job.NumJobs = int(n) }, 1, 4096),
	"group_reporting":       fioSwitch(func(j *fioJob, b bool) { j.job.GroupReporting = b }),
	"new_group":             fioSwitch(func(j *fioJob, b bool) { j.job.NewGroup = b }),
	"stonewall":             fioSwitch(func(j *fioJob, b bool) { j.stonewall = b }),
	"wait_for":              fioText(func(j *fioJob, v string) { j.job.WaitFor = v }),
	"randseed":              fioSeed,
	"kb_base":               fioKBBase,
	"percentile_list":       fioPercentiles,
	"clat_percentiles":      fioSwitch(func(j *fioJob, b bool) { j.clatPercent = b }),
	"lat_percentiles":       fioSwitch(func(j *fioJob, b bool) { j.latPercnt = b }),
}

// readFioJob reads one section's options (its globals first) into a
// job. An option raidsim does not model is an error naming it, unless
// ignoreUnknown (then it is listed in ignored).
func readFioJob(sec *fioSection, ignoreUnknown bool) (*fioJob, error) {
	j := &fioJob{sec: sec, kbBase: 1024, engine: "psync", clatPercent: true, percentiles: fioDefaultPercentiles,
		stonewall: sec.stonewall}
	j.job.Name = sec.name
	opts := sec.options()
	for _, o := range opts { // kb_base changes how sizes read, wherever it is
		if o.key == "kb_base" {
			if err := fioKBBase(j, o); err != nil {
				return nil, fmt.Errorf("%s: kb_base: %w", o.at, err)
			}
		}
	}
	var errs []error
	for _, o := range opts {
		key := o.key
		if a, ok := fioAliases[key]; ok {
			key = a
		}
		h, ok := fioHandlers[key]
		switch {
		case ok:
			if err := h(j, o); err != nil {
				errs = append(errs, fmt.Errorf("%s: %s: %w", o.at, o.key, err))
			}
		case fioNoEffect[key]:
		case ignoreUnknown:
			j.ignored = append(j.ignored, o)
		default:
			errs = append(errs, fmt.Errorf("%s: option %s: raidsim does not model it (--ignore-unknown runs without it)", o.at, o.key))
		}
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return j, j.finish()
}

// finish fills what depends on several options: the block size of the
// job's directions, its depth on its engine, its request count.
func (j *fioJob) finish() error {
	rw, err := trace.ParseRW(j.job.RW)
	if j.job.RW == "" {
		rw, err = trace.RWRead, nil // fio's default
	}
	if err != nil {
		return fmt.Errorf("%s: rw: %w", j.sec.at, err)
	}
	if j.bsSet {
		bs, err := j.blockSize(rw)
		if err != nil {
			return fmt.Errorf("%s: bs: %w", j.sec.at, err)
		}
		j.job.BS = spec.Size(bs)
	}
	j.job.IODepth = max(j.iodepth, 1)
	if fioSyncEngines[j.engine] {
		j.job.IODepth = 1
	}
	switch {
	case j.numIOs > 0:
		j.job.IOs = j.numIOs
	case j.ioSize > 0:
		if j.job.BSSplit != "" {
			return fmt.Errorf("%s: io_size with a block size mix: give number_ios instead", j.sec.at)
		}
		bs := int64(j.job.BS)
		if bs == 0 {
			bs = 4096 // fio's default bs
		}
		j.job.IOs = max((j.ioSize+bs-1)/bs, 1)
	}
	return nil
}

// blockSize picks the block size of the job's directions from fio's
// bs=READ,WRITE,TRIM.
func (j *fioJob) blockSize(rw trace.RW) (int64, error) {
	r, w, t := j.bs[0], j.bs[1], j.bs[2]
	switch rw {
	case trace.RWRead, trace.RWRandRead:
		return r, nil
	case trace.RWWrite, trace.RWRandWrite:
		return w, nil
	case trace.RWTrim, trace.RWRandTrim:
		return t, nil
	}
	if r != w {
		return 0, fmt.Errorf("reads of %d and writes of %d bytes in one mixed job: raidsim models one block size per job (use bssplit or two jobs)", r, w)
	}
	return r, nil
}

func fioRW(j *fioJob, o fioOption) error {
	v, holes, _ := strings.Cut(o.value, ":")
	if holes != "" {
		return fmt.Errorf("%q: a sequence with holes (:N) is not modelled", o.value)
	}
	if _, err := trace.ParseRW(v); err != nil {
		return fmt.Errorf("%q: raidsim models read, write, randread, randwrite, rw (readwrite), randrw, trim and randtrim", o.value)
	}
	j.job.RW = strings.ToLower(strings.TrimSpace(v))
	return nil
}

func fioMix(j *fioJob, o fioOption, write bool) error {
	n, err := parseFioInt(o.value, 0, 100)
	if err != nil {
		return err
	}
	if write {
		n = 100 - n
	}
	v := int(n)
	j.job.RWMixRead = &v
	return nil
}

func fioBS(j *fioJob, o fioOption) error {
	parts := strings.Split(o.value, ",")
	if len(parts) > 3 {
		return fmt.Errorf("%q: at most READ,WRITE,TRIM", o.value)
	}
	var bs [3]int64
	for i := range bs {
		p := parts[min(i, len(parts)-1)]
		if strings.Contains(p, "-") || strings.Contains(p, ":") {
			return fmt.Errorf("%q: block size ranges are not modelled (use bssplit)", o.value)
		}
		if strings.TrimSpace(p) == "" {
			bs[i] = 4096 // fio's default for a direction left empty
			continue
		}
		n, err := parseFioSize(p, j.kbBase)
		if err != nil {
			return err
		}
		if n <= 0 {
			return fmt.Errorf("%q: want a positive size", o.value)
		}
		bs[i] = n
	}
	j.bs, j.bsSet = bs, true
	j.job.BSSplit = ""
	return nil
}

func fioBSSplit(j *fioJob, o fioOption) error {
	if strings.Contains(o.value, ",") {
		return fmt.Errorf("%q: a bssplit per direction is not modelled (one list for every direction)", o.value)
	}
	var out []string
	for _, e := range strings.Split(o.value, ":") {
		size, pct, ok := strings.Cut(e, "/")
		n, err := parseFioSize(size, j.kbBase)
		if err != nil || !ok {
			return fmt.Errorf("%q: want SIZE/PERCENT entries joined by : (4k/60:64k/40)", o.value)
		}
		out = append(out, trace.FormatSize(n)+"/"+strings.TrimSpace(pct))
	}
	j.job.BSSplit, j.bsSet, j.job.BS = strings.Join(out, ":"), false, 0
	return nil
}

// fioRegion reads size or offset: bytes, or a share of the volume.
func fioRegion(field func(j *fioJob) (*int64, *float64, *bool, *bool)) func(j *fioJob, o fioOption) error {
	return func(j *fioJob, o fioOption) error {
		n, pct, has, hasPct := field(j)
		p, isPct, err := parseFioPercent(o.value)
		if err != nil {
			return err
		}
		if isPct {
			*pct, *hasPct, *has = p, true, false
			return nil
		}
		v, err := parseFioSize(o.value, j.kbBase)
		if err != nil {
			return err
		}
		*n, *has, *hasPct = v, true, false
		return nil
	}
}

func fioFilename(j *fioJob, o fioOption) error {
	if strings.Contains(strings.ReplaceAll(o.value, `\:`, ""), ":") {
		return fmt.Errorf("%q: several files per job are not modelled", o.value)
	}
	j.file, j.device = o.value, strings.HasPrefix(o.value, "/dev/")
	return nil
}

func fioEngine(j *fioJob, o fioOption) error {
	e := strings.ToLower(o.value)
	if !fioSyncEngines[e] && !fioAsyncEngines[e] {
		return fmt.Errorf("%q: raidsim models the synchronous engines (sync, psync, vsync, pvsync, pvsync2, mmap: one request at a time) and the asynchronous ones (libaio, io_uring, posixaio, windowsaio, solarisaio: iodepth at once)", o.value)
	}
	j.engine = e
	return nil
}

func fioRate(j *fioJob, o fioOption) error {
	parts := strings.Split(o.value, ",")
	if len(parts) > 3 {
		return fmt.Errorf("%q: at most READ,WRITE,TRIM", o.value)
	}
	for i, p := range parts {
		if strings.TrimSpace(p) == "" {
			continue
		}
		n, err := parseFioSize(p, j.kbBase)
		if err != nil {
			return err
		}
		parts[i] = trace.FormatSize(n)
	}
	j.job.Rate = strings.Join(parts, ",")
	return nil
}

func fioSeed(j *fioJob, o fioOption) error {
	n, err := strconv.ParseUint(strings.TrimSpace(o.value), 10, 64)
	if err != nil {
		return fmt.Errorf("%q: want a whole number", o.value)
	}
	j.randseed, j.hasSeed = n, true
	return nil
}

func fioKBBase(j *fioJob, o fioOption) error {
	switch strings.TrimSpace(o.value) {
	case "1024":
		j.kbBase = 1024
	case "1000":
		j.kbBase = 1000
	default:
		return fmt.Errorf("%q: want 1024 or 1000", o.value)
	}
	return nil
}

func fioPercentiles(j *fioJob, o fioOption) error {
	var ps []float64
	for _, s := range strings.Split(o.value, ":") {
		p, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
		if err != nil || p <= 0 || p > 100 {
			return fmt.Errorf("%q: want percentiles in (0, 100] joined by colons", o.value)
		}
		ps = append(ps, p)
	}
	if len(ps) > 20 { // fio's FIO_IO_U_LIST_MAX_LEN
		return fmt.Errorf("%q: at most 20 percentiles", o.value)
	}
	sort.Float64s(ps)
	j.percentiles = ps
	return nil
}

// Option readers by the type of the value.

func fioText(set func(j *fioJob, v string)) func(j *fioJob, o fioOption) error {
	return func(j *fioJob, o fioOption) error { set(j, o.value); return nil }
}

func fioSwitch(set func(j *fioJob, b bool)) func(j *fioJob, o fioOption) error {
	return func(j *fioJob, o fioOption) error {
		b, err := parseFioBool(o)
		if err == nil {
			set(j, b)
		}
		return err
	}
}

func fioIntField(set func(j *fioJob, n int64), lo, hi int64) func(j *fioJob, o fioOption) error {
	return func(j *fioJob, o fioOption) error {
		n, err := parseFioInt(o.value, lo, hi)
		if err == nil {
			set(j, n)
		}
		return err
	}
}

func fioSizeField(set func(j *fioJob, n int64)) func(j *fioJob, o fioOption) error {
	return func(j *fioJob, o fioOption) error {
		n, err := parseFioSize(o.value, j.kbBase)
		if err == nil {
			set(j, n)
		}
		return err
	}
}

func fioTimeField(unit time.Duration, set func(j *fioJob, d time.Duration)) func(j *fioJob, o fioOption) error {
	return func(j *fioJob, o fioOption) error {
		if strings.Contains(o.value, "-") {
			return fmt.Errorf("%q: a range is not modelled: give one duration", o.value)
		}
		d, err := parseFioTime(o.value, unit)
		if err == nil {
			set(j, d)
		}
		return err
	}
}
