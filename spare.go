package raidsim

import (
	"fmt"
	"math/bits"
	"strings"

	"github.com/raidsim/raidsim/drive"
	"github.com/raidsim/raidsim/sim"
	"github.com/raidsim/raidsim/trace"
)

// SpareMeter passes a rebuild's replacement drive its requests and
// counts what it is sent: the sizes of its writes (the write pattern a
// rebuild gives it) and the bytes written over time.
type SpareMeter struct {
	eng   *sim.Engine
	dev   sim.Device
	drive drive.Device
	sizes [48]int64
	bytes int64
	// progress keeps at most maxSpareSamples (t, bytes) points, halving
	// its resolution when full.
	t       []float64
	written []int64
	spacing float64
}

const maxSpareSamples = 512

func newSpareMeter(eng *sim.Engine, dev sim.Device, d drive.Device) *SpareMeter {
	m := &SpareMeter{eng: eng, dev: dev, drive: d, spacing: 0.001}
	return m
}

// Submit counts r and passes it on.
func (m *SpareMeter) Submit(r *sim.Request) error {
	if err := m.dev.Submit(r); err != nil {
		return err
	}
	if r.Op == sim.Write {
		i := 0
		if r.Length > 1 {
			i = 64 - bits.LeadingZeros64(uint64(r.Length-1))
		}
		m.sizes[min(i, len(m.sizes)-1)]++
		m.bytes += r.Length
		m.sample()
	}
	return nil
}

// sample records the bytes written so far when the last point is far
// enough behind.
func (m *SpareMeter) sample() {
	t := m.eng.Now().Sub(0).Seconds()
	if n := len(m.t); n > 0 && t-m.t[n-1] < m.spacing {
		return
	}
	m.t = append(m.t, t)
	m.written = append(m.written, m.bytes)
	if len(m.t) >= maxSpareSamples {
		k := 0
		for i := 0; i < len(m.t); i += 2 {
			m.t[k], m.written[k] = m.t[i], m.written[i]
			k++
		}
		m.t, m.written = m.t[:k], m.written[:k]
		m.spacing *= 2
	}
}

// Capacity is the drive's.
func (m *SpareMeter) Capacity() int64 { return m.dev.Capacity() }

// SectorSize is the drive's.
func (m *SpareMeter) SectorSize() int { return m.dev.SectorSize() }

// Drive is the replacement drive itself.
func (m *SpareMeter) Drive() drive.Device { return m.drive }

// SizeBucket is one bucket of a request-size histogram: Count writes of
// more than half UpToBytes and at most UpToBytes.
type SizeBucket struct {
	UpToBytes int64 `json:"up_to_bytes"`
	Count     int64 `json:"count"`
}

// SpareReport is what a rebuild did to its replacement drive.
type SpareReport struct {
	// Model is the replacement's model; WrittenBytes what the rebuild
	// (and the foreground) wrote to it.
	Model        string `json:"model"`
	WrittenBytes int64  `json:"written_bytes"`
	// WriteSizes is the histogram of its write sizes.
	WriteSizes []SizeBucket `json:"write_sizes"`
	// ProgressT and ProgressBytes sample the bytes written to it over
	// time (seconds from the start).
	ProgressT     []float64 `json:"progress_t_s"`
	ProgressBytes []int64   `json:"progress_bytes"`
	// Series, for a drive that samples itself (an SMR drive's media
	// cache and cleaning), names its values and gives them over time.
	Series *SeriesReport `json:"series,omitempty"`
}

// SeriesReport is a drive's samples over time (drive.Sampler).
type SeriesReport struct {
	Names  []string    `json:"names"`
	T      []float64   `json:"t_s"`
	Values [][]float64 `json:"values"`
}

// Report says what the rebuild wrote to the replacement.
func (m *SpareMeter) Report() *SpareReport {
	r := &SpareReport{Model: m.drive.Report().Common().Model, WrittenBytes: m.bytes,
		ProgressT: append([]float64{}, m.t...), ProgressBytes: append([]int64{}, m.written...), WriteSizes: []SizeBucket{}}
	r.ProgressT = append(r.ProgressT, m.eng.Now().Sub(0).Seconds())
	r.ProgressBytes = append(r.ProgressBytes, m.bytes)
	for i, c := range m.sizes {
		if c > 0 {
			r.WriteSizes = append(r.WriteSizes, SizeBucket{UpToBytes: int64(1) << i, Count: c})
		}
	}
	if s, ok := m.drive.(drive.Sampler); ok {
		names, t, v := s.Samples()
		r.Series = &SeriesReport{Names: names, T: t, Values: v}
	}
	return r
}

// text is the replacement's line of the text report: its model, what
// it was sent and its write sizes.
func (r *SpareReport) text() string {
	var b strings.Builder
	var n int64
	for _, w := range r.WriteSizes {
		n += w.Count
	}
	fmt.Fprintf(&b, "replacement %s: %d writes, %s; write sizes up to:", r.Model, n, trace.FormatSize(r.WrittenBytes))
	for _, w := range r.WriteSizes {
		fmt.Fprintf(&b, " %s %d,", trace.FormatSize(w.UpToBytes), w.Count)
	}
	out := strings.TrimSuffix(b.String(), ",")
	if r.Series != nil {
		out += fmt.Sprintf(" (its %s sampled %d times over the run: JSON report, rebuild.spare.series)", strings.Join(r.Series.Names, ", "), len(r.Series.T))
	}
	return out
}
