package oracle

import (
	"slices"
	"strings"
	"testing"

	"github.com/raidsim/raidsim/disk/disksim"
)

// TestLoaderTakesWhatDiskSimTakes checks exact mode's loader against
// what DiskSim 4.0 does with values outside the manuals' ranges (each
// case run through run-reqlog.sh): the loaders disk.modspec and
// dm_mech_g1 generate test a range and do nothing when it fails, so
// these load; disk_postpass_perdisk's checks, a rotation speed of 0 and
// a disk size read before the Model stop DiskSim, and exact mode names
// them.
func TestLoaderTakesWhatDiskSimTakes(t *testing.T) {
	p := Generate(0, 340, 21, 2000)
	base := p.Model.Files()["model.parv"]
	set := func(key, val string) string { return setParam(t, base, "  ", key, val) }
	for _, tc := range []struct {
		key, val string
		want     string // "" loads; else part of the error
	}{
		{"Read completion overhead", "-0.5", ""},
		{"Time scale for overheads", "-1.0", ""},
		{"Bulk sector transfer time", "-0.002", ""},
		{"Low (write) water mark", "1.5", ""},
		{"Buffer continuous read", "7", ""},
		{"Enable caching in buffer", "3", ""},
		{"Immediate buffer read", "3", ""},
		{"Read-ahead over requested", "2", ""},
		{"Minimum read-ahead (blks)", "999999", ""},
		{"Avg sectors per cylinder", "0", ""},
		{"Read any free blocks", "2", ""},
		{"Head switch time", "-0.5", ""},
		{"Percent error in rpms", "150.0", ""},
		{"Arbitration type", "3", ""},
		{"Scheduling policy", "17", ""},
		{"Scheduling policy", "19", ""},
		{"Scheduling policy", "28", "Scheduling policy = 28: BATCH_FCFS hands out a request only once its batch is complete"},
		{"Scheduling timeout scheme", "1", ""},
		{"Scheduling timeout scheme", "9", ""},
		{"Scheduling priority scheme", "1", ""},
		{"Scheduling priority scheme", "2", ""}, // stops at the first request (exact.TestPriorityScheme)
		{"Sequential stream scheme", "3", ""},
		{"Sequential stream scheme", "31", ""},
		{"Overlapping request scheme", "1", ""},
		{"Overlapping request scheme", "2", ""},
		{"Constant access time", "3.5", ""},
		{"Constant access time", "-1.0", ""},
		{"Constant access time", "-2.0", ""},
		{"Constant access time", "-3.0", ""},
		{"Scheduling policy", "8", ""},
		{"Scheduling policy", "27", ""},
		{"Fast write level", "3", "Fast write level = 3: DiskSim accepts 0..2 only (disk_postpass_perdisk)"},
		{"Preseeking level", "3", "disk_postpass_perdisk"},
		{"Never disconnect", "2", "Never disconnect = 2: DiskSim accepts 0..1 only (disk_postpass_perdisk)"},
		{"Max queue length", "-1", "disk_postpass_perdisk"},
		{"Maximum number of write segments", "9", "the number of write segments: DiskSim rejects it (disk_postpass_perdisk)"},
		{"Rotation speed (in rpms)", "0", "forward-progress assertion"},
	} {
		files := map[string]string{"model.parv": set(tc.key, tc.val)}
		if c, ok := p.Model.Files()["curve.seek"]; ok {
			files["curve.seek"] = c
		}
		_, err := LoadFiles(files)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s = %s: %v; DiskSim runs it", tc.key, tc.val, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s = %s: error %v, want %q", tc.key, tc.val, err, tc.want)
		}
	}
}

// TestLoaderControllerTypes: exact mode loads the pass-through and
// 53C700-based controllers, refuses a smart controller (type 3) without
// the Scheduler it copies (DiskSim segfaults, run through
// run-reqlog.sh), and names another type as what DiskSim exits on
// ("Unknown controller type in controller_interrupt_arrive: 4").
func TestLoaderControllerTypes(t *testing.T) {
	p := Generate(2, 340, 21, 2000)
	base := p.Model.Files()["model.parv"]
	const ctlr = "disksim_ctlr CTLR0 {\n  type = "
	if !strings.Contains(base, ctlr) {
		t.Fatal("pair 2 has no controller")
	}
	for _, tc := range []struct{ typ, want string }{
		{"1", ""}, {"2", ""},
		{"3", "a smart controller (type 3) without a Scheduler: DiskSim follows a null pointer"},
		{"4", "controller type 4: DiskSim exits on it at start-up"},
	} {
		i := strings.Index(base, ctlr) + len(ctlr)
		files := map[string]string{"model.parv": base[:i] + tc.typ + base[i+1:]}
		if c, ok := p.Model.Files()["curve.seek"]; ok {
			files["curve.seek"] = c
		}
		_, rep, err := disksim.LoadExactWith("model.parv", func(name string) ([]byte, error) { return []byte(files[name]), nil })
		if (tc.want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("controller type %s: error %v, want %q", tc.typ, err, tc.want)
		}
		// only the smart controller reads its queue length
		if err == nil && !slices.Contains(rep.Ignored, "disksim_ctlr: Maximum queue length (read by the smart controller only)") {
			t.Errorf("controller type %s: ignored %v", tc.typ, rep.Ignored)
		}
	}
}

