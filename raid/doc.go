// Package raid simulates RAID arrays (levels 0, 1, 5, 6 and 10) over any
// sim.Device members; an [Array] is itself a sim.Device, so it stacks
// under a cache or over other arrays.
//
// # Configuration
//
// [Config] is plain data: the level, the stripe unit in bytes (md's
// chunk), the RAID 5 [Layout] (md's four, left-symmetric by default),
// the RAID 5 and RAID 6 [WritePolicy], the page parity writes work in,
// an optional parity engine speed, the mirror [ReadPolicy], and the
// rebuild rate. [Config.Validate] reports every
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
// it, and RAID 5 and 6 compute real parity, so tests can check bytes
// end to end.
//
// RAID 5 and RAID 6 writes are planned as Linux md's stripe cache does
// them: in pages (Config.Page, md's 4 KiB), page row by page row (md's
// stripe heads). A row whose data pages the write covers whole reads
// nothing; otherwise read-modify-write (read the old data pages being
// replaced and the old parity: P, and on RAID 6 Q, updated by the
// difference, md's partial syndrome) and reconstruct-write (read the
// data pages the write does not wholly replace) are costed in pages to
// read and the cheaper runs, ties going to reconstruct-write
// (Config.Raid5Write and Config.Raid6Write can force either; RAID 6's
// WriteRCW is md before Linux 4.1). A page the write covers in part is
// read and written whole. The choice is [PlanStripeWrite], a pure
// function of the mapping, the write's range, the failed and unreadable
// members, the policy and the page: it fills a [StripePlan] with the
// member bytes to pre-read and to write, [StripePlan.Compute] does its
// arithmetic on real bytes, and the array carries the plan out. With
// Config.ParityRate the parity work takes virtual time before the
// writes go out.
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
// any virtual time, as a drive that dies: the requests queued and in
// flight on it end at that instant and are served degraded, as md
// retries them (what the member answers later is ignored). Afterwards
// RAID 5 reads of the failed member are reconstructed as the XOR of the
// other members (counted as degraded reads), RAID 6 reads solved from P
// and Q, mirrored reads go to a live copy, and writes skip the failed
// member while keeping the parity consistent, so the lost data stays
// recoverable. Requests needing data that is gone (any failure in RAID
// 0, a second RAID 5 failure, a third RAID 6 one, every copy of a
// mirror) complete with an error wrapping [ErrDataLost]; nothing panics
// or hangs.
//
// The array also fails members itself, as md_error does: a write (or
// flush) that fails on a member fails the member, and the write stands
// on the others ([MemberStats].Kicked). A read that fails is served from
// the redundancy and the bytes rewritten to the member (see below); if
// the rewrite fails, so does the member. So a drive whose commands time
// out is kicked: a desktop drive retrying an unreadable sector for two
// minutes lets the host's 30 s timer fail the read, md rewrites the
// sector, the drive is still busy, the rewrite times out and md fails
// the drive (the "timeout mismatch" of the Linux RAID wiki); a TLER
// drive reports the error in 7 s and stays.
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
// with another member failed or a source unreadable. Writes are planned
// in pages as RAID 5's are, with read-modify-write since Linux 4.1.
//
// # Read errors and lost data
//
// A member read that fails (an unreadable sector, say from package
// faults) is served from the redundancy and the bytes written back to
// the member, as md does on a read error ([Stats].Repairs): RAID 5 XORs
// the stripe's other members, RAID 6 solves with P and Q, mirrors read
// another copy. A write whose pre-read fails is planned again without
// that member's bytes: what it needs of them is solved from the others
// and written back. A read error met with no redundancy left (a source
// of a RAID 5 rebuild, a read while a member is missing) loses that
// row's bytes of the members concerned: the array records them, as md's
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
// writes. Reads that need no reconstruction go to the members in their
// own sizes (md reads around its stripe cache too); degraded reads and
// repairs read exactly the bytes asked, not whole pages. Parity ranges
// a write touches in two pieces are read and written as two member
// requests. md's count of corrected read errors (max_read_errors) does
// not fail members.
package raid
