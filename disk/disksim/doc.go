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
//   - Geometry (dm_disk, dm_layout_g1): surfaces, the Number of
//     cylinders (the seek curve's span, Params.CylinderCount, which may
//     differ from what the zones cover), the Block count (the capacity;
//     one beyond the layout is cut to it and noted in the Report), the
//     zone table with blocks per track, offset of the first block, empty
//     space at the zone front, track and cylinder skews (in sectors or
//     revolutions); zones may leave cylinders unused between them or
//     share one, as DiskSim maps them. The LBN-to-PBN mapping schemes 0
//     (conventional), 1 (serpentine within each zone) and 2 (serpentine
//     across the disk). Every sparing scheme, 0-10, as the manual defines
//     it (Params.Sparing): no spares; spare tracks at the end of each
//     zone (slips and defects then count tracks); spare sectors at the
//     end or the front of each cylinder, at the end of each track, each
//     range of "Rangesize for sparing" cylinders or each zone, used by
//     the slips in them or (4, 6, 10) not, the slips then pushing LBAs
//     towards the end of the disk; spare sectors at the end of the disk
//     (7: the zones' spares added up at the end of the last zone). Slips,
//     and defects remapped to spare locations.
//   - Mechanics (dm_mech_g1): access time types trackSwitchPlusRotation,
//     averageRotation (half a revolution's wait) and constant (with its
//     constant access time);
//     seek types extracted (the seek curve file, interpolated linearly),
//     constant, linear, curve (Lee's equation), hpl and hplplus10
//     (Ruemmler & Wilkes's equation, tabulated); head switch, write
//     settle (negative too: settling to write may be quicker than the
//     read settle the seek times include), rpm and its percent error
//     (each drive draws its speed from a named random stream).
//   - Controller (disksim_disk): the eight read/write hit/miss
//     after-read/after-write overheads plus the per-request overhead, the
//     completion, data preparation, disconnect and reselect overheads,
//     the extra write disconnect and its five overheads, the minimum seek
//     delay, all scaled by the overhead time scale (Params.Overheads);
//     never disconnect, hold bus for reads, disconnect write if seek;
//     preseeking levels 0, 1 (the same here: the arm moves once the
//     completion is sent) and 2 (once the media access is over); the
//     interface time per block for read and for write data, the slowest
//     of the disk's, the controllers' and the buses' on the path to the
//     driver (Params.InterfaceRate, WriteInterfaceRate); buffer segments
//     and their size (less a separate write segment), caching in the
//     buffer or not, the read-ahead scheme ("buffer continuous read" 0-4),
//     its minimum and maximum, read-ahead over requested data,
//     read-ahead on idle hits, write hits that stop read-ahead, the high
//     water mark set by request or segment size (Params.ReadBusWatermark),
//     almost read hits, partial hits (only the rest read from the media;
//     the buffered part sent at once or at the watermark), read hits on
//     write data, read any free blocks,
//     immediate buffer read and write (zero-latency access), fast write
//     levels 0, 1 (write-back only for the next piece of a write stream)
//     and 2 (write-back, flushed before any other command), combined
//     sequential writes, the queue length and the scheduling policy.
//
// A parameter the drive model needs but cannot honour is an error naming
// it: a g2 or g4 layout, sneaky read hits and write prebuffering (they
// serve a second command while one is in service; the drive serves one
// at a time), a controller that is not pass-through, bus arbitration
// time, a driver's constant access time. A parameter it does not need (statistics, bus
// ownership with one device per bus, the synthetic workload, the logical
// organisation, and the low water mark and holding the bus for writes:
// a write's data cross the bus whole before its media write) is listed
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
//	atlas10k      10,000       3.893 ms        3.864 ms  0.109 ms  0.268 ms
//	hp_c3323a      9,074      15.765 ms       15.845 ms  0.250 ms  0.306 ms
//
// (raidsim validate --disksim FILE.parv --trace FILE reproduces them.)
package disksim
