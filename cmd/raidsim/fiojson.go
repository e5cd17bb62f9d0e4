package main

import (
	"bytes"
	"encoding/json"
	"math"
	"strconv"
	"time"

	"github.com/raidsim/raidsim"
	"github.com/raidsim/raidsim/metrics"
	"github.com/raidsim/raidsim/spec"
)

// fio's JSON output (--output-format=json), in the layout of fio 3.33:
// the keys fio writes, in its order, filled where the simulation knows
// the value. What a simulation has no figure for is fio's value for
// "not measured": no bandwidth or IOPS samples (bw_samples 0, as fio
// reports for a job shorter than its 500 ms sampling interval), no CPU
// or context switches, no submission latency (slat N 0, as fio's
// synchronous engines report). The clock is virtual: the run starts at
// the Unix epoch, so timestamps are 0. disk_util is left out, as fio
// leaves it out where it cannot read the disks' statistics.

// fioJSONVersion is the fio release whose JSON layout this follows; the
// "fio version" field names it and raidsim.
const fioJSONVersion = "fio-3.33"

// fioFloat is a number fio prints with %f: six decimals.
type fioFloat float64

func (f fioFloat) MarshalJSON() ([]byte, error) {
	v := float64(f)
	if math.IsNaN(v) || math.IsInf(v, 0) {
		v = 0
	}
	return strconv.AppendFloat(nil, v, 'f', 6, 64), nil
}

// fioPair is one key of an object whose keys fio writes in its own
// order (percentiles, latency bins, options).
type fioPair struct {
	key   string
	value any
}

// fioObject is a JSON object with its keys in order.
type fioObject []fioPair

func (o fioObject) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, p := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(p.key)
		b.Write(k)
		b.WriteByte(':')
		v, err := json.Marshal(p.value)
		if err != nil {
			return nil, err
		}
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// fioOutput is fio's whole JSON output.
type fioOutput struct {
	Version       string      `json:"fio version"`
	Timestamp     int64       `json:"timestamp"`
	TimestampMS   int64       `json:"timestamp_ms"`
	Time          string      `json:"time"`
	GlobalOptions fioObject   `json:"global options"`
	Jobs          []fioJobOut `json:"jobs"`
}

// fioJobOut is one entry of jobs[]: a job, or a reporting group.
type fioJobOut struct {
	JobName           string    `json:"jobname"`
	GroupID           int       `json:"groupid"`
	Error             int       `json:"error"`
	ETA               int64     `json:"eta"`
	Elapsed           int64     `json:"elapsed"`
	JobOptions        fioObject `json:"job options"`
	Read              fioDirOut `json:"read"`
	Write             fioDirOut `json:"write"`
	Trim              fioDirOut `json:"trim"`
	Sync              fioSync   `json:"sync"`
	JobRuntime        int64     `json:"job_runtime"`
	UsrCPU            fioFloat  `json:"usr_cpu"`
	SysCPU            fioFloat  `json:"sys_cpu"`
	Ctx               int64     `json:"ctx"`
	Majf              int64     `json:"majf"`
	Minf              int64     `json:"minf"`
	IODepthLevel      fioObject `json:"iodepth_level"`
	IODepthSubmit     fioObject `json:"iodepth_submit"`
	IODepthComplete   fioObject `json:"iodepth_complete"`
	LatencyNS         fioObject `json:"latency_ns"`
	LatencyUS         fioObject `json:"latency_us"`
	LatencyMS         fioObject `json:"latency_ms"`
	LatencyDepth      int       `json:"latency_depth"`
	LatencyTarget     int64     `json:"latency_target"`
	LatencyPercentile fioFloat  `json:"latency_percentile"`
	LatencyWindow     int64     `json:"latency_window"`
}

// fioDirOut is one direction's figures (read, write, trim).
type fioDirOut struct {
	IOBytes     int64    `json:"io_bytes"`
	IOKBytes    int64    `json:"io_kbytes"`
	BWBytes     int64    `json:"bw_bytes"`
	BW          int64    `json:"bw"`
	IOPS        fioFloat `json:"iops"`
	Runtime     int64    `json:"runtime"`
	TotalIOs    int64    `json:"total_ios"`
	ShortIOs    int64    `json:"short_ios"`
	DropIOs     int64    `json:"drop_ios"`
	Slat        fioLat   `json:"slat_ns"`
	Clat        fioLat   `json:"clat_ns"`
	Lat         fioLat   `json:"lat_ns"`
	BWMin       int64    `json:"bw_min"`
	BWMax       int64    `json:"bw_max"`
	BWAgg       fioFloat `json:"bw_agg"`
	BWMean      fioFloat `json:"bw_mean"`
	BWDev       fioFloat `json:"bw_dev"`
	BWSamples   int64    `json:"bw_samples"`
	IOPSMin     int64    `json:"iops_min"`
	IOPSMax     int64    `json:"iops_max"`
	IOPSMean    fioFloat `json:"iops_mean"`
	IOPSStddev  fioFloat `json:"iops_stddev"`
	IOPSSamples int64    `json:"iops_samples"`
}

