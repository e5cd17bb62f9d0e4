package benchmark_test

import (
	"fmt"

	"github.com/raidsim/raidsim/benchmark"
	"github.com/raidsim/raidsim/spec"
)

// An iozone-style run through seed 004's NAS: a 16 MiB file stays in
// the NAS's page cache, so every test runs at what the gigabit link and
// the NAS's CPU allow; a 1 GiB file with the page cache cut to 256 MiB
// is written back at the dirty limit and read from the platters, behind
// the same bound.
func ExampleIOzone() {
	z := benchmark.IOzone{
		Stack: spec.Stack{Drive: spec.Drive{Preset: "deskstar-7k160"},
			Host: spec.Host{Preset: "nas-1gb", PageCache: "256MiB"}},
		Seed:      1,
		FileSizes: []int64{16 << 20, 1 << 30}, RecordSizes: []int64{64 << 10},
		Offset: 1 << 30,
	}
	pts, err := z.Run()
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, p := range pts {
		fmt.Printf("%4d MiB:", p.FileSize>>20)
		for i, name := range benchmark.IOzoneTests {
			fmt.Printf(" %s %.0f MB/s (CPU %.0f%%)", name, p.MBPerS[i], p.CPUPct[i])
		}
		fmt.Println()
	}
	// Output:
	//   16 MiB: write 62 MB/s (CPU 38%) rewrite 62 MB/s (CPU 38%) read 62 MB/s (CPU 38%) reread 62 MB/s (CPU 38%)
	// 1024 MiB: write 62 MB/s (CPU 38%) rewrite 62 MB/s (CPU 38%) read 57 MB/s (CPU 36%) reread 59 MB/s (CPU 37%)
}
