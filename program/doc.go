// Package program drives a device the way a single-threaded program
// does: one request at a time, each issued when the one before it
// completes (a file copy, an installer, a disk benchmark that waits for
// every read and write).
//
// trace.Replay drives a device from a workload (open loop at recorded
// times, or closed loop at a fixed depth); a [Program] instead asks its
// own next function for each request, so what it issues may depend on
// what completed. Several programs share one engine and may wait for
// each other ([Step.Wait], [Program.Poke], [Program.PokeLater]): a
// copy's reader on one stack and its writer on another.
//
// A Program reuses one sim.Request, so it allocates nothing per
// request. It needs only package sim.
package program
