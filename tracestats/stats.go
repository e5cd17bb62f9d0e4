package tracestats

import (
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/raidsim/raidsim/metrics"
	"github.com/raidsim/raidsim/mrc"
	"github.com/raidsim/raidsim/trace"
)

// Stats describes a trace. Its JSON names are stable; times are in
// seconds and sizes in bytes unless a name says otherwise.
type Stats struct {
	// Records counts the records read (every kind); Skipped the lines
	// the reader skipped (other event types, a header).
	Records int64 `json:"records"`
	Skipped int64 `json:"skipped"`
	// Devices counts the distinct device (disk, volume) numbers, up to
	// MaxDevices; DevicesCapped says there were more.
	Devices       int  `json:"devices"`
	DevicesCapped bool `json:"devices_capped,omitempty"`
	// SpanS is the time from the earliest record to the latest.
	SpanS float64 `json:"span_s"`
	// Late counts records read after a record with a later time, and
	// MaxLateS is the most any was late: the trace's disorder.
	Late     int64   `json:"late_records"`
	MaxLateS float64 `json:"max_late_s"`
	// Ops counts each kind of request.
	Ops OpMix `json:"ops"`
	// Sizes is the request-size histogram of reads, writes and trims.
	Sizes []SizeBucket `json:"sizes"`
	// Sequential is the share of requests that start where their
	// device's previous request ended.
	Sequential Sequential `json:"sequential"`
	// InterArrival is the distribution of the gaps between records.
	InterArrival Distribution `json:"inter_arrival"`
	// Burstiness is the peak-to-mean request count over 1 s and 1 min
	// windows.
	Burstiness []Burst `json:"burstiness"`
	// Footprint is the distinct data the reads and writes touched.
	Footprint Footprint `json:"footprint"`
	// Reuse is LRU's miss-ratio curve over 4 KiB block accesses: the
	// distribution of reuse (stack) distances, as miss ratio against
	// cache size.
	Reuse *mrc.Result `json:"reuse"`
	// Measured summarizes the response times the trace recorded, when
	// it recorded any, in ms.
	Measured *metrics.LatencySummary `json:"measured_latency_ms,omitempty"`
	// Timeline is the request rate over time, in bins that double in
	// width to keep at most timelineBins.
	Timeline []TimePoint `json:"timeline"`
	// HotSpots counts requests by time and offset.
	HotSpots HeatMap `json:"hot_spots"`

	gaps metrics.Histogram // the inter-arrival times, for the figure
}

// OpMix counts each kind of request.
type OpMix struct {
	Read  OpCount `json:"read"`
	Write OpCount `json:"write"`
	Trim  OpCount `json:"trim"`
	Flush OpCount `json:"flush"`
}

// OpCount is one kind of request: how many, how many bytes, and their
// share of the records.
type OpCount struct {
	Count    int64   `json:"count"`
	Bytes    int64   `json:"bytes"`
	Fraction float64 `json:"fraction"`
}

// SizeBucket counts the requests of sizes above the previous bucket's
// bound up to UpTo bytes (UpTo 0: larger than every bound).
type SizeBucket struct {
	UpTo   int64 `json:"up_to_bytes"`
	Reads  int64 `json:"reads"`
	Writes int64 `json:"writes"`
	Trims  int64 `json:"trims"`
}

// Sequential gives the sequential share of all reads and writes and of
// each.
type Sequential struct {
	All   float64 `json:"all"`
	Read  float64 `json:"read"`
	Write float64 `json:"write"`
}

// Distribution summarizes a distribution of times, in seconds; CV is
// the standard deviation over the mean (1 for a Poisson process's
// exponential gaps, more for bursts).
type Distribution struct {
	Count int64   `json:"count"`
	MeanS float64 `json:"mean_s"`
	P50S  float64 `json:"p50_s"`
	P90S  float64 `json:"p90_s"`
	P99S  float64 `json:"p99_s"`
	MaxS  float64 `json:"max_s"`
	CV    float64 `json:"cv"`
}

