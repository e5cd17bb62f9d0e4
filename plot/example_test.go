package plot_test

import (
	"bytes"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"time"

	"github.com/raidsim/raidsim/metrics"
	"github.com/raidsim/raidsim/plot"
)

// A heat map of IOPS over stripe unit and cache size, saved as SVG.
func ExampleHeatMap() {
	dir, err := os.MkdirTemp("", "plot")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "sweep.svg")
	err = plot.HeatMap(path, "RAID 5 x4: IOPS", "stripe unit", "volume cache",
		[]string{"16KiB", "64KiB", "256KiB"}, // columns, left to right
		[]string{"none", "64MiB"},            // rows, bottom to top
		[][]float64{
			{466, 535, 568}, // none
			{685, 793, 707}, // 64MiB
		}, "IOPS")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("saved", filepath.Base(path))

	// Anything else than .svg or .png is refused.
	err = plot.HeatMap(filepath.Join(dir, "sweep.pdf"), "", "", "", []string{"a"}, []string{"b"}, [][]float64{{1}}, "")
	fmt.Println(err != nil)
	// Output:
	// saved sweep.svg
	// true
}

// Latency CDFs of two configurations, rendered to a writer as PNG.
func ExampleCDFFigure_Render() {
	disk, cached := metrics.NewHistogram(), metrics.NewHistogram()
	for i := range 1000 {
		ms := time.Duration(4+i%12) * time.Millisecond // seeks and rotations
		disk.Record(ms)
		if i%3 == 0 {
			cached.Record(20 * time.Microsecond) // a hit in memory
		} else {
			cached.Record(ms)
		}
	}
	fig := plot.CDFFigure{
		Title: "random reads",
		Series: []plot.CDFSeries{
			{Name: "no cache", Hist: disk},
			{Name: "64 MiB cache", Hist: cached},
		},
		// XScale is ScaleAuto: these latencies span three decades, so
		// the axis is logarithmic.
	}
	var buf bytes.Buffer
	if err := fig.Render(&buf, plot.PNG); err != nil {
		log.Fatal(err)
	}
	fmt.Println(bytes.HasPrefix(buf.Bytes(), []byte("\x89PNG")))
	// Output: true
}

// A metric against a categorical parameter: one labelled tick per stripe
// unit.
func ExampleLines() {
	units := []string{"16KiB", "64KiB", "128KiB", "256KiB"}
	path := filepath.Join(os.TempDir(), "raidsim-plot-example.png")
	defer os.Remove(path)
	err := plot.Lines(path, "RAID 5 x4", "stripe unit", "IOPS", []plot.LineSeries{
		{Name: "no cache", Labels: units, Y: []float64{466, 535, 556, 568}},
		{Name: "256 MiB cache", Labels: units, Y: []float64{814, 906, 947, 791}},
	})
	fmt.Println(err)
	// Output: <nil>
}
