package plot_test

import (
	"bytes"
	"encoding/xml"
	"errors"
	"image/png"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/raidsim/raidsim/metrics"
	"github.com/raidsim/raidsim/plot"
)

// latencies returns a histogram of n samples: a fraction hit of cache hits
// near 20 µs, the rest disk accesses around base.
func latencies(seed uint64, n int, hit float64, base time.Duration) *metrics.Histogram {
	r := rand.New(rand.NewPCG(seed, 1))
	h := metrics.NewHistogram()
	for range n {
		if r.Float64() < hit {
			h.Record(time.Duration(15e3 + r.Float64()*10e3))
			continue
		}
		h.Record(base + time.Duration(r.ExpFloat64()*float64(base)/2))
	}
	return h
}

// figures are one of each kind, rendering to w in format.
var figures = map[string]func(w io.Writer, format string) error{
	"cdf": plot.CDFFigure{
		Title: "random 4 KiB reads",
		Series: []plot.CDFSeries{
			{Name: "no cache", Hist: latencies(1, 2000, 0, 8*time.Millisecond)},
			{Name: "64 MiB cache", Hist: latencies(2, 2000, 0.4, 8*time.Millisecond)},
		},
	}.Render,
	"lines": plot.LinesFigure{
		Title: "RAID 5 x4", XLabel: "stripe unit", YLabel: "IOPS",
		Series: []plot.LineSeries{
			{Name: "no cache", Labels: []string{"16KiB", "64KiB", "128KiB"}, Y: []float64{210, 250, 262}},
			{Name: "64 MiB", Labels: []string{"16KiB", "64KiB", "128KiB"}, Y: []float64{400, 380, 300}},
		},
	}.Render,
	"lines-numeric": plot.LinesFigure{
		Title: "queue depth", XLabel: "iodepth", YLabel: "IOPS", LogX: true,
		Series: []plot.LineSeries{{Name: "7K500", X: []float64{1, 4, 32}, Y: []float64{80, 120, 190}}},
	}.Render,
	"heatmap": plot.HeatMapFigure{
		Title: "IOPS", XLabel: "stripe unit", YLabel: "volume cache",
		XTicks: []string{"16KiB", "64KiB", "128KiB", "256KiB"},
		YTicks: []string{"none", "16MiB", "64MiB"},
		Values: [][]float64{
			{200, 230, 250, 255},
			{300, 320, 310, 290},
			{520, 500, 450, 410.5},
		},
		ValueLabel: "IOPS",
	}.Render,
	"page": plot.PageFigure{
		Title: "a page of three",
		Panels: []plot.Panel{
			plot.LinesFigure{Title: "queue depth", XLabel: "iodepth", YLabel: "IOPS",
				Series: []plot.LineSeries{{Name: "7K500", X: []float64{1, 4, 32}, Y: []float64{80, 120, 190}}}},
			plot.CDFFigure{Title: "reads", Series: []plot.CDFSeries{{Name: "no cache", Hist: latencies(1, 200, 0, 8*time.Millisecond)}}},
			plot.HeatMapFigure{XTicks: []string{"a", "b"}, YTicks: []string{"x", "y"}, Values: [][]float64{{1, 2}, {3, 4}}, HideValues: true},
		},
	}.Render,
}

// checkFile fails unless path holds a valid, non-empty figure in the
// format its extension names.
func checkFile(t *testing.T, path string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	checkBytes(t, filepath.Ext(path)[1:], b)
}

func checkBytes(t *testing.T, format string, b []byte) {
	t.Helper()
	if len(b) < 500 {
		t.Fatalf("%s: only %d bytes", format, len(b))
	}
	switch format {
	case "svg":
		d := xml.NewDecoder(bytes.NewReader(b))
		var root struct{ XMLName xml.Name }
		if err := d.Decode(&root); err != nil {
			t.Fatalf("svg does not parse as XML: %v", err)
		}
		if root.XMLName.Local != "svg" {
			t.Fatalf("svg root element is <%s>, want <svg>", root.XMLName.Local)
		}
	case "png":
		img, err := png.Decode(bytes.NewReader(b))
		if err != nil {
			t.Fatalf("png does not decode: %v", err)
		}
		if r := img.Bounds(); r.Dx() < 300 || r.Dy() < 200 || r.Dx() > 4000 || r.Dy() > 4000 {
			t.Fatalf("png is %dx%d pixels", r.Dx(), r.Dy())
		}
	default:
		t.Fatalf("unexpected format %q", format)
	}
}

