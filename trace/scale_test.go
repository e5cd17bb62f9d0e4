package trace

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"
	"time"

	"github.com/raidsim/raidsim/sim"
)

// BenchmarkStream10M writes a 10-million-record raidsim CSV trace (about
// 400 MB) to a temporary directory, then streams it back through a
// reader, Reorder and MapOffsets into a consumer that only sums lengths,
// sampling the heap as it goes. It fails if peak memory reaches 100 MB
// and reports records/s, the peaks and allocations per record. It takes
// about 5 s on two cores and 400 MB of temporary disk; run it with
//
//	go test -run '^$' -bench Stream10M -benchtime 1x ./trace/
//
// RAIDSIM_SCALE=N sets the number of records instead of 10 million.
func BenchmarkStream10M(b *testing.B) {
	n := int64(10_000_000)
	if v, err := strconv.ParseInt(os.Getenv("RAIDSIM_SCALE"), 10, 64); err == nil && v > 1 {
		n = v
	}
	path := filepath.Join(b.TempDir(), "big.csv")
	want := writeBigCSV(b, path, n)
	fi, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(fi.Size())

	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	base := ms
	peakHeap, peakSys := ms.HeapInuse, ms.Sys
	var total int64
	for b.Loop() {
		src, format, closer, err := Open(path, "auto")
		if err != nil {
			b.Fatal(err)
		}
		if format != FormatCSV {
			b.Fatalf("sniffed %q", format)
		}
		ro, err := Reorder(src, 4096)
		if err != nil {
			b.Fatal(err)
		}
		r, err := MapOffsets(ro, OffsetMap{Mode: MapWrap, Capacity: 1 << 40, SectorSize: 512})
		if err != nil {
			b.Fatal(err)
		}
		var count, bytes int64
		for {
			rec, err := r.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
			count++
			bytes += rec.Length
			if count%(1<<20) == 0 {
				runtime.ReadMemStats(&ms)
				peakHeap, peakSys = max(peakHeap, ms.HeapInuse), max(peakSys, ms.Sys)
			}
		}
		closer.Close()
		if count != n || bytes != want {
			b.Fatalf("read %d records, %d bytes; wrote %d, %d", count, bytes, n, want)
		}
		total += count
	}
	runtime.ReadMemStats(&ms)
	peakHeap, peakSys = max(peakHeap, ms.HeapInuse), max(peakSys, ms.Sys)
	b.ReportMetric(float64(total)/b.Elapsed().Seconds(), "records/s")
	b.ReportMetric(float64(peakHeap)/1e6, "peak-heap-MB")
	b.ReportMetric(float64(peakSys)/1e6, "peak-sys-MB")
	b.ReportMetric(float64(ms.Mallocs-base.Mallocs)/float64(total), "allocs/record")
	if peakSys >= 100<<20 || peakHeap >= 100<<20 {
		b.Errorf("peak memory %d bytes (heap in use %d) is over 100 MB", peakSys, peakHeap)
	}
}

// writeBigCSV writes n random 4-64 KiB requests one microsecond apart
// and returns their total length.
func writeBigCSV(t testing.TB, path string, n int64) int64 {
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := NewCSVWriter(f)
	rng := rand.New(rand.NewPCG(6, 6))
	var total int64
	for i := range n {
		rec := Record{Time: sim.Time(i * 1000), Op: sim.Op(rng.IntN(2)), Offset: rng.Int64N(1<<40) &^ 4095, Length: 4096 << rng.IntN(5)}
		total += rec.Length
		if err := w.Write(rec); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return total
}

// benchLines makes n lines of format from a line template whose %d are
// filled with varying numbers.
func benchInput(format Format, n int) []byte {
	var b bytes.Buffer
	w := bufio.NewWriter(&b)
	switch format {
	case FormatCSV:
		fmt.Fprintln(w, CSVHeader)
	case FormatFio:
		fmt.Fprintln(w, "fio version 3 iolog\n0 /dev/sdb add\n0 /dev/sdb open")
	case FormatSystor17:
		fmt.Fprintln(w, systor17Header)
	}
	for i := range n {
		off := int64(i) * 7919 % (1 << 30)
		switch format {
		case FormatMSR:
			fmt.Fprintf(w, "%d,hm,0,Write,%d,4096,%d\n", 128166385295514663+int64(i)*1000, off*512, 2000+i%977)
		case FormatSPC:
			fmt.Fprintf(w, "%d,%d,4096,r,%d.%06d\n", i%3, off, i/1000, i%1000*1000)
		case FormatBlkparse:
			fmt.Fprintf(w, "  8,0    3 %8d %5d.%09d   697  Q   W %d + 8 [kjournald]\n", i, i/1000, i%1000*1000000, off)
		case FormatFio:
			fmt.Fprintf(w, "%d /dev/sdb read %d 4096\n", i*10, off*512)
		case FormatAlibaba:
			fmt.Fprintf(w, "%d,R,%d,4096,%d\n", i%5, off*512, 1577808000000000+int64(i))
		case FormatTencent:
			fmt.Fprintf(w, "%d,%d,8,%d,%d\n", 1538323200+i/1000, off, i%2, i%100)
		case FormatSystor17:
			fmt.Fprintf(w, "%d.%09d,0.000806000,R,0,%d,4096\n", 1456095145+i/1000, i%1000*1000000, off*512)
		case FormatCSV:
			fmt.Fprintf(w, "%d,read,%d,4096,0,0,%d\n", int64(i)*1000, off*512, 100000+i)
		}
	}
	w.Flush()
	return b.Bytes()
}

// BenchmarkReaders measures each reader's records/s and allocations per
// record on 100,000 generated records held in memory:
//
//	go test -run '^$' -bench Readers -benchmem ./trace/
func BenchmarkReaders(b *testing.B) {
	const n = 100_000
	for _, f := range []Format{FormatMSR, FormatSPC, FormatBlkparse, FormatFio, FormatAlibaba, FormatTencent, FormatSystor17, FormatCSV} {
		data := benchInput(f, n)
		b.Run("format="+string(f), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				r, _, err := NewReader(bytes.NewReader(data), "bench", string(f))
				if err != nil {
					b.Fatal(err)
				}
				got := 0
				for {
					_, err := r.Next()
					if err == io.EOF {
						break
					}
					if err != nil {
						b.Fatal(err)
					}
					got++
				}
				if got != n {
					b.Fatalf("%d records, want %d", got, n)
				}
			}
			b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "records/s")
		})
	}
}

// BenchmarkWriters measures the CSV and fio writers.
func BenchmarkWriters(b *testing.B) {
	for _, f := range WriteFormats {
		b.Run("format="+f, func(b *testing.B) {
			w, _ := NewWriter(io.Discard, f)
			rec := Record{Op: sim.Write, Offset: 1 << 30, Length: 65536, Measured: time.Millisecond}
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				rec.Time = sim.Time(i) * 1000
				if err := w.Write(rec); err != nil {
					b.Fatal(err)
				}
			}
			w.Close()
		})
	}
}
