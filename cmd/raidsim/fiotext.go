package main

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/raidsim/raidsim/trace"
)

// fio's normal output, in fio 3.33's layout: a line per job, then per
// job its directions (IOPS and bandwidth, completion and total latency,
// completion percentiles), its latency bins and depths, then per
// reporting group the bandwidth of each direction. The process-level
// figures a simulation has no value for (pid, CPU, context switches)
// print as 0.

// writeFioText writes the run in fio's normal layout.
func writeFioText(w io.Writer, r *fioRun, results []fioResult) error {
	var b strings.Builder
	clones := 0
	for _, ph := range r.phases {
		for _, j := range ph {
			fmt.Fprintf(&b, "%s: (g=%d): rw=%s, bs=%s, ioengine=%s, iodepth=%d\n", j.job.Name, fioGroupOf(results, j),
				orDefault(j.job.RW, "read"), fioBSText(j), j.engine, max(j.iodepth, 1))
			clones += max(j.job.NumJobs, 1)
		}
	}
	fmt.Fprintf(&b, "%s (raidsim: simulated, virtual time)\nStarting %d process%s\n", fioJSONVersion, clones, plural(clones, "es"))
	for _, res := range results {
		b.WriteByte('\n')
		writeFioJobText(&b, res)
	}
	writeFioGroups(&b, results)
	_, err := io.WriteString(w, b.String())
	return err
}

