package disksim

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/raidsim/raidsim/disk"
	"github.com/raidsim/raidsim/internal/shareddata"
)

// TestMain names, in go test's output, the tests that skipped because
// DiskSim's validated models beside the repository
// (../shared/disksim-models) are absent.
func TestMain(m *testing.M) { shareddata.Main(m) }

// sharedModel returns the path of one of DiskSim's validated model files
// in ../shared/disksim-models, or skips t when it is absent.
func sharedModelPath(t testing.TB, name string) string {
	t.Helper()
	return shareddata.Dir(t, "disksim-models", name)
}

// sharedModel is what TestLoadShared expects of one of the shared
// DiskSim models, from the figures stated in its files.
type sharedModel struct {
	file                      string
	name                      string
	surfaces, cylinders, rpm  int
	blocks                    int64
	zones, seekPoints         int
	mapping                   disk.Mapping
	zone0                     disk.Zone
	head, settle              time.Duration
	segments, queue           int
	interfaceMsPerBlock       float64
	watermark                 float64
	readAhead                 disk.ReadAheadPolicy
	writeCache, zl, readFree  bool
	readHitAfterWrite, rdCmpl time.Duration
}

// sharedModels are the two validated models in ../shared.
var sharedModels = []sharedModel{

	{
		file: "atlas10k.parv", name: "QUANTUM_TORNADO_validate",
		surfaces: 6, cylinders: 10042, rpm: 10025, blocks: 17938986, zones: 24, seekPoints: 138,
		mapping: disk.MapSerpentine,
		zone0: disk.Zone{FirstCylinder: 0, LastCylinder: 432, SectorsPerTrack: 334, TrackSkew: 63, CylinderSkew: 113,
			SpareSectors: 89, Slips: []int64{55017, 358148, 394564, 420533, 483742}},
		head: 176 * time.Microsecond, settle: 487 * time.Microsecond, segments: 10, queue: 1,
		interfaceMsPerBlock: 0.099, readAhead: disk.ReadAheadNextTrack, writeCache: true, zl: true, readFree: true,
		readHitAfterWrite: 184 * time.Microsecond,
	},
	{
		file: "hp_c3323a.parv", name: "HP_C3323A_validate",
		surfaces: 7, cylinders: 2982, rpm: 5396, blocks: 2056008, zones: 8, seekPoints: 67,
		mapping: disk.MapConventional,
		zone0: disk.Zone{FirstCylinder: 0, LastCylinder: 993, SectorsPerTrack: 120, TrackSkew: 17, CylinderSkew: 34,
			ReservedSectors: 1320, SpareSectors: 224 * 120},
		head: 650 * time.Microsecond, settle: 70 * time.Microsecond, segments: 1, queue: 1,
		interfaceMsPerBlock: 0.1455, watermark: 1, readAhead: disk.ReadAheadFixed,
		readHitAfterWrite: 1387 * time.Microsecond, rdCmpl: 241 * time.Microsecond,
	},
}

// TestLoadShared loads both validated models and checks the geometry
// against the figures stated in their files.
func TestLoadShared(t *testing.T) {
	for _, tc := range sharedModels {
		p, rep, err := Load(sharedModelPath(t, tc.file))
		if err != nil {
			t.Fatalf("%s: %v", tc.file, err)
		}
		checkGeometry(t, &tc, &p, &rep)
		checkTiming(t, &tc, &p)
		checkReport(t, tc.file, &rep)
		if _, err := disk.New(nil, p, "x", nil); err == nil {
			t.Error("disk.New accepted a nil engine")
		}
	}
}

