package teach_test

import (
	"bytes"
	"testing"

	"github.com/raidsim/raidsim"
	"github.com/raidsim/raidsim/sim"
	"github.com/raidsim/raidsim/spec"
	"github.com/raidsim/raidsim/teach"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestTimelineAccountsForEveryRead: at queue depth 1 a random read's
// latency is its overhead, seek, rotational wait and media transfer, with
// at most the bus transfer on top (the bus overlaps the media).
func TestTimelineAccountsForEveryRead(t *testing.T) {
	x := experiment("deskstar-7k500", spec.Job{RW: "randread", BS: 4096, IODepth: 1, IOs: 50})
	tl := teach.NewTimeline(10)
	_, err := raidsim.RunWith(x, raidsim.RunOptions{Observer: tl.Observer()})
	require.NoError(t, err)
	require.Len(t, tl.Entries, 10, "only the first Limit requests are kept")
	for i, e := range tl.Entries {
		assert.EqualValues(t, i+1, e.ID, "in submission order")
		assert.Equal(t, sim.Read, e.Op)
		lat := e.Completed.Sub(e.Submitted)
		p := e.Phases
		service := p[sim.PhaseOverhead] + p[sim.PhaseSeek] + p[sim.PhaseRotate] + p[sim.PhaseMedia]
		assert.Zero(t, p[sim.PhaseQueue], "#%d: nothing queues at depth 1", e.ID)
		assert.Positive(t, p[sim.PhaseSeek], "#%d: a random read seeks", e.ID)
		assert.LessOrEqual(t, service, lat, "#%d", e.ID)
		assert.LessOrEqual(t, lat, service+p[sim.PhaseBus], "#%d", e.ID)
	}
	tb := tl.Table()
	var b bytes.Buffer
	require.NoError(t, tb.WriteText(&b))
	assert.Contains(t, b.String(), "rotate")
	assert.Len(t, tb.Rows, 10)
}
