package exact

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// burst is five ASCII requests arriving 0.1 ms apart, two pairs of
// them adjacent reads, so that the driver's queue holds several, and a
// last one long after (DiskSim stops at the last arrival).
func burst() []Request {
	return []Request{
		{Arrival: 1, Blkno: 1000, Bcount: 8, Read: true},
		{Arrival: 1.1, Blkno: 3000, Bcount: 8, Read: true},
		{Arrival: 1.2, Blkno: 1008, Bcount: 8, Read: true},
		{Arrival: 1.3, Blkno: 2000, Bcount: 8},
		{Arrival: 1.4, Blkno: 3008, Bcount: 8, Read: true},
		{Arrival: 1000, Blkno: 0, Bcount: 1, Read: true},
	}
}

// TestPriorityScheme: a request joins the priority subqueue under
// TWOQUEUE only when flagged time-critical or time-limited, which a
// Request never is, so scheme 1 times every request as scheme 0; any
// other scheme stops DiskSim at the first request its queue takes
// (ioqueue_add_new_request: "Unknown priority scheme", seen with
// run-reqlog.sh on the driver's queue and the disk's), and a disk the
// driver never reaches (a constant access time) runs.
func TestPriorityScheme(t *testing.T) {
	m := c700Model(ctlrPassThru, 0.01, 0)
	want, err := m.Run(burst(), false)
	require.NoError(t, err)
	require.True(t, want[4].Done)
	m.DriverQueue.PriorityScheme, m.Queue.PriorityScheme = priTwoQueue, priTwoQueue
	got, err := m.Run(burst(), false)
	require.NoError(t, err)
	assert.Equal(t, want, got)

	for _, q := range []*Queue{&m.DriverQueue, &m.Queue} {
		m.DriverQueue.PriorityScheme, m.Queue.PriorityScheme = priAllEqual, priAllEqual
		q.PriorityScheme = 2
		_, err := m.Run(burst(), false)
		assert.True(t, errors.Is(err, ErrDiskSimAbort), "%v", err)
	}
	m.DriverConstTime = 2.5
	res, err := m.Run(burst(), false)
	require.NoError(t, err)
	assert.InDelta(t, 2.5, res[0].Response, 1e-9)
}
