// Package disk simulates a disk drive as a sim.Device: zoned geometry,
// seek curve, rotation, segmented buffer with read-ahead, write cache,
// and a tagged command queue, after Ruemmler & Wilkes (1994) and DiskSim.
//
// A drive is described by [Params], plain data that can be printed,
// loaded and swept. [Spec] derives Params from data-sheet figures, and
// [Preset] returns the built-in drives. [New] makes a [Drive] on a
// sim.Engine; [ComputeFigures] reports a model's headline numbers.
//
// # Geometry
//
// Sectors of Params.SectorSize bytes (512, or 4096) are laid out track by
// track: a track, then the next surface of the same cylinder, then the
// next cylinder, from the outer edge (cylinder 0) inwards. Cylinders are
// grouped in [Zone]s; each zone has its own sectors per track and its own
// track and cylinder skews, the angular offset (in sectors) of each
// track's first sector from the previous track's, so that a head switch
// or a one-cylinder seek in the middle of a sequential transfer arrives
// just in time for the next sector. Skews accumulate track by track and
// cylinder by cylinder within a zone. [Drive.Locate] maps a byte offset
// to (zone, cylinder, head, sector).
//
// Measured layouts (DiskSim's G1 zone tables, loaded by package
// disk/disksim) add, per zone, the angular offset of its first sector
// (Zone.FirstBlockOffset), reserved sectors at its front, spare sectors
// at its end and slipped (defective) sectors the mapping skips, pushing
// later LBAs into the spares; and, drive-wide, a serpentine track order
// (Params.Mapping) in which odd cylinders of a zone visit the surfaces in
// reverse so a cylinder switch needs no head switch (or odd cylinders
// counted from cylinder 0, MapSerpentineDisk). Skews then accumulate
// from the zone's offset along the mapping's track order, a track skew
// per track crossing and a cylinder skew per cylinder crossing; a
// transfer over a slipped or spare sector spends its sector time.
// [Sparing] says where else spares lie: a number of them on every track,
// cylinder or range of cylinders (Zone.RegionSpares), at its end or
// front, used by the slips in that region or not (the slips then shift
// LBAs along the zone); slips may count whole tracks (spare tracks); and
// a defective location's data may live in a spare one (Zone.Remaps).
// Zones may leave cylinders unused between them or share one, and
// Params.CylinderCount may differ from what the zones cover.
//
// Spec.Params follows the vendors' conventions: the instantaneous media
// rate is SectorSize x sectors per track x revolutions per second; the
// sustained rate is the bytes of a cylinder over one revolution per
// surface plus the head switches and one cylinder switch. Sectors per
// track fall linearly from the outer zone to the inner one, every zone
// gets the same number of cylinders (the first zones one more until the
// capacity is reached), and each skew is the switch time rounded up to
// whole sectors.
//
// # Seek
//
// Seek time for a distance of x cylinders comes from Lee's three-point
// curve a*sqrt(x-1) + b*(x-1) + c fitted to the track-to-track, average
// and full-stroke figures, whose mean over uniformly random start and end
// cylinders equals the average figure. When the figures make a negative
// (the average too close to track-to-track) the curve falls back to a
// straight line through the track-to-track and full-stroke points; when
// they make b negative (the average too close to full stroke) it falls
// back to c + a*sqrt(x-1) through the same two points; either way the mean
// then differs from the average figure ([Figures].SeekFit says which
// curve is used). A table of measured (distance, time) points,
// interpolated linearly, can replace the curve. Writes add
// Params.WriteSettle to every seek (a negative settle shortens it, to no
// less than zero); a head switch takes Params.HeadSwitch.
// [Drive.SeekTime] exposes the curve. Params.AccessTime may instead take
// every rotational wait as half a revolution, or every media access as a
// constant time (DiskSim's access time types).
//
// # Rotation
//
// The platter's angle is a pure function of virtual time: angle 0 at
// t = 0, computed in integers as (t mod 60 s) x rpm, so it never drifts.
// A transfer waits for its first sector to come round, then reads or
// writes track by track at the zone's rate, with a head switch or a
// one-cylinder seek and a wait for the next track's first sector between
// tracks (with the skew that wait is short; a switch that overruns the
// skew costs a revolution, as on a real drive).
//
// # Interface
//
// Each command pays Params.ReadOverhead or WriteOverhead, but a command
// that waited in the tagged queue was decoded on arrival, in the shadow
// of earlier commands. With Params.Overheads enabled the overhead depends,
// as in DiskSim, on whether the command hits the buffer and whether the
// previous command was a read or a write, and a completion overhead is
// added before the command is reported done. Data crosses the interface at
// Params.InterfaceRate: a read completes no earlier than its last sector
// leaves the platter and no earlier than its first sector plus the whole
// bus transfer (or, with Params.ReadBusWatermark, the point the given
// fraction of it is in the buffer plus the whole bus transfer); a write-through write's data crosses the bus before it
// reaches the platter (earlier, while other commands use the media, if it
// was queued), at Params.WriteInterfaceRate when write data cross at
// another rate. The overheads may also time the drive's use of the bus
// as DiskSim does: data preparation before each transfer, disconnecting
// from the bus during a media access and reselecting it (again if a
// read outruns the media, unless it holds the bus), an extra disconnect
// before a write's data, a minimum seek delay for writes; with
// Params.Preseek the arm heads for the next command as soon as its last
// job is done. One command is served at a time, so the drive never
// delivers more than the interface rate.
//
// # Buffer and write cache
//
// The buffer holds Params.Segments read segments. After a read from the
// media the drive keeps reading ahead into the segment while it has
// nothing else to do (Params.ReadAhead), one track at a time; a command
// that needs the arm stops it. A read wholly in the buffer is served at
// bus speed without touching the media; a read that starts in the segment
// being filled waits for read-ahead to bring the rest. So sequential
// reads at queue depth 1 stream at the sustained media rate instead of
// losing a revolution per request. Read-ahead may also stop at the end of
// the track or cylinder of the read, or of the track after it
// (ReadAheadTrack, ReadAheadCylinder, ReadAheadNextTrack: DiskSim's
// "buffer continuous read" schemes); Params.NoReadAheadOnHit keeps hits
// from extending it. With Params.ZeroLatencyRead (and ZeroLatencyWrite) a
// head that lands inside a track's requested sectors transfers them as
// they pass and picks up the rest on the next pass; with
// Params.ReadAnyFree the sectors passing before the first requested one
// during the rotational wait stay in the buffer. With Params.PartialHits
// a read whose first sectors are buffered reads only the rest from the
// media. Params.NoBufferCache keeps the buffer for speed matching only;
// Params.MinReadAheadBytes holds other commands until that much has been
// read ahead; Params.ReadAheadKeepsRequest stops read-ahead before it
// would push the latest read's data out of its segment.
//
// With Params.WriteCache on, a write completes once its data is in the
// buffer (immediate report), if the dirty data stays within
// Params.WriteCacheBytes and Params.WriteCacheEntries extents; otherwise
// it waits for space. Dirty data is destaged in the background, extent by
// extent, choosing the extent with the shortest access time from the
// head's position (so random writes gain from the cache); reads and
// write-through writes queue behind a destage in progress. A newer write
// replaces the dirty data it overlaps, reads of dirty data hit in the
// buffer, a FLUSH completes only once every dirty byte is on the platters,
// and a FUA write completes only after its own media write.
// Params.WriteCacheAppendOnly limits the cache to the next piece of a
// write stream, Params.FlushBeforeOther destages everything before any
// other command (DiskSim's fast write levels 1 and 2), and
// Params.NoWriteMerge keeps adjacent writes' dirty data apart.
// [Drive.DirtyBytes] is what a power loss would lose.
//
// # Queueing
//
// Up to Params.QueueDepth (at most 32, NCQ) commands wait in the tagged
// queue; more wait in a FIFO host queue. The scheduler picks the next
// command: FCFS, SSTF (shortest seek), CLOOK (ascending LBA with wrap) or
// SATF (shortest estimated seek plus rotational wait, the default, which
// is what NCQ firmware does). Commands that need no arm (buffer hits,
// cacheable writes) go first; a FLUSH is a barrier; a command older than
// Params.MaxQueueAge is served next to prevent starvation. Under SATF
// and SSTF a command that starts where the arm's last transfer ended is
// served next, so a sequential stream stays together instead of leaving
// a piece whose start has just passed behind the head. The drive picks
// its next job the moment a command completes, before the host's reply
// to that completion can arrive: one reader and one writer with one
// request each are served in turn. Each queued
// command's cylinder, head and angle are cached at enqueue, so SATF's
// inner loop is a seek-curve evaluation and an angle subtraction. A
// whole access (overhead, seek, rotation, media, bus) is computed at
// dispatch and ends with a single event; steady-state service allocates
// nothing.
//
// # Validation
//
// Package disk/disksim loads DiskSim 4.0's parameter files for measured
// drives into Params; raidsim's validate command replays traces measured
// on those drives (trace.ReplayValidate) and scores the fit with
// metrics.Demerit. On the Quantum Atlas 10K and HP C3323A traces the
// demerit figures are 0.109 ms and 0.250 ms, against DiskSim's own 0.268
// and 0.306 ms.
//
// # Presets
//
// [PresetNames] lists the built-in drives: Hitachi Deskstar 7K160, 7K500
// and 7K1000, Hitachi Travelstar 7K500 (the 2.5-inch drive of scenario
// S1), WD Caviar WD1600AJS, Seagate Cheetah 15K.5 and WD Ultrastar DC
// HC310. Each preset's Spec function documents which figures come from
// DRIVES.md and the seed articles and which are inferred. Presets ship as
// drives do: write cache on, queue depth 32, SATF.
//
// # Observing
//
// A sim.Observer given to New sees each request submitted, the spans of
// its phases (queue, overhead, seek, rotate, media, bus, cache-hit) and
// its completion; a nil observer costs a nil check. [Drive.Stats] returns
// counters: requests by operation, busy time and utilization, seeks and
// mean seek distance, buffer hits, write-cache hits and destages, dirty
// bytes and their peak, and time-weighted means of the commands in the
// tagged queue (at most Params.QueueDepth) and of the requests waiting
// for a tag in the host queue.
package disk
