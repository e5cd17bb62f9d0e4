// Package sim is the kernel of raidsim: virtual time, the discrete-event
// engine, the block I/O vocabulary shared by every layer, and named
// deterministic random streams.
//
// # Virtual time
//
// [Time] counts nanoseconds since the run began as an int64, like
// [time.Duration]; spans between two instants are plain time.Duration
// values. Nothing in a simulation reads the wall clock: the [Engine] is the
// only clock, and it advances only when it pops the next event.
//
// # Events
//
// An [Engine] keeps a typed 4-ary min-heap of events ordered by (time,
// sequence number), so events scheduled for the same instant run in the
// order they were scheduled. An event names a [Handler] and one argument of
// type any. Passing a pointer (or nil) as the argument and a handler bound
// once at construction keeps scheduling free of allocations: the heap grows
// to the largest number of pending events and then reuses its storage.
//
// # Devices and requests
//
// Every layer of a storage stack (a drive, a RAID array, a volume cache)
// implements [Device]. Callers fill a [Request] and [Device.Submit] it;
// problems visible at submit time (zero length, misalignment, past the end)
// are returned at once by Submit, and Done is then never called. Otherwise
// the device calls the request's Done exactly once, from the event loop,
// with Completed set and Err holding any fault found during service.
// Addresses and lengths are bytes at every Device boundary.
//
// # Randomness
//
// [Engine.Rand] returns a named stream seeded from the run seed and a hash
// of the name, so adding a component never perturbs another component's
// numbers. Streams are *rand.Rand from math/rand/v2 and therefore plug into
// gonum's distuv distributions as their Src.
package sim
