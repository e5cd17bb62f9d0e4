// Package raidz lays out and protects records as ZFS's RAIDZ does
// (vdev_raidz.c): variable-width stripes, one per record, over the
// children of a vdev.
//
// # Layout
//
// A RAIDZ vdev's sectors (2^ashift bytes, 4 KiB at ashift 12) run across
// its children row by row. A record of psize bytes allocated at a vdev
// offset starts on the child that offset falls on; its data sectors are
// dealt over Disks-Parity data columns, the first (sectors mod data
// columns) getting one more, and Parity parity columns as long as the
// longest data column come first (Geometry.Map). Its allocated size
// rounds data plus parity up to a multiple of Parity+1 sectors
// (Geometry.AllocSize): a 128 KiB record on four disks at ashift 12 is 32
// data sectors in columns of 11, 11 and 10, one 11-sector parity column,
// 43 sectors padded to 44.
//
// # Parity
//
// P is the XOR of the data columns, Q and R their sums weighted by powers
// of 2 and 4 in GF(2^8) (polynomial 0x11d, md's field): Generate. Any
// loss of up to Parity columns is solved by Reconstruct: with P and Q by
// md's RAID 6 code (package raid's SolvePQ, Q being md's Q of the data
// columns reversed), with R by inverting the parities' coefficient
// matrix, as vdev_raidz_reconstruct_general does.
package raidz
