package tracestats

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/raidsim/raidsim/metrics"
	"github.com/raidsim/raidsim/sim"
	"github.com/raidsim/raidsim/trace"
)

// small is a trace worked by hand (times in ms):
//
//	#  t     op     offset   length dev  measured
//	1  0     read   0        4096   0    5 ms
//	2  1     read   4096     4096   0          sequential
//	3  3     write  8192     8192   0    1 ms  sequential
//	4  3     read   0        4096   1          (device 1's first)
//	5  10    write  65536    4096   0
//	6  2     read   0        4096   0          8 ms late
//	7  12    read   4096     4096   0          sequential
//	8  1500  flush
//	9  1501  trim   1048576  65536  0
//	10 2600  read   0        4096   0
const small = `time_ns,op,offset,length,device,fua,measured_ns
0,read,0,4096,0,0,5000000
1000000,read,4096,4096,0,0,0
3000000,write,8192,8192,0,0,1000000
3000000,read,0,4096,1,0,0
10000000,write,65536,4096,0,0,0
2000000,read,0,4096,0,0,0
12000000,read,4096,4096,0,0,0
1500000000,flush,0,0,0,0,0
1501000000,trim,1048576,65536,0,0,0
2600000000,read,0,4096,0,0,0
`

func collectSmall(t *testing.T, o Options) *Stats {
	t.Helper()
	st, err := Collect(func() (trace.Reader, error) {
		return trace.NewCSVReader(strings.NewReader(small), "small.csv"), nil
	}, o)
	require.NoError(t, err)
	return st
}

// TestHandComputed checks every figure of the small trace against the
// hand computation in its comment.
func TestHandComputed(t *testing.T) {
	st := collectSmall(t, Options{})
	assert.EqualValues(t, 10, st.Records)
	assert.Equal(t, 2, st.Devices)
	assert.InDelta(t, 2.6, st.SpanS, 1e-12)
	assert.EqualValues(t, 1, st.Late)
	assert.InDelta(t, 0.008, st.MaxLateS, 1e-12)

	assert.Equal(t, OpCount{Count: 6, Bytes: 24576, Fraction: 0.6}, st.Ops.Read)
	assert.Equal(t, OpCount{Count: 2, Bytes: 12288, Fraction: 0.2}, st.Ops.Write)
	assert.Equal(t, OpCount{Count: 1, Bytes: 65536, Fraction: 0.1}, st.Ops.Trim)
	assert.Equal(t, OpCount{Count: 1, Fraction: 0.1}, st.Ops.Flush)
	nonEmpty := map[int64]SizeBucket{}
	for _, b := range st.Sizes {
		if b.Reads+b.Writes+b.Trims > 0 {
			nonEmpty[b.UpTo] = b
		}
	}
	assert.Equal(t, map[int64]SizeBucket{
		4096:  {UpTo: 4096, Reads: 6, Writes: 1},
		8192:  {UpTo: 8192, Writes: 1},
		65536: {UpTo: 65536, Trims: 1},
	}, nonEmpty)

	// Sequential: #2, #3 and #7 of the 8 reads and writes.
	assert.InDelta(t, 3.0/8, st.Sequential.All, 1e-12)
	assert.InDelta(t, 2.0/6, st.Sequential.Read, 1e-12)
	assert.InDelta(t, 1.0/2, st.Sequential.Write, 1e-12)

	// Gaps to the latest time before (ms): 1 2 0 7 0 2 1488 1 1099.
	ia := st.InterArrival
	assert.EqualValues(t, 9, ia.Count)
	assert.InDelta(t, 2.6/9, ia.MeanS, 1e-12)
	assert.InDelta(t, 1.488, ia.MaxS, 1e-12)
	assert.InEpsilon(t, 0.002, ia.P50S, metrics.QuantileError) // the 5th of 9: 0 0 1 1 [2] 2 7 1099 1488
	gaps := []float64{1, 2, 0, 7, 0, 2, 1488, 1, 1099}
	var ss float64
	for _, g := range gaps {
		ss += (g - 2600.0/9) * (g - 2600.0/9)
	}
	assert.InDelta(t, math.Sqrt(ss/8)/(2600.0/9), ia.CV, 1e-9)

	// 1 s windows: 7, 2 and 1 requests over 3 windows; one 1 min window.
	require.Len(t, st.Burstiness, 2)
	assert.Equal(t, roundBurst(Burst{WindowS: 1, Peak: 7, Mean: 10.0 / 3, PeakToMean: 2.1}), roundBurst(st.Burstiness[0]))
	assert.Equal(t, Burst{WindowS: 60, Peak: 10, Mean: 10, PeakToMean: 1}, st.Burstiness[1])

	// Blocks: device 0's 0 1 2 3 16 and device 1's 0; 9 accesses, of
	// which three reuses at stack distances 6, 6 and 2.
	assert.Equal(t, Footprint{Blocks: 6, Bytes: 6 * 4096, Method: "exact"}, st.Footprint)
	assert.EqualValues(t, 9, st.Reuse.Accesses)
	ratios := map[int64]float64{}
	for _, p := range st.Reuse.Curves[0].Points {
		ratios[p.Blocks] = p.MissRatio
	}
	assert.InDelta(t, 9.0/9, ratios[1], 1e-12)
	assert.InDelta(t, 8.0/9, ratios[2], 1e-12)
	assert.InDelta(t, 6.0/9, ratios[6], 1e-12)

	require.NotNil(t, st.Measured)
	assert.InDelta(t, 3.0, st.Measured.Mean, 1e-9)

	// Time line: 2.6 s in at most 512 bins takes 8 ms bins; the first
	// holds the reads and writes at 0, 1, 2, 3 and 3 ms.
	require.NotEmpty(t, st.Timeline)
	assert.InDelta(t, 0.008, st.Timeline[1].StartS, 1e-12)
	assert.InDelta(t, 5/0.008, st.Timeline[0].IOPS, 1e-6)
}

