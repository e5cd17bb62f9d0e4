package disksim

import (
	"strings"
	"testing"
	"time"

	"github.com/raidsim/raidsim/disk"
)

// TestSeekTypes loads the test drive with each of DiskSim's seek types.
func TestSeekTypes(t *testing.T) {
	const ext = "Seek type = extracted,\n    Full seek curve = mini.seek,"
	ms := func(x float64) time.Duration { return time.Duration(x * 1e6) }
	ten := "First ten seek times = [ 0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 1.1, 1.2, 1.3, 1.4 ],"
	hpl := "HPL seek equation values = [ 10, 1.0, 0.5, 2.0, 0.1, 0.8 ],"
	for _, tc := range []struct {
		name, mech string
		check      func(p disk.Params) bool
		err        string
	}{
		{"constant", "Seek type = constant, Constant seek time = 2.5,", func(p disk.Params) bool {
			return len(p.SeekTable) == 1 && p.SeekTable[0] == disk.SeekPoint{Distance: 1, Time: ms(2.5)}
		}, ""},
		{"linear", "Seek type = linear, Single cylinder seek time = 1, Average seek time = 4, Full strobe seek time = 10,", func(p disk.Params) bool {
			want := []disk.SeekPoint{{Distance: 1, Time: ms(1)}, {Distance: 6, Time: ms(4)}, {Distance: 19, Time: ms(10)}}
			if len(p.SeekTable) != 3 {
				return false
			}
			for i := range want {
				if p.SeekTable[i] != want[i] {
					return false
				}
			}
			return true
		}, ""},
		{"curve", "Seek type = curve, Single cylinder seek time = 1, Average seek time = 4, Full strobe seek time = 10,", func(p disk.Params) bool {
			return p.SeekTable == nil && p.TrackToTrack == ms(1) && p.AverageSeek == ms(4) && p.FullStroke == ms(10)
		}, ""},
		{"hpl", "Seek type = hpl, " + hpl, func(p disk.Params) bool {
			// d=1: V6; d<10: V2 + V3 sqrt(d); else V4 + V5 d.
			tb := p.SeekTable
			return len(tb) == 19 && tb[0].Time == ms(0.8) && tb[3].Time == ms(2) && tb[11].Time == ms(3.2)
		}, ""},
		{"hplplus10", "Seek type = hplplus10, " + hpl + ten, func(p disk.Params) bool {
			tb := p.SeekTable
			return len(tb) == 19 && tb[0].Time == ms(0.5) && tb[9].Time == ms(1.4) && tb[10].Time == ms(3.1)
		}, ""},
		{"constant missing", "Seek type = constant,", nil, "Seek type constant needs Constant seek time"},
		{"linear missing", "Seek type = linear, Single cylinder seek time = 1,", nil, "needs Average seek time"},
		{"hpl short", "Seek type = hpl, HPL seek equation values = [ 1, 2 ],", nil, "needs 6 HPL seek equation values, got 2"},
		{"hplplus10 short", "Seek type = hplplus10, " + hpl + " First ten seek times = [ 1 ],", nil, "needs 10 First ten seek times, got 1"},
		{"extracted missing", "Seek type = extracted,", nil, "Seek type extracted needs Full seek curve"},
	} {
		files := miniFiles(t)
		m := files["testdata/mini.model"]
		if !strings.Contains(m, ext) {
			t.Fatal("mini.model changed")
		}
		files["testdata/mini.model"] = strings.Replace(m, ext, tc.mech, 1)
		p, _, err := LoadWith("testdata/mini.parv", memFS(files))
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s: %v, want %q", tc.name, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if !tc.check(p) {
			t.Errorf("%s: seek table %+v, curve %v/%v/%v", tc.name, p.SeekTable, p.TrackToTrack, p.AverageSeek, p.FullStroke)
		}
	}
}

// TestSkewUnits: skews and offsets may be given in revolutions.
func TestSkewUnits(t *testing.T) {
	files := miniFiles(t)
	old := "Offset of first block = 5,"
	m := files["testdata/mini.model"]
	m = strings.Replace(m, old, "Skew units = revolutions, Offset of first block = 0.1,", 1)
	m = strings.Replace(m, "Skew for track switch = 4, Skew for cylinder switch = 7,", "Skew for track switch = 0.08, Skew for cylinder switch = 0.14,", 1)
	files["testdata/mini.model"] = m
	p, _, err := LoadWith("testdata/mini.parv", memFS(files))
	if err != nil {
		t.Fatal(err)
	}
	if z := p.Zones[0]; z.FirstBlockOffset != 5 || z.TrackSkew != 4 || z.CylinderSkew != 7 {
		t.Errorf("zone 0 %+v", z)
	}
	files["testdata/mini.model"] = strings.Replace(m, "Skew units = revolutions", "Skew units = degrees", 1)
	if _, _, err := LoadWith("testdata/mini.parv", memFS(files)); err == nil || !strings.Contains(err.Error(), "mini.model:21: Skew units") {
		t.Errorf("bad units: %v", err)
	}
}