// fioLat is a latency distribution in nanoseconds.
type fioLat struct {
	Min        int64     `json:"min"`
	Max        int64     `json:"max"`
	Mean       fioFloat  `json:"mean"`
	Stddev     fioFloat  `json:"stddev"`
	N          int64     `json:"N"`
	Percentile fioObject `json:"percentile,omitempty"`
	// Bins, in json+ only, count the latencies by bucket, keyed by
	// the bucket's midpoint in ns (fio's json+ "bins").
	Bins fioObject `json:"bins,omitempty"`
}

// fioSync is the fsync (flush) figures.
type fioSync struct {
	TotalIOs int64  `json:"total_ios"`
	Lat      fioLat `json:"lat_ns"`
}

// fioResult is one jobs[] entry with what it came from.
type fioResult struct {
	job     *fioJob
	rep     *raidsim.JobReport
	groupID int
}

// fioResults pairs the report's jobs with the job file's: each phase's
// JobReports are its clones in order, a run of one group's
// group_reporting clones as one (as raidsim reports them); fio's group
// ids count on across phases.
func fioResults(r *fioRun, pl *spec.Plan, rep *raidsim.Report) []fioResult {
	var out []fioResult
	groups := 0
	for p := range pl.Phases {
		ph := &pl.Phases[p]
		k, top := 0, 0
		for i := 0; i < len(ph.Jobs) && k < len(rep.Phases[p].Jobs); k++ {
			n := 1
			for jp := &ph.Jobs[i]; jp.GroupReporting && i+n < len(ph.Jobs) &&
				ph.Jobs[i+n].GroupReporting && ph.Jobs[i+n].Group == jp.Group; n++ {
			}
			jr := &rep.Phases[p].Jobs[k]
			out = append(out, fioResult{job: r.phases[p][ph.Jobs[i].Entry], rep: jr, groupID: groups + jr.Group})
			top = max(top, jr.Group)
			i += n
		}
		groups += top + 1
	}
	return out
}

// fioJSON is the run's output in fio's JSON.
func fioJSON(jf *fioJobFile, results []fioResult, plus bool) fioOutput {
	out := fioOutput{Version: fioJSONVersion + " (raidsim)", Time: time.Unix(0, 0).UTC().Format(time.ANSIC),
		GlobalOptions: fioOptions(jf.globals), Jobs: []fioJobOut{}}
	for _, res := range results {
		j := fioJobJSON(res)
		if plus {
			addFioBins(&j, res)
		}
		out.Jobs = append(out.Jobs, j)
	}
	return out
}

// fioOptions lists options as fio echoes them: the last value of each
// key, in the order the keys first appear.
func fioOptions(opts []fioOption) fioObject {
	o := fioObject{}
	at := map[string]int{}
	for _, op := range opts {
		v := op.value
		if op.bare {
			v = "1"
		}
		if i, ok := at[op.key]; ok {
			o[i].value = v
			continue
		}
		at[op.key] = len(o)
		o = append(o, fioPair{op.key, v})
	}
	return o
}

// fioJobJSON is one jobs[] entry.
func fioJobJSON(res fioResult) fioJobOut {
	jr, j := res.rep, res.job
	span := time.Duration(jr.SimSeconds * float64(time.Second))
	lat := jr.Latency
	out := fioJobOut{
		JobName: jr.Name, GroupID: res.groupID, Elapsed: int64(math.Ceil(jr.StartS + jr.SimSeconds)),
		JobOptions: fioOptions(j.sec.own),
		Read:       fioDir(lat.Read(), span, j), Write: fioDir(lat.Write(), span, j), Trim: fioDir(lat.Trim(), span, j),
		Sync:         fioSync{TotalIOs: lat.Flush().IOs(), Lat: fioLatency(lat.Flush().Latency(), nil)},
		JobRuntime:   span.Milliseconds(),
		LatencyDepth: j.job.IODepth, LatencyPercentile: 100,
	}
	if jr.FailedRequests > 0 {
		out.Error = 5 // EIO
	}
	out.IODepthLevel, out.IODepthSubmit, out.IODepthComplete = fioDepths(jr.IODepths)
	out.LatencyNS, out.LatencyUS, out.LatencyMS = fioLatencyBins(lat.All().Latency(), lat.Trim().Latency())
	return out
}

// fioDir is one direction's figures over the job's span.
func fioDir(s *metrics.OpStats, span time.Duration, j *fioJob) fioDirOut {
	d := fioDirOut{IOBytes: s.Bytes(), IOKBytes: s.Bytes() >> 10, TotalIOs: s.IOs()}
	if s.IOs() > 0 && span > 0 {
		sec := span.Seconds()
		d.BWBytes = int64(float64(s.Bytes()) / sec)
		d.BW = d.BWBytes >> 10
		d.IOPS = fioFloat(float64(s.IOs()) / sec)
		d.Runtime = max(span.Milliseconds(), 1)
	}
	var clatP, latP []float64
	if j.clatPercent {
		clatP = j.percentiles
	}
	if j.latPercnt {
		latP = j.percentiles
	}
	d.Slat = fioLat{}
	d.Clat = fioLatency(s.Latency(), clatP)
	d.Lat = fioLatency(s.Latency(), latP)
	return d
}

