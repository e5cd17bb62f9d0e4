//go:build !long

package raidz

// propertySeeds are the cases of TestPropertyRandomRecordsAndFill: two
// quick ones here, twelve under the long build tag.
var propertySeeds = []uint64{4, 6}