// checkGeometry checks a loaded model's name, layout and zones.
func checkGeometry(t *testing.T, tc *sharedModel, p *disk.Params, rep *Report) {
	t.Helper()
	if p.Name != tc.name || rep.Disk != tc.name {
		t.Errorf("%s: name %q / %q, want %q", tc.file, p.Name, rep.Disk, tc.name)
	}
	if p.Surfaces != tc.surfaces || p.Cylinders() != tc.cylinders || p.RPM != tc.rpm || len(p.Zones) != tc.zones {
		t.Errorf("%s: %d surfaces, %d cylinders, %d rpm, %d zones; want %d, %d, %d, %d", tc.file,
			p.Surfaces, p.Cylinders(), p.RPM, len(p.Zones), tc.surfaces, tc.cylinders, tc.rpm, tc.zones)
	}
	if p.Capacity != tc.blocks*512 || p.Sectors() < tc.blocks {
		t.Errorf("%s: capacity %d bytes, layout %d blocks; want %d blocks", tc.file, p.Capacity, p.Sectors(), tc.blocks)
	}
	z := p.Zones[0]
	if z.FirstCylinder != tc.zone0.FirstCylinder || z.LastCylinder != tc.zone0.LastCylinder || z.SectorsPerTrack != tc.zone0.SectorsPerTrack ||
		z.TrackSkew != tc.zone0.TrackSkew || z.CylinderSkew != tc.zone0.CylinderSkew || z.ReservedSectors != tc.zone0.ReservedSectors ||
		z.SpareSectors != tc.zone0.SpareSectors || len(z.Slips) != len(tc.zone0.Slips) {
		t.Errorf("%s: zone 0 = %+v, want %+v", tc.file, z, tc.zone0)
	}
	if len(p.SeekTable) != tc.seekPoints || p.SeekTable[0].Distance != 1 {
		t.Errorf("%s: %d seek points, want %d", tc.file, len(p.SeekTable), tc.seekPoints)
	}
}

// checkTiming checks a loaded model's mechanics, interface and
// controller overheads.
func checkTiming(t *testing.T, tc *sharedModel, p *disk.Params) {
	t.Helper()
	if p.Mapping != tc.mapping || p.HeadSwitch != tc.head || p.WriteSettle != tc.settle || p.Segments != tc.segments || p.QueueDepth != tc.queue {
		t.Errorf("%s: mapping %v head %v settle %v segments %d queue %d", tc.file, p.Mapping, p.HeadSwitch, p.WriteSettle, p.Segments, p.QueueDepth)
	}
	if got := 512 / p.InterfaceRate * 1e3; got < tc.interfaceMsPerBlock-1e-9 || got > tc.interfaceMsPerBlock+1e-9 {
		t.Errorf("%s: %g ms per block over the interface, want %g", tc.file, got, tc.interfaceMsPerBlock)
	}
	if p.ReadBusWatermark != tc.watermark || p.ReadAhead != tc.readAhead || p.WriteCache != tc.writeCache ||
		p.ZeroLatencyRead != tc.zl || p.ReadAnyFree != tc.readFree || p.Scheduler != disk.FCFS {
		t.Errorf("%s: watermark %g read-ahead %v write cache %v zl %v free %v scheduler %v", tc.file,
			p.ReadBusWatermark, p.ReadAhead, p.WriteCache, p.ZeroLatencyRead, p.ReadAnyFree, p.Scheduler)
	}
	if !p.Overheads.Enabled || p.Overheads.ReadHitAfterWrite != tc.readHitAfterWrite || p.Overheads.ReadCompletion != tc.rdCmpl {
		t.Errorf("%s: overheads %+v", tc.file, p.Overheads)
	}
}

// checkReport checks which files a load read and what it ignored.
func checkReport(t *testing.T, file string, rep *Report) {
	t.Helper()
	if len(rep.Files) != 4 {
		t.Errorf("%s: files read %v, want the parv, diskspecs, model and seek curve", file, rep.Files)
	}
	seen := map[string]bool{}
	for _, s := range rep.Ignored {
		if seen[s] {
			t.Errorf("%s: %q ignored twice", file, s)
		}
		seen[s] = true
	}
	if !seen["disksim_disk: Print stats (statistics)"] || !seen["disksim_synthio: Synthio (block not on the path to the disk)"] {
		t.Errorf("%s: ignored list lacks expected entries: %v", file, rep.Ignored)
	}
}

// memFS serves files from a map for LoadWith and Parse.
func memFS(files map[string]string) ReadFunc {
	return func(p string) ([]byte, error) {
		s, ok := files[filepath.ToSlash(p)]
		if !ok {
			return nil, &fs.PathError{Op: "open", Path: p, Err: fs.ErrNotExist}
		}
		return []byte(s), nil
	}
}

// miniFiles returns the test drive's files, keyed as LoadWith asks for
// them.
func miniFiles(t *testing.T) map[string]string {
	t.Helper()
	m := map[string]string{}
	for _, f := range []string{"mini.parv", "mini.diskspecs", "mini.model", "mini.seek"} {
		b, err := os.ReadFile(filepath.Join("testdata", f))
		if err != nil {
			t.Fatal(err)
		}
		m["testdata/"+f] = string(b)
	}
	return m
}

