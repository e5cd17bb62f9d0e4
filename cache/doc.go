// Package cache simulates a volume cache in front of any sim.Device: the
// write-back cache of a RAID controller or of chipset RAID in host memory
// (Intel's "Volume Write Back Cache"), which absorbs writes at memory
// speed, gathers them into large sequential writes, and serves reads of
// recent data.
//
// A [Cache] is made by [New] from a [Config], plain data whose
// WithDefaults and Validate follow the house style, and is itself a
// sim.Device with the capacity and sector size of the device below, so it
// stacks anywhere: over one drive, over a RAID array, under another
// layer. It imports only sim; it is told a RAID array's stripe geometry
// as numbers.
//
// # Modes
//
// In WriteBack mode (the default) a write is acknowledged once it is in
// cache memory: its bytes are copied at Config.CopyRate, then
// Config.HitLatency passes. The copy rate is one engine's (the
// controller's memory bandwidth): hits and absorbed writes queue for it
// one after another, so however deep the queue the cache takes in at
// most CopyRate bytes per second. In WriteThrough mode every write goes to the device
// below and is acknowledged when the device acknowledges it; the cache
// keeps a clean copy for reads. WriteAround sends writes below without
// keeping a copy and caches reads. Off passes every request through.
//
// # Dirty data
//
// Dirty data is kept as extents in an index ordered by offset (see
// Index below). A write
// merges with the dirty extents it overlaps or touches, so a sequential
// stream becomes one growing extent and an overwrite replaces bytes in
// memory that then never reach the device (Stats.OverwrittenBytes). When
// requests carry Data the cache stores the bytes, so reads return the last
// acknowledged write whether the data is dirty, on its way to the device,
// or clean. Memory is charged in whole Config.Block units.
//
// # Reads
//
// A read is split into pieces: those held in memory (dirty data first,
// then data being written below, then clean data) are copied at memory
// speed, and each missing range becomes one read below; the read
// completes when all pieces have. Data read from below is kept clean,
// evicted in the order of Config.Replacement (see Replacement below),
// unless Config.NoReadCache. A read that
// continues the previous one keeps Config.ReadAhead bytes ahead of the
// stream: once less than half of that is in memory or on its way, the
// cache reads the next ReadAhead bytes below in the background. The host
// does not wait for a read-ahead; a later read that needs its data waits
// for it rather than reading the same data again.
//
// # A cache on a device
//
// [NewOnDevice] keeps the data on a sim.Device, the tier (an SSD in
// front of a disk array, as Linux bcache and dm-cache do), and only the
// index in memory: a hit reads the tier, an absorbed write writes it
// and is acknowledged once its data and then the journal write holding
// its index key are there (a journal write carries every key gathered
// while the one before was in flight: group commit), a destage reads
// the tier and then writes below, data read below is written to the
// tier in the background, and a FLUSH flushes the tier too. A power
// loss then loses nothing the cache acknowledged except what the tier's
// own volatile write buffer held, which is nothing with power-loss
// protection. WriteAround mode sends writes below and caches only
// reads; Config.SequentialCutoff (bcache's sequential_cutoff, 4 MiB by
// default on a device) lets a long sequential stream bypass the cache
// so it does not evict the hot set. Caches stack: a memory cache over
// a cache on an SSD over an array.
//
// # Replacement
//
// Clean data (read from below, read ahead, or destaged) is evicted for
// room in the order of a [Replacement] policy, each in a file of its
// own following its paper with the paper's defaults: LRU (the
// default), FIFO, CLOCK (one reference bit), 2Q (A1in 25% of Size,
// A1out ghosts 50%), ARC (self-tuning, no parameter), S3-FIFO (small
// FIFO 10% of Size, ghosts as much as the main FIFO's 90%) and SIEVE
// (no parameter). The policies see clean extents, not pages: a
// policy's shares are bytes of Config.Size, its ghosts are the ranges
// of evicted extents (kept in a google/btree, so a miss that overlaps
// a ghost hits it), and an extent a write cuts keeps its standing for
// what is left. Dirty data is never a candidate: it is not clean data
// until its destage completes, when it enters the policy as a miss
// would (a ghost of its range counts); until then it holds its memory,
// and a write that finds memory full of dirty data waits for a
// destage whatever the policy. A write to clean data makes it dirty:
// the clean copy leaves the policy. [BlockSim] runs a policy alone, on
// whole blocks, for miss-ratio curves.
//
// # Destage
//
// Dirty data goes below in destage writes of at most
// Config.MaxDestageBytes, at most Config.MaxOutstandingDestages at once.
// The [Policy] says when: at a high water mark until a low one
// (Watermark), every Interval, after an Idle period, or at a rate growing
// with occupancy (Linear); whatever the policy, a pending flush or a
// write waiting for room destages at full rate. The [Order] says what
// goes first: ascending LBA with wrap (C-SCAN), least recently written,
// or WOW (C-SCAN skipping recently rewritten extents once). With
// AlignStripe, destages are whole stripes when the dirty data covers
// them (so a RAID 5 below writes full stripes without reading), and
// partial stripes wait until a flush, a sweep or the high water mark
// forces them out.
//
// A write that arrives for a range being destaged stays dirty: destage
// takes a copy of the range out of the dirty tree, and two writes to
// overlapping ranges are never in flight below at once, so the device
// sees them in acknowledgement order.
//
// # Back-pressure
//
// A write that finds memory full (after evicting clean data), or dirty
// data at Config.MaxDirty, waits, in arrival order, until destages free
// room; Stats counts these stalls and the time they cover, and
// Stats.FilledAt says when the first one happened. A write larger than
// MaxDirty goes straight below. MaxDirty below Size bounds what a crash
// of a volatile cache loses while the rest of the memory still caches
// reads.
//
// # FLUSH and FUA
//
// A FLUSH completes only after every write acknowledged before it has
// been written below and a flush sent below afterwards has completed
// (writes arriving meanwhile are not held up: they belong to the next
// flush epoch). A FUA write goes straight to the device as FUA, and
// replaces whatever the cache held for its range when it completes. A
// NonVolatile cache with NVIgnoresFlush acknowledges flushes at once.
//
// # Crash
//
// [Cache.Crash] models a power loss at the current virtual time: a
// volatile cache returns the extents of acknowledged data that existed
// only in its memory and drops them, so the device below plus those
// extents is the acknowledged state; a NonVolatile cache loses nothing.
//
// # Statistics
//
// [Cache.Stats] reports read hit ratios by request and by byte, writes
// absorbed, the coalescing factor (the host writes each destage write
// carried below: writes still dirty do not count, and a write overwritten
// while dirty counts with the destage of the data that replaced it), the
// fraction of destages that were full stripes, peak and time-weighted
// mean dirty bytes, stalls, the time during which writes were stalled
// (the union of their waits) and the sum of their waits, and when the
// cache first filled and first reached the high water mark.
//
// # Index
//
// Each set of extents (dirty, in flight below, clean) is a
// github.com/google/btree BTreeG over a 16-byte value item (the
// offset, which is the key, and the extent), its nodes recycled
// through one FreeListG per cache. Around the library:
//
//   - the extents of a set are linked in offset order, so a search
//     descends the btree once and every walk from there (the next
//     extent, the extents a range overlaps, a destage scan) follows
//     links;
//   - a set remembers the extent its last search found and answers a
//     search at it or at the next one without a descent, which is what
//     a sequential stream asks;
//   - a bitmap marks the regions of the device (64 KiB or more, at
//     most 2^20 of them) some extent touches, so a question about a
//     range no extent comes near (most of them, for random requests
//     over a large device) is answered without a descent.
//
// Measured on the stack benchmark (raidsim bench: a 64 MiB cache over
// a 4-drive RAID 5, 1M random 4 KiB requests, 70% reads), on this
// project's 2-core Intel Xeon while other jobs kept its load average at
// 7-12, by CPU time (the process's user and system time, which such
// load inflates far less than wall time), five runs each, alternated
// with the hand-written B+ tree this replaced: 4.33 s at best and 4.95 s
// median against the old tree's 4.27 s and 4.54 s, that is 231,000
// requests/s against 234,000 at best. The region bitmap halved the
// btree's share of the profile (20% to 10%); what remains is two
// descents per insert (one to link the extent to its neighbour, one
// for the library's insert) where the old tree had one, and the
// library's comparisons through a function value. 0 allocations per
// request in steady state (TestStackSteadyStateAllocations: 1 in
// 50,000 requests after 100,000).
// The btree's degree is 64: its nodes grow their slices by appending
// and keep them through the free list, and inner nodes made from
// recycled leaves grow their child slices, so the fewer inner nodes,
// the sooner allocation stops (degree 16 still allocated 15 times per
// 50,000 requests after 800,000; 64 allocates 0-8 from 100,000 on).
// A dirty extent costs about 155 bytes with its share of the btree
// (TestExtentIndexBytes).
//
// Much of what the index costs the stack benchmark is memory: every
// insertion and removal updates the links of two neighbours, random in
// memory (the index's own functions take 45% of the simulated
// last-level misses). An extent is 128 bytes (two cache
// lines) and its range and links share the first, so such an update
// reads one line of each neighbour. Reads in flight below are scanned
// through a packed array of their ranges, not their records. Measured
// with cachegrind on 300,000 requests of the stack benchmark (a
// simulated 32 KiB first-level and 1 MiB last-level cache): 7.88G
// instructions, 95M first-level and 3.65M last-level data misses before
// (issue 24's second round), 7.35G, 83M and 2.9M after, with the
// drive's scheduler changes of the same round; the btree's descents
// (about 4.6 a request: a removal, the neighbour search and the insert
// of an evicted and a filled clean extent, and the dirty data's) are
// 14% of the instructions.
//
// # Allocation
//
// Host records, child requests and extents are recycled through free
// lists and the btree's nodes through its free list, so in steady state
// serving requests without Data allocates nothing (requests with Data
// allocate the copies the cache keeps).
package cache
