package spec_test

import (
	"testing"

	"github.com/raidsim/raidsim/spec"
)

// FuzzDecodeSet: the decoder behind --set and file decoding, fed a key
// path and a value: Set never panics; whatever it accepts leaves an
// experiment that Plan either checks or rejects with an error (never a
// panic), and Decode of arbitrary text is likewise total.
func FuzzDecodeSet(f *testing.F) {
	f.Add("stack.raid.stripe_unit", "64KiB", "phases: [{ios: 3}]")
	f.Add("phases[0].bs", "4k", "stack: {raid: {level: 5}, disks: 3}")
	f.Add("power_loss_at", "0", "")
	f.Add("stack.failures[0].member", "1", "stack: {failures: [{member: 0, at: 1s}]}")
	f.Add("stack.cache", "{size: 1TiB, block: 512}", "phases: [{rw: randwrite}]")
	f.Add("phases[1].background[0].rw", "write", "phases: [{}, {}]")
	f.Add("stack.drive.spec", "{capacity: 1PiB}", "phases: [{ios: 0}]")
	f.Fuzz(func(t *testing.T, path, value, text string) {
		x, err := spec.Decode([]byte(text), "fuzz")
		if err != nil || x == nil {
			x = &spec.Experiment{}
		}
		if err := spec.Set(x, path, value); err != nil {
			return
		}
		if pl, err := x.Plan(); err == nil && pl == nil {
			t.Fatal("Plan returned neither a plan nor an error")
		}
	})
}