// Burst is the burstiness over one window length: the most requests in
// a window and the mean per window.
type Burst struct {
	WindowS    float64 `json:"window_s"`
	Peak       int64   `json:"peak"`
	Mean       float64 `json:"mean"`
	PeakToMean float64 `json:"peak_to_mean"`
}

// Footprint is the distinct 4 KiB blocks touched, and how it was
// counted: "exact" or "hyperloglog".
type Footprint struct {
	Blocks int64  `json:"blocks"`
	Bytes  int64  `json:"bytes"`
	Method string `json:"method"`
}

// TimePoint is one bin of the time line: its start from the first
// record, and the requests and bytes per second in it.
type TimePoint struct {
	StartS float64 `json:"start_s"`
	IOPS   float64 `json:"iops"`
	MBPerS float64 `json:"mb_per_s"`
}

// HeatMap counts requests in a grid of time bins (columns) by offset
// bins (rows): Counts[row][col], row 0 the lowest offsets.
type HeatMap struct {
	BinS     float64   `json:"bin_s"`
	BinBytes int64     `json:"bin_bytes"`
	Counts   [][]int64 `json:"counts"`
}

// Options tunes Collect. The zero value takes the defaults.
type Options struct {
	// SampleBlocks bounds the blocks the reuse pass keeps: a trace
	// whose footprint is larger has its curve estimated with SHARDS at
	// SampleBlocks/footprint. Zero means DefaultSampleBlocks.
	SampleBlocks int64
}

// DefaultSampleBlocks is Options.SampleBlocks' default: 2^17 blocks
// (512 MiB of 4 KiB blocks), about 8 MiB of state.
const DefaultSampleBlocks = 1 << 17

// MaxDevices bounds the devices whose sequentiality is followed; a
// trace with more (Tencent CBS has thousands of volumes) counts the
// rest's requests as not sequential, and Stats says so.
const MaxDevices = 1 << 16

// Collect reads the trace open returns twice (open is called once per
// pass and must return it from its start; the reader is closed by the
// caller's open when it wraps a file) and describes it. A reader error
// stops it, returned as it is (a *trace.ParseError names the line).
func Collect(open func() (trace.Reader, error), o Options) (*Stats, error) {
	if o.SampleBlocks < 0 {
		return nil, fmt.Errorf("tracestats: Options.SampleBlocks: %d is negative", o.SampleBlocks)
	}
	if o.SampleBlocks == 0 {
		o.SampleBlocks = DefaultSampleBlocks
	}
	c := newCollector()
	r, err := open()
	if err != nil {
		return nil, err
	}
	for {
		rec, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		c.add(&rec)
	}
	st := c.finish()
	st.Skipped = trace.Skipped(r)
	estimate := c.hll.estimate()
	rate := 1.0
	if estimate > float64(o.SampleBlocks) {
		rate = float64(o.SampleBlocks) / estimate
	}
	if c.accesses == 0 {
		st.Reuse = &mrc.Result{BlockBytes: mrc.BlockBytes, Records: st.Records, SampleRate: 1}
	} else if st.Reuse, err = mrc.Build(func() (mrc.Reader, error) { return open() }, mrc.Options{SampleRate: rate}); err != nil {
		return nil, err
	}
	st.Footprint = Footprint{Blocks: st.Reuse.DistinctBlocks, Method: "exact"}
	if rate < 1 {
		st.Footprint = Footprint{Blocks: int64(estimate + 0.5), Method: "hyperloglog"}
	}
	st.Footprint.Bytes = st.Footprint.Blocks * mrc.BlockBytes
	return st, nil
}

// errNoRecords is returned for an empty trace's figure.
var errNoRecords = errors.New("tracestats: the trace has no records")

// seconds converts a duration to seconds.
func seconds(d time.Duration) float64 { return d.Seconds() }
