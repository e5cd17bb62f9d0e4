//go:build long

package raidz

// propertySeeds are the cases of TestPropertyRandomRecordsAndFill: every
// parity count, width, record size and fill level it cycles through.
var propertySeeds = []uint64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}
