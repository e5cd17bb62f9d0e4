// Package campaign runs fault campaigns: it draws random fault schedules
// over small arrays that keep real bytes and checks one property of
// each.
//
// # Schedules
//
// [Draw] makes a [Schedule] from a seed: a RAID 1, 5, 6 or 10 array of
// simtest.MemDevice members, each behind a faults.Device (a volatile
// write cache on or off, the host's command timer with a desktop or a
// TLER drive's error recovery), with or without a volume write-back
// cache on top (volatile or not); a workload of reads, writes of random
// bytes and flushes at random instants; and faults at random instants:
// members failed by the array or dying drives, rebuilds onto spares,
// unreadable sectors, and a power loss. The same seed always draws the
// same schedule, and [Run] runs it the same way: a failure prints the
// seed, which reproduces it.
//
// # The property
//
// Every acknowledged write reads back with its bytes, unless the faults
// exceeded the redundancy, and then exactly the lost or torn ranges the
// report names are wrong, no more and no fewer. Run reads the whole
// array back through the stack after the schedule (after a power loss:
// after a restart, on the surviving members, resynced as md does after
// an unclean shutdown when the array is whole) and compares every
// sector with the versions it may hold: the last acknowledged write's,
// or one of a write that never completed (torn writes are allowed,
// sector by sector). What it names:
//
//   - lost: the array's LostRanges (md's bad block log), the data on
//     members missing beyond what the level survives, what a volatile
//     volume cache's Crash loses (but ranges it was writing below at
//     the instant, which may have landed), what the members' volatile
//     write caches had not written (Unpersisted), on the copy a restart
//     keeps; these must read wrong;
//   - torn: the cache's writes in flight below at the power loss, and on
//     an array that was degraded at the power loss the missing members'
//     data in every row a write was changing (the RAID write hole);
//     these may read either way.
//
// Wrong sectors outside lost and torn are a violation; so is a lost
// sector that reads right. A schedule whose faults stay within the
// redundancy (no more faulty members than the level survives, no power
// loss while degraded) and that loses nothing volatile must in addition
// complete every request without error and name nothing. After a run
// without power loss, every stripe whose members are all present must
// also have its parity (or copies) consistent with its data, md's
// "check" scrub, by raid/crashcheck.
package campaign
