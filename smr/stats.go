package smr

import (
	"math/bits"
	"time"

	"github.com/raidsim/raidsim/drive"
	"github.com/raidsim/raidsim/sim"
)

// Stats are an SMR drive's counters since it was built, as the host and
// the translation layer see them (the platter's own counters are
// Drive.Platter().Stats()).
type Stats struct {
	// Reads, Writes, Trims and Flushes count host requests dispatched;
	// ReadBytes and WriteBytes their bytes.
	Reads, Writes, Trims, Flushes int64
	ReadBytes, WriteBytes         int64
	// CacheWrites and CacheWriteBytes count write pieces (a host write
	// cut at band boundaries) appended to the media cache.
	CacheWrites, CacheWriteBytes int64
	// DirectWrites and DirectWriteBytes count write pieces that went
	// straight to their band: whole bands, or appends at the band's
	// write pointer.
	DirectWrites, DirectWriteBytes int64
	// CacheReadPieces counts the media cache fragments host reads had to
	// fetch, one platter access each.
	CacheReadPieces int64
	// BandCleans counts bands cleaned (read, merged, rewritten), split
	// into IdleCleans (started by idleness) and ForegroundCleans
	// (started because a write found the cache full).
	BandCleans, IdleCleans, ForegroundCleans int64
	// CleanFragments counts the media cache fragments cleaning read.
	CleanFragments int64
	// CleanReadBytes and CleanWriteBytes count the platter bytes
	// cleaning read and rewrote; CachedBytesCleaned the cached bytes it
	// moved into their bands.
	CleanReadBytes, CleanWriteBytes, CachedBytesCleaned int64
	// CleanErrors counts cleanings a platter error cut short.
	CleanErrors int64
	// CleanTime is the time spent cleaning; StallTime the time a host
	// write waited at the head of the queue for cache space.
	CleanTime, StallTime time.Duration
	// TrimmedCacheBytes counts cached bytes trims unmapped.
	TrimmedCacheBytes int64
	// CacheUsedBytes is the media cache log's length now (entries not
	// yet passed by its tail, dead bytes between live ones included);
	// CachePeakBytes its most.
	CacheUsedBytes, CachePeakBytes int64
	// Extents is the number of extents the indirection map holds now;
	// ExtentsPeak its most.
	Extents, ExtentsPeak int
	// Elapsed is the virtual time since the drive was built.
	Elapsed time.Duration

	writeSizes SizeHistogram
}

// WriteSizes is the histogram of host write sizes.
func (s *Stats) WriteSizes() SizeHistogram { return s.writeSizes }

// Stats returns the drive's counters now.
func (d *Drive) Stats() Stats {
	s := d.st
	s.CacheUsedBytes = d.log.used
	s.Extents = d.log.extents()
	s.Elapsed = d.eng.Now().Sub(d.created)
	if d.stalled {
		s.StallTime += d.eng.Now().Sub(d.stallSince)
	}
	return s
}

// SizeHistogram counts requests by size in power-of-two buckets:
// Counts[i] holds sizes in (2^(i-1), 2^i] bytes, Counts[0] one byte.
type SizeHistogram struct {
	Counts [48]int64
}

// add counts one request of n bytes.
func (h *SizeHistogram) add(n int64) {
	i := 0
	if n > 1 {
		i = 64 - bits.LeadingZeros64(uint64(n-1))
	}
	h.Counts[min(i, len(h.Counts)-1)]++
}

// Add counts one request of n bytes.
func (h *SizeHistogram) Add(n int64) { h.add(n) }

// Bucket is one non-empty bucket of a SizeHistogram.
type Bucket struct {
	// UpToBytes is the bucket's upper bound; Count its requests.
	UpToBytes int64 `json:"up_to_bytes"`
	Count     int64 `json:"count"`
}

// Buckets returns the non-empty buckets, smallest first.
func (h SizeHistogram) Buckets() []Bucket {
	var out []Bucket
	for i, c := range h.Counts {
		if c > 0 {
			out = append(out, Bucket{UpToBytes: int64(1) << i, Count: c})
		}
	}
	return out
}

// Point is one sample of an SMR drive's state over time.
type Point struct {
	// T is the sample's virtual time in seconds from the start.
	T float64 `json:"t_s"`
	// CacheUsedBytes is the media cache log's length; Extents the map's
	// size.
	CacheUsedBytes int64 `json:"cache_used_bytes"`
	Extents        int   `json:"extents"`
	// BandCleans is the bands cleaned so far; CleanSeconds the time
	// spent cleaning so far.
	BandCleans   int64   `json:"band_cleans"`
	CleanSeconds float64 `json:"clean_s"`
	// WrittenBytes is the host bytes written so far.
	WrittenBytes int64 `json:"written_bytes"`
}

// series keeps at most max points: when full, it drops every other
// point and doubles the spacing, so a run of any length keeps an even
// picture in bounded memory.
type series struct {
	pts     []Point
	max     int
	spacing float64 // seconds between kept points
	last    float64
}

func (s *series) init(max int) { s.max, s.spacing, s.last = max, 0.001, -1 }

// sample records the drive's state when the last point is far enough
// behind.
func (d *Drive) sample() {
	t := sim.Time(d.eng.Now()).Sub(0).Seconds()
	s := &d.series
	if s.last >= 0 && t-s.last < s.spacing {
		return
	}
	s.last = t
	s.pts = append(s.pts, d.point(t))
	if len(s.pts) >= s.max {
		k := 0
		for i := 0; i < len(s.pts); i += 2 {
			s.pts[k] = s.pts[i]
			k++
		}
		s.pts = s.pts[:k]
		s.spacing *= 2
	}
}

func (d *Drive) point(t float64) Point {
	return Point{T: t, CacheUsedBytes: d.log.used, Extents: d.log.extents(), BandCleans: d.st.BandCleans,
		CleanSeconds: d.st.CleanTime.Seconds(), WrittenBytes: d.st.WriteBytes}
}

// Series returns the drive's samples so far, with one taken now, oldest
// first: the media cache's fill and the cleaning over time.
func (d *Drive) Series() []Point {
	out := append([]Point(nil), d.series.pts...)
	return append(out, d.point(d.eng.Now().Sub(0).Seconds()))
}

// Samples returns Series as a drive.Sampler: the media cache's bytes,
// the map's extents, the bands cleaned, the seconds spent cleaning and
// the host bytes written so far.
func (d *Drive) Samples() (names []string, t []float64, values [][]float64) {
	names = []string{"cache_used_bytes", "extents", "band_cleans", "clean_s", "written_bytes"}
	for _, p := range d.Series() {
		t = append(t, p.T)
		values = append(values, []float64{float64(p.CacheUsedBytes), float64(p.Extents), float64(p.BandCleans), p.CleanSeconds, float64(p.WrittenBytes)})
	}
	return names, t, values
}

var _ drive.Sampler = (*Drive)(nil)
