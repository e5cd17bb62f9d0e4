// Package calibrate fits a drive model to a trace measured on the real
// drive, and says where a model and a drive disagree.
//
// # Comparing
//
// [Replay] replays a measured trace on a drive model as DiskSim's validate
// mode does (one request outstanding, each issued after the previous
// one's simulated completion plus the idle gap the trace recorded; see
// trace.ReplayValidate) and keeps, for every request, the measured and
// the simulated service time and what the simulator knows about it: read
// or write, served from the drive's buffer or from the media, sequential
// (starting where the previous request ended) or random. [Compare] turns
// that into the figures `raidsim validate` prints: the demerit
// (metrics.Demerit), the mean and the 50th, 90th and 99th percentiles
// measured and simulated, and the mean gap of every class of requests,
// naming the class whose gap moves the overall mean the most ("simulated
// reads that hit the buffer are 0.09 ms fast").
//
// # Fitting
//
// A data sheet gives a drive's rpm, capacity, media rates and seek
// figures; it does not give the command overheads, the shape of the seek
// curve at short distances, the skews, the settle times or how the
// buffer reads ahead, and those decide a drive's service times as much as
// the published figures do. [Fit] finds them: it minimizes the demerit of
// a [Family] of models over its free parameters with gonum's Nelder-Mead
// simplex method. Each parameter has physical bounds and is optimized
// through a logistic transform, so every candidate the simplex proposes
// is a drive that could exist; buffer behaviour, a choice among
// read-ahead policies, is searched by trying each policy at the start and
// again at the optimum. Every evaluation replays the trace on a fresh
// engine with the same seed, so a fit is deterministic: the same trace,
// model and options give the same parameters, bit for bit.
//
// Two families are provided:
//
//   - [SpecFamily] starts from data-sheet figures (a disk.Spec, such as a
//     preset's) and fits the figures a data sheet leaves out or gives
//     loosely: read and write command overheads, the seek curve's three
//     points (track-to-track, average, full stroke), the head switch (and
//     with it the track skew Spec derives from it) and the write settle.
//     Its result is a disk.Spec (stack.drive.preset with stack.drive.spec
//     over it in a config).
//   - [ParamsFamily] starts from a complete disk.Params (a DiskSim model
//     loaded by disk/disksim) and fits scale factors on what it already
//     has: one on every command overhead, one on the seek curve at short
//     and one at long distances (log-interpolated between), and the head
//     switch and write settle.
//
// The search restarts Nelder-Mead from the best point so far while that
// still improves the demerit, since a simulated drive's demerit is rugged
// (a changed overhead moves every later request's rotational position).
// The cost of a fit is the number of evaluations (FitOptions.Evaluations)
// times the cost of one replay, milliseconds for ten thousand requests, which
// grows with the number of requests: LoadTrace's limit fits on a prefix
// of the trace (a prefix keeps the sequential runs and the buffer's
// history that sampling every k-th request would break).
//
// # Fitted models
//
// A fit of a SpecFamily is data-sheet figures, and [WriteConfig] prints
// it as a config `raidsim run --config` and spec.Load read. A fit of a
// ParamsFamily built on a DiskSim model is written back in DiskSim's
// vocabulary: [DiskSimEdits] lists the parameter lines to change (and the
// rescaled seek curve), and [DiskSimModel.WriteTo] writes the model's
// files with those changes into a new folder, which disk/disksim loads
// into the fitted model.
package calibrate
