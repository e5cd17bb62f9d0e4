// Package testhooks holds switches that deliberately break the model,
// for the tests that must catch the breakage (a fault campaign must see
// a wrong parity update). Nothing outside tests sets them; they are
// internal, so no user of the module can.
package testhooks

import "sync/atomic"

// BrokenParity makes RAID 5 and 6 read-modify-write leave the old data
// out of the new parity: the parity stays wrong until the stripe is
// written whole, which only a member failure (or a scrub) shows.
var BrokenParity atomic.Bool
