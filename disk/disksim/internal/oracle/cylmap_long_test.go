//go:build long

package oracle

import (
	"context"
	"math"
	"strconv"
	"testing"
	"time"

	"github.com/raidsim/raidsim/internal/shareddata"
)

// slippedFrontModel turns generated pair k's model into one that tells
// the cylinder mapping strategies apart: one zone of ten cylinders on
// one surface, 8 sectors a track, spares per zone (scheme 9) and the
// first five slots slipped, so that LBN 3 and LBN 4 lie on cylinder 1
// when translated with the slips (DiskSim's disk_get_mapping does so
// for blocks 3 and 4 under strategies 3 and 4) and on cylinder 0
// otherwise; both queues under policy and strategy, no queueing in the
// subsystem.
func slippedFrontModel(k int, policy, strategy string) map[string]string {
	m := Generate(k, 340, 21, 10).Model
	z := Zone{KV: append([]KV(nil), m.Zones[0].KV...)}
	for _, kv := range [][2]string{
		{"First cylinder number", "0"}, {"Last cylinder number", "9"}, {"Blocks per track", "8"},
		{"Offset of first block", "0.000000"}, {"Empty space at zone front", "0"},
		{"Skew for track switch", "0.000000"}, {"Skew for cylinder switch", "0.000000"},
		{"Number of spares", "10"}, {"slips", "[ 0, 1, 2, 3, 4 ]"}, {"defects", "[ ]"},
	} {
		z.KV = Set(z.KV, kv[0], kv[1])
	}
	m.Zones = []Zone{z}
	m.Surfaces, m.Cyls, m.BlockCount = 1, 10, 70
	m.Layout = Set(m.Layout, "Sparing scheme used", "9")
	m.Disk = Set(m.Disk, "Segment size (in blks)", "16")
	m.Disk = Set(m.Disk, "Avg sectors per cylinder", "8")
	m.Driver = Set(m.Driver, "Use queueing in subsystem", "0")
	for _, q := range []*[]KV{&m.DriverSched, &m.DiskSched} {
		*q = Set(Set(*q, "Scheduling policy", policy), "Cylinder mapping strategy", strategy)
	}
	return m.Files()
}

// TestCylinderMappingLive runs DiskSim on slippedFrontModel: block 40
// first, then 60, 4, 20, 3, 65, 30 and 50 queued behind it, then
// requests far apart that let the queue drain. Under every cylinder
// policy and strategy 0-5 exact mode agrees with DiskSim, and under
// ELEVATOR_CYL strategies 3 and 4 (blocks 3 and 4 on cylinder 1) give
// DiskSim's order other times than strategy 0 does: the model tells
// the swapped mapping of disk_get_mapping from MAP_NONE.
func TestCylinderMappingLive(t *testing.T) {
	root := shareddata.Dir(t)
	tools, ok := DefaultTools(root)
	if !ok {
		t.Skip("DiskSim not built under " + root + "/tools/disksim")
	}
	spec := StreamSpec{Format: "ascii", Kind: "random", Gaps: "small", Size: 70, N: 18}
	var recs []Record
	for i, b := range []int{40, 60, 4, 20, 3, 65, 30, 50} {
		recs = append(recs, Record{Read: true, Blkno: b, Bcount: 1, Gap: map[bool]float64{true: 0.001}[i == 1]})
	}
	for i := 0; i < 10; i++ {
		recs = append(recs, Record{Read: true, Blkno: 10 + i, Bcount: 1, Gap: 1000})
	}
	// the first of these pairs DiskSim runs under strategy 0 is the base
	run := func(k int, policy, strategy string) Outcome {
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		o, err := tools.RunDiskSim(ctx, slippedFrontModel(k, policy, strategy), spec, recs)
		if err != nil {
			t.Fatal(err)
		}
		return o
	}
	base := -1
	for k := 0; k < 20 && base < 0; k++ {
		if o := run(k, "5", "0"); !o.Rejected && !math.IsNaN(o.Resp[7]) {
			base = k
		}
	}
	if base < 0 {
		t.Fatal("DiskSim runs none of pairs 0-19 made into slippedFrontModel")
	}
	for _, policy := range []string{"5", "6", "7", "18"} {
		var first Outcome
		for s := 0; s <= 5; s++ {
			strategy := strconv.Itoa(s)
			files := slippedFrontModel(base, policy, strategy)
			want := run(base, policy, strategy)
			got := RunExact(files, spec, recs, nil)
			if v := Compare(want, got); !v.Agree || v.Compared < 8 {
				t.Errorf("pair %d as slippedFrontModel, policy %s, strategy %s: %d compared: %s", base, policy, strategy, v.Compared, v.Why)
			}
			if s == 0 {
				first = want
			} else if policy == "5" && s >= 3 && s <= 4 && first.Resp[2] == want.Resp[2] {
				t.Errorf("policy 5: strategy %s serves block 4 as strategy 0 does (%.3f ms): the model does not tell them apart", strategy, want.Resp[2])
			}
		}
	}
}
