package disksim

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/raidsim/raidsim/disk"
	"github.com/raidsim/raidsim/internal/shareddata"
	"github.com/raidsim/raidsim/sim"
)

// FuzzParse feeds arbitrary text to the parser and the loader (as the
// top-level file; the test drive's model, specs and seek curve are there
// to be sourced). Neither may panic; errors name a file and line (or come
// from Params.Validate), and a file that loads makes a drive.
func FuzzParse(f *testing.F) {
	files := map[string]string{}
	for _, n := range []string{"mini.parv", "mini.diskspecs", "mini.model", "mini.seek",
		"deskstar7k500.parv", "deskstar7k500.diskspecs", "deskstar7k500.model"} {
		b, err := os.ReadFile(filepath.Join("testdata", n))
		if err != nil {
			f.Fatal(err)
		}
		files["testdata/"+n] = string(b)
		f.Add(string(b))
	}
	// The tiny drives of testdata/g1, whole (their diskspecs inline,
	// sourcing their layouts): every sparing scheme, mapping, bus and
	// buffer option the loader maps.
	for k, v := range g1Files(f, "sparing9", "tiny.diskspecs") {
		files[k] = v
	}
	parv := files["testdata/g1/tiny.parv"]
	for _, m := range g1Models {
		for _, specs := range []string{"tiny.diskspecs", "tiny-fw1.diskspecs", "tiny-nocache.diskspecs"} {
			sp := strings.Replace(files["testdata/g1/"+specs], "source sparing9.model", "source g1/"+m+".model", 1)
			f.Add(strings.Replace(parv, "source tiny.diskspecs", sp, 1))
		}
	}
	for _, n := range []string{"atlas10k.parv", "hp_c3323a_validate.model", "atlas10k.diskspecs"} {
		// DiskSim's validated models add seeds when ../shared is there.
		if p, ok := shareddata.Lookup("disksim-models", n); ok {
			if b, err := os.ReadFile(p); err == nil {
				f.Add(string(b))
			}
		}
	}
	f.Add("source mini.diskspecs\ninstantiate [ d ] as MINI\n")
	f.Add("a b { c = [ [ [ x ] ] ], d = e { f = g { } } }")
	f.Add("topology a b [ c d [ e f [ ] ] ]")
	f.Add("x y { z = source mini.model }")
	f.Fuzz(func(t *testing.T, src string) {
		fs := map[string]string{}
		for k, v := range files {
			fs[k] = v
		}
		fs["testdata/fuzz.parv"] = src
		read := memFS(fs)
		if _, err := Parse("testdata/fuzz.parv", read); err != nil {
			if !strings.HasPrefix(err.Error(), "disksim: ") {
				t.Fatalf("parse error without the package prefix: %v", err)
			}
		}
		p, _, err := LoadWith("testdata/fuzz.parv", read)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "disksim: ") {
				t.Fatalf("load error without the package prefix: %v", err)
			}
			return
		}
		if _, err := disk.New(sim.NewEngine(1), p, "fuzz", nil); err != nil {
			t.Fatalf("loaded params make no drive: %v", err)
		}
	})
}

// FuzzSeekCurve feeds arbitrary text to the seek curve parser.
func FuzzSeekCurve(f *testing.F) {
	f.Add("Seek distances measured: 2\n1, 1.0\n5, 2.5\n")
	f.Add("Seek distances measured: 1\n1,\t0.5")
	f.Fuzz(func(t *testing.T, src string) {
		tab, err := ParseSeekCurve("f.seek", []byte(src))
		if err != nil {
			return
		}
		p := disk.Params{SeekTable: tab}
		for i := 1; i < len(tab); i++ {
			if tab[i].Distance <= tab[i-1].Distance || tab[i].Time < 0 {
				t.Fatalf("bad table %+v", tab)
			}
		}
		_ = p
	})
}