// TestLoadMini checks every figure of the hand-written test drive.
func TestLoadMini(t *testing.T) {
	p, rep, err := Load("testdata/mini.parv")
	if err != nil {
		t.Fatal(err)
	}
	want := []disk.Zone{
		{FirstCylinder: 0, LastCylinder: 9, SectorsPerTrack: 50, TrackSkew: 4, CylinderSkew: 7, FirstBlockOffset: 5,
			ReservedSectors: 10, SpareSectors: 20, Slips: []int64{100, 101}},
		{FirstCylinder: 10, LastCylinder: 19, SectorsPerTrack: 40, TrackSkew: 3, CylinderSkew: 6},
	}
	if len(p.Zones) != 2 {
		t.Fatalf("zones %+v", p.Zones)
	}
	for i, z := range p.Zones {
		w := want[i]
		if z.FirstCylinder != w.FirstCylinder || z.LastCylinder != w.LastCylinder || z.SectorsPerTrack != w.SectorsPerTrack ||
			z.TrackSkew != w.TrackSkew || z.CylinderSkew != w.CylinderSkew || z.FirstBlockOffset != w.FirstBlockOffset ||
			z.ReservedSectors != w.ReservedSectors || z.SpareSectors != w.SpareSectors || len(z.Slips) != len(w.Slips) {
			t.Errorf("zone %d = %+v, want %+v", i, z, w)
		}
	}
	if got := p.Sectors(); got != 2000-30+1600 {
		t.Errorf("layout holds %d sectors, want %d", got, 2000-30+1600)
	}
	ms := time.Millisecond
	o := p.Overheads
	if !o.Enabled || o.ReadHitAfterRead != ms/10 || o.ReadHitAfterWrite != ms/5 || o.ReadMissAfterRead != 3*ms/10 ||
		o.ReadMissAfterWrite != 4*ms/10 || o.WriteHitAfterRead != ms/2 || o.WriteHitAfterWrite != 6*ms/10 ||
		o.WriteMissAfterRead != 7*ms/10 || o.WriteMissAfterWrite != 8*ms/10 || o.ReadCompletion != ms/20 {
		t.Errorf("overheads %+v", o)
	}
	// The disk's 0.1 ms per block is slower than the bus's 0.05.
	if r := p.InterfaceRate; r < 5.1199e6 || r > 5.1201e6 {
		t.Errorf("interface %g B/s, want 512 B / 0.1 ms", r)
	}
	if p.Capacity != 3000*512 || p.RPM != 6000 || p.Surfaces != 4 || p.QueueDepth != 4 || p.Scheduler != disk.CLOOK ||
		p.Segments != 4 || p.BufferSize != 4*64*512 || p.ReadAhead != disk.ReadAheadTrack || p.ReadAheadBytes != 32*512 ||
		p.ReadBusWatermark != 0.5 || !p.WriteCache || p.WriteCacheEntries != 2 || p.WriteCacheBytes != 2*64*512 ||
		p.Mapping != disk.MapSerpentine || p.HeadSwitch != ms/5 || p.WriteSettle != ms/10 {
		t.Errorf("params %+v", p)
	}
	if len(p.SeekTable) != 3 || p.SeekTable[2] != (disk.SeekPoint{Distance: 19, Time: 4 * ms}) {
		t.Errorf("seek table %+v", p.SeekTable)
	}
	if len(rep.Ignored) == 0 || len(rep.Files) != 4 {
		t.Errorf("report %+v", rep)
	}
	if _, err := disk.New(nil, p, "mini", nil); err == nil {
		t.Error("nil engine accepted")
	}
}

