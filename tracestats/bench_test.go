package tracestats

import (
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"

	"github.com/raidsim/raidsim/internal/bigtrace"
	"github.com/raidsim/raidsim/trace"
)

// bigMSR writes a gzipped MSR trace of n random requests over 1 TB
// (footprint about n blocks) in dir.
func bigMSR(tb testing.TB, dir string, n int64) string {
	tb.Helper()
	path := filepath.Join(dir, "big-"+strconv.FormatInt(n, 10)+".csv.gz")
	if err := bigtrace.WriteMSRFile(path, bigtrace.MSR{Records: n, Rate: 200, ReadFraction: 0.6, Span: 1 << 40, Seed: 7}); err != nil {
		tb.Fatal(err)
	}
	return path
}

// collectFile runs Collect on a trace file and returns the stats and
// the heap the process had reserved afterwards (runtime.MemStats
// HeapSys, which never shrinks: an upper bound on the peak heap of the
// whole process so far).
func collectFile(tb testing.TB, path string) (*Stats, uint64) {
	tb.Helper()
	var files []io.Closer
	st, err := Collect(func() (trace.Reader, error) {
		r, _, c, err := trace.Open(path, "msr")
		if err == nil {
			files = append(files, c)
		}
		return r, err
	}, Options{})
	for _, f := range files {
		f.Close()
	}
	if err != nil {
		tb.Fatal(err)
	}
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return st, m.HeapSys
}

// BenchmarkCollect10M describes a generated 10-million-record MSR trace
// (gzip) and reports records/s (both passes) and the peak heap in use:
//
//	go test -run '^$' -bench Collect10M -benchtime 1x ./tracestats
//
// RAIDSIM_SCALE sets another record count.
func BenchmarkCollect10M(b *testing.B) {
	n := int64(10_000_000)
	if s := os.Getenv("RAIDSIM_SCALE"); s != "" {
		v, err := strconv.ParseInt(s, 10, 64)
		if err != nil || v <= 0 {
			b.Fatalf("RAIDSIM_SCALE=%q: want a positive record count", s)
		}
		n = v
	}
	path := bigMSR(b, b.TempDir(), n)
	b.ResetTimer()
	var peak uint64
	for b.Loop() {
		st, p := collectFile(b, path)
		if st.Records != n {
			b.Fatalf("%d records, want %d", st.Records, n)
		}
		peak = max(peak, p)
	}
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "records/s")
	b.ReportMetric(float64(peak)/(1<<20), "MiB-heap-sys")
}
