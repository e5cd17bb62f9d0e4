// Package playground is raidsim in the browser: the simulator compiled to
// WebAssembly behind one static page with controls for the drive (disk
// or SSD), its write cache, the RAID level, disks, stripe unit, volume
// cache, host and workload. The controls (Controls) are keys of the
// experiment rendered from their definitions in spec.Fields: labels,
// tooltips, choices (the layers' own names) and bounds. The page runs the simulation in the browser and draws
// throughput over time, a latency CDF, a stripe map of which member each
// request touched, and the explain tree of a clicked request.
//
// Settings are the controls' values by key path; Run runs them and returns a
// Result for the page to draw, with the report exactly as `raidsim run`
// prints it for Settings.Args. The js/wasm entry point is the
// subpackage wasm (built with GOOS=js GOARCH=wasm); Handler serves the
// embedded page with a built module; Build builds it with the local Go
// toolchain. `raidsim serve` puts them together on localhost.
package playground