// TestLoadErrors: malformed or unsupported files fail with the file and
// line of the problem.
func TestLoadErrors(t *testing.T) {
	for _, tc := range []struct {
		file, old, new string
		want           string // substring of the error
	}{
		{"mini.diskspecs", "Bulk sector transfer time = 0.1,", "Bulk sector transfer time = 0.1", "mini.diskspecs:6: want \",\" or \"}\""},
		{"mini.diskspecs", "Max queue length = 4,", "Max queue length = four,", "mini.diskspecs:6: want a number, got \"four\""},
		{"mini.diskspecs", "Print stats = 1\n", "Print stats = 1,\n  Colour = blue\n", "mini.diskspecs:34: disksim_disk: unknown parameter \"Colour\""},
		{"mini.diskspecs", "Fast write level = 2,", "Fast write level = 3,", "Fast write level = 3: unknown"},
		{"mini.diskspecs", "Minimum read-ahead (blks) = 0,", "Minimum read-ahead (blks) = 100,", "Minimum read-ahead (blks) = 100: must be in 0..the segment size (64)"},
		{"mini.diskspecs", "Print stats = 1\n", "Allow sneaky full read hits = 1,\n  Print stats = 1\n", "Allow sneaky full read hits = 1: cannot honour"},
		{"mini.diskspecs", "Print stats = 1\n", "Preseeking level = 3,\n  Print stats = 1\n", "Preseeking level = 3: unknown"},
		{"mini.diskspecs", "Print stats = 1\n", "Data preparation overhead = -1,\n  Print stats = 1\n", "data preparation overhead = -1: must be in 0..1000 ms"},
		{"mini.diskspecs", "Scheduling policy = 3,", "Scheduling policy = 21,", "mini.diskspecs:7: Scheduling policy = 21: cannot honour"},
		{"mini.diskspecs", "Max queue length = 4,", "Max queue length = 4,\n  Max queue length = 5,", "mini.diskspecs:7: disksim_disk: parameter \"Max queue length\" given twice"},
		{"mini.model", "Access time type = trackSwitchPlusRotation", "Access time type = spinning", "mini.model:5: Access time type = \"spinning\": unknown"},
		{"mini.model", "Percent error in rpms = 0.0", "Percent error in rpms = -1.0", "Percent error in rpms = -1: must be in 0..50"},
		{"mini.model", "LBN-to-PBN mapping scheme = 1", "LBN-to-PBN mapping scheme = 3", "mini.model:15: LBN-to-PBN mapping scheme = 3: unknown"},
		{"mini.model", "Sparing scheme used = 9", "Sparing scheme used = 11", "mini.model:16: Sparing scheme used = 11: unknown"},
		{"mini.model", "Sparing scheme used = 9,\n    Rangesize for sparing = 1", "Sparing scheme used = 8,\n    Rangesize for sparing = 0", "mini.model:17: Rangesize for sparing = 0"},
		{"mini.model", "defects = []\n      },\n      dm_layout_g1_zone", "defects = [ 5, 6 ]\n      },\n      dm_layout_g1_zone", "Zones[0].Remaps[0].Spare: location 6 holds data of its own"},
		{"mini.model", "defects = []\n      },\n      dm_layout_g1_zone", "defects = [ 5 ]\n      },\n      dm_layout_g1_zone", "mini.model:24: defects: want pairs"},
		{"mini.model", "Skew for track switch = 4,", "Skew for track switch = 4.5,", "mini.model:23: Skew for track switch = 4.5: must be a whole number"},
		{"mini.model", "Number of cylinders = 20", "Number of cylinders = 16777216", "mini.model:1: dm_disk MINI_model: Number of cylinders must be below 16777216"},
		{"mini.model", "slips = [ 100, 101 ]", "slips = [ 100, 101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111, 112, 113, 114, 115, 116, 117, 118, 119, 120 ]", "21 slips exceed the zone's 20 spares"},
		{"mini.model", "Seek type = extracted", "Seek type = wobbly", "Seek type = \"wobbly\": unknown"},
		{"mini.model", "Add. write settling delay = 0.1", "Add. write settling delay = -2000", "Add. write settling delay = -2000: must be in -1000..1000 ms"},
		{"mini.model", "Full seek curve = mini.seek", "Full seek curve = nosuch.seek", "mini.model:8: Full seek curve"},
		{"mini.seek", "5, 2.0", "5; 2.0", "mini.seek:3: want \"distance, milliseconds\""},
		{"mini.seek", "5, 2.0", "1, 2.0", "mini.seek:3: distance 1: must be positive and increasing"},
		{"mini.seek", "Seek distances measured: 3", "Seek distances measured: 4", "mini.seek:4: 4 distances announced, 3 given"},
		{"mini.parv", "Arbitration time = 0.0", "Arbitration time = 0.5", "mini.parv:12: Arbitration time = 0.5: cannot honour"},
		{"mini.parv", "Constant access time = 0.0", "Constant access time = 5.0", "mini.parv:4: Constant access time = 5: cannot honour"},
		{"mini.parv", "source mini.diskspecs", "source nosuch.diskspecs", "mini.parv:26: source testdata/nosuch.diskspecs"},
		{"mini.parv", "disksim_ctlr CTLR {\n  type = 1,", "disksim_ctlr CTLR {\n  type = 3,", "mini.parv:19: controller type 3: cannot honour"},
	} {
		files := miniFiles(t)
		key := "testdata/" + tc.file
		if !strings.Contains(files[key], tc.old) {
			t.Fatalf("%s lacks %q", tc.file, tc.old)
		}
		files[key] = strings.Replace(files[key], tc.old, tc.new, 1)
		_, _, err := LoadWith("testdata/mini.parv", memFS(files))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %q -> %q: error %v, want it to contain %q", tc.file, tc.old, tc.new, err, tc.want)
		}
	}
}

