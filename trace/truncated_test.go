package trace

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// msrLines returns n MSR records.
func msrLines(n int) []byte {
	var b bytes.Buffer
	for i := range n {
		fmt.Fprintf(&b, "%d,hm,0,Read,%d,4096,1802\n", 128166372003061629+int64(i)*10000, int64(i)*8192)
	}
	return b.Bytes()
}

// readToEnd reads every record and returns the first error other than EOF.
func readToEnd(r Reader) error {
	for {
		if _, err := r.Next(); err != nil {
			if err == io.EOF {
				return nil
			}
			return err
		}
	}
}

// TestTruncatedCompressedTraces: a gzip or bzip2 trace cut short says
// so, naming the file and compression, instead of a parse error about
// the half line it ends on or an unknown format.
func TestTruncatedCompressedTraces(t *testing.T) {
	var z bytes.Buffer
	w := gzip.NewWriter(&z)
	w.Write(msrLines(5000))
	w.Close()
	bz, err := os.ReadFile(filepath.Join("testdata", "msr200.csv.bz2"))
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		data []byte
		want string
	}{
		{"cut.csv.gz", z.Bytes()[:z.Len()*6/10], "gzip: compressed stream is truncated"},
		{"header.csv.gz", z.Bytes()[:5], "trace: header.csv.gz: gzip: compressed stream is truncated"},
		{"cut.csv.bz2", bz[:len(bz)/2], "trace: cut.csv.bz2: bzip2: compressed stream is truncated"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, _, err := NewReader(bytes.NewReader(c.data), c.name, "auto")
			if err == nil {
				err = readToEnd(r)
			}
			if err == nil || !errors.Is(err, ErrTruncated) {
				t.Fatalf("got %v, want an error wrapping ErrTruncated", err)
			}
			if !bytes.Contains([]byte(err.Error()), []byte(c.want)) {
				t.Fatalf("got %q, want it to contain %q", err, c.want)
			}
		})
	}
	t.Run("whole streams read to the end", func(t *testing.T) {
		for name, data := range map[string][]byte{"ok.csv.gz": z.Bytes(), "ok.csv.bz2": bz} {
			r, _, err := NewReader(bytes.NewReader(data), name, "auto")
			if err != nil {
				t.Fatal(err)
			}
			if err := readToEnd(r); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
		}
	})
}

// TestOpenDirectory: a directory given as a trace is named as one.
func TestOpenDirectory(t *testing.T) {
	dir := t.TempDir()
	_, _, _, err := Open(dir, "auto")
	want := "trace: " + dir + " is a directory, not a trace file"
	if err == nil || err.Error() != want {
		t.Fatalf("got %v, want %q", err, want)
	}
}