// TestLoaderCylinderMapping: the loader takes every mapping strategy
// DiskSim 4.0 knows (0-6) under every policy and names the Cylinder
// mapping strategy DiskSim exits on.
func TestLoaderCylinderMapping(t *testing.T) {
	p := Generate(0, 340, 21, 2000)
	base := p.Model.Files()["model.parv"]
	set := func(s, key, val string) string { return setParam(t, s, "    ", key, val) }
	for _, tc := range []struct {
		policy, cylMap string
		want           string // "" loads; else part of the error
	}{
		{"5", "0", ""}, {"6", "1", ""}, {"7", "2", ""}, {"18", "3", ""}, {"5", "4", ""},
		{"6", "5", ""}, {"7", "6", ""}, {"2", "5", ""}, {"19", "4", ""},
		{"7", "7", "Cylinder mapping strategy = 7: DiskSim 4.0 exits on it"},
		{"1", "-1", "Cylinder mapping strategy = -1: DiskSim 4.0 exits on it"},
	} {
		parv := set(set(base, "Scheduling policy", tc.policy), "Cylinder mapping strategy", tc.cylMap)
		err := loadParv(p, parv)
		if (tc.want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("policy %s, mapping %s: error %v, want %q", tc.policy, tc.cylMap, err, tc.want)
		}
	}
}

// loadParv loads parv with pair p's seek curve.
func loadParv(p Pair, parv string) error {
	files := map[string]string{"model.parv": parv}
	if c, ok := p.Model.Files()["curve.seek"]; ok {
		files["curve.seek"] = c
	}
	_, err := LoadFiles(files)
	return err
}

// setParam sets the first parameter key indented by indent in parv.
func setParam(t *testing.T, parv, indent, key, val string) string {
	i := strings.Index(parv, indent+key+" = ")
	if i < 0 {
		t.Fatalf("pair 0 has no %q", key)
	}
	j := strings.IndexAny(parv[i:], ",\n")
	return parv[:i] + indent + key + " = " + val + parv[i+j:]
}

// TestLoaderSmartCache: a smart controller's memory cache loads with
// DiskSim's checks, and what exact mode does not simulate is named with
// its value. DiskSim (run-reqlog.sh on pair 22's model) segfaults with
// no Cache block, and, but under segmented LRU with no SLRU segments,
// at the first periodic or idle flush (which exact mode simulates), all
// with a cache of size 0; pair 22's own cache has 2,048 blocks, and
// what exact mode does not simulate of such a cache is refused.
func TestLoaderSmartCache(t *testing.T) {
	p := Generate(22, 340, 21, 2000)
	if p.Dims["controller type"] != "3" {
		t.Fatalf("pair 22 has controller type %s, want 3", p.Dims["controller type"])
	}
	space := p.Model.Files()["model.parv"]
	if !strings.Contains(space, "    Cache size = 2048,\n    SLRU segments = [1.0],\n") {
		t.Fatal("pair 22's cache is not 2,048 blocks under one SLRU segment")
	}
	base := strings.Replace(space, "    Cache size = 2048,\n    SLRU segments = [1.0],\n", "    Cache size = 0,\n", 1)
	set := func(key, val string) string { return setParam(t, base, "    ", key, val) }
	setSpace := func(key, val string) string { return setParam(t, space, "    ", key, val) }
	for _, tc := range []struct {
		parv, want string // want "" loads
	}{
		{base, ""},
		{space, ""},
		{setSpace("Write scheme", "2"), ""},
		{setSpace("Write scheme", "3"), ""},
		{setSpace("Replacement policy", "3"), "Cache size = 2048: Replacement policy = 3"},
		{setSpace("Line size", "0"), ""},
		{setParam(t, setSpace("Line size", "0"), "    ", "Lock granularity", "4"), "Cache size = 2048: Line size = 0 with Bit granularity"},
		{setSpace("SLRU segments", "[0.5, 0.5]"), "Cache size = 2048: SLRU segments = 2 values"},
		{set("Write scheme", "3"), ""},
		{set("Replacement policy", "2"), ""},
		{set("Max request size", "16"), ""},
		{setParam(t, set("Replacement policy", "1"), "    ", "Flush policy", "1"), ""},
		{setParam(t, set("Replacement policy", "1"), "    ", "Flush idle delay", "5.0"), ""},
		{setParam(t, set("Replacement policy", "2"), "    ", "Flush idle delay", "5.0"), ""},
		{setParam(t, setParam(t, set("Replacement policy", "2"), "    ", "Flush policy", "1"), "    ", "Flush period", "0.0"), "Flush period = 0 under segmented LRU with no SLRU segments: DiskSim re-arms"},
		{set("Write scheme", "4"), "Write scheme = 4: DiskSim accepts 1..3 only"},
		{setParam(t, set("Line size", "8"), "    ", "Bit granularity", "3"), "Line size = 8 is not a multiple of Bit granularity = 3"},
		{strings.Replace(base, "disksim_cachemem", "disksim_cachedev", 1), "exact mode simulates disksim_cachemem only"},
	} {
		err := loadParv(p, tc.parv)
		if (tc.want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("error %v, want %q", err, tc.want)
		}
	}
}

