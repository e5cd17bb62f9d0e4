package main

import "testing"

// TestIntelRAID0CacheWriteBack runs the example at reduced sizes and
// checks the direction of each effect S2's author saw that the model
// reproduces; the ones it does not are logged (the example's output
// explains them).
func TestIntelRAID0CacheWriteBack(t *testing.T) {
	rs, err := run(0.25)
	if err != nil {
		t.Fatal(err)
	}
	get := func(name string) result {
		t.Helper()
		r := find(rs, name)
		if r.Name == "" {
			t.Fatalf("no benchmark %q", name)
		}
		if !(r.Off > 0 && r.On > 0) {
			t.Fatalf("%s: off %v, on %v", name, r.Off, r.On)
		}
		return r
	}
	// The write-back cache does little to small random reads, and to
	// small random writes scattered over the volume.
	for _, name := range []string{"random 4 KiB read, QD1", "random 4 KiB read, QD64", "random 4 KiB write, QD1, whole volume"} {
		if r := get(name); r.Gain() > 1.15 || r.Gain() < 0.9 {
			t.Errorf("%s: gain %.2f, want little change", name, r.Gain())
		}
	}
	// It slightly hurts PassMark's Database pattern (small requests at
	// 128 outstanding, a tenth of them writes).
	if r := get("PassMark Database: 2 KiB, 90% rd, 90% random, QD128"); r.Gain() > 1 || r.Gain() < 0.75 {
		t.Errorf("%s: gain %.2f, want slightly worse", r.Name, r.Gain())
	}
	// It helps sequential reads and writes that touch one member at a
	// time, and never hurts large sequential requests.
	for _, name := range []string{"sequential 1 GiB read, 64 KiB", "sequential 1 GiB write, 64 KiB"} {
		if r := get(name); r.Gain() < 1.10 {
			t.Errorf("%s: gain %.2f, want at least 1.10", name, r.Gain())
		}
	}
	for _, name := range []string{"sequential 1 GiB read, 1 MiB", "sequential 1 GiB write, 1 MiB"} {
		if r := get(name); r.Gain() < 0.98 {
			t.Errorf("%s: gain %.2f, the cache should not hurt", name, r.Gain())
		}
	}
	// The article saw the cache help the large-chunk FileServer pattern
	// and the program copy. In the model their gains are within the
	// spread that the members' initial spindle angles give (over seeds
	// 1-5 the FileServer gain ranged 0.97-1.03 and the program copy's
	// fell to 0.98 at seed 2), so only "no real harm" is asserted; the
	// log below lists them when not reproduced.
	for _, name := range []string{"PassMark FileServer: 16 KiB, 80% rd, random, QD128", "copy: many small files (program)"} {
		if r := get(name); r.Gain() < 0.95 {
			t.Errorf("%s: gain %.2f, want no more than 5%% worse", name, r.Gain())
		}
	}
	// It helps the other copies. Which copy gains most is not asserted:
	// in the model it depends on the files' sizes against the caches (at
	// this test's quarter scale the ISO copy gains most).
	for _, name := range []string{"copy: two large files (ISO)", gameCopy} {
		if r := get(name); r.Gain() <= 1 {
			t.Errorf("%s: gain %.2f, want a gain", name, r.Gain())
		}
	}
	for _, r := range rs {
		if !reproduced(r, rs) {
			t.Logf("not reproduced (reported in the example's notes): %s: off %.1f, on %.1f %s (gain %+.0f%%), article saw %q",
				r.Name, r.Off, r.On, r.Unit, 100*(r.Gain()-1), saw(r.Kind))
		}
	}
}
