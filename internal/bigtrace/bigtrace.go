// Package bigtrace writes large synthetic traces in SNIA MSR Cambridge's
// CSV format, for the benchmarks and long tests that show raidsim
// streams traces of millions of records in constant memory. The traces
// are made at test time, never committed.
package bigtrace

import (
	"bufio"
	"compress/gzip"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"strconv"
)

// MSR describes the trace WriteMSR makes: Records requests arriving as
// a Poisson process of Rate per second, reads with probability
// ReadFraction, 4 KiB to 64 KiB (powers of two, smaller ones likelier),
// at 4 KiB-aligned offsets drawn uniformly over Span bytes, with
// response times recorded as 0.1 to 20 ms.
type MSR struct {
	Records      int64
	Rate         float64 // requests per second
	ReadFraction float64
	Span         int64 // bytes
	Seed         uint64
}

// epoch is 2007-02-22 00:00 UTC in Windows FILETIME (100 ns ticks since
// 1601), when the MSR Cambridge traces were taken.
const epoch = 128166336000000000

// WriteMSR writes the trace to w, one line per request:
// Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime.
func WriteMSR(w io.Writer, m MSR) error {
	bw := bufio.NewWriterSize(w, 1<<16)
	rng := rand.New(rand.NewPCG(m.Seed, 0x6d7372))
	blocks := max(m.Span/4096-16, 1)
	ticks := float64(epoch)
	mean := 1e7 / m.Rate // 100 ns ticks between arrivals
	line := make([]byte, 0, 96)
	for range m.Records {
		ticks += rng.ExpFloat64() * mean
		kind := "Write"
		if rng.Float64() < m.ReadFraction {
			kind = "Read"
		}
		size := int64(4096) << min(int(-math.Log2(1-rng.Float64())), 4)
		off := rng.Int64N(blocks) * 4096
		line = strconv.AppendInt(line[:0], int64(ticks), 10)
		line = append(line, ",hm,0,"...)
		line = append(line, kind...)
		line = append(line, ',')
		line = strconv.AppendInt(line, off, 10)
		line = append(line, ',')
		line = strconv.AppendInt(line, size, 10)
		line = append(line, ',')
		line = strconv.AppendInt(line, 1000+rng.Int64N(199000), 10)
		line = append(line, '\n')
		if _, err := bw.Write(line); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// WriteMSRFile writes the trace to path, gzip-compressed at the fastest
// level.
func WriteMSRFile(path string, m MSR) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	z, err := gzip.NewWriterLevel(f, gzip.BestSpeed)
	if err != nil {
		f.Close()
		return err
	}
	if err := WriteMSR(z, m); err != nil {
		f.Close()
		return err
	}
	if err := z.Close(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
