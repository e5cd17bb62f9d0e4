package exact

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// c700Model is a one-zone disk with full fast writes behind a
// controller of type ctype: the disk's bus exclusive with arbitration
// time 0.2 ms and write block time busBlk, the controller's block time
// ctlrBlk and scale 1, the disk's write-hit overhead 0.3 ms, data
// preparation 0.1 ms and write completion 0.05 ms.
func c700Model(ctype int, busBlk, ctlrBlk float64) *Model {
	return &Model{
		Layout: Layout{Sparing: trackSparing, Surfaces: 2, Cylinders: 20,
			Zones: []Zone{{FirstCyl: 0, LastCyl: 19, BlocksPerTrack: 100}}},
		Mech: Mech{RPM: 6000},
		Disk: Disk{TimeScale: 1, BlockTime: 0.002, Segments: 2, WriteSegments: 1, SegmentSize: 200,
			Caching: true, FastWrite: fastWriteFull, MaxQueue: 1, HighWater: 1, LowWater: 1,
			WriteHitAfterRead: 0.3, WriteHitAfterWrite: 0.3, DataPreparation: 0.1, WriteCompletion: 0.05,
			ReadCompletion: 0.05},
		Queue:       Queue{Policy: schedFCFS},
		DriverQueue: Queue{Policy: schedFCFS},
		Bus:         Bus{ArbTime: 0.2, ReadBlock: busBlk, WriteBlock: busBlk},
		TopBus:      Bus{ArbTime: 0.2},
		Controller:  &Controller{Type: ctype, TimeScale: 1, BlockTime: ctlrBlk},
	}
}

// TestC700WriteTiming works an 8-block fast write through a 53C700 by
// hand (controller_53c700_* in disksim_ctlrdumb.c): the request crosses
// to the disk after the bus arbitration (0.2 ms) and the 53C700's 0.5 ms;
// the disk answers ready-to-transfer after its write-hit overhead and
// data preparation (0.3 + 0.1 ms), which the 53C700 answers itself after
// 0.5 ms (nothing goes up to the driver); the 53C700 moves the 8 blocks
// at the slower of its block time and the disk's (max of the bus's and
// the disk's own 0.002 ms); the disk sends its completion after 0.05 ms,
// and the 53C700 passes it up after 0.5 ms. So 2.15 ms plus the
// transfer: 8 x 0.01 (the controller's) = 2.23 ms, or 8 x 0.02 (the
// bus's) = 2.31 ms.
func TestC700WriteTiming(t *testing.T) {
	for _, c := range []struct {
		busBlk, ctlrBlk, want float64
	}{
		{0.005, 0.01, 2.23},
		{0.02, 0.001, 2.31},
	} {
		res, err := c700Model(ctlr53C700, c.busBlk, c.ctlrBlk).Run([]Request{{Blkno: 1000, Bcount: 8}}, true)
		require.NoError(t, err)
		require.True(t, res[0].Done)
		assert.InDelta(t, c.want, res[0].Response, 1e-9, "bus block %g ms, controller block %g ms", c.busBlk, c.ctlrBlk)
	}
}

// TestPassThruWriteTiming is the same write through a pass-through
// controller (controller_passthru_event_arrive): every message crosses
// it after 1 ms, the ready-to-transfer goes up to the driver as a
// reconnection and comes back down (two crossings), and the data moves
// at the disk's block time (0.02 ms, the bus's) without the controller:
// 0.2 + 1 + 0.4 + 1 + 1 + 0.16 + 0.05 + 1 = 4.81 ms.
func TestPassThruWriteTiming(t *testing.T) {
	res, err := c700Model(ctlrPassThru, 0.02, 0.001).Run([]Request{{Blkno: 1000, Bcount: 8}}, true)
	require.NoError(t, err)
	assert.InDelta(t, 4.81, res[0].Response, 1e-9)
}

// TestC700OneAtATime: the driver offers a 53C700 one request at a time
// (iodriver_schedule's DRIVER_C700 part). With queueing in the
// subsystem, of two requests arriving together the second goes down
// only when the driver answers the first's completion (at 2.23 ms), so
// it completes more than 2 ms after the first; sent at once, it would
// reach the 53C700 while a request is pending there, where DiskSim
// exits ("Request arriving at non-FREE controller").
func TestC700OneAtATime(t *testing.T) {
	m := c700Model(ctlr53C700, 0.005, 0.01)
	m.DriverQueueing = true
	m.Disk.MaxQueue = 4
	res, err := m.Run([]Request{{Arrival: 0, Blkno: 1000, Bcount: 8}, {Arrival: 0, Blkno: 3000, Bcount: 8}, {Arrival: 50, Blkno: 10, Bcount: 1}}, false)
	require.NoError(t, err)
	assert.InDelta(t, 2.23, res[0].Response, 1e-9)
	assert.Greater(t, res[1].Response, res[0].Response+2.0, "the second request waits for the first")
}

// TestTracedTimes: with a validate trace (whose reader sets the traced
// times to 0) a traced access time completes each request at once, a
// traced queue time sends it to the disk as a constant of 0 does; ASCII
// traces, whose reader leaves the fields unset, are refused.
func TestTracedTimes(t *testing.T) {
	reqs := []Request{{Blkno: 1000, Bcount: 8, GapUs: 1000}, {Blkno: 2000, Bcount: 8}}
	base, err := c700Model(ctlr53C700, 0.005, 0.01).Run(reqs, true)
	require.NoError(t, err)
	for _, ct := range []float64{tracedAccess, tracedBoth, -0.5} {
		m := c700Model(ctlr53C700, 0.005, 0.01)
		m.DriverConstTime = ct
		res, err := m.Run(reqs, true)
		require.NoError(t, err)
		assert.Equal(t, 0.0, res[0].Response, "constant access time %g", ct)
		assert.Equal(t, 0.0, res[1].Response, "constant access time %g", ct)
	}
	m := c700Model(ctlr53C700, 0.005, 0.01)
	m.DriverConstTime = tracedQueue
	res, err := m.Run(reqs, true)
	require.NoError(t, err)
	assert.InDelta(t, base[0].Response, res[0].Response, 1e-12)
	assert.InDelta(t, base[1].Response, res[1].Response, 1e-12)
	_, err = m.Run(reqs, false)
	assert.ErrorContains(t, err, "ASCII trace reader leaves them unset")
}

// TestC700TransferUnderWay: a 53C700 moving data while the media reads
// on (a read transferred as it arrives) is asked how much it has moved,
// which DiskSim reads from memory it never set: the run stops with
// ErrUndefined.
func TestC700TransferUnderWay(t *testing.T) {
	m := c700Model(ctlr53C700, 0.005, 0.5)
	m.Disk.HighWater, m.Disk.LowWater = 0, 0
	m.Disk.ImmedTransferPartial = true
	_, err := m.Run([]Request{{Blkno: 1000, Bcount: 64, Read: true}}, true)
	require.Error(t, err)
	assert.True(t, errors.Is(err, ErrUndefined), "%v", err)
}