// fioGroupOf is the group id of j's first entry in results.
func fioGroupOf(results []fioResult, j *fioJob) int {
	for _, r := range results {
		if r.job == j {
			return r.groupID
		}
	}
	return 0
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

func plural(n int, suffix string) string {
	if n == 1 {
		return ""
	}
	return suffix
}

// fioBSText is fio's "(R) 4096B-4096B, (W) ..., (T) ..." of a job.
func fioBSText(j *fioJob) string {
	lo, hi := int64(j.job.BS), int64(j.job.BS)
	if j.job.BSSplit != "" {
		lo, hi = 1<<62, 0
		for _, e := range strings.Split(j.job.BSSplit, ":") {
			s, _, _ := strings.Cut(e, "/")
			n, _ := trace.ParseSize(s)
			lo, hi = min(lo, n), max(hi, n)
		}
	}
	if lo == 0 {
		lo, hi = 4096, 4096
	}
	one := fioNum2Str(lo, 4, 1024, "B") + "-" + fioNum2Str(hi, 4, 1024, "B")
	return "(R) " + one + ", (W) " + one + ", (T) " + one
}

// writeFioJobText writes one jobs[] entry.
func writeFioJobText(b *strings.Builder, res fioResult) {
	jr, j := res.rep, res.job
	fmt.Fprintf(b, "%s: (groupid=%d, jobs=%d): err=%2d: pid=0: %s\n", jr.Name, res.groupID, jr.Jobs,
		fioJobJSON(res).Error, time.Unix(0, 0).UTC().Format(time.ANSIC))
	out := fioJobJSON(res)
	for _, d := range []struct {
		name string
		dir  fioDirOut
	}{{"read", out.Read}, {"write", out.Write}, {"trim", out.Trim}} {
		if d.dir.TotalIOs == 0 {
			continue
		}
		fmt.Fprintf(b, "  %s: IOPS=%s, BW=%s/s (%s/s)(%s/%dmsec)\n", d.name, fioNum2Str(int64(d.dir.IOPS+0.5), 4, 1000, ""),
			fioNum2Str(d.dir.BWBytes, 4, 1024, "B"), fioNum2Str(d.dir.BWBytes, 4, 1000, "B"),
			fioNum2Str(d.dir.IOBytes, 4, 1024, "B"), d.dir.Runtime)
		writeFioLat(b, "    clat", d.dir.Clat)
		writeFioLat(b, "     lat", d.dir.Lat)
		p := d.dir.Clat
		if len(p.Percentile) == 0 {
			p = d.dir.Lat
		}
		writeFioPercentiles(b, p)
	}
	for _, bins := range []struct {
		unit string
		o    fioObject
	}{{"nsec", out.LatencyNS}, {"usec", out.LatencyUS}, {"msec", out.LatencyMS}} {
		var parts []string
		for _, p := range bins.o {
			if v := float64(p.value.(fioFloat)); v >= 0.01 {
				parts = append(parts, fmt.Sprintf("%s=%.2f%%", p.key, v))
			}
		}
		if len(parts) > 0 {
			fmt.Fprintf(b, "  lat (%s)   : %s\n", bins.unit, strings.Join(parts, ", "))
		}
	}
	fmt.Fprintf(b, "  cpu          : usr=0.00%%, sys=0.00%%, ctx=0, majf=0, minf=0\n")
	fmt.Fprintf(b, "  IO depths    : %s\n", fioShares(out.IODepthLevel))
	fmt.Fprintf(b, "     submit    : %s\n", fioShares(out.IODepthSubmit))
	fmt.Fprintf(b, "     complete  : %s\n", fioShares(out.IODepthComplete))
	fmt.Fprintf(b, "     issued rwts: total=%d,%d,%d,0 short=0,0,0,0 dropped=0,0,0,0\n",
		out.Read.TotalIOs, out.Write.TotalIOs, out.Trim.TotalIOs)
	fmt.Fprintf(b, "     latency   : target=0, window=0, percentile=100.00%%, depth=%d\n", j.job.IODepth)
}

// writeFioLat writes "clat (usec): min=..., max=..., avg=..., stdev=...",
// in ns scaled to us when min > 2000, max > 99999 and stdev > 1000 ns,
// then to ms when each of min, max, mean and stdev passes 1000 us, as
// fio scales them.
func writeFioLat(b *strings.Builder, name string, l fioLat) {
	if l.N == 0 {
		return
	}
	unit, div := "nsec", int64(1)
	if l.Min > 2000 && l.Max > 99999 && float64(l.Stddev) > 1000 {
		unit, div = "usec", 1000
		if l.Min > 1000*div && l.Max > 1000*div && float64(l.Mean) > 1e6 && float64(l.Stddev) > 1e6 {
			unit, div = "msec", 1_000_000
		}
	}
	fmt.Fprintf(b, "%s (%s): min=%d, max=%d, avg=%.2f, stdev=%.2f\n", name, unit, l.Min/div, l.Max/div,
		float64(l.Mean)/float64(div), float64(l.Stddev)/float64(div))
}

// writeFioPercentiles writes the percentiles four to a line, in ns, us
// or ms by the smallest and largest as fio chooses.
func writeFioPercentiles(b *strings.Builder, l fioLat) {
	if len(l.Percentile) == 0 {
		return
	}
	lo, hi := l.Percentile[0].value.(int64), l.Percentile[len(l.Percentile)-1].value.(int64)
	unit, div := "nsec", int64(1)
	switch {
	case lo > 2_000_000 && hi > 99_999_999:
		unit, div = "msec", 1_000_000
	case lo > 2000 && hi > 99999:
		unit, div = "usec", 1000
	}
	fmt.Fprintf(b, "    clat percentiles (%s):\n", unit)
	for i, p := range l.Percentile {
		if i%4 == 0 {
			b.WriteString("     |")
		}
		v, _ := strconv.ParseFloat(p.key, 64)
		fmt.Fprintf(b, " %5.2fth=[%5d]", v, p.value.(int64)/div)
		if i%4 == 3 || i == len(l.Percentile)-1 {
			if i < len(l.Percentile)-1 {
				b.WriteByte(',')
			}
			b.WriteByte('\n')
		} else {
			b.WriteByte(',')
		}
	}
}

// fioShares writes "1=100.0%, 2=0.0%, ...".
func fioShares(o fioObject) string {
	parts := make([]string, len(o))
	for i, p := range o {
		parts[i] = fmt.Sprintf("%s=%.1f%%", p.key, float64(p.value.(fioFloat)))
	}
	return strings.Join(parts, ", ")
}

// writeFioGroups writes "Run status group N (all jobs):" per group: each
// direction's aggregate bandwidth (its bytes over the longest runtime),
// the range of its jobs' bandwidths, its bytes and the jobs' runtimes.
func writeFioGroups(b *strings.Builder, results []fioResult) {
	for i := 0; i < len(results); {
		g := results[i].groupID
		n := 0
		for i+n < len(results) && results[i+n].groupID == g {
			n++
		}
		fmt.Fprintf(b, "\nRun status group %d (all jobs):\n", g)
		for _, d := range []struct {
			name string
			dir  func(fioJobOut) fioDirOut
		}{{"READ", func(o fioJobOut) fioDirOut { return o.Read }}, {"WRITE", func(o fioJobOut) fioDirOut { return o.Write }},
			{"TRIM", func(o fioJobOut) fioDirOut { return o.Trim }}} {
			var bytes, lo, hi, minRun, maxRun int64
			lo, minRun = 1<<62, 1<<62
			for _, res := range results[i : i+n] {
				dir := d.dir(fioJobJSON(res))
				if dir.TotalIOs == 0 {
					continue
				}
				bytes += dir.IOBytes
				lo, hi = min(lo, dir.BWBytes), max(hi, dir.BWBytes)
				minRun, maxRun = min(minRun, dir.Runtime), max(maxRun, dir.Runtime)
			}
			if bytes == 0 {
				continue
			}
			bw := bytes * 1000 / max(maxRun, 1)
			fmt.Fprintf(b, "%7s: bw=%s/s (%s/s), %s/s-%s/s (%s/s-%s/s), io=%s (%s), run=%d-%dmsec\n", d.name,
				fioNum2Str(bw, 4, 1024, "B"), fioNum2Str(bw, 4, 1000, "B"),
				fioNum2Str(lo, 4, 1024, "B"), fioNum2Str(hi, 4, 1024, "B"), fioNum2Str(lo, 4, 1000, "B"), fioNum2Str(hi, 4, 1000, "B"),
				fioNum2Str(bytes, 4, 1024, "B"), fioNum2Str(bytes, 4, 1000, "B"), minRun, maxRun)
		}
		i += n
	}
}

// fioNum2Str writes n as fio's num2str does: divided by base until at
// most maxlen digits are left, a decimal added when room is left, then
// the unit's prefix (Ki, Mi... for 1024; k, M... for 1000) and unit.
func fioNum2Str(n int64, maxlen int, base int64, unit string) string {
	prefixes := []string{"", "k", "M", "G", "T", "P", "E"}
	if base == 1024 && unit != "" {
		prefixes = []string{"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"}
	}
	post := 0
	modulo := int64(-1)
	for post < len(prefixes)-1 && len(strconv.FormatInt(n, 10)) > maxlen {
		modulo = n % base
		n /= base
		post++
	}
	digits := len(strconv.FormatInt(n, 10))
	if modulo < 0 || maxlen-digits <= 1 {
		if modulo >= 0 && modulo >= base/2 {
			n++
		}
		return strconv.FormatInt(n, 10) + prefixes[post] + unit
	}
	decimals := maxlen - digits - 1
	frac := float64(modulo) / float64(base)
	s := strconv.FormatFloat(float64(n)+frac, 'f', decimals, 64)
	return s + prefixes[post] + unit
}
