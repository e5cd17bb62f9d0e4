package sim_test

import (
	"errors"
	"testing"

	"github.com/raidsim/raidsim/sim"
	"github.com/stretchr/testify/assert"
)

func TestCheckRequest(t *testing.T) {
	done := func(*sim.Request) {}
	const capacity = 1 << 20
	cases := []struct {
		name string
		r    sim.Request
		want error
	}{
		{"read ok", sim.Request{Op: sim.Read, Offset: 512, Length: 4096, Done: done}, nil},
		{"write at end", sim.Request{Op: sim.Write, Offset: capacity - 512, Length: 512, Done: done}, nil},
		{"flush ignores range", sim.Request{Op: sim.Flush, Offset: -1, Done: done}, nil},
		{"bad op", sim.Request{Op: 9, Length: 512, Done: done}, sim.ErrBadOp},
		{"no done", sim.Request{Op: sim.Read, Length: 512}, sim.ErrNoDone},
		{"zero length", sim.Request{Op: sim.Read, Done: done}, sim.ErrZeroLength},
		{"negative length", sim.Request{Op: sim.Write, Length: -512, Done: done}, sim.ErrZeroLength},
		{"misaligned offset", sim.Request{Op: sim.Read, Offset: 100, Length: 512, Done: done}, sim.ErrMisaligned},
		{"misaligned length", sim.Request{Op: sim.Read, Length: 1000, Done: done}, sim.ErrMisaligned},
		{"negative offset", sim.Request{Op: sim.Read, Offset: -512, Length: 512, Done: done}, sim.ErrOutOfRange},
		{"past end", sim.Request{Op: sim.Read, Offset: capacity, Length: 512, Done: done}, sim.ErrOutOfRange},
		{"overflow", sim.Request{Op: sim.Read, Offset: capacity - 512, Length: 1<<63 - 512, Done: done}, sim.ErrOutOfRange},
		{"short data", sim.Request{Op: sim.Write, Length: 1024, Data: make([]byte, 512), Done: done}, sim.ErrDataLength},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := sim.CheckRequest(&c.r, capacity, 512)
			if c.want == nil {
				assert.NoError(t, err)
				return
			}
			assert.True(t, errors.Is(err, c.want), "got %v, want %v", err, c.want)
		})
	}
}

func TestOpAndRequestStrings(t *testing.T) {
	assert.Equal(t, "read", sim.Read.String())
	assert.Equal(t, "write", sim.Write.String())
	assert.Equal(t, "flush", sim.Flush.String())
	assert.Equal(t, "op(7)", sim.Op(7).String())
	r := sim.Request{Op: sim.Write, Offset: 8192, Length: 4096, FUA: true, Issued: 10, Completed: 25}
	assert.Equal(t, "write 4096@8192 fua", r.String())
	assert.Equal(t, int64(12288), r.End())
	assert.EqualValues(t, 15, r.Latency())
}

func TestNilObserverIsSafe(t *testing.T) {
	var o *sim.Observer
	r := &sim.Request{}
	o.OnSubmitted("d", r, 0)
	o.OnPhase("d", r, sim.PhaseSeek, 0, 1)
	o.OnCompleted("d", r, 1)

	var phases []string
	o = &sim.Observer{Phase: func(_ string, _ *sim.Request, p sim.Phase, s, e sim.Time) {
		phases = append(phases, p.String())
	}}
	o.OnPhase("d", r, sim.PhaseSeek, 0, 5)
	o.OnPhase("d", r, sim.PhaseRotate, 5, 5) // empty spans are not reported
	o.OnSubmitted("d", r, 0)                 // nil hook
	assert.Equal(t, []string{"seek"}, phases)
}
