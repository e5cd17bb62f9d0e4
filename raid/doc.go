// Package raid simulates RAID arrays (levels 0, 1, 5, 6 and 10) over any
// sim.Device members; an [Array] is itself a sim.Device, so it stacks
// under a cache or over other arrays.
//
// # Configuration
//
// [Config] is plain data: the level, the stripe unit in bytes (md's
// chunk), the RAID 5 [Layout] (md's four, left-symmetric by default),
// the RAID 5 [WritePolicy], an optional parity engine speed, the mirror
// [ReadPolicy], and the rebuild rate. [Config.Validate] reports every
// problem at once; [New] builds an array from a Config and its members.
// Members of unequal capacity are used up to the smallest, rounded down
// to whole stripe units, and the array's capacity is a whole number of
// stripes.
//
// # Mapping
//
// The address mapping is a set of pure functions ([ParityMember],
// [DataMember], [DataIndex]) and the [Mapping] value ([Mapping.Locate],
// [Mapping.Copies], [Mapping.Logical]), usable without an engine for
// teaching and property tests. RAID 10 is md's near-2 layout with an
// even member count, which is RAID 0 over mirrored pairs of adjacent
// members (0+1, 2+3, ...); RAID 1 mirrors every member.
//
// # Requests
//
// Submit splits a request at stripe-unit boundaries into member requests
// taken from free lists (no allocation per request once warm) and
// completes it when all of them have; the first member error wins and is
// wrapped with the request and the member. A Flush goes to every live
// member. When a request carries Data, member requests carry slices of
// it, and RAID 5 computes real parity, so tests can check bytes end to
// end.
//
// RAID 5 writes are planned stripe by stripe, as Linux md does: a write
// covering the whole stripe computes parity from the new data and reads
// nothing; otherwise read-modify-write (read the old data being
// replaced and the old parity) and reconstruct-write (read the data the
// write leaves alone) are costed in bytes to read and the cheaper runs,
// ties going to reconstruct-write (Config.Raid5Write can force either).
// The choice is [PlanStripeWrite], a pure function of the mapping, the
// write's range, the failed members and the policy: it fills a
// [StripePlan] with the member bytes to pre-read and to write, and the
// array carries the plan out.
// With Config.ParityRate the XOR takes virtual time before the writes go
// out.
//
// Overlapping writes are ordered: a write waits for every earlier write
// it overlaps to complete (on RAID 5, any earlier write to the same
// stripes, as md's stripe cache serialises a stripe), so parity is never
// computed from data that is changing and the write acknowledged last is
// the one the media keeps. Reads on a healthy array do not wait. The
// wait list is scanned linearly, which suits the tens of requests a real
// array has in flight.
//
// # Failures and rebuild
//
// [Array.Fail] (or [Array.FailAt], an engine event) fails a member at
// any virtual time. Requests already at the member complete; afterwards
// RAID 5 reads of the failed member are reconstructed as the XOR of the
// other members (counted as degraded reads), mirrored reads go to a live
// copy, and writes skip the failed member while keeping RAID 5 parity
// consistent, so the lost data stays recoverable. Requests needing data
// that is gone (any failure in RAID 0, a second RAID 5 failure, both
// copies of a mirror) complete with an error wrapping [ErrDataLost];
// nothing panics or hangs.
//
// [Array.Rebuild] puts a spare in the failed member's slot and rebuilds
// it one stripe unit at a time at Config.RebuildRate (md's
// speed_limit_max; with Config.RebuildMinRate, md's speed_limit_min,
// the rebuild is held to that rate while foreground requests arrive),
// each step waiting
// for (and holding up) foreground writes to its stripe; writes to the
// part already rebuilt also go to the spare. Progress and duration are
// in [Stats].Rebuild; with Config.RebuildData the spare ends holding the
// lost member's exact bytes.
//
// # RAID 6
//
// RAID 6 is md's P+Q in the left-symmetric layout ([QMember],
// [DataMember6], [DataIndex6]): P is the XOR of a stripe's data units
// and Q their syndrome over GF(2^8) ([Syndromes]), computed on real
// bytes when requests carry Data, so any two missing units of a stripe
// are solved from the rest: reads with two members failed, a rebuild
// with another member failed or a source unreadable. Writes are
// reconstruct-writes over whole units (md's RAID 6 read-modify-write is
// not modelled); Config.ParityRate applies to RAID 5 only.
//
// # Read errors and lost data
//
// A member read that fails (an unreadable sector, say from package
// faults) is served from the redundancy and the bytes written back to
// the member, as md does on a read error ([Stats].Repairs): RAID 5 XORs
// the stripe's other members, RAID 6 solves with P and Q, mirrors read
// another copy; a RAID 6 write whose pre-read fails does the same for
// its stripe, and a RAID 5 write whose pre-read fails is planned again
// the other way round (read-modify-write becomes reconstruct-write and
// the reverse), which reads around the unreadable range; the range is
// rewritten by the write or repaired on its next read. A rebuild source that cannot be read while no redundancy
// is left (RAID 5 with a member failed) loses that row's units of the
// failed and the unreadable member: the rebuild records them, as md's
// bad block log does, and goes on; [Array.LostRanges] names them and
// reads there fail with [ErrLostInRebuild].
//
// # Statistics
//
// [Array.Stats] reports requests and bytes, RAID 5 full-stripe, RMW and
// RCW stripe counts, pre-read I/Os and bytes, degraded reads and writes,
// ordering waits, rebuild progress, and for each member its I/Os, bytes
// and utilization (the time it had at least one request outstanding over
// the time since New). [Array.Geometry] (and [Array.FullStripe]) tell a
// layer above how to align writes without importing this package.
//
// # Simplifications
//
// Partial-stripe writes to one stripe are served one after another
// rather than merged into one stripe update as md's stripe cache can;
// put a write-back cache above the array to gather small sequential
// writes. A member fails only when Fail says so (a member that returns
// errors is not kicked out). RAID 5 parity
// ranges that a write touches in two pieces (a write crossing a unit
// boundary without covering a whole unit) are read and written as two
// member requests.
package raid
