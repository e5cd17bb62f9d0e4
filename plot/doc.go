// Package plot draws the figures of raidsim's what-if experiments as SVG
// or PNG files: latency distributions, a metric against one swept
// parameter, and a heat map of a metric over two.
//
// It is a thin layer over gonum.org/v1/plot that fixes the choices a
// storage experiment needs, so that a sweep or an example gets a readable
// figure from a few lines of data.
//
// # Figures
//
// Each kind of figure is a plain struct with a Save method (the format
// follows the file's extension) and a Render method (to any io.Writer,
// the format named):
//
//   - CDFFigure: the cumulative distribution of request latency, one curve
//     per configuration, from metrics.Histogram buckets; x in
//     milliseconds, linear or logarithmic. Past MaxCurves (8) curves only
//     the best and worst by mean latency are coloured and in the legend;
//     the rest are thin grey lines named in a note.
//   - LinesFigure: one curve per configuration of a metric against a swept
//     parameter, numeric (queue depth 1, 4, 32) or categorical ("16KiB",
//     "64KiB") with one labelled tick per value; categories are points,
//     set slightly apart per series, never joined by lines. The y axis
//     starts at zero unless ZoomY.
//   - HeatMapFigure: a grid of values over two categorical parameters in
//     the viridis colour map (perceptually uniform; neither end is the
//     background's white), framed, with a color bar and, when they fit,
//     the values written in the cells.
//
// Legends go below the plot, in as many columns as the width allows, so
// they never cover data nor take width from it. Callers label axes and
// legend entries in words ("stripe unit", "cache 16 MiB"), not config
// key paths.
//
// CDF, Lines and HeatMap are shorthands that fill a figure with the usual
// fields and save it.
//
// # Formats
//
// SVG and PNG are supported, chosen by the extension .svg or .png (any
// case); any other extension is an error that names it. Text is measured
// with the Liberation fonts compiled into gonum's plot module, so
// rendering needs no system fonts and the same figure renders to the same
// bytes on every machine, in both formats. SVG files name the font
// without embedding it (that would add about 500 KB to each file);
// Liberation Serif has the metrics of Times New Roman, so a viewer
// without it substitutes a serif of the same widths.
//
// # Errors
//
// Bad input (no series, an empty or ragged grid, NaN or infinite values,
// a series of mismatched lengths, an unknown format) is reported as an
// error prefixed "plot:" before anything is drawn or any file created. A
// file is written only once the whole figure has rendered.
package plot
