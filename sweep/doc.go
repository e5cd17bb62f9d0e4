// Package sweep runs what-if experiments: it varies fields of a
// configuration over lists of values, evaluates every combination in
// parallel, and splits large grids into shards for batch engines. It
// knows nothing of storage: a configuration is a decoded YAML or JSON
// tree (map[string]any), and evaluating a point is the caller's function.
//
// # Sweep files
//
// A sweep file is a configuration plus a top-level "sweep" section that
// maps field paths to lists of values:
//
//	stack:
//	  drive: {preset: deskstar-7k500}
//	  disks: 4
//	  raid: {level: "5", stripe_unit: 64KiB}
//	phases:
//	  - {rw: randrw, bs: 8KiB, iodepth: 16}
//	sweep:
//	  stack.raid.stripe_unit: [64KiB, 128KiB, 256KiB]
//	  stack.cache: [null, {size: 64MiB}]
//	  phases[0].iodepth: [1, 32]
//
// [Split] separates the section from the base configuration and returns
// the [Axis] list; the section may also be a list of {path, values} maps
// (see Split for the order of axes in each form). The grid above has
// 3 x 2 x 2 = 12 points.
//
// # Paths and values
//
// A path is a dotted list of map keys with [i] list indices:
// "stack.raid.stripe_unit", "phases[0].iodepth", "phases[1].bssplit".
// Setting a path creates any missing maps on the way; it is an error,
// naming the path, to go through a scalar, to index a map or key a list,
// or to index past the end of a list.
//
// A value of null removes the field, so whatever default the
// configuration gives it applies (above, null turns the volume cache off
// by removing the stack.cache section); removing a field that is not
// there does nothing, and null cannot remove a list element. Every other
// value, 0 included, is set as it is and means what the configuration
// says it means (raidsim refuses a cache size of 0, which its types read
// as "the default": sweep null for no cache). Values may be maps or
// lists, which replace the whole
// field. Values are set in axis order, so an axis may refine what an
// earlier one set (stack.cache, then stack.cache.mode).
//
// # Grids and points
//
// A [Grid] is the cartesian product of the axes over the base: point i
// takes one value per axis, with the first axis varying slowest and the
// last fastest, like nested loops in axis order. Each [Point] carries its
// index in the whole grid, its axis values, and its own deep copy of the
// configuration tree. [NewGrid] tries every value of every axis before
// any point runs, so a bad path fails at once.
//
// # Running
//
// [Run] evaluates points on a number of goroutines and returns the results
// in point order, so the output of a sweep is the same whatever the number
// of workers, as long as each evaluation depends only on its point (a
// simulation on its own engine does). The first failing point, by index,
// is reported with its values.
//
// # Shards
//
// A [Shard] "i/n" (i from 1 to n) is a contiguous run of point indices.
// Shards 1 to n together hold every point exactly once, in grid order, so
// a huge sweep can be spread over the tasks of a Kubernetes Indexed Job or
// a Slurm job array and their outputs concatenated in shard order.
package sweep
