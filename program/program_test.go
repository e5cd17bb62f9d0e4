package program_test

import (
	"errors"
	"fmt"
	"log"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/raidsim/raidsim/disk"
	"github.com/raidsim/raidsim/program"
	"github.com/raidsim/raidsim/sim"
	"github.com/raidsim/raidsim/simtest"
)

// memDevice is a 1 GiB in-memory device that takes lat per request.
func memDevice(t testing.TB, eng *sim.Engine, lat time.Duration) *simtest.MemDevice {
	t.Helper()
	d, err := simtest.NewMemDevice(eng, simtest.MemConfig{Capacity: 1 << 30, ReadLatency: lat, WriteLatency: lat})
	require.NoError(t, err)
	return d
}

// sequence returns a program's next function issuing n sequential 4 KiB
// reads of dev, tagged with their number, then Done.
func sequence(dev sim.Device, n int) func() program.Step {
	i := 0
	return func() program.Step {
		if i == n {
			return program.Step{Done: true}
		}
		i++
		return program.Step{Dev: dev, Op: sim.Read, Offset: int64(i-1) * 4096, Length: 4096, Tag: i - 1}
	}
}

// TestProgramIssuesOneAtATime: a program keeps one request outstanding,
// passes each step's tag to OnDone, and ends when its steps do.
func TestProgramIssuesOneAtATime(t *testing.T) {
	eng := sim.NewEngine(1)
	dev := memDevice(t, eng, time.Millisecond)
	p := program.New(eng, sequence(dev, 10))
	var tags []int
	p.OnDone = func(r *sim.Request, tag int) {
		assert.Zero(t, dev.Stats().InFlight, "no request outstanding beside the one completing")
		assert.Equal(t, int64(tag)*4096, r.Offset)
		tags = append(tags, tag)
	}
	assert.False(t, p.Finished())
	require.NoError(t, program.Run(eng, p))
	assert.True(t, p.Finished())
	assert.Equal(t, []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, tags)
	assert.Equal(t, sim.Time(10*time.Millisecond), p.End, "ten requests of 1 ms, one after the other")
}

// TestProgramsWaitForEachOther: a reader and a writer on one engine,
// the writer waiting for what the reader has read and the reader at most
// two chunks ahead, both poking the other.
func TestProgramsWaitForEachOther(t *testing.T) {
	eng := sim.NewEngine(1)
	src, dst := memDevice(t, eng, time.Millisecond), memDevice(t, eng, 3*time.Millisecond)
	const chunk, size = 64 << 10, 1 << 20
	var read, written int64
	var rd, wr *program.Program
	rd = program.New(eng, func() program.Step {
		switch {
		case read == size:
			return program.Step{Done: true}
		case read-written >= 2*chunk:
			return program.Step{Wait: true}
		}
		return program.Step{Dev: src, Op: sim.Read, Offset: read, Length: chunk}
	})
	rd.OnDone = func(r *sim.Request, _ int) {
		read += r.Length
		wr.PokeLater()
	}
	wr = program.New(eng, func() program.Step {
		switch {
		case written == size:
			return program.Step{Done: true}
		case written == read:
			return program.Step{Wait: true}
		}
		return program.Step{Dev: dst, Op: sim.Write, Offset: written, Length: chunk}
	})
	wr.OnDone = func(r *sim.Request, _ int) {
		assert.LessOrEqual(t, r.End(), read, "the writer writes only what was read")
		written += r.Length
		rd.Poke()
	}
	require.NoError(t, program.Run(eng, rd, wr))
	assert.Equal(t, int64(size), dst.Stats().BytesWritten)
	// The writer is the bottleneck: 16 writes of 3 ms after the first
	// read, the reader finishing two chunks before the writer does.
	assert.Equal(t, sim.Time(49*time.Millisecond), wr.End)
	assert.Less(t, rd.End, wr.End)
}

// TestRunStops: Run returns a request's error, and says
// when every program waits with nothing left to happen.
func TestRunStops(t *testing.T) {
	eng := sim.NewEngine(1)
	dev := memDevice(t, eng, time.Millisecond)
	boom := errors.New("media error")
	dev.FailNext(boom)
	p := program.New(eng, sequence(dev, 5))
	assert.ErrorIs(t, program.Run(eng, p), boom)
	assert.False(t, p.Finished(), "a failed request stops the program")

	p = program.New(eng, func() program.Step {
		return program.Step{Dev: dev, Op: sim.Read, Offset: 1 << 30, Length: 4096}
	})
	assert.ErrorIs(t, program.Run(eng, p), sim.ErrOutOfRange, "a request the device refuses")

	p = program.New(eng, func() program.Step { return program.Step{Wait: true} })
	assert.ErrorContains(t, program.Run(eng, p), "stalled")
}

// TestProgramAllocatesNothingPerRequest: running a program of 10,000
// requests allocates what one of 10 does.
func TestProgramAllocatesNothingPerRequest(t *testing.T) {
	allocs := func(n int) float64 {
		return testing.AllocsPerRun(5, func() {
			eng := sim.NewEngine(1)
			dev := memDevice(t, eng, time.Microsecond)
			if err := program.Run(eng, program.New(eng, sequence(dev, n))); err != nil {
				t.Fatal(err)
			}
		})
	}
	few, many := allocs(10), allocs(10000)
	assert.Equal(t, few, many, "allocations for 10 and for 10,000 requests")
}

// A copy from one drive to another on one engine: a reader at most four
// 1 MiB chunks ahead of a writer, each waking the other.
func ExampleProgram() {
	eng := sim.NewEngine(1)
	params, err := disk.Deskstar7K160Spec().Params()
	if err != nil {
		log.Fatal(err)
	}
	src, err := disk.New(eng, params, "src/disk0", nil)
	if err != nil {
		log.Fatal(err)
	}
	dst, err := disk.New(eng, params, "dst/disk0", nil)
	if err != nil {
		log.Fatal(err)
	}
	const size, chunk = 256 << 20, 1 << 20
	var read, written int64
	var reader, writer *program.Program
	reader = program.New(eng, func() program.Step {
		switch {
		case read == size:
			return program.Step{Done: true}
		case read-written >= 4*chunk:
			return program.Step{Wait: true}
		}
		return program.Step{Dev: src, Op: sim.Read, Offset: read, Length: chunk}
	})
	reader.OnDone = func(r *sim.Request, _ int) { read += r.Length; writer.Poke() }
	writer = program.New(eng, func() program.Step {
		switch {
		case written == size:
			return program.Step{Done: true}
		case written == read:
			return program.Step{Wait: true}
		}
		return program.Step{Dev: dst, Op: sim.Write, Offset: written, Length: chunk}
	})
	writer.OnDone = func(r *sim.Request, _ int) { written += r.Length; reader.Poke() }
	if err := program.Run(eng, reader, writer); err != nil {
		log.Fatal(err)
	}
	secs := writer.End.Seconds()
	fmt.Printf("copied %d MiB in %.2f s: %.1f MB/s\n", size>>20, secs, size/secs/1e6)
	// Output:
	// copied 256 MiB in 3.55 s: 75.6 MB/s
}
