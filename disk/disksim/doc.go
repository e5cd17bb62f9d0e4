// Package disksim loads DiskSim 4.0 parameter files into disk.Params, so
// raidsim can simulate the drives DiskSim's authors measured and
// validated (the Quantum Atlas 10K and HP C3323A among them) and be
// scored against the same measured traces.
//
// # Files
//
// DiskSim's parameter files use libparam's grammar, which [Parse] reads
// into a tree of [Block]s:
//
//	TYPE NAME { Key = value, Key = value, ... }   a block
//	Key = TYPE { ... }                            a nested block
//	Key = [ value, value, ... ]                   a list
//	Key = source FILE                             a file holding one block
//	source FILE                                   include a file
//	instantiate [ names ] as NAME                 name components
//	topology TYPE NAME [ TYPE NAME [ ... ] ]      connect them
//	# comment                                     to the end of the line
//
// Keys are words separated by spaces ("Segment size (in blks)"), matched
// ignoring case and repeated spaces. Sourced files are resolved relative
// to the including file. Every error names a file and line
// ("disksim: atlas10k.model:12: ..."), as an [*Error].
//
// # Loading a drive
//
// [Load] finds the disksim_disk the file instantiates and builds the
// drive from it and its dm_disk model:
//
//   - Geometry (dm_disk, dm_layout_g1): surfaces, cylinders, block count
//     (Params.Capacity), the zone table with blocks per track, offset of
//     the first block, empty space at the zone front, track and cylinder
//     skews (in sectors or revolutions), spares at the end of each zone
//     (sparing schemes 0, 1 and 9) with slips, and the LBN-to-PBN mapping
//     (schemes 0 and 1, the serpentine one).
//   - Mechanics (dm_mech_g1): access time type trackSwitchPlusRotation;
//     seek types extracted (the seek curve file, interpolated linearly),
//     constant, linear, curve (Lee's equation), hpl and hplplus10
//     (Ruemmler & Wilkes's equation, tabulated); head switch, write
//     settle, rpm.
//   - Controller (disksim_disk): the eight read/write hit/miss
//     after-read/after-write overheads plus the per-request overhead,
//     scaled by the overhead time scale, and the completion overheads
//     (Params.Overheads); the interface time per block, the slowest of
//     the disk's, the controllers' and the buses' on the path to the
//     driver (Params.InterfaceRate); buffer segments and their size (less
//     a separate write segment), the read-ahead scheme ("buffer continuous
//     read" 0-4) and its maximum, read-ahead on idle hits, the high water
//     mark set by request size (Params.ReadBusWatermark), almost read
//     hits, read hits on write data, read any free blocks, immediate
//     buffer read and write (zero-latency access), fast
//     write level 0 or 2 (write-back cache in the write segments), the
//     queue length and the scheduling policy.
//
// A parameter the drive model needs but cannot honour is an error (a
// nonzero preseeking level, minimum read-ahead or reselect overhead,
// remapped defects, a g2 layout, sparing per cylinder or track, a
// controller that is not pass-through, bus arbitration time, ...); a
// parameter it does not need (statistics, bus ownership with one device
// per bus, the synthetic workload, the logical organisation) is listed
// once in the [Report], with the reason.
//
// # Validation
//
// With one request outstanding (DiskSim's validate mode, see
// trace.ReplayValidate) the loaded drives match the traces measured on
// the real drives better than DiskSim 4.0 itself, by the demerit figure
// (metrics.Demerit):
//
//	drive       requests  measured mean  simulated mean  demerit   DiskSim's demerit
//	atlas10k      10,000       3.893 ms        3.865 ms  0.110 ms  0.268 ms
//	hp_c3323a      9,074      15.765 ms       15.845 ms  0.250 ms  0.306 ms
//
// (raidsim validate --disksim FILE.parv --trace FILE reproduces them.)
package disksim
