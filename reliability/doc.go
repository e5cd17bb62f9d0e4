// Package reliability computes the odds of losing data on a RAID array:
// the mean time to data loss (MTTDL) and the probability of a loss per
// year, for RAID 1, 5, 6 and 10 of N drives, from the drives' failure
// rate (AFR or MTTF), their unrecoverable read error (URE) rate per bit,
// their capacity and the rebuild time.
//
// # Model
//
// Drives fail independently at a constant rate λ (λ = -ln(1 - AFR) per
// year, or 1/MTTF). A failed drive is rebuilt onto a spare in a time R
// (the rebuild window). An array of level L tolerates t failed drives
// (RAID 5: 1, RAID 6: 2, an n-way RAID 1 mirror: n - 1); data is lost
// when a further drive fails inside a window, or when a rebuild that
// runs with no redundancy left (t drives failed) meets a URE in the data
// it reads: h = 1 - exp(-bits x URE), the bits being the surviving
// drives' whole capacity (RAID 5 and 6) or one copy (RAID 1). A failure
// during a rebuild restarts it for every failed drive, as md does, so
// the window ends R after the latest failure. RAID 10 (md near-2) is
// N/2 independent mirrored pairs in series: its MTTDL is a pair's
// divided by N/2.
//
// # Two answers
//
// [Markov] is the classic closed form: a birth-death chain over the
// number of failed drives with failure rates (N-k)λ, repair rate 1/R
// and the URE loss on the last repair, solved exactly for the expected
// time to absorption. It assumes exponential rebuild times.
//
// [MonteCarlo] simulates failure and rebuild windows with the rebuild
// time held constant (or any distribution given by Params.RebuildTime),
// from a seeded PCG stream. Losses are rare (a RAID 6 array of four
// drives loses data once in ~10^5 windows), so it samples each window's
// "another failure before the rebuild ends" with balanced failure
// biasing (Shahabuddin's importance sampling for highly dependable
// systems: the failure branch taken with probability at least one half,
// each path weighted by its likelihood ratio), and takes a rebuild's
// URE loss as its exact conditional probability rather than a coin
// flip. The MTTDL is the renewal ratio E[cycle length] / P(loss per
// cycle), where a cycle runs from all drives healthy to healthy again
// or to a loss, with its standard error by the delta method. When R is
// small beside 1/λ the two answers agree to within that error
// (TestMarkovAgreesWithMonteCarlo).
//
// A loss per year is 1 - exp(-8760 h / MTTDL): losses, being rare, come
// close to a Poisson process.
package reliability
