// Package faults wraps any sim.Device with injected faults, the way
// pebble's errorfs wraps a file system: a [Device] passes requests to
// the device below and, by a [Config] of plain data and [Rule]s composed
// from predicates, turns some of them into errors or slow responses.
//
// # What it models
//
//   - Latent sector errors: sectors that fail every read until they are
//     written again (a drive reallocates a sector on write). They are
//     given as LBAs ([Config.BadSectors]) or arise from a per-bit
//     unrecoverable read error rate ([Config.UREPerBit], e.g. 1e-14 as
//     data sheets state "1 sector per 10^14 bits read"): a read of b bits
//     finds a Poisson(b x rate) number of new bad sectors, placed
//     uniformly among the sectors it reads. A read touching a bad sector
//     fails with a [*MediaError] (errors.Is ErrMedia).
//   - Error recovery: before failing such a read the drive retries. A
//     desktop drive's deep recovery takes [Config.Recovery] (default
//     DesktopRecovery, 2 minutes: Western Digital's "up to 2 minutes"),
//     a TLER/ERC drive stops at [Config.ERC] (7 s on WD RAID editions).
//     The drive accepts nothing else meanwhile: requests submitted
//     during recovery wait for it (those already queued inside the
//     device below are not held up).
//   - Host command timeouts: with [Config.Timeout] (Linux's SCSI command
//     timer is 30 s), a request outstanding that long completes with
//     ErrTimeout; what the drive answers later is dropped. A desktop
//     drive's recovery outlasts the timer, a TLER drive's does not.
//   - Whole-device failure at a time ([Config.FailAt]) or after a number
//     of completed I/Os ([Config.FailAfterIOs]), or by [Device.Fail]: as a
//     drive that dies, every request outstanding (queued, in service,
//     held behind a recovery) completes with ErrFailed at that instant,
//     and so does every request after it.
//   - Slow responses: a fraction of requests ([Config.SlowFraction])
//     take [Config.SlowDelay] longer (they start that much later, so
//     writes still complete in the order the device stores them).
//   - A volatile write cache ([Config.WriteCache]): writes acknowledged
//     at once and sent below as a copy, reads of those bytes and
//     flushes waiting for them, FUA writes going through;
//     [Device.Unpersisted] lists what a power loss would lose, for
//     crash experiments over simtest.MemDevice members.
//   - Anything else through [Rule]s: a predicate ([OnOp], [InRange],
//     [After], [AfterIOs], [Randomly], combined with [And], [Or], [Not])
//     and an effect (an error instead of service, or extra delay).
//
// # Determinism
//
// Every random choice comes from the engine's named stream
// "<name>/faults" (sim.Engine.Rand), so the same seed gives the same
// faults, and adding a wrapper never perturbs another component's
// numbers.
//
// # Requests
//
// The wrapper is a sim.Device: it checks requests as every device does,
// passes Data through (what a failed read leaves in it is unspecified;
// once a request has completed, early by a timeout or a failure, the
// device below no longer touches its Data), calls Done
// exactly once, and recycles its own child requests (no allocation per
// request once warm). [Device.Stats] counts what it injected.
package faults
