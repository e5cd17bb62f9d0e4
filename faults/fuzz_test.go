package faults_test

import (
	"math"
	"testing"
	"time"

	"github.com/raidsim/raidsim/faults"
	"github.com/raidsim/raidsim/sim"
	"github.com/raidsim/raidsim/simtest"
)

// FuzzConfig: any configuration either fails Validate with an error or
// makes a device that serves a burst of requests with Done called
// exactly once each, never before submit, and the engine running dry.
func FuzzConfig(f *testing.F) {
	f.Add(1e-14, int64(8), int64(0), int64(7e9), int64(30e9), int64(0), int64(0), 0.1, int64(1e6), uint64(1), false)
	f.Add(1.0, int64(-1), int64(1e9), int64(0), int64(0), int64(1), int64(3), 1.0, int64(0), uint64(2), true)
	f.Add(math.NaN(), int64(1<<40), int64(-5), int64(math.MaxInt64), int64(1), int64(math.MaxInt64), int64(-1), -0.5, int64(-1), uint64(3), false)
	f.Add(1e-3, int64(3), int64(5e9), int64(0), int64(2e6), int64(5e6), int64(0), 0.5, int64(3e6), uint64(4), true)
	f.Fuzz(func(t *testing.T, ure float64, bad, recovery, erc, timeout, failAt, failAfter int64, slow float64, slowDelay int64, seed uint64, writeCache bool) {
		cfg := faults.Config{UREPerBit: ure, BadSectors: []int64{bad}, Recovery: time.Duration(recovery), ERC: time.Duration(erc),
			Timeout: time.Duration(timeout), FailAt: time.Duration(failAt), FailAfterIOs: failAfter,
			SlowFraction: slow, SlowDelay: time.Duration(slowDelay), WriteCache: writeCache}
		eng := sim.NewEngine(seed)
		mem, err := simtest.NewMemDevice(eng, simtest.MemConfig{Capacity: 1 << 20, ReadLatency: time.Millisecond, WriteLatency: time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		d, err := faults.New(eng, mem, cfg, "f")
		if err != nil {
			if cfg.Validate(2048) == nil {
				t.Fatalf("New failed but Validate passed: %v", err)
			}
			return
		}
		const n = 64
		calls := make([]int, n)
		for i := range n {
			i := i
			op := []sim.Op{sim.Read, sim.Write, sim.Flush}[(int(seed)+i)%3]
			r := &sim.Request{Op: op, Offset: int64(i%32) * 4096, Length: 4096, Done: func(r *sim.Request) {
				calls[i]++
				if r.Completed < r.Issued {
					t.Errorf("request %d completed at %v before it was issued at %v", i, r.Completed, r.Issued)
				}
			}}
			if op == sim.Flush {
				r.Offset, r.Length = 0, 0
			}
			if err := d.Submit(r); err != nil {
				t.Fatalf("request %d: %v", i, err)
			}
		}
		for steps := 0; eng.Step(); steps++ {
			if steps > 100*n {
				t.Fatal("the engine does not run dry")
			}
		}
		for i, c := range calls {
			if c != 1 {
				t.Fatalf("request %d: Done called %d times", i, c)
			}
		}
	})
}
