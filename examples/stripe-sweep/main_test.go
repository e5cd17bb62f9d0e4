package main

import (
	"bytes"
	"encoding/xml"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/raidsim/raidsim"
)

// reduced is the default grid scaled down four times: a 512 MiB region,
// caches of 4, 16 and 64 MiB, 50,000 requests per cell. The ratios that
// drive the effects (cache to region, data written to cache) stay those
// of the full sweep.
func reduced() grid {
	g := defaultGrid()
	g.Workload.Size = 512 << 20
	g.Workload.IOs = 50000
	g.CacheSizes = []int64{0, 4 << 20, 16 << 20, 64 << 20}
	return g
}

// TestEffects checks the direction of every effect the notes explain.
func TestEffects(t *testing.T) {
	g := reduced()
	res, err := g.run()
	if err != nil {
		t.Fatal(err)
	}
	var text bytes.Buffer
	tab := res.table()
	if err := tab.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	t.Log("\n" + text.String())
	last := len(g.StripeUnits) - 1

	// Without a cache, a larger stripe unit keeps 64 KiB requests on
	// fewer drives: IOPS never falls as the unit grows.
	for j := 1; j <= last; j++ {
		if res.iops(0, j) < res.iops(0, j-1) {
			t.Errorf("no cache: %d KiB stripe gives %.0f IOPS, below %.0f at %d KiB",
				g.StripeUnits[j]>>10, res.iops(0, j), res.iops(0, j-1), g.StripeUnits[j-1]>>10)
		}
	}
	for i := 1; i < len(g.CacheSizes); i++ {
		for j := range g.StripeUnits {
			cached, none := res.cells[i][j].Report, res.cells[0][j].Report
			// A write-back cache answers writes from memory and
			// destages them in LBA order: more IOPS, faster writes.
			if cached.Total.All.IOPS <= none.Total.All.IOPS {
				t.Errorf("%d MiB cache, %d KiB stripe: %.0f IOPS, not above %.0f without a cache",
					g.CacheSizes[i]>>20, g.StripeUnits[j]>>10, cached.Total.All.IOPS, none.Total.All.IOPS)
			}
			if cached.Total.Write.LatencyMS.Mean >= none.Total.Write.LatencyMS.Mean {
				t.Errorf("%d MiB cache, %d KiB stripe: mean write %.1f ms, not below %.1f ms without a cache",
					g.CacheSizes[i]>>20, g.StripeUnits[j]>>10, cached.Total.Write.LatencyMS.Mean, none.Total.Write.LatencyMS.Mean)
			}
			// A bigger cache holds more of the region: read hits
			// never fall as it grows.
			if i > 1 && cached.Cache.ReadHitRatio < res.cells[i-1][j].Report.Cache.ReadHitRatio {
				t.Errorf("%d MiB cache, %d KiB stripe: read hit ratio %.3f below the smaller cache's %.3f",
					g.CacheSizes[i]>>20, g.StripeUnits[j]>>10, cached.Cache.ReadHitRatio, res.cells[i-1][j].Report.Cache.ReadHitRatio)
			}
		}
		// With a cache, LBA-ordered destages to the same large stripe
		// wait for one another: the largest unit is not the best, and
		// the drives see shorter queues with it than with the smallest.
		if b := res.best(i); b == last {
			t.Errorf("%d MiB cache: the largest stripe unit is the best; want a smaller one", g.CacheSizes[i]>>20)
		}
		if q0, qn := meanQueue(res.cells[i][0].Report), meanQueue(res.cells[i][last].Report); qn >= q0 {
			t.Errorf("%d MiB cache: mean drive queue %.1f at the largest stripe unit, not below %.1f at the smallest",
				g.CacheSizes[i]>>20, qn, q0)
		}
	}
	// The cause is the order: destaging least recently written first
	// spreads the destages over stripes, and the drives' queues at the
	// largest unit grow back.
	big := len(g.CacheSizes) - 1
	x := g.experiment(g.StripeUnits[last], g.CacheSizes[big])
	x.Stack.Cache.Order = "lrw"
	lrw, err := raidsim.Run(x)
	if err != nil {
		t.Fatal(err)
	}
	if lba := res.cells[big][last].Report; meanQueue(lrw) <= meanQueue(lba) || lrw.Total.All.IOPS <= lba.Total.All.IOPS {
		t.Errorf("largest cache and stripe unit: destaging in LRW order gives queue %.1f and %.0f IOPS, not above LBA order's %.1f and %.0f",
			meanQueue(lrw), lrw.Total.All.IOPS, meanQueue(lba), lba.Total.All.IOPS)
	}
	if res.best(0) != last {
		t.Errorf("no cache: best stripe unit is %d KiB; want the largest", g.StripeUnits[res.best(0)]>>10)
	}
}

// TestWorkersDoNotChangeResults runs a small grid on one and on two
// workers and compares the printed tables byte for byte.
func TestWorkersDoNotChangeResults(t *testing.T) {
	tables := make([]string, 2)
	for k, workers := range []int{1, 2} {
		g := reduced()
		g.Workload.IOs = 3000
		g.Workers = workers
		res, err := g.run()
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		tab := res.table()
		if err := tab.WriteText(&b); err != nil {
			t.Fatal(err)
		}
		tables[k] = b.String()
	}
	if tables[0] != tables[1] {
		t.Errorf("1 worker:\n%s\n2 workers:\n%s", tables[0], tables[1])
	}
}

// TestRunWritesPlot runs the command with few requests and checks the
// table is printed and the heat map written, in both formats.
func TestRunWritesPlot(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"sweep.svg", "sweep.png"} {
		path := filepath.Join(dir, name)
		var out bytes.Buffer
		if err := run([]string{"-ios", "2000", "-out", path}, &out); err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{"stripe unit", "256KiB", "256MiB", "wrote " + path} {
			if !strings.Contains(out.String(), want) {
				t.Errorf("output lacks %q:\n%s", want, out.String())
			}
		}
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasSuffix(name, ".svg") {
			var root struct{ XMLName xml.Name }
			if err := xml.NewDecoder(bytes.NewReader(b)).Decode(&root); err != nil || root.XMLName.Local != "svg" {
				t.Errorf("%s: root %q, err %v; want an <svg> document", name, root.XMLName.Local, err)
			}
		} else if img, err := png.Decode(bytes.NewReader(b)); err != nil {
			t.Errorf("%s: %v", name, err)
		} else if r := img.Bounds(); r.Dx() < 300 || r.Dy() < 200 {
			t.Errorf("%s is only %dx%d pixels", name, r.Dx(), r.Dy())
		}
	}
}

func TestRunRejectsBadFlags(t *testing.T) {
	for _, args := range [][]string{
		{"-out", "sweep.pdf"},
		{"-out", "sweep"},
		{"-ios", "0"},
		{"extra"},
	} {
		var out bytes.Buffer
		if err := run(args, &out); err == nil {
			t.Errorf("run(%q) succeeded; want an error", args)
		}
	}
}
