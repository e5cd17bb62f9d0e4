// Package simtest helps test raidsim devices: an in-memory device that
// holds real bytes, a recording wrapper, a conformance suite for the
// sim.Device contract, and golden files.
//
// It imports only the standard library and sim, so every layer's tests
// can use it.
//
// # MemDevice
//
// [MemDevice] is a sim.Device kept in memory, like pebble's in-memory
// file system: a fake that is a first-class implementation. It serves
// reads and writes after fixed latencies (plus an optional bandwidth
// term), stores the bytes of writes that carry Data and returns them to
// reads, and can fail chosen requests in Done ([MemDevice.FailNext],
// [MemDevice.SetFault]) so layers above can be tested under faults.
// Storage is sparse, allocated in 64 KiB chunks on first write, so a
// device of many terabytes costs nothing until written. [MemDevice.ReadAt],
// [MemDevice.WriteAt], [MemDevice.Equal] and [MemDevice.Checksum] inspect
// or seed the contents directly, outside virtual time.
//
// # Recorder
//
// [Recorder] wraps any sim.Device and records each request that passes
// through (operation, range, issue and completion times, error), like
// net/http/httptest.ResponseRecorder. Put it under a layer to assert what
// the layer sent below it; its log makes readable golden files.
//
// # Conformance suite
//
// [TestDevice], modelled on testing/fstest.TestFS, checks that a device
// keeps the sim.Device contract: Done exactly once and never from inside
// Submit, consistent Issued and Completed times, bad requests rejected
// with the right sentinel errors and no panics, an engine that drains,
// and, with [WithData], that reads return the last acknowledged write.
// Every layer of raidsim runs it in its tests:
//
//	func TestConformance(t *testing.T) {
//		simtest.TestDevice(t, func(t *testing.T) (sim.Device, *sim.Engine) {
//			eng := sim.NewEngine(1)
//			return newMyLayer(t, eng), eng
//		}, simtest.WithData())
//	}
//
// # Golden files
//
// [Golden] compares output with a file under testdata/ and rewrites it
// when the test binary runs with -update. simtest defines that flag; a
// test binary can define a flag name only once, so packages that use
// Golden must not define their own "update" flag (use [Updating] to read
// it).
package simtest