// TestDiskQueueConcatenation: pair 75 (an ASCII stream, the driver
// queueing in the subsystem) with the disk's queue concatenating reads
// stops where DiskSim 4.0 asserts (run through run-reqlog.sh:
// "ioqueue_set_starttime: Assertion `(queue->seqscheme & 3) == 0'
// failed", after 15 requests).
func TestDiskQueueConcatenation(t *testing.T) {
	p := Generate(75, 340, 21, 2000)
	parv := p.Model.Files()["model.parv"]
	i := strings.LastIndex(parv, "Sequential stream scheme = ")
	if i < 0 {
		t.Fatal("pair 75 has no disk queue")
	}
	parv = parv[:i] + setParam(t, setParam(t, parv[i:], "", "Sequential stream scheme", "1"), "", "Maximum concat size", "64")
	files := map[string]string{"model.parv": parv}
	if c, ok := p.Model.Files()["curve.seek"]; ok {
		files["curve.seek"] = c
	}
	o := RunExact(files, p.Stream, p.Stream.Requests(), nil)
	if !o.Rejected || !strings.Contains(o.Why, "ioqueue_set_starttime") {
		t.Errorf("got %v %q, want a stop at ioqueue_set_starttime", o.Rejected, o.Why)
	}
}

// TestLoaderTruncatesAsDiskSim: the G1 mechanics' loaders convert
// times with dm_time_dtoi, whose product with 10^9 the reference build
// keeps in an x87 register before truncating. HPL values 2.606865 and
// 0.004292 ms, a head switch of 0.060311 ms and a write settle of
// 0.004292 ms load a picosecond short of their decimal figures (each
// double lies just below its decimal); a seek of 21 cylinders then
// takes 2,696,996,978 ps, as DiskSim's does (the minimized pair 125 of
// docs/disksim-fidelity.md, traced with gdb).
func TestLoaderTruncatesAsDiskSim(t *testing.T) {
	p := Generate(0, 340, 21, 2000)
	files := p.Model.Files()
	parv := setParam(t, files["model.parv"], "  ", "Seek type", "hpl")
	parv = strings.Replace(parv, "Seek type = hpl,", "Seek type = hpl,\n      HPL seek equation values = [ 9, 1.018333, 0.168741, 2.606865, 0.004292, 1.441807 ],", 1)
	parv = setParam(t, parv, "  ", "Head switch time", "0.060311")
	files["model.parv"] = setParam(t, parv, "  ", "Add. write settling delay", "0.004292")
	m, err := LoadFiles(files)
	if err != nil {
		t.Fatal(err)
	}
	mech := m.Mech
	if mech.SeekType != 3 || mech.HPL[3] != 2606864999 || mech.HPL[4] != 4291999 || mech.HeadSwitch != 60310999 || mech.WriteSettle != 4291999 {
		t.Errorf("seek type %d, HPL %v, head switch %d ps, settle %d ps; want 3, V4 2606864999, V5 4291999, 60310999, 4291999",
			mech.SeekType, mech.HPL, mech.HeadSwitch, mech.WriteSettle)
	}
	if got := mech.HPL[3] + 21*mech.HPL[4]; got != 2696996978 {
		t.Errorf("21-cylinder seek %d ps, DiskSim's 2696996978", got)
	}
}
