// Package host simulates the computer in front of a storage stack: its
// CPU (what each request costs and the wait for a free core), the OS
// page cache, and the network link between a benchmark client and a NAS.
// Benchmark articles report CPU utilization beside throughput, a NAS
// serves small files from memory, and a NAS can never beat its wire: the
// host decides what their readers saw.
//
// A [Host] is made by [New] from [Params] (plain data with WithDefaults
// and Validate, or a [Preset]: desktop-ich8r, desktop-jmicron, nas-1gb,
// server). It imports only sim and cache.
//
// # Building
//
// The host charges CPU work at three points, so it is built in three
// steps: New; then [Host.Driver] wraps each drive, so every command a
// drive receives (RAID members, cache destages, read-ahead included)
// costs Params.CommandCost on a core; then [Host.Attach] puts the host
// over the stack's top device, described by a [Storage] (software RAID
// parity geometry, a host-memory volume cache), and builds the page
// cache. The host is then a sim.Device with the storage's capacity.
// A computer with several disks is one host with several volumes:
// [Host.AttachVolumes] puts one page cache (one dirty limit) and one CPU
// over all of them, and [Host.Volume] is the device of each, so a copy
// from one disk to another goes through the same memory, as on a real
// machine.
//
// # A request's path
//
//  1. With Params.Network, the request crosses the link to the host: a
//     first-come first-served wire per direction at Link.Rate, plus
//     Link.Latency, with Link.Overhead protocol bytes (and the data, for
//     a write).
//  2. Its file-layer work runs on a core: SyscallCost, the copy between
//     program and page cache (Length / CopyRate, when there is a page
//     cache), and the protocol server's Link.CPUPerRequest and CPUPerKiB.
//  3. It enters the page cache, a cache.Cache configured as Linux's
//     ([Params.PageCacheConfig]); with Params.Direct or PageCache.Off it
//     goes to the storage directly (O_DIRECT).
//  4. Whatever goes to the storage first pays software RAID's parity
//     (XORRate, [Storage.ParityBytes]) and stripe cache
//     (StripeCachePerPage; reads skip it with RAIDReadBypass, as md's
//     chunk-aligned reads do since Linux 2.6.20), and a host-memory
//     volume cache's lookup and copy; each drive command then pays
//     CommandCost.
//  5. The reply (and the data, for a read) crosses the link back.
//
// # CPU
//
// Cores serve work first come, first served: a piece of work whose cost
// is known when it arrives takes the core that frees first, and the
// request waits until it is done. [Stats] counts core time by [Kind];
// [Summarize] turns two snapshots into the utilization a benchmark tool
// reports: core time / (cores x elapsed), in percent.
//
// # Page cache
//
// Reads of cached pages are hits; sequential reads read ahead
// PageCache.ReadAhead (128 KiB), or over a software parity array the
// RAIDReadAheadStripes whole stripes Linux md asks for when larger
// ([Params.ReadAheadFor]: 256 KiB for 3 drives with 64 KiB chunks). Writes are acknowledged from memory
// until dirty data reaches dirty_ratio of the cache, where writers are
// throttled until writeback makes room; above dirty_background_ratio the
// flusher writes back at once, and data dirty for dirty_expire is
// written at the flusher's next wake-up (every dirty_writeback
// interval). A Flush request is fsync: all dirty data goes down, then
// the drives' caches are flushed.
//
// # Allocation
//
// Request records are recycled, events are bound once, and the CPU and
// link are a few numbers each, so serving requests allocates nothing in
// steady state.
package host