func TestSaveEveryKindAndFormat(t *testing.T) {
	dir := t.TempDir()
	h := latencies(3, 1000, 0.3, 5*time.Millisecond)
	saves := map[string]func(path string) error{
		"cdf": func(path string) error {
			return plot.CDF(path, "one drive", []plot.CDFSeries{{Name: "7K160", Hist: h}})
		},
		"lines": func(path string) error {
			return plot.Lines(path, "sweep", "cache (MiB)", "MB/s",
				[]plot.LineSeries{{Name: "RAID 0", X: []float64{0, 16, 64}, Y: []float64{60, 90, 120}}})
		},
		"heatmap": func(path string) error {
			return plot.HeatMap(path, "latency", "stripe", "cache", []string{"a", "b"}, []string{"x", "y"},
				[][]float64{{1, 2}, {3, 4}}, "ms")
		},
	}
	for name, save := range saves {
		for _, ext := range []string{".svg", ".png", ".SVG"} {
			path := filepath.Join(dir, name+ext)
			if err := save(path); err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			checkBytes(t, strings.ToLower(ext[1:]), b)
		}
	}
	checkFile(t, filepath.Join(dir, "heatmap.png"))
}

func TestRenderValidAndDeterministic(t *testing.T) {
	for name, render := range figures {
		for _, format := range []string{"svg", "png"} {
			var a, b bytes.Buffer
			if err := render(&a, format); err != nil {
				t.Fatalf("%s %s: %v", name, format, err)
			}
			checkBytes(t, format, a.Bytes())
			if err := render(&b, format); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(a.Bytes(), b.Bytes()) {
				t.Errorf("%s %s: two renders of the same figure differ", name, format)
			}
		}
	}
}

