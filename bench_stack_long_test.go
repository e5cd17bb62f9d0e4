//go:build long

package raidsim_test

import (
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/raidsim/raidsim/spec"
)

// TestStackSteadyStateAllocations: once warmed up (caches full, free
// lists and indexes grown), the per-request path of the benchmarked
// stacks, from the workload generator through the cache, the array and
// the drives to the latency recorder, allocates nothing: 0 allocations
// per request as testing.AllocsPerRun counts them, and fewer than 10 in
// 50,000 requests (a free list growing when the requests in flight
// reach a new peak). Build tag long: it warms each of five stacks up with
// 100,000 requests.
func TestStackSteadyStateAllocations(t *testing.T) {
	for _, tc := range []struct {
		name  string
		stack func(x *spec.Experiment)
	}{
		{"stack=cache-raid5x4", func(*spec.Experiment) {}},
		{"stack=cache-raid5x4-ssd", func(x *spec.Experiment) { x.Stack.Drive.Preset = stackSSD }},
		{"stack=raid5x4", func(x *spec.Experiment) { x.Stack.Cache = nil }},
		{"stack=disk/sched=satf", func(x *spec.Experiment) { x.Stack.Cache, x.Stack.RAID, x.Stack.Disks = nil, nil, 1 }},
		{"stack=disk/sched=fcfs", func(x *spec.Experiment) {
			x.Stack.Cache, x.Stack.RAID, x.Stack.Disks = nil, nil, 1
			x.Stack.Drive.Scheduler = "fcfs"
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			x := stackExperiment(1)
			tc.stack(x)
			eng, l := newStackLoop(t, x)
			l.run(eng, 100_000)
			const n = 50_000
			step := func() { l.run(eng, 1) }
			perRequest := testing.AllocsPerRun(n, step)
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			for range n {
				step()
			}
			runtime.ReadMemStats(&after)
			t.Logf("%d allocations in %d requests (free lists growing to a new peak of requests in flight)", after.Mallocs-before.Mallocs, n)
			assert.Less(t, after.Mallocs-before.Mallocs, uint64(10), "allocations in %d requests", n)
			require.NoError(t, l.err)
			assert.Zero(t, perRequest, "allocations per request in steady state")
		})
	}
}
