// Package teach holds the teaching views of a run: what happened to its
// requests, told for people rather than summed for a report.
//
//   - [Explain] runs an experiment and tells the first requests' lives as
//     trees (`raidsim explain`): the volume cache absorbing a write and
//     the destage that carried it, the RAID 5 plan and why Linux md chose
//     it, each member I/O with its seek distance, rotation angles, media
//     and bus time, and one sentence saying where the time went.
//   - [Timeline] records the first requests phase by phase (queue,
//     overhead, seek, rotation, media, bus, cache), with a row for each
//     member I/O below (`raidsim run --timeline N`).
//   - [PhaseSummary] averages those phases over a whole run, for host
//     requests and drive commands (`raidsim run --timeline-summary`).
//
// Every view is built on package lifelog (a request's life from the
// layers' sim.Observer hooks) and follows each request's critical path,
// so its phases add up to its latency. Timeline and PhaseSummary attach
// to any run through their Observer method (raidsim.RunOptions); Explain
// runs the experiment itself. A new teaching view goes here.
package teach
