package scenario

import (
	"testing"

	"github.com/raidsim/raidsim/trace"
)

// TestRunWorkloadAfter: the ramp-up's requests are left out of the
// figures, and a ramp-up that leaves nothing to measure is an error.
func TestRunWorkloadAfter(t *testing.T) {
	s := StackSpec{Preset: "deskstar-7k160"}
	w := trace.Workload{RW: trace.RWRandWrite, BS: 4096, NumIOs: 1000}
	all, err := RunWorkload(s, w, 1)
	if err != nil {
		t.Fatal(err)
	}
	after, err := RunWorkloadAfter(s, w, 1, 400)
	if err != nil {
		t.Fatal(err)
	}
	if all.All.IOs != 1000 || after.All.IOs != 600 {
		t.Errorf("IOs counted: %d without ramp-up, %d after 400; want 1000 and 600", all.All.IOs, after.All.IOs)
	}
	// The drive's write cache absorbs the first writes at bus speed, so
	// leaving them out lowers the rate.
	if after.All.IOPS >= all.All.IOPS {
		t.Errorf("IOPS %.1f after the ramp-up, %.1f over all; want lower after", after.All.IOPS, all.All.IOPS)
	}
	if _, err := RunWorkloadAfter(s, w, 1, 1000); err == nil {
		t.Error("a ramp-up of every request: no error")
	}
}