func TestBadInputs(t *testing.T) {
	h := latencies(4, 100, 0, time.Millisecond)
	grid := [][]float64{{1, 2}, {3, 4}}
	ticks := []string{"a", "b"}
	for _, tc := range []struct {
		name   string
		render func(w io.Writer, format string) error
		want   string
	}{
		{"cdf no series", plot.CDFFigure{}.Render, "no series"},
		{"cdf nil histogram", plot.CDFFigure{Series: []plot.CDFSeries{{Name: "x"}}}.Render, `series 0 ("x") has no samples`},
		{"cdf empty histogram", plot.CDFFigure{Series: []plot.CDFSeries{{Name: "ok", Hist: h}, {Name: "e", Hist: metrics.NewHistogram()}}}.Render, `series 1 ("e")`},
		{"cdf bad scale", plot.CDFFigure{Series: []plot.CDFSeries{{Hist: h}}, XScale: 9}.Render, "XScale"},
		{"cdf bad size", plot.CDFFigure{Series: []plot.CDFSeries{{Hist: h}}, Width: 1}.Render, "figure size"},
		{"lines no series", plot.LinesFigure{}.Render, "no series"},
		{"lines empty series", plot.LinesFigure{Series: []plot.LineSeries{{Name: "e"}}}.Render, "no points"},
		{"lines length mismatch", plot.LinesFigure{Series: []plot.LineSeries{{X: []float64{1}, Y: []float64{1, 2}}}}.Render, "1 x values for 2 y values"},
		{"lines labels mismatch", plot.LinesFigure{Series: []plot.LineSeries{{Labels: ticks, Y: []float64{1}}}}.Render, "2 labels for 1 values"},
		{"lines no x", plot.LinesFigure{Series: []plot.LineSeries{{Y: []float64{1}}}}.Render, "neither X nor Labels"},
		{"lines both x and labels", plot.LinesFigure{Series: []plot.LineSeries{{X: []float64{1}, Labels: ticks[:1], Y: []float64{1}}}}.Render, "both X and Labels"},
		{"lines mixed kinds", plot.LinesFigure{Series: []plot.LineSeries{{Labels: ticks, Y: []float64{1, 2}}, {X: []float64{1, 2}, Y: []float64{1, 2}}}}.Render, "mixes"},
		{"lines NaN", plot.LinesFigure{Series: []plot.LineSeries{{X: []float64{1, 2}, Y: []float64{1, math.NaN()}}}}.Render, "finite"},
		{"lines Inf x", plot.LinesFigure{Series: []plot.LineSeries{{X: []float64{math.Inf(1)}, Y: []float64{1}}}}.Render, "finite"},
		{"lines log of zero", plot.LinesFigure{LogY: true, Series: []plot.LineSeries{{X: []float64{1, 2}, Y: []float64{0, 1}}}}.Render, "positive"},
		{"heatmap no ticks", plot.HeatMapFigure{}.Render, "no x ticks"},
		{"heatmap ragged", plot.HeatMapFigure{XTicks: ticks, YTicks: ticks, Values: [][]float64{{1, 2}, {3}}}.Render, "row 1 has 1 values for 2 x ticks"},
		{"heatmap too few rows", plot.HeatMapFigure{XTicks: ticks, YTicks: ticks, Values: grid[:1]}.Render, "1 rows of values for 2 y ticks"},
		{"heatmap NaN", plot.HeatMapFigure{XTicks: ticks, YTicks: ticks, Values: [][]float64{{1, 2}, {math.NaN(), 4}}}.Render, "value [1][0] is NaN"},
		{"heatmap -Inf", plot.HeatMapFigure{XTicks: ticks, YTicks: ticks, Values: [][]float64{{1, math.Inf(-1)}, {3, 4}}}.Render, "-Inf"},
		{"page no panels", plot.PageFigure{}.Render, "no panels"},
		{"page nil panel", plot.PageFigure{Panels: []plot.Panel{nil}}.Render, "panel 0 is nil"},
		{"page bad panel", plot.PageFigure{Panels: []plot.Panel{plot.LinesFigure{}}}.Render, "panel 0: plot: Lines: no series"},
		{"page too big", plot.PageFigure{Columns: 20, Panels: []plot.Panel{
			plot.LinesFigure{Width: 7200, Series: []plot.LineSeries{{X: []float64{1}, Y: []float64{1}}}},
			plot.LinesFigure{Series: []plot.LineSeries{{X: []float64{1}, Y: []float64{1}}}}}}.Render, "more than 7200 a side"},
		{"unknown format", plot.HeatMapFigure{XTicks: ticks, YTicks: ticks, Values: grid}.Render, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			format := "svg"
			if tc.want == "" {
				format, tc.want = "pdf", `unsupported format "pdf"`
			}
			var buf bytes.Buffer
			err := tc.render(&buf, format)
			if err == nil {
				t.Fatalf("no error; want one containing %q", tc.want)
			}
			if !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "plot: ") {
				t.Errorf("error %q; want one starting plot: and containing %q", err, tc.want)
			}
			if buf.Len() > 0 {
				t.Errorf("wrote %d bytes despite the error", buf.Len())
			}
		})
	}
}

func TestSaveUnknownExtension(t *testing.T) {
	dir := t.TempDir()
	fig := plot.HeatMapFigure{XTicks: []string{"a"}, YTicks: []string{"b"}, Values: [][]float64{{1}}}
	for _, tc := range []struct{ file, want string }{
		{"fig.pdf", `unsupported file extension ".pdf"`},
		{"fig.svg.gz", `".gz"`},
		{"fig", "no file extension"},
	} {
		path := filepath.Join(dir, tc.file)
		err := fig.Save(path)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Save(%s) = %v; want an error containing %q", tc.file, err, tc.want)
		}
		if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("Save(%s) created the file despite the error", tc.file)
		}
	}
	// A bad figure leaves no file either.
	path := filepath.Join(dir, "bad.svg")
	if err := plot.HeatMap(path, "", "", "", []string{"a"}, []string{"b"}, [][]float64{{math.NaN()}}, ""); err == nil {
		t.Fatal("NaN heat map saved without error")
	}
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Error("a figure that failed to render left a file")
	}
}