// fioLatency is a histogram's figures in ns, with percentiles keyed as
// fio keys them ("99.900000") when asked for and there are samples.
// The request's latency is all completion latency: a simulated
// submission costs nothing, so clat and lat are the same.
func fioLatency(h *metrics.Histogram, percentiles []float64) fioLat {
	l := fioLat{N: h.Count()}
	if l.N == 0 {
		return l
	}
	l.Min, l.Max = int64(h.Min()), int64(h.Max())
	l.Mean, l.Stddev = fioFloat(h.MeanSeconds()*1e9), fioFloat(h.StdDev())
	for _, p := range percentiles {
		l.Percentile = append(l.Percentile, fioPair{strconv.FormatFloat(p, 'f', 6, 64), int64(h.Quantile(p / 100))})
	}
	return l
}

// fioDepthKeys are fio's iodepth_level bins; raidsim counts submissions
// in the same bins (JobReport.IODepths).
var fioDepthKeys = [7]string{"1", "2", "4", "8", "16", "32", ">=64"}

// fioDepths are iodepth_level (the share of submissions made with that
// many requests outstanding), and iodepth_submit and _complete: the
// share of submit and complete calls by how many requests each carried,
// one each in a simulation (fio's bin "4": 1 to 4).
func fioDepths(counts [7]int64) (level, submit, complete fioObject) {
	var total int64
	for _, c := range counts {
		total += c
	}
	level = fioObject{}
	for i, k := range fioDepthKeys {
		level = append(level, fioPair{k, fioFloat(pct(counts[i], total))})
	}
	calls := func() fioObject {
		o := fioObject{}
		for _, k := range []string{"0", "4", "8", "16", "32", "64", ">=64"} {
			v := 0.0
			if k == "4" && total > 0 {
				v = 100
			}
			o = append(o, fioPair{k, fioFloat(v)})
		}
		return o
	}
	return level, calls(), calls()
}

// pct is 100 n/total, 0 when total is 0.
func pct(n, total int64) float64 {
	if total == 0 {
		return 0
	}
	return 100 * float64(n) / float64(total)
}

// fioLatKeys are the upper bounds of fio's latency bins in each unit:
// key K holds the latencies from the key before it up to below K; the
// millisecond bins end with 2000 and ">=2000".
var fioLatKeys = []int64{2, 4, 10, 20, 50, 100, 250, 500, 750, 1000}

// fioLatencyBins are latency_ns, _us and _ms: the share of the job's
// requests (reads, writes and trims) in each of fio's bins, each
// histogram bucket counted at its midpoint.
func fioLatencyBins(hs ...*metrics.Histogram) (ns, us, ms fioObject) {
	var nsC, usC [10]int64
	var msC [12]int64
	var total int64
	for _, h := range hs {
		for b := range h.Buckets() {
			v := int64(b.Lower+b.Upper) / 2
			total += b.Count
			switch {
			case v < 1000:
				nsC[fioBin(v)] += b.Count
			case v < 1000_000:
				usC[fioBin(v/1000)] += b.Count
			case v < 1000_000_000:
				msC[fioBin(v/1000_000)] += b.Count
			case v < 2000_000_000:
				msC[10] += b.Count
			default:
				msC[11] += b.Count
			}
		}
	}
	bins := func(counts []int64, keys []string) fioObject {
		o := fioObject{}
		for i, k := range keys {
			o = append(o, fioPair{k, fioFloat(pct(counts[i], total))})
		}
		return o
	}
	keys := make([]string, 0, 12)
	for _, k := range fioLatKeys {
		keys = append(keys, strconv.FormatInt(k, 10))
	}
	return bins(nsC[:], keys), bins(usC[:], keys), bins(msC[:], append(keys, "2000", ">=2000"))
}

// fioBin is the bin of a value below 1000 in its unit.
func fioBin(v int64) int {
	for i, k := range fioLatKeys {
		if v < k {
			return i
		}
	}
	return len(fioLatKeys) - 1
}

// addFioBins adds json+'s bins to the distributions that have
// percentiles.
func addFioBins(out *fioJobOut, res fioResult) {
	lat := res.rep.Latency
	for _, d := range []struct {
		dir *fioDirOut
		h   *metrics.Histogram
	}{{&out.Read, lat.Read().Latency()}, {&out.Write, lat.Write().Latency()}, {&out.Trim, lat.Trim().Latency()}} {
		for _, l := range []*fioLat{&d.dir.Clat, &d.dir.Lat} {
			if len(l.Percentile) == 0 {
				continue
			}
			for b := range d.h.Buckets() {
				mid := int64(b.Lower+b.Upper) / 2
				l.Bins = append(l.Bins, fioPair{strconv.FormatInt(mid, 10), b.Count})
			}
		}
	}
}
