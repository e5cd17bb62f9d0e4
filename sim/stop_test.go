package sim_test

import (
	"errors"
	"testing"
	"time"

	"github.com/raidsim/raidsim/sim"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// tick reschedules itself every nanosecond, for ever.
type tick struct{ e *sim.Engine }

func (h tick) HandleEvent(sim.Time, any) { h.e.After(1, h, nil) }

// TestPollStopsTheRun: a poll runs every N events on the engine's
// goroutine, and its error ends the run: Step reports false, Err says
// why, RunUntil returns.
func TestPollStopsTheRun(t *testing.T) {
	e := sim.NewEngine(1)
	e.After(0, tick{e}, nil)
	var polls []uint64
	stop := errors.New("out of patience")
	e.SetPoll(1000, func() error {
		polls = append(polls, e.Processed())
		if len(polls) == 3 {
			return stop
		}
		return nil
	})
	e.RunUntil(sim.Never - 1)
	assert.Equal(t, []uint64{1000, 2000, 3000}, polls)
	assert.Equal(t, uint64(3000), e.Processed(), "no event after the failing poll")
	assert.ErrorIs(t, e.Err(), stop)
	assert.False(t, e.Step())
	assert.Equal(t, 1, e.Pending(), "events stay pending")
}

// TestOverflowStopsTheRun: a delay that would carry virtual time past
// Never stops the engine with ErrTimeOverflow instead of panicking.
func TestOverflowStopsTheRun(t *testing.T) {
	e := sim.NewEngine(1)
	e.Schedule(sim.Never-10, tick{e}, nil)
	require.True(t, e.Step())
	e.After(time.Hour, tick{e}, nil)
	assert.ErrorIs(t, e.Err(), sim.ErrTimeOverflow)
	assert.False(t, e.Step())
	e.SetPoll(1, nil)
	assert.False(t, e.Step(), "a stopped engine stays stopped")
}