func TestFormatOf(t *testing.T) {
	for path, want := range map[string]string{"a.svg": "svg", "dir.x/b.PNG": "png", "c.Svg": "svg"} {
		if got, err := plot.FormatOf(path); err != nil || got != want {
			t.Errorf("FormatOf(%q) = %q, %v; want %q", path, got, err, want)
		}
	}
	if _, err := plot.FormatOf("d.jpg"); err == nil || !strings.Contains(err.Error(), `".jpg"`) {
		t.Errorf("FormatOf(d.jpg) = %v; want an error naming .jpg", err)
	}
}

// TestEdgeCases draws figures that are legal but degenerate: one cell,
// one value everywhere, a single point, a flat line on a log axis, all
// latencies equal.
func TestEdgeCases(t *testing.T) {
	flat := metrics.NewHistogram()
	for range 10 {
		flat.Record(3 * time.Millisecond)
	}
	zero := metrics.NewHistogram()
	zero.Record(0)
	zero.Record(time.Millisecond)
	for name, render := range map[string]func(io.Writer, string) error{
		"one cell":        plot.HeatMapFigure{XTicks: []string{"a"}, YTicks: []string{"b"}, Values: [][]float64{{5}}}.Render,
		"constant grid":   plot.HeatMapFigure{XTicks: []string{"a", "b"}, YTicks: []string{"c"}, Values: [][]float64{{0, 0}}}.Render,
		"negative values": plot.HeatMapFigure{XTicks: []string{"a", "b"}, YTicks: []string{"c"}, Values: [][]float64{{-3, 1e6}}}.Render,
		"tiny cells":      plot.HeatMapFigure{XTicks: make([]string, 60), YTicks: make([]string, 2), Values: [][]float64{make([]float64, 60), make([]float64, 60)}}.Render,
		"single point":    plot.LinesFigure{Series: []plot.LineSeries{{X: []float64{3}, Y: []float64{7}}}}.Render,
		"flat log line":   plot.LinesFigure{LogX: true, LogY: true, Series: []plot.LineSeries{{X: []float64{0.2, 0.2}, Y: []float64{0.5, 0.5}}}}.Render,
		"flat cdf":        plot.CDFFigure{Series: []plot.CDFSeries{{Hist: flat}}}.Render,
		"zero log cdf":    plot.CDFFigure{XScale: plot.ScaleLog, Series: []plot.CDFSeries{{Hist: zero}}}.Render,
		"zero lin cdf":    plot.CDFFigure{XScale: plot.ScaleLinear, Series: []plot.CDFSeries{{Hist: zero}}}.Render,
	} {
		var buf bytes.Buffer
		if err := render(&buf, "svg"); err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		checkBytes(t, "svg", buf.Bytes())
	}
}

// TestConcurrentRender renders every figure from several goroutines at
// once, as a parallel sweep might, and expects the serial bytes.
func TestConcurrentRender(t *testing.T) {
	want := map[string][]byte{}
	for name, render := range figures {
		var b bytes.Buffer
		if err := render(&b, "svg"); err != nil {
			t.Fatal(err)
		}
		want[name] = b.Bytes()
	}
	errs := make(chan error, 4*len(figures))
	for range 4 {
		for name, render := range figures {
			go func() {
				var b bytes.Buffer
				err := render(&b, "svg")
				if err == nil && !bytes.Equal(b.Bytes(), want[name]) {
					err = errors.New(name + ": concurrent render differs from serial")
				}
				errs <- err
			}()
		}
	}
	for range 4 * len(figures) {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}
