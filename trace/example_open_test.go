package trace_test

import (
	"fmt"
	"github.com/raidsim/raidsim/trace"
	"os"
	"strings"
)

// A trace in one format, sniffed, shaped by the replay options (disk 0
// only, offsets wrapped onto a 1 GiB device with 4 KiB sectors) and
// written as a fio iolog for replay on real hardware.
func ExampleNewReader() {
	msr := `128166372003061629,hm,0,Write,3154152960,4096,1802
128166372003561629,hm,1,Read,0,512,25000
128166372013061629,hm,0,Read,8192,65536,0
`
	r, format, err := trace.NewReader(strings.NewReader(msr), "hm_0.csv", "auto")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("format:", format)
	disk0 := trace.FilterDevice(r, 0)
	fitted, err := trace.MapOffsets(disk0, trace.OffsetMap{Mode: trace.MapWrap, Capacity: 1 << 30, SectorSize: 4096})
	if err != nil {
		fmt.Println(err)
		return
	}
	w, _ := trace.NewWriter(os.Stdout, "fio")
	n, err := trace.Copy(w, fitted)
	w.Close()
	fmt.Println(n, "records,", trace.Skipped(fitted), "skipped,", err)
	// Output:
	// format: msr
	// fio version 3 iolog
	// 0 raidsim-dev0 add
	// 0 raidsim-dev0 open
	// 0 raidsim-dev0 write 1006665728 8192
	// 1000000 raidsim-dev0 read 8192 65536
	// 1000000 raidsim-dev0 close
	// 2 records, 1 skipped, <nil>
}

// Errors name the file, the line and the field.
func ExampleParseError() {
	r := trace.NewMSRReader(strings.NewReader("128166372003061629,hm,0,Write,x,4096,1802\n"), "/traces/hm_0.csv")
	_, err := r.Next()
	fmt.Println(err)
	// Output:
	// trace: hm_0.csv:1: offset: "x" is not a number
}
