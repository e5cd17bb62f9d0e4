package benchmark_test

import (
	"testing"

	"github.com/raidsim/raidsim/benchmark"
	"github.com/raidsim/raidsim/spec"
)

// TestIOzone: on a server with a 256 MiB page cache over one 7K160, a
// file under the dirty limit (51 MiB) is written, rewritten and read at
// memory speed, far above the drive; a file four times the page cache falls to the drive's rate for
// every test (writes throttled at the dirty limit, reads from the
// platters); records that do not divide the file are skipped.
func TestIOzone(t *testing.T) {
	z := benchmark.IOzone{
		Stack:     spec.Stack{Drive: spec.Drive{Preset: "deskstar-7k160"}, Host: spec.Host{Preset: "server", PageCache: "256MiB"}},
		Seed:      1,
		FileSizes: []int64{32 << 20, 1 << 30}, RecordSizes: []int64{64 << 10, 48 << 20},
		Offset: 1 << 30,
	}
	pts, err := z.Run()
	if err != nil {
		t.Fatal(err)
	}
	if len(pts) != 2 || pts[0].RecordSize != 64<<10 || pts[1].FileSize != 1<<30 {
		t.Fatalf("points %+v, want 64 KiB records of each file (48 MiB divides neither)", pts)
	}
	small, big := pts[0], pts[1]
	const drive = 75.8 // MB/s, the 7K160's outer-zone sustained rate
	for i, name := range benchmark.IOzoneTests {
		t.Logf("%-8s 32 MiB file %8.1f MB/s, 1 GiB file %6.1f MB/s (CPU %.2f%%)", name, small.MBPerS[i], big.MBPerS[i], big.CPUPct[i])
		if small.MBPerS[i] < 5*drive {
			t.Errorf("%s of a file in the page cache: %.1f MB/s, want memory speed", name, small.MBPerS[i])
		}
		if big.MBPerS[i] > 1.5*drive || big.MBPerS[i] < 0.3*drive {
			t.Errorf("%s of a file 4x the page cache: %.1f MB/s, want about the drive's %.1f", name, big.MBPerS[i], drive)
		}
	}
	z.FileSizes = []int64{-1}
	if _, err := z.Run(); err == nil {
		t.Error("a negative file size was accepted")
	}
}
