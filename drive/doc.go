// Package drive is the one interface every kind of drive meets (a hard
// disk, an SSD, whatever comes next), so the rest of raidsim builds,
// lists and reports drives without knowing their kind.
//
// # A kind of drive
//
// A kind is a package (disk, ssd) with three things:
//
//   - a checked [Model]: any number of drives are built from it with
//     [Model.NewDevice], the members of an array among them;
//   - a built drive, a [Device]: a sim.Device that tells what a power
//     failure would lose and reports itself at the end of a run;
//   - its [Report]: a JSON-ready value, the kind's own fields beside the
//     ones every kind gives ([Common]), that also prints as a [Row] of
//     its kind's text table.
//
// A [Kind] names the package's presets and builds their models; the
// experiment package (spec.DriveKinds) lists the kinds, one line each.
// With that line a new kind's presets are listed by `raidsim drives`,
// built by the stack and reported, and nothing else changes.
//
// # Text rows
//
// A [Row] is made of [Cell] values that say how they print (a text, an
// integer, a fixed number of decimals, or an exact decimal in KiB), so
// the kind decides its columns and their units (one unit per column,
// named in the header) while the report decides the table's layout.
//
// drive imports only sim: disk and ssd import it, never each other, and
// raid and cache see drives only as sim.Device values.
package drive