// TestParseErrors: the grammar's errors name file and line.
func TestParseErrors(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"disksim_disk D {\n  A = 1,\n  B 2\n}", "f.parv:4: unexpected \"}\" in parameter name \"B 2\""},
		{"disksim_disk D {\n  A = 1,\n", "f.parv:3: unexpected end of file in block disksim_disk (opened at line 1)"},
		{"}", "f.parv:1: unexpected \"}\" at top level"},
		{"disksim_disk {\n}", "f.parv:1: block disksim_disk: want a name"},
		{"disksim_disk D {\n = 3 }", "f.parv:2: \"=\" without a parameter name"},
		{"disksim_disk D {\n A = [ 1, 2 \n", "f.parv:3: unexpected end of file in a list (opened at line 2)"},
		{"disksim_disk D {\n A = }", "f.parv:2: want a value, got \"}\""},
		{"disksim_disk D {\n A = 1 2 }", "f.parv:2: want \",\" or \"}\" after parameter \"A\", got \"2\""},
		{"source", "f.parv:1: source: want a file name"},
		{"source other.parv", "f.parv:1: source other.parv"},
		{"source f.parv", "more than 64 sourced files"},
		{"instantiate [ a ] for B", "f.parv:1: want \"as\", got \"for\""},
		{"topology x y [ a b [ ]", "f.parv:1: unexpected end of file in topology"},
		{"disksim_disk D { A = source m.model }", "f.parv:1: source m.model as a value: the file must hold exactly one block, it holds 2"},
		{"x y {\n a = \x01 }", "f.parv:2: control character 0x1"},
	} {
		_, err := Parse("f.parv", memFS(map[string]string{"f.parv": tc.src, "m.model": "a A {} b B {}"}))
		var e *Error
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want it to contain %q", tc.src, err, tc.want)
		} else if !errors.As(err, &e) || e.Pos.Line == 0 {
			t.Errorf("%q: %v is not an *Error with a line", tc.src, err)
		}
	}
	if _, err := Parse("nosuch.parv", memFS(nil)); err == nil || !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
}

// TestParseGrammar checks the tree built for nested blocks, lists,
// comments, sourced values and topologies.
func TestParseGrammar(t *testing.T) {
	files := map[string]string{
		"dir/a.parv": "# comment\nT N { K one = 1, # trailing\n L = [ 1, x, S { Q = 2 } ], M = source sub/m.model, }\n" +
			"instantiate [ d0, d1 ] as N\ntopology T d0 [ U u [ ] , V v [] ]\nsource sub/b.parv\n",
		"dir/sub/m.model": "dm_disk MM { Z = 3 }",
		"dir/sub/b.parv":  "B bb { }",
	}
	f, err := Parse("dir/a.parv", memFS(files))
	if err != nil {
		t.Fatal(err)
	}
	n := f.Lookup("N")
	if n == nil || len(n.Params) != 3 || f.Lookup("MM") == nil || f.Lookup("bb") == nil || f.Lookup("zz") != nil {
		t.Fatalf("blocks %+v", f.Blocks)
	}
	k, ok := n.Get("k  ONE")
	if v, err := k.Value.Int(); !ok || err != nil || v != 1 || k.Pos.Line != 2 {
		t.Errorf("K one = %+v %v", k, err)
	}
	l, _ := n.Get("L")
	if l.Value.Kind != ListValue || len(l.Value.List) != 3 || l.Value.List[1].Word != "x" || l.Value.List[2].Block.Type != "S" {
		t.Errorf("L = %+v", l.Value)
	}
	if _, err := l.Value.Float(); err == nil {
		t.Error("a list read as a number")
	}
	m, _ := n.Get("M")
	if m.Value.Kind != BlockValue || m.Value.Block.Name != "MM" || m.Value.Block.Pos.File != filepath.Join("dir", "sub", "m.model") {
		t.Errorf("M = %+v", m.Value)
	}
	if len(f.Instances) != 1 || len(f.Instances[0].Names) != 2 || f.Instances[0].As != "N" {
		t.Errorf("instances %+v", f.Instances)
	}
	if len(f.Topology) != 1 || len(f.Topology[0].Children) != 2 || f.Topology[0].Children[1].Name != "v" {
		t.Errorf("topology %+v", f.Topology)
	}
}
