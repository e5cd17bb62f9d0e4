// Package smr simulates drive-managed shingled magnetic recording (DM-SMR)
// hard disks, and carries the CMR drives they are compared with, as one
// kind of drive ("smr").
//
// An SMR drive is a shingle translation layer over a platter: a
// disk.Drive (package disk's zones, seek, rotation, buffer, write cache
// and command queue) whose surface holds a media cache, then the
// shingled bands, each followed by a guard region. The translation layer
// turns each host request into platter requests; the platter times them.
//
// # Bands and guard regions
//
// Shingled tracks overlap like roof shingles, so writing a track
// overwrites part of the next one: a band (Params.BandBytes, tens of MiB)
// can only be written from its start onwards, and a guard region
// (Params.GuardBytes) after it keeps a rewrite from reaching the next
// band. Bands map statically to LBA ranges (Skylight, Aghayev and
// Desnoyers, FAST 2015: the Seagate drives' mapping is static).
//
// # The media cache and the indirection map
//
// Writes that cannot go to their band are appended, log-structured, to
// the media cache (Params.MediaCacheBytes of conventional tracks at the
// outer diameter, where Skylight found the Seagate drives' persistent
// cache), and an indirection map (a google/btree of extents) sends their
// LBA ranges there. A random write therefore costs a short sequential
// write at the log's head, which is why DM-SMR drives absorb bursts of
// random writes fast. The cache is full when its log reaches its tail or
// its map holds Params.MediaCacheExtents extents.
//
// # Writes that go straight to a band
//
// A write covering a whole band goes to the band, and the band's cached
// extents are dropped. With Params.AppendAtWritePointer a write that starts
// exactly at a band's write pointer (the end of its valid data: the start,
// on a new drive or a trimmed band) also goes to the band, shingling over
// nothing still needed, as Wu et al. measured on host-aware SMR drives
// (sequential writes at the write pointer bypass the media cache, others
// do not). So a sequential stream onto a new drive (md's rebuild) streams
// to the bands, while writes arriving out of order (a ZFS resilver) land
// in the media cache.
//
// # Cleaning
//
// Cleaning moves a band's cached data home: read the band's valid data
// and its cached fragments (one platter read per fragment), rewrite the
// band from its start past the last byte, drop the fragments from the map
// (Stats.BandCleans, CleanReadBytes, CleanWriteBytes). The band cleaned is
// the one of the oldest live entry of the log, so the log's tail moves on
// (FIFO, as Skylight observed). The drive cleans when it has been idle for
// Params.CleanIdleDelay, band after band while it stays idle; and, once a
// write finds the cache full, in the foreground: that write and everything
// behind it wait (Stats.StallTime) while bands are cleaned one by one
// until it fits. That is the "short period of high throughput followed by
// a continuous period of low throughput" ext4-lazy measured (Aghayev et
// al., FAST 2017). A clean in progress finishes before host requests are
// served again, so a request arriving during idle cleaning waits up to one
// band's read-modify-write.
//
// # Reads and trims
//
// A read is split by the map: cached pieces are read from the media cache,
// the rest from the bands; pieces that follow each other on the platter
// are merged, so a fragmented range costs a seek per fragment. A TRIM
// drops the mappings of its range (freeing cache space once the log's
// tail passes) and, when it reaches a band's write pointer, moves the
// pointer back.
//
// # Presets
//
// ST8000AS0002 (Seagate Archive 8 TB), WD40EFAX (WD Red 4 TB SMR) and,
// for comparison, WD40EFRX (its CMR sibling) and WD40EFPX (WD Red Plus,
// a current CMR NAS drive). Each preset says which figures come from data
// sheets, which from measurements, and which are inferred and why. A CMR
// model's device is its platter, a *disk.Drive.
//
// # Observing
//
// Drive.Stats counts what the translation layer did; Drive.Series samples
// the media cache's fill, the map's size and the cleaning over time, in a
// bounded number of points; Drive.Platter().Stats() are the platter's
// counters.
package smr
