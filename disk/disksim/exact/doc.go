// Package exact simulates a DiskSim 4.0 disk as DiskSim's source
// computes it: the same events in the same order at the same times, so
// that each request's response time is the one DiskSim logs for it (to
// the 1e-9 ms the log prints: DiskSim's reference build is i386 with
// x87 arithmetic, and where its extended precision moves a time, in the
// loader's picosecond conversions, the revolution time and the media
// path's sums, this package rounds as the x87 does). It is the default ("exact") mode of
// package disksim, whose LoadExact reads a parameter file into a Model.
//
// The simulator follows the source module by module, in its own
// structure and words: the G1 layout and its sparing schemes
// (diskmodel's layout_g1.c, layout_g1_load.c), the G1 mechanics in
// DiskSim's fixed-point time and angle units (mech_g1.c,
// mech_g1_seektime.c), the disk's controller, buffer segments, cache and
// bus side (disksim_diskctlr.c, disksim_diskcache.c, disksim_disk.c), the
// ioqueue (disksim_ioqueue.c), the buses (disksim_bus.c), the
// pass-through and 53C700-based controllers (controller types 1 and 2,
// disksim_ctlrdumb.c), the smart controller (type 3,
// disksim_ctlrsmart.c) with its memory cache, written through or back
// (disksim_cachemem.c), the device driver in STANDALONE mode with
// constant and traced times, its 53C700 handling, and its count of the
// requests on a smart controller and splitting of those larger than
// its cache takes (disksim_iodriver.c), and the validate and ASCII trace readers
// (disksim_iotrace.c).
//
// Where the source departs from the manuals, this package follows the
// source, and says so where it does; among the departures that change
// times:
//
//   - Seek times given as "Constant", "Average", "Single cylinder" and
//     "Full strobe" are stored in milliseconds into picosecond fields, so
//     the constant, linear and curve seeks take almost no time; "Seek
//     type" and "Constant seek time" share one field (dm_mech_g1 loader).
//   - A distance shorter than the first of an extracted seek curve reads
//     the entry before the curve's arrays: heap chunk headers
//     (dm_mech_g1_seek_extracted; see the disksim package's beforeCurve).
//   - Zero-latency access never starts in mid-track (g1_access_block
//     treats dm_convert_atop's DM_OK as a failure).
//   - The driver's overall queue matches a completion to a request by
//     block number alone, so two outstanding requests for one block may
//     swap response times (iodriver_access_complete).
//   - A queue whose cylinder mapping is 6 divides by zero; a write
//     overlapping an unstoppable read-ahead follows a null segment; a
//     request handed out when not ready, a write's media position outside
//     its segment and 6,000 sectors without the arm's next decision are
//     assertions, and so is a smart controller's periodic or idle
//     flush of a cache with no space (it walks an empty LRU list). DiskSim stops
//     there, and so does Run, with an error wrapping ErrDiskSimAbort; a nil pointer here is a null pointer
//     there, and ends the run the same way.
//   - Without a fast write level, a write that must disconnect sends
//     nothing up and waits for ever (disk_write_arrive); direct topologies
//     (no controller) drop READY_TO_TRANSFER interrupts at the driver.
//   - Bus arbitration by slot priority gives a waiting bus to the disk
//     before its controller (bus_slotpriority_arbitration).
//   - A 53C700 takes each of its ten overheads as 0.5 ms scaled, whatever
//     the parameter file says (disksim_ctlr_loadparams), drops a request
//     arriving while it reconnects (the driver offers it again), and,
//     asked by the disk how much of a transfer under way it has moved,
//     reads a field it never set: Run stops there with ErrUndefined.
//   - Traced times come from fields DiskSim's validate reader sets to 0
//     and its ASCII reader leaves as a recycled event held them: a traced
//     access time completes each request at once, and Run refuses traced
//     times with ASCII requests.
//
// Run replays requests as DiskSim's validate format does (one at a time,
// each after the previous completion and its gap) or as its ASCII format
// does (at their arrival times, stopping at the last arrival); its
// results are what DiskSim's per-request log (tools/disksim/BUILD.md)
// records.
package exact
