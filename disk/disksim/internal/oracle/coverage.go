package oracle

import (
	"math/rand/v2"
	"sort"
)

// Dimensions returns every coverage dimension the generator draws and
// its values, the first of each the base configuration's.
func Dimensions() map[string][]string {
	vals := map[string][]string{}
	// draws with the values that open the optional branches
	for _, force := range []map[string]string{
		nil,
		{"seek type": "hpl", "segment size": "disk"},
		{"seek type": "hplplus10"},
		{"seek type": "extracted", "stream format": "ascii"},
	} {
		for _, wild := range []bool{false, true} {
			g := &gen{r: rand.New(rand.NewPCG(1, 2)), used: map[string]string{}, total: 1, free: true,
				force: force, vals: vals, wild: wild}
			g.pair(10)
		}
	}
	// wild draws add values to some lists: keep the longest
	return vals
}

// Covered returns, for each dimension value, the indices of the
// entries that DiskSim ran (did not reject) with it and on which it
// completed at least one request.
func Covered(entries []Entry) map[string]map[string][]int {
	out := map[string]map[string][]int{}
	for _, e := range entries {
		if e.DiskSim.Stopped() {
			continue
		}
		for k, v := range e.Dims {
			if out[k] == nil {
				out[k] = map[string][]int{}
			}
			out[k][v] = append(out[k][v], e.Index)
		}
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// alwaysStops are the values on which DiskSim 4.0 stops whatever the
// rest of the model (the corpus has them in pairs both reject).
var alwaysStops = map[string]bool{
	// ioqueue_get_cylinder_mapping divides by the queue's sectors per
	// cylinder, which nothing sets (ioqueue_initialize comments it out)
	"driver cylinder mapping=6": true,
	"disk cylinder mapping=6":   true,
	// dm_layout_g1_compute_blksinband asserts: unknown sparing scheme
	"sparing scheme=0": true,
}

// mostlyStops are values DiskSim stops on in most models: the corpus
// must show them, in pairs it runs or in pairs both reject. Degenerate
// slip and defect lists (slips with no spares, replacements outside the
// zone, unsorted slips) put a zone's track boundaries and its sectors
// at odds, and the disk then loops until the forward-progress assertion
// of disk_buffer_sector_done or asserts in the layout, unless the
// stream misses the sectors concerned. A disk alone on the driver's bus
// completes reads until the first write, whose READY_TO_TRANSFER
// iodriver_respond_to_device drops: nothing completes after it.
//
// The policies that ask the disk for an access-time estimate (SATF_OPT
// 10, WATF_OPT 13, ASATF_OPT 16, TSPS 27) stop DiskSim at their first
// choice between two ready requests (disk_buffer_estimate_acctime
// asserts FALSE): a pair completes only where the queue never holds two.
var mostlyStops = map[string]bool{"defects=degenerate": true, "topology=direct": true,
	"driver scheduling policy=10": true, "driver scheduling policy=13": true,
	"driver scheduling policy=16": true, "driver scheduling policy=27": true,
	"disk scheduling policy=10": true, "disk scheduling policy=13": true,
	"disk scheduling policy=16": true, "disk scheduling policy=27": true}

// Tally is the agreement of the pairs with one dimension value.
type Tally struct {
	// Pairs DiskSim ran, and pairs both simulators reject.
	Pairs, Rejected int
	// Requests compared, those within Tolerance, the largest difference.
	Requests, Within int
	MaxDiff          float64
	// Agree counts the pairs that agree (of Pairs+Rejected).
	Agree int
}

// Replay runs exact mode on every entry and compares it with DiskSim's
// recorded outcome.
func Replay(entries []Entry) []Verdict {
	out := make([]Verdict, len(entries))
	for i, e := range entries {
		got := RunExact(e.Files, e.Stream, e.Stream.Requests(), nil)
		out[i] = Compare(e.DiskSim, got)
	}
	return out
}

// Tallies sums the verdicts by dimension and value.
func Tallies(entries []Entry, verdicts []Verdict) map[string]map[string]*Tally {
	out := map[string]map[string]*Tally{}
	for i, e := range entries {
		v := verdicts[i]
		for k, val := range e.Dims {
			if out[k] == nil {
				out[k] = map[string]*Tally{}
			}
			t := out[k][val]
			if t == nil {
				t = &Tally{}
				out[k][val] = t
			}
			if e.DiskSim.Rejected {
				t.Rejected++
			} else {
				t.Pairs++
				t.Requests += v.Compared
				t.Within += v.Within
				t.MaxDiff = max(t.MaxDiff, v.MaxDiff)
			}
			if v.Agree {
				t.Agree++
			}
		}
	}
	return out
}
