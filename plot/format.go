package plot

import (
	"fmt"
	"image/color"
	"io"
	"math"
	"path/filepath"
	"strings"

	"github.com/raidsim/raidsim/internal/outfile"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// The output formats, as Render takes them.
const (
	SVG = "svg"
	PNG = "png"
)

// Default figure size in points (1/72 inch): 6 x 4 inches, which PNG
// renders at 96 dpi as 576 x 384 pixels.
const (
	DefaultWidth  = 432
	DefaultHeight = 288
)

// margin is the white border around every figure, in points.
const margin = 4

// FormatOf returns the format a path's extension names, "svg" or "png",
// or an error naming the extension.
func FormatOf(path string) (string, error) {
	ext := filepath.Ext(path)
	if ext == "" {
		return "", fmt.Errorf("plot: %q has no file extension: use .svg or .png", path)
	}
	f, err := normFormat(ext)
	if err != nil {
		return "", fmt.Errorf("plot: unsupported file extension %q in %q: use .svg or .png", ext, path)
	}
	return f, nil
}

// normFormat accepts "svg", ".SVG", "png", ... and returns "svg" or "png".
func normFormat(format string) (string, error) {
	switch f := strings.ToLower(strings.TrimPrefix(format, ".")); f {
	case SVG, PNG:
		return f, nil
	}
	return "", fmt.Errorf("plot: unsupported format %q: use svg or png", format)
}

// size returns the figure size in vg lengths, defaults for zeros.
func size(width, height, defWidth, defHeight float64) (vg.Length, vg.Length, error) {
	if width == 0 {
		width = defWidth
	}
	if height == 0 {
		height = defHeight
	}
	for _, v := range []float64{width, height} {
		if math.IsNaN(v) || v < 72 || v > 72*100 {
			return 0, 0, fmt.Errorf("plot: figure size %gx%g points: each side must be 72 to 7200 (1 to 100 inches)", width, height)
		}
	}
	return vg.Length(width), vg.Length(height), nil
}

// render draws a figure of the given size with paint and writes it to w in
// format. A panic inside gonum's drawing (input that validation missed) is
// returned as an error rather than crashing the caller.
func render(w io.Writer, format string, width, height vg.Length, paint func(dc draw.Canvas)) (err error) {
	f, err := normFormat(format)
	if err != nil {
		return err
	}
	var c vg.CanvasWriterTo
	switch f {
	case SVG:
		// Text names Liberation Serif without embedding it (that would
		// add 500 KB a file); it has the metrics of Times New Roman, so a
		// viewer without it substitutes a serif of the same widths.
		c = vgsvg.New(width, height)
	case PNG:
		c = vgimg.PngCanvas{Canvas: vgimg.New(width, height)}
	}
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("plot: drawing failed: %v", r)
		}
	}()
	dc := draw.New(c)
	dc.SetColor(color.White)
	dc.Fill(dc.Rectangle.Path())
	paint(draw.Crop(dc, margin, -margin, margin, -margin))
	if _, err := c.WriteTo(w); err != nil {
		return fmt.Errorf("plot: writing %s: %w", f, err)
	}
	return nil
}

// save renders a figure in the format path's extension names and writes
// it through raidsim's output policy (internal/outfile): atomically, so a
// failed render leaves no partial file, replacing an existing regular
// file but never anything else (a directory, a device node).
func save(path string, renderTo func(w io.Writer, format string) error) error {
	f, err := FormatOf(path)
	if err != nil {
		return err
	}
	err = outfile.Policy{Force: true}.Write(outfile.Target{Name: "plot:", Path: path}, func(w io.Writer) error {
		return renderTo(w, f)
	})
	if err != nil && !strings.HasPrefix(err.Error(), "plot:") {
		err = fmt.Errorf("plot: %w", err)
	}
	return err
}

// finite reports whether v is neither NaN nor infinite.
func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }
