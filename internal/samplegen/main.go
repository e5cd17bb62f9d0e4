// Command samplegen writes the synthetic block traces in testdata/traces
// at the repository root: small samples the project makes itself, so that
// the README's trace commands work on a fresh clone, without the published
// traces kept beside the repository in ../shared.
//
//	go generate ./internal/samplegen   # or: go run ./internal/samplegen -out testdata/traces
//
// It writes, deterministically (a fixed seed; no clock):
//
//   - sample-msr.csv: 3,000 requests in the SNIA MSR Cambridge CSV format
//     (Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime), with
//     response times, so a replay shows simulated against recorded
//     latency;
//   - sample-msr-unsorted.csv.gz: the same requests, gzip-compressed, with
//     each record moved by fewer than 12 places, as when per-queue logs
//     are merged, so a replay needs --reorder (16 records is enough).
//
// The workload is made up: bursts of requests to one volume, mostly small
// writes to a hot region and appends to a log, random reads over 40 GiB
// and sequential read streams; the recorded response times are drawn to
// look like a drive with a write cache.
//
//go:generate go run . -out ../../testdata/traces
package main

import (
	"bytes"
	"compress/gzip"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
)

// Names of the files written.
const (
	SortedName   = "sample-msr.csv"
	UnsortedName = "sample-msr-unsorted.csv.gz"
)

// Records is the number of requests in each sample; MaxShift bounds how
// far the unsorted sample moves a record from its place in time order.
const (
	Records  = 3000
	MaxShift = 12
)

const (
	// start is 2024-01-01T00:00:00Z as a Windows FILETIME (100 ns ticks
	// since 1601-01-01).
	start = 133485408000000000
	tick  = 100 // ns
	ms    = 1_000_000 / tick
	kib   = 1024
	gib   = 1 << 30
)

// Rec is one request of a sample, in the MSR trace's units.
type Rec struct {
	Time     int64 // FILETIME ticks
	Write    bool
	Offset   int64 // bytes
	Size     int64 // bytes
	Response int64 // ticks
}

// Generate returns the sample's requests in time order (times strictly
// increasing).
func Generate() []Rec {
	rng := rand.New(rand.NewPCG(2024, 11))
	exp := func(mean float64) int64 { return max(1, int64(rng.ExpFloat64()*mean)) }
	between := func(lo, hi int64) int64 { return lo + rng.Int64N(hi-lo+1) }
	align := func(off, size int64) int64 {
		a := int64(4 * kib)
		if size%a != 0 {
			a = 512
		}
		return off / a * a
	}
	pick := func(sizes []int64, weights []int) int64 {
		n := rng.IntN(100)
		for i, w := range weights {
			if n < w {
				return sizes[i]
			}
			n -= w
		}
		return sizes[len(sizes)-1]
	}

	var (
		recs    = make([]Rec, 0, Records)
		t       = int64(start)
		left    = 0               // requests left in the current burst
		logHead = int64(20 * gib) // next append to the log
		seqHead = int64(40 * gib) // next read of the sequential stream
		seqLeft = 0               // reads left in the stream
	)
	for len(recs) < Records {
		if left == 0 {
			t += exp(120 * ms) // idle between bursts
			left = 1 + int(exp(8))
		} else {
			t += exp(6 * ms)
		}
		left--
		r := Rec{Time: t}
		switch n := rng.IntN(100); {
		case n < 45: // small writes to a hot 8 GiB region
			r.Write = true
			r.Size = pick([]int64{4 * kib, 8 * kib, 512, 16 * kib}, []int{70, 20, 5, 5})
			r.Offset = align(rng.Int64N(8*gib), r.Size)
			r.Response = between(ms/10, 8*ms/10)
			if rng.IntN(20) == 0 { // the write cache was full
				r.Response = between(5*ms, 20*ms)
			}
		case n < 65: // appends to a 256 MiB log
			r.Write = true
			r.Size = pick([]int64{4 * kib, 16 * kib, 64 * kib}, []int{50, 30, 20})
			if logHead+r.Size > 20*gib+256<<20 {
				logHead = 20 * gib
			}
			r.Offset = logHead
			logHead += r.Size
			r.Response = between(ms/10, 6*ms/10)
		case n < 85: // random reads over 40 GiB
			r.Size = pick([]int64{4 * kib, 8 * kib, 64 * kib}, []int{60, 25, 15})
			r.Offset = align(rng.Int64N(40*gib), r.Size)
			r.Response = between(3*ms, 15*ms)
		default: // a sequential read stream, 64 KiB at a time
			r.Size = 64 * kib
			first := seqLeft == 0
			if first {
				seqHead = align(40*gib+rng.Int64N(20*gib), r.Size)
				seqLeft = 4 + rng.IntN(24)
			}
			seqLeft--
			r.Offset = seqHead
			seqHead += r.Size
			r.Response = between(2*ms/10, 6*ms/10)
			if first {
				r.Response = between(4*ms, 12*ms)
			}
		}
		recs = append(recs, r)
	}
	return recs
}

// Shuffle returns recs with each record moved by fewer than MaxShift
// places: record i is placed by i plus a random fraction of MaxShift.
func Shuffle(recs []Rec) []Rec {
	rng := rand.New(rand.NewPCG(2024, 12))
	type keyed struct {
		key float64
		r   Rec
	}
	ks := make([]keyed, len(recs))
	for i, r := range recs {
		ks[i] = keyed{float64(i) + rng.Float64()*(MaxShift-1), r}
	}
	slices.SortStableFunc(ks, func(a, b keyed) int {
		switch {
		case a.key < b.key:
			return -1
		case a.key > b.key:
			return 1
		}
		return 0
	})
	out := make([]Rec, len(ks))
	for i, k := range ks {
		out[i] = k.r
	}
	return out
}

// MSR formats recs as an MSR Cambridge trace of host "sample", disk 0.
func MSR(recs []Rec) []byte {
	var b []byte
	for _, r := range recs {
		op := "Read"
		if r.Write {
			op = "Write"
		}
		b = strconv.AppendInt(b, r.Time, 10)
		b = append(b, ",sample,0,"...)
		b = append(b, op...)
		b = append(b, ',')
		b = strconv.AppendInt(b, r.Offset, 10)
		b = append(b, ',')
		b = strconv.AppendInt(b, r.Size, 10)
		b = append(b, ',')
		b = strconv.AppendInt(b, r.Response, 10)
		b = append(b, '\n')
	}
	return b
}

// Gzip compresses b with no name or time in the header, so the output
// depends on the input only (and on compress/flate's version).
func Gzip(b []byte) []byte {
	var buf bytes.Buffer
	w, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	w.Write(b)
	w.Close()
	return buf.Bytes()
}

// Files returns the samples by file name.
func Files() map[string][]byte {
	recs := Generate()
	return map[string][]byte{
		SortedName:   MSR(recs),
		UnsortedName: Gzip(MSR(Shuffle(recs))),
	}
}

func main() {
	out := flag.String("out", filepath.Join("testdata", "traces"), "folder to write the samples to")
	flag.Parse()
	if err := os.MkdirAll(*out, 0o755); err != nil {
		fmt.Fprintln(os.Stderr, "samplegen:", err)
		os.Exit(1)
	}
	files := Files()
	for _, name := range []string{SortedName, UnsortedName} {
		p := filepath.Join(*out, name)
		if err := os.WriteFile(p, files[name], 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "samplegen:", err)
			os.Exit(1)
		}
		fmt.Printf("wrote %s (%d bytes)\n", p, len(files[name]))
	}
}
