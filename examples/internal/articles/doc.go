// Package articles holds what the scenario examples take from the
// articles they reproduce: the articles' models that are not a layer's
// default (Intel's chipset RAID volume cache, as its driver's help text
// describes it), and checks of simulated figures against the articles'
// own (Within a tolerance, More in an effect's direction).
//
// Everything else the examples need is the public API: stacks are
// spec.Stack values built with raidsim.NewStack or run whole with
// raidsim.Run, and single-threaded programs (a copy, an installer) are
// program.Program values.
package articles