// roundBurst rounds the mean and ratio to 12 digits.
func roundBurst(b Burst) Burst {
	r := func(v float64) float64 { return math.Round(v*1e12) / 1e12 }
	b.Mean, b.PeakToMean = r(b.Mean), r(b.PeakToMean)
	return b
}

// TestSampledReuse: a budget smaller than the footprint estimates the
// footprint with HyperLogLog and samples the curve.
func TestSampledReuse(t *testing.T) {
	st := collectSmall(t, Options{SampleBlocks: 3})
	assert.Equal(t, "hyperloglog", st.Footprint.Method)
	assert.InDelta(t, 6, st.Footprint.Blocks, 0) // linear counting is exact this small
	assert.Less(t, st.Reuse.SampleRate, 1.0)
	assert.Equal(t, "shards", st.Reuse.Curves[0].Method)
}

// TestHLLAccuracy: the estimate of a million distinct blocks is within
// three standard errors.
func TestHLLAccuracy(t *testing.T) {
	var h hll
	const n = 1_000_000
	for b := range int64(n) {
		h.add(b * 7919)
	}
	assert.InEpsilon(t, float64(n), h.estimate(), 3*HLLError)
}

// TestTextJSONAndFigure: the text names every figure, the JSON has the
// stable keys, and the page renders.
func TestTextJSONAndFigure(t *testing.T) {
	st := collectSmall(t, Options{})
	var text bytes.Buffer
	require.NoError(t, st.WriteText(&text))
	for _, want := range []string{"10 records", "2 devices", "1 records late, at most 8ms", "sequential: 37.5%",
		"burstiness over 1 s windows: peak 7 requests", "peak-to-mean 2.100", "footprint: 6 blocks", "miss ratio"} {
		assert.Contains(t, text.String(), want)
	}
	b, err := json.Marshal(st)
	require.NoError(t, err)
	for _, key := range []string{`"records":10`, `"late_records":1`, `"sequential":{"all":0.375`, `"burstiness":[`,
		`"footprint":{"blocks":6`, `"reuse":{`, `"timeline":[`, `"hot_spots":{`} {
		assert.Contains(t, string(b), key)
	}
	fig, err := st.Figure("small")
	require.NoError(t, err)
	assert.Len(t, fig.Panels, 5)
	for _, format := range []string{"svg", "png"} {
		var out bytes.Buffer
		require.NoError(t, fig.Render(&out, format), format)
		assert.Greater(t, out.Len(), 1000, format)
	}
}

// TestEmptyAndBadTraces: an empty trace has zero figures and no page;
// a malformed line stops Collect with its line number.
func TestEmptyAndBadTraces(t *testing.T) {
	st, err := Collect(func() (trace.Reader, error) { return trace.NewSliceReader(nil), nil }, Options{})
	require.NoError(t, err)
	assert.Zero(t, st.Records)
	_, err = st.Figure("empty")
	assert.Error(t, err)
	var text bytes.Buffer
	require.NoError(t, st.WriteText(&text))

	_, err = Collect(func() (trace.Reader, error) {
		return trace.NewCSVReader(strings.NewReader("time_ns,op,offset,length,device,fua,measured_ns\n0,read,x,4096,0,0,0\n"), "bad.csv"), nil
	}, Options{})
	assert.ErrorContains(t, err, "bad.csv:2")
	_, err = Collect(nil, Options{SampleBlocks: -1})
	assert.Error(t, err)
}

// TestLongQuietSpell: a gap of a billion windows costs nothing and
// keeps the counts.
func TestLongQuietSpell(t *testing.T) {
	recs := []trace.Record{{Time: 0, Op: sim.Read, Length: 512}, {Time: 1, Op: sim.Read, Length: 512},
		{Time: sim.Time(1e18), Op: sim.Read, Length: 512}}
	st, err := Collect(func() (trace.Reader, error) { return trace.NewSliceReader(recs), nil }, Options{})
	require.NoError(t, err)
	assert.EqualValues(t, 2, st.Burstiness[0].Peak)
	assert.LessOrEqual(t, len(st.Timeline), timelineBins)
}
