package main

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/raidsim/raidsim/sim"
	"github.com/raidsim/raidsim/trace"
)

// dir is where go generate writes the samples.
var dir = filepath.Join("..", "..", "testdata", "traces")

// TestSamplesUpToDate: the committed samples are what the generator
// writes (the gzip file compared uncompressed, as compress/flate's output
// may change between Go versions).
func TestSamplesUpToDate(t *testing.T) {
	for name, want := range Files() {
		got, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatalf("%v (run go generate ./internal/samplegen)", err)
		}
		if filepath.Ext(name) == ".gz" {
			got, want = gunzip(t, got), gunzip(t, want)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s differs from the generator's output: run go generate ./internal/samplegen", name)
		}
	}
}

func gunzip(t *testing.T, b []byte) []byte {
	t.Helper()
	r, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	out, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func readAll(t *testing.T, r trace.Reader) ([]trace.Record, error) {
	t.Helper()
	var recs []trace.Record
	for {
		rec, err := r.Next()
		if err == io.EOF {
			return recs, nil
		}
		if err != nil {
			return recs, err
		}
		recs = append(recs, rec)
	}
}

func open(t *testing.T, name string) trace.Reader {
	t.Helper()
	r, format, c, err := trace.Open(filepath.Join(dir, name), "auto")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	if format != trace.FormatMSR {
		t.Errorf("%s sniffed as %s, want msr", name, format)
	}
	return r
}

// TestSamplesRead: trace.Open reads both samples as MSR traces; the
// sorted one is in time order with response times, and the unsorted one
// needs a reorder window of more than 2 records, and 16 are enough to give
// back the sorted sample.
func TestSamplesRead(t *testing.T) {
	sorted, err := readAll(t, open(t, SortedName))
	if err != nil {
		t.Fatal(err)
	}
	if len(sorted) != Records {
		t.Fatalf("%d records, want %d", len(sorted), Records)
	}
	writes := 0
	for i, r := range sorted {
		if i > 0 && r.Time <= sorted[i-1].Time {
			t.Fatalf("record %d is not after record %d", i+1, i)
		}
		if r.Measured <= 0 || r.Device != 0 || r.Length <= 0 || r.Offset%512 != 0 {
			t.Fatalf("record %d: %+v", i+1, r)
		}
		if r.Op == sim.Write {
			writes++
		}
	}
	span := sorted[len(sorted)-1].Time - sorted[0].Time
	t.Logf("%d records, %d writes, %.1f s", len(sorted), writes, span.Seconds())

	unsorted, err := readAll(t, open(t, UnsortedName))
	if err != nil {
		t.Fatal(err)
	}
	backwards := 0
	for i := 1; i < len(unsorted); i++ {
		if unsorted[i].Time < unsorted[i-1].Time {
			backwards++
		}
	}
	if backwards < Records/10 {
		t.Errorf("only %d records go back in time", backwards)
	}

	r, err := trace.Reorder(open(t, UnsortedName), 16)
	if err != nil {
		t.Fatal(err)
	}
	reordered, err := readAll(t, r)
	if err != nil {
		t.Fatalf("reorder window 16: %v", err)
	}
	if len(reordered) != len(sorted) {
		t.Fatalf("%d records after reordering, want %d", len(reordered), len(sorted))
	}
	for i := range sorted {
		if reordered[i] != sorted[i] {
			t.Fatalf("record %d after reordering: %+v, want %+v", i+1, reordered[i], sorted[i])
		}
	}

	r, err = trace.Reorder(open(t, UnsortedName), 2)
	if err != nil {
		t.Fatal(err)
	}
	_, err = readAll(t, r)
	var pe *trace.ParseError
	if !errors.As(err, &pe) || pe.Line < 2 {
		t.Errorf("reorder window 2: %v, want a ParseError naming a line", err)
	}
}
