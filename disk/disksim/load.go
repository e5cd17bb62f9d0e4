package disksim

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/raidsim/raidsim/disk"
)

// Report says how a parameter file was used.
type Report struct {
	// Disk is the name of the disk type loaded.
	Disk string
	// Ignored lists, once each and sorted, the parameters (as
	// "block type: key") and blocks the drive model does not use, with
	// why in parentheses.
	Ignored []string
	// Files lists the files read, the parameter file first.
	Files []string
}

// Load reads the DiskSim 4.0 parameter file at path (and the files it
// sources, the model's seek curve included) and returns the parameters
// of the disk it instantiates. It fails, naming file and line, on
// malformed files and on parameters the drive model needs but cannot
// honour; parameters it does not need are listed in the Report.
func Load(path string) (disk.Params, Report, error) {
	return LoadWith(path, os.ReadFile)
}

// LoadWith is Load reading files (the parameter file, the files it
// sources and the seek curve) with read.
func LoadWith(path string, read ReadFunc) (disk.Params, Report, error) {
	var files []string
	rd := func(p string) ([]byte, error) {
		files = append(files, p)
		return read(p)
	}
	f, err := Parse(path, rd)
	if err != nil {
		return disk.Params{}, Report{}, err
	}
	l := &loader{f: f, path: path, read: rd, ignored: map[string]bool{}}
	p, err := l.load()
	if err != nil {
		return disk.Params{}, Report{}, err
	}
	rep := Report{Disk: l.diskName, Files: files}
	for k := range l.ignored {
		rep.Ignored = append(rep.Ignored, k)
	}
	sort.Strings(rep.Ignored)
	return p, rep, nil
}

type loader struct {
	f        *File
	path     string
	read     ReadFunc
	ignored  map[string]bool
	diskName string
}

func (l *loader) ignore(typ, key, why string) { l.ignored[typ+": "+key+" ("+why+")"] = true }

// findDisk returns the disk block the file instantiates.
func (l *loader) findDisk() (*Block, error) {
	var cands []*Block
	for _, in := range l.f.Instances {
		if b := l.f.Lookup(in.As); b != nil && b.Type == "disksim_disk" {
			cands = append(cands, b)
		}
	}
	if len(cands) == 0 {
		for _, b := range l.f.Blocks {
			if b.Type == "disksim_disk" {
				cands = append(cands, b)
			}
		}
	}
	switch len(cands) {
	case 0:
		return nil, fmt.Errorf("disksim: %s: no disksim_disk block", l.path)
	case 1:
		return cands[0], nil
	}
	for _, c := range cands[1:] {
		if c != cands[0] {
			return nil, errAt(c.Pos, "more than one disk type instantiated (%s and %s); raidsim loads one drive", cands[0].Name, c.Name)
		}
	}
	return cands[0], nil
}

// params walks the parameters of b, calling set for each; set returns
// false for an unknown key.
func params(b *Block, set func(k string, p Param) (bool, error)) error {
	seen := map[string]bool{}
	for _, p := range b.Params {
		k := normKey(p.Key)
		if seen[k] {
			return errAt(p.Pos, "%s: parameter %q given twice", b.Type, p.Key)
		}
		seen[k] = true
		ok, err := set(k, p)
		if err != nil {
			var e *Error
			if errors.As(err, &e) {
				return err
			}
			return errAt(p.Pos, "%s: %s: %v", b.Type, p.Key, err)
		}
		if !ok {
			return errAt(p.Pos, "%s: unknown parameter %q", b.Type, p.Key)
		}
	}
	return nil
}

func ms(v float64) time.Duration { return time.Duration(math.Round(v * 1e6)) }

func (l *loader) load() (disk.Params, error) {
	db, err := l.findDisk()
	if err != nil {
		return disk.Params{}, err
	}
	l.diskName = db.Name
	p := disk.Params{Name: db.Name, SectorSize: 512}

	blockTime, err := l.pathTransfer(db)
	if err != nil {
		return p, err
	}

	var (
		model                                 *Block
		perReq, scale                         float64 = 0, 1
		ov                                    [10]float64
		segs, segSize, writeSegs, sepWrite    int64
		bcr, maxRA                            int64
		highWM                                float64
		wmByReq                               int64 = 1
		fastWrite, caching                    int64 = 0, 1
		bulk                                  float64
		sawSched, sawModel, sawSegs, sawSegSz bool
	)
	ovKeys := map[string]int{
		"read hit over. after read": 0, "read hit over. after write": 1,
		"read miss over. after read": 2, "read miss over. after write": 3,
		"write hit over. after read": 4, "write hit over. after write": 5,
		"write miss over. after read": 6, "write miss over. after write": 7,
		"read completion overhead": 8, "write completion overhead": 9,
	}
	mustZero := map[string]string{
		"preseeking level":           "preseeking is not modelled",
		"data preparation overhead":  "not modelled",
		"first reselect overhead":    "not modelled",
		"other reselect overhead":    "not modelled",
		"read disconnect afterread":  "not modelled",
		"read disconnect afterwrite": "not modelled",
		"write disconnect overhead":  "not modelled",
		"extra write disconnect":     "not modelled",
		"minimum seek delay":         "not modelled",
		"minimum read-ahead (blks)":  "a minimum read-ahead is not modelled",
	}
	ignoredKeys := map[string]string{
		"print stats":                         "statistics",
		"hold bus entire read xfer":           "one device per bus: no contention",
		"hold bus entire write xfer":          "one device per bus: no contention",
		"never disconnect":                    "one device per bus: no contention",
		"avg sectors per cylinder":            "not used by the disk itself",
		"calc sector by sector":               "timing is exact",
		"allow sneaky full read hits":         "no hits overtake the command in service",
		"allow sneaky partial read hits":      "no hits overtake the command in service",
		"allow sneaky intermediate read hits": "no hits overtake the command in service",
		"allow write prebuffering":            "no prebuffering of queued writes",
		"low (write) water mark":              "writes are buffered whole",
		"read-ahead over requested":           "read-ahead may reuse the whole segment",
		"combine seq writes":                  "adjacent dirty data always merges",
		"stop prefetch in sector":             "read-ahead stops at sector granularity",
		"disconnect write if seek":            "bus disconnection is not modelled",
		"write hit stop prefetch":             "a write stops read-ahead only if it overlaps it or needs the arm",
		"read directly to buffer":             "no separate sector buffer",
		"immed transfer partial hit":          "partial hits are read from the media",
		"extradisc command overhead":          "extra write disconnect is 0",
		"extradisc disconnect overhead":       "extra write disconnect is 0",
		"extradisc inter-disconnect delay":    "extra write disconnect is 0",
		"extradisc 2nd disconnect overhead":   "extra write disconnect is 0",
		"extradisc seek delta":                "extra write disconnect is 0",
	}
	err = params(db, func(k string, pr Param) (bool, error) {
		v := pr.Value
		if i, ok := ovKeys[k]; ok {
			f, err := v.Float()
			ov[i] = f
			return true, err
		}
		if why, ok := mustZero[k]; ok {
			f, err := v.Float()
			if err == nil && f != 0 {
				err = errAt(pr.Pos, "%s = %s: cannot honour (%s); only 0 is supported", pr.Key, v.Word, why)
			}
			return true, err
		}
		if why, ok := ignoredKeys[k]; ok {
			l.ignore(db.Type, pr.Key, why)
			return true, nil
		}
		var err error
		switch k {
		case "model":
			if v.Kind != BlockValue {
				return true, errAt(v.Pos, "Model: want a dm_disk block")
			}
			model, sawModel = v.Block, true
		case "scheduler":
			sawSched = true
			err = l.scheduler(v, &p)
		case "max queue length":
			var n int64
			n, err = v.Int()
			if err == nil && n < 1 {
				err = errAt(v.Pos, "Max queue length: must be at least 1, got %d", n)
			}
			p.QueueDepth = int(min(n, disk.MaxQueueDepth))
			if n > disk.MaxQueueDepth {
				l.ignore(db.Type, pr.Key, fmt.Sprintf("queue depth capped at %d", disk.MaxQueueDepth))
			}
		case "per-request overhead time":
			perReq, err = v.Float()
		case "time scale for overheads":
			scale, err = v.Float()
		case "bulk sector transfer time":
			bulk, err = v.Float()
		case "number of buffer segments":
			segs, err = v.Int()
			sawSegs = true
		case "segment size (in blks)":
			segSize, err = v.Int()
			sawSegSz = true
		case "maximum number of write segments":
			writeSegs, err = v.Int()
		case "use separate write segment":
			sepWrite, err = v.Int()
		case "high (read) water mark":
			highWM, err = v.Float()
		case "set watermark by reqsize":
			wmByReq, err = v.Int()
		case "enable caching in buffer":
			caching, err = v.Int()
		case "buffer continuous read":
			bcr, err = v.Int()
		case "maximum read-ahead (blks)":
			maxRA, err = v.Int()
		case "read-ahead on idle hit":
			var n int64
			n, err = v.Int()
			p.NoReadAheadOnHit = n == 0
		case "allow read hits on write data":
			var n int64
			n, err = v.Int()
			p.ReadHitsOnWrites = n != 0
		case "allow almost read hits":
			var n int64
			n, err = v.Int()
			p.NoAlmostHits = n == 0
		case "read any free blocks":
			var n int64
			n, err = v.Int()
			p.ReadAnyFree = n != 0
		case "fast write level":
			fastWrite, err = v.Int()
		case "immediate buffer read":
			var n int64
			n, err = v.Int()
			p.ZeroLatencyRead = n != 0
		case "immediate buffer write":
			var n int64
			n, err = v.Int()
			p.ZeroLatencyWrite = n != 0
		default:
			return false, nil
		}
		return true, err
	})
	if err != nil {
		return p, err
	}
	switch {
	case !sawModel:
		return p, errAt(db.Pos, "%s %s: no Model", db.Type, db.Name)
	case !sawSched:
		return p, errAt(db.Pos, "%s %s: no Scheduler", db.Type, db.Name)
	case !sawSegs || !sawSegSz:
		return p, errAt(db.Pos, "%s %s: Number of buffer segments and Segment size (in blks) are required", db.Type, db.Name)
	}
	if p.QueueDepth == 0 {
		p.QueueDepth = 1
	}

	// Overheads (ms), scaled; the per-request overhead adds to each.
	if scale < 0 || perReq < 0 {
		return p, errAt(db.Pos, "%s %s: negative overhead scale or per-request overhead", db.Type, db.Name)
	}
	d := func(i int) time.Duration {
		x := ov[i]
		if i < 8 {
			x += perReq
		}
		return ms(x * scale)
	}
	p.Overheads = disk.CommandOverheads{Enabled: true,
		ReadHitAfterRead: d(0), ReadHitAfterWrite: d(1), ReadMissAfterRead: d(2), ReadMissAfterWrite: d(3),
		WriteHitAfterRead: d(4), WriteHitAfterWrite: d(5), WriteMissAfterRead: d(6), WriteMissAfterWrite: d(7),
		ReadCompletion: d(8), WriteCompletion: d(9)}

	// Interface: the slowest of the disk, the buses and controllers.
	bt := max(bulk, blockTime)
	if bt < 0 {
		return p, errAt(db.Pos, "negative block transfer time")
	}
	if bt == 0 {
		p.InterfaceRate = 1e12 // DiskSim: transfers take no time
	} else {
		p.InterfaceRate = 512 / (bt / 1e3)
	}

	// Buffer.
	if segs < 1 || segSize < 1 {
		return p, errAt(db.Pos, "%s %s: buffer segments (%d) and segment size (%d) must be positive", db.Type, db.Name, segs, segSize)
	}
	if caching != 1 {
		return p, errAt(db.Pos, "%s %s: Enable caching in buffer = %d: cannot honour (the buffer always caches)", db.Type, db.Name, caching)
	}
	readSegs := segs
	if sepWrite != 0 && segs > 1 {
		readSegs = segs - 1
	}
	if readSegs > disk.MaxSegments {
		return p, errAt(db.Pos, "%s %s: %d read segments: more than %d", db.Type, db.Name, readSegs, disk.MaxSegments)
	}
	p.Segments = int(readSegs)
	p.BufferSize = readSegs * segSize * 512
	if wmByReq == 0 {
		return p, errAt(db.Pos, "%s %s: Set watermark by reqsize = 0: cannot honour (watermarks are fractions of the request)", db.Type, db.Name)
	}
	if highWM < 0 || highWM > 1 {
		return p, errAt(db.Pos, "%s %s: High (read) water mark %g: must be in 0..1", db.Type, db.Name, highWM)
	}
	p.ReadBusWatermark = highWM
	switch bcr {
	case 0:
		p.ReadAhead = disk.ReadAheadOff
	case 1:
		p.ReadAhead = disk.ReadAheadTrack
	case 2:
		p.ReadAhead = disk.ReadAheadCylinder
	case 3:
		p.ReadAhead = disk.ReadAheadFixed
		maxRA = min(maxRA, segSize)
	case 4:
		p.ReadAhead = disk.ReadAheadNextTrack
	default:
		return p, errAt(db.Pos, "%s %s: Buffer continuous read = %d: unknown", db.Type, db.Name, bcr)
	}
	if maxRA < 0 {
		return p, errAt(db.Pos, "%s %s: Maximum read-ahead (blks) = %d: negative", db.Type, db.Name, maxRA)
	}
	if maxRA == 0 {
		p.ReadAhead = disk.ReadAheadOff
	}
	p.ReadAheadBytes = maxRA * 512
	switch fastWrite {
	case 0:
	case 2:
		if writeSegs < 1 {
			return p, errAt(db.Pos, "%s %s: Fast write level 2 with %d write segments", db.Type, db.Name, writeSegs)
		}
		p.WriteCache = true
		p.WriteCacheEntries = int(min(writeSegs, disk.MaxWriteCacheEntries))
		p.WriteCacheBytes = min(writeSegs*segSize*512, p.BufferSize)
	default:
		return p, errAt(db.Pos, "%s %s: Fast write level = %d: cannot honour (0 and 2 are supported)", db.Type, db.Name, fastWrite)
	}
	if err := l.model(model, &p); err != nil {
		return p, err
	}
	if err := p.Validate(); err != nil {
		return p, fmt.Errorf("disksim: %s: %w", l.path, err)
	}
	return p, nil
}

// scheduler reads a disksim_ioqueue block into p.Scheduler.
func (l *loader) scheduler(v Value, p *disk.Params) error {
	if v.Kind != BlockValue {
		return errAt(v.Pos, "Scheduler: want a disksim_ioqueue block")
	}
	b := v.Block
	return params(b, func(k string, pr Param) (bool, error) {
		if k != "scheduling policy" {
			l.ignore(b.Type, pr.Key, "only the scheduling policy is modelled")
			return true, nil
		}
		n, err := pr.Value.Int()
		if err != nil {
			return true, err
		}
		// DiskSim's table of ioqueue algorithms.
		switch n {
		case 1: // FCFS
			p.Scheduler = disk.FCFS
		case 3, 6: // CYCLE LBN, CYCLE CYL
			p.Scheduler = disk.CLOOK
		case 4, 7: // SSTF LBN, SSTF CYL
			p.Scheduler = disk.SSTF
		case 8, 9, 10: // SPTF OPT, SPCTF OPT (cache hits first), SATF OPT
			p.Scheduler = disk.SATF
		default:
			return true, errAt(pr.Value.Pos, "Scheduling policy = %d: cannot honour (supported: 1 FCFS, 3 and 6 C-LOOK, 4 and 7 SSTF, 8-10 SPTF/SATF)", n)
		}
		return true, nil
	})
}

// pathTransfer returns the slowest block transfer time (ms) of the buses
// and controllers between the driver and the disk, checks that they add
// no delays the drive model cannot honour, and lists their unused
// parameters.
func (l *loader) pathTransfer(db *Block) (float64, error) {
	// Instances name components: which names are of the disk's type?
	diskNames := map[string]bool{}
	typeOf := map[string]*Block{}
	for _, in := range l.f.Instances {
		b := l.f.Lookup(in.As)
		for _, n := range in.Names {
			typeOf[n] = b
			if b == db {
				diskNames[n] = true
			}
		}
	}
	var path []Node
	var walk func(n Node, stack []Node) bool
	walk = func(n Node, stack []Node) bool {
		stack = append(stack, n)
		if n.Type == "disksim_disk" && diskNames[n.Name] {
			path = append([]Node(nil), stack...)
			return true
		}
		for _, c := range n.Children {
			if walk(c, stack) {
				return true
			}
		}
		return false
	}
	for _, t := range l.f.Topology {
		if walk(t, nil) {
			break
		}
	}
	var bt float64
	onPath := map[*Block]bool{db: true}
	for _, n := range path[:max(len(path)-1, 0)] {
		b := typeOf[n.Name]
		if b == nil {
			return 0, errAt(n.Pos, "topology: %s is not instantiated", n.Name)
		}
		onPath[b] = true
		var err error
		switch b.Type {
		case "disksim_bus":
			var rd, wr float64
			err = params(b, func(k string, pr Param) (bool, error) {
				var err error
				switch k {
				case "read block transfer time":
					rd, err = pr.Value.Float()
				case "write block transfer time":
					wr, err = pr.Value.Float()
				case "arbitration time":
					var f float64
					f, err = pr.Value.Float()
					if err == nil && f != 0 {
						err = errAt(pr.Pos, "Arbitration time = %g: cannot honour (bus arbitration is not modelled)", f)
					}
				case "type", "arbitration type", "print stats":
					l.ignore(b.Type, pr.Key, "one device per bus: no contention")
				default:
					return false, nil
				}
				return true, err
			})
			if err == nil && rd != wr {
				err = errAt(b.Pos, "bus %s: read (%g ms) and write (%g ms) block transfer times differ: cannot honour (one interface rate)", b.Name, rd, wr)
			}
			bt = max(bt, rd)
		case "disksim_ctlr":
			err = params(b, func(k string, pr Param) (bool, error) {
				var err error
				switch k {
				case "type":
					var n int64
					n, err = pr.Value.Int()
					if err == nil && n != 1 {
						err = errAt(pr.Pos, "controller type %d: cannot honour (only the pass-through controller, type 1)", n)
					}
				case "scale for delays":
					var f float64
					f, err = pr.Value.Float()
					if err == nil && f != 0 {
						err = errAt(pr.Pos, "Scale for delays = %g: cannot honour (controller delays are not modelled)", f)
					}
				case "bulk sector transfer time":
					var f float64
					f, err = pr.Value.Float()
					bt = max(bt, f)
				case "maximum queue length", "print stats":
					l.ignore(b.Type, pr.Key, "pass-through controller")
				default:
					return false, nil
				}
				return true, err
			})
		case "disksim_iodriver":
			err = params(b, func(k string, pr Param) (bool, error) {
				var err error
				switch k {
				case "constant access time":
					var f float64
					f, err = pr.Value.Float()
					if err == nil && f != 0 {
						err = errAt(pr.Pos, "Constant access time = %g: cannot honour (the drive is simulated)", f)
					}
				case "type", "scheduler", "use queueing in subsystem":
					l.ignore(b.Type, pr.Key, "the driver passes requests straight to the drive")
				default:
					return false, nil
				}
				return true, err
			})
		default:
			return 0, errAt(n.Pos, "topology: unexpected %s between the driver and the disk", b.Type)
		}
		if err != nil {
			return 0, err
		}
	}
	for _, b := range l.f.Blocks {
		if !onPath[b] && b.Type != "dm_disk" {
			l.ignore(b.Type, b.Name, "block not on the path to the disk")
		}
	}
	return bt, nil
}

// model reads a dm_disk block.
func (l *loader) model(b *Block, p *disk.Params) error {
	if b.Type != "dm_disk" {
		return errAt(b.Pos, "Model: want a dm_disk block, got %s", b.Type)
	}
	var surfaces, cyls, blocks int64 = -1, -1, -1
	var mech, layout *Block
	err := params(b, func(k string, pr Param) (bool, error) {
		var err error
		switch k {
		case "number of data surfaces":
			surfaces, err = pr.Value.Int()
		case "number of cylinders":
			cyls, err = pr.Value.Int()
		case "block count":
			blocks, err = pr.Value.Int()
		case "mechanical model":
			if pr.Value.Kind != BlockValue || pr.Value.Block.Type != "dm_mech_g1" {
				return true, errAt(pr.Value.Pos, "Mechanical Model: want a dm_mech_g1 block")
			}
			mech = pr.Value.Block
		case "layout model":
			if pr.Value.Kind != BlockValue || pr.Value.Block.Type != "dm_layout_g1" {
				return true, errAt(pr.Value.Pos, "Layout Model: want a dm_layout_g1 block (g2 layouts are not supported)")
			}
			layout = pr.Value.Block
		default:
			return false, nil
		}
		return true, err
	})
	if err != nil {
		return err
	}
	switch {
	case surfaces < 1 || surfaces > 256:
		return errAt(b.Pos, "dm_disk %s: Number of data surfaces must be in 1..256, got %d", b.Name, surfaces)
	case cyls < 1:
		return errAt(b.Pos, "dm_disk %s: Number of cylinders must be positive, got %d", b.Name, cyls)
	case blocks < 1:
		return errAt(b.Pos, "dm_disk %s: Block count must be positive, got %d", b.Name, blocks)
	case mech == nil:
		return errAt(b.Pos, "dm_disk %s: no Mechanical Model", b.Name)
	case layout == nil:
		return errAt(b.Pos, "dm_disk %s: no Layout Model", b.Name)
	}
	p.Surfaces = int(surfaces)
	if err := l.layout(layout, p); err != nil {
		return err
	}
	if got := p.Cylinders(); int64(got) != cyls {
		return errAt(b.Pos, "dm_disk %s: Number of cylinders is %d but the zones cover %d", b.Name, cyls, got)
	}
	if s := p.Sectors(); blocks > s {
		return errAt(b.Pos, "dm_disk %s: Block count %d exceeds the %d blocks the layout maps", b.Name, blocks, s)
	}
	p.Capacity = blocks * 512
	return l.mech(mech, p, cyls)
}

func (l *loader) layout(b *Block, p *disk.Params) error {
	var scheme, sparing int64 = -1, -1
	schemePos, sparingPos := b.Pos, b.Pos
	var zones *Value
	revs := false
	err := params(b, func(k string, pr Param) (bool, error) {
		var err error
		switch k {
		case "lbn-to-pbn mapping scheme":
			scheme, err = pr.Value.Int()
			schemePos = pr.Pos
		case "sparing scheme used":
			sparing, err = pr.Value.Int()
			sparingPos = pr.Pos
		case "rangesize for sparing":
			l.ignore(b.Type, pr.Key, "only zone and track sparing are supported")
		case "skew units":
			revs, err = skewUnits(pr.Value)
		case "zones":
			if pr.Value.Kind != ListValue {
				return true, errAt(pr.Value.Pos, "Zones: want a list")
			}
			v := pr.Value
			zones = &v
		default:
			return false, nil
		}
		return true, err
	})
	if err != nil {
		return err
	}
	switch scheme {
	case 0:
		p.Mapping = disk.MapConventional
	case 1:
		p.Mapping = disk.MapSerpentine
	default:
		return errAt(schemePos, "LBN-to-PBN mapping scheme = %d: cannot honour (0 and 1 are supported)", scheme)
	}
	switch sparing {
	case 0, 1, 9:
	default:
		return errAt(sparingPos, "Sparing scheme used = %d: cannot honour (0 none, 1 spare tracks and 9 spare sectors at the end of each zone are supported)", sparing)
	}
	if zones == nil || len(zones.List) == 0 {
		return errAt(b.Pos, "dm_layout_g1: no Zones")
	}
	for _, zv := range zones.List {
		if zv.Kind != BlockValue || zv.Block.Type != "dm_layout_g1_zone" {
			return errAt(zv.Pos, "Zones: want dm_layout_g1_zone blocks")
		}
		z, err := l.zone(zv.Block, revs, sparing, p.Surfaces)
		if err != nil {
			return err
		}
		p.Zones = append(p.Zones, z)
	}
	return nil
}

func skewUnits(v Value) (bool, error) {
	switch strings.ToLower(v.Word) {
	case "sectors":
		return false, nil
	case "revolutions":
		return true, nil
	}
	return false, errAt(v.Pos, "Skew units: want sectors or revolutions, got %q", v.Word)
}

func (l *loader) zone(b *Block, revs bool, sparing int64, surfaces int) (disk.Zone, error) {
	var z disk.Zone
	var first, last, spt, empty, spares int64 = -1, -1, -1, 0, 0
	var offset, tskew, cskew float64
	var slips []int64
	var offPos, tPos, cPos Pos
	err := params(b, func(k string, pr Param) (bool, error) {
		var err error
		v := pr.Value
		switch k {
		case "first cylinder number":
			first, err = v.Int()
		case "last cylinder number":
			last, err = v.Int()
		case "blocks per track":
			spt, err = v.Int()
		case "offset of first block":
			offset, err = v.Float()
			offPos = v.Pos
		case "empty space at zone front":
			empty, err = v.Int()
		case "skew for track switch":
			tskew, err = v.Float()
			tPos = v.Pos
		case "skew for cylinder switch":
			cskew, err = v.Float()
			cPos = v.Pos
		case "skew units":
			revs, err = skewUnits(v)
		case "number of spares":
			spares, err = v.Int()
		case "slips":
			if v.Kind != ListValue {
				return true, errAt(v.Pos, "slips: want a list")
			}
			for _, e := range v.List {
				n, err := e.Int()
				if err != nil {
					return true, err
				}
				slips = append(slips, n)
			}
		case "defects":
			if v.Kind != ListValue {
				return true, errAt(v.Pos, "defects: want a list")
			}
			if len(v.List) > 0 {
				return true, errAt(v.Pos, "defects: cannot honour (remapped defects are not modelled)")
			}
		default:
			return false, nil
		}
		return true, err
	})
	if err != nil {
		return z, err
	}
	if first < 0 || last < first || spt < 1 || spt > 1<<16 || last >= 1<<24 {
		return z, errAt(b.Pos, "zone: need 0 <= First cylinder number <= Last cylinder number < %d and Blocks per track in 1..%d, got %d, %d, %d", 1<<24, 1<<16, first, last, spt)
	}
	sectors := func(x float64, at Pos, what string) (int, error) {
		if revs {
			x *= float64(spt)
		}
		r := math.Round(x)
		if math.Abs(x-r) > 1e-6 || r < 0 || r >= float64(spt) {
			return 0, errAt(at, "%s = %g: must be a whole number of sectors in 0..%d", what, x, spt-1)
		}
		return int(r), nil
	}
	z = disk.Zone{FirstCylinder: int(first), LastCylinder: int(last), SectorsPerTrack: int(spt)}
	if z.FirstBlockOffset, err = sectors(offset, offPos, "Offset of first block"); err != nil {
		return z, err
	}
	if z.TrackSkew, err = sectors(tskew, tPos, "Skew for track switch"); err != nil {
		return z, err
	}
	if z.CylinderSkew, err = sectors(cskew, cPos, "Skew for cylinder switch"); err != nil {
		return z, err
	}
	slots := (last - first + 1) * spt * int64(surfaces)
	switch sparing {
	case 0:
		spares = 0
	case 1:
		spares *= spt
	}
	if empty < 0 || spares < 0 || empty+spares >= slots {
		return z, errAt(b.Pos, "zone: empty space (%d) and spares (%d sectors) must be non-negative and leave room in the zone's %d sectors", empty, spares, slots)
	}
	if int64(len(slips)) > spares {
		return z, errAt(b.Pos, "zone: %d slips but only %d spare sectors", len(slips), spares)
	}
	sort.Slice(slips, func(i, j int) bool { return slips[i] < slips[j] })
	for i, s := range slips {
		if s < 0 || s >= slots || (i > 0 && s == slips[i-1]) {
			return z, errAt(b.Pos, "zone: slip %d is outside the zone's %d sectors or repeated", s, slots)
		}
	}
	z.ReservedSectors = int(empty)
	z.SpareSectors = int(spares)
	z.Slips = slips
	return z, nil
}

func (l *loader) mech(b *Block, p *disk.Params, cyls int64) error {
	var access, seekType, curve string
	var single, full, avg, constant, settle, hs, rpmErr float64 = -1, -1, -1, -1, 0, -1, 0
	var rpm int64 = -1
	var hpl, ten []float64
	var curvePos Pos
	err := params(b, func(k string, pr Param) (bool, error) {
		var err error
		v := pr.Value
		switch k {
		case "access time type":
			access = v.Word
		case "seek type":
			seekType = v.Word
		case "single cylinder seek time":
			single, err = v.Float()
		case "full strobe seek time":
			full, err = v.Float()
		case "average seek time":
			avg, err = v.Float()
		case "constant seek time":
			constant, err = v.Float()
		case "full seek curve":
			curve, curvePos = v.Word, v.Pos
		case "add. write settling delay":
			settle, err = v.Float()
		case "head switch time":
			hs, err = v.Float()
		case "rotation speed (in rpms)":
			rpm, err = v.Int()
		case "percent error in rpms":
			rpmErr, err = v.Float()
		case "hpl seek equation values":
			hpl, err = floats(v)
		case "first ten seek times":
			ten, err = floats(v)
		case "constant access time":
			l.ignore(b.Type, pr.Key, "access time type is not constant")
		default:
			return false, nil
		}
		return true, err
	})
	if err != nil {
		return err
	}
	if access != "trackSwitchPlusRotation" {
		return errAt(b.Pos, "Access time type = %q: cannot honour (only trackSwitchPlusRotation)", access)
	}
	if rpm < 1 || rpm > 100000 {
		return errAt(b.Pos, "Rotation speed (in rpms) must be in 1..100000, got %d", rpm)
	}
	if rpmErr != 0 {
		return errAt(b.Pos, "Percent error in rpms = %g: cannot honour (the spindle speed is exact)", rpmErr)
	}
	if hs < 0 || hs > 1000 {
		return errAt(b.Pos, "Head switch time must be in 0..1000 ms, got %g", hs)
	}
	if settle < 0 || settle > 1000 {
		return errAt(b.Pos, "Add. write settling delay = %g: must be in 0..1000 ms (a negative settle cannot be honoured)", settle)
	}
	p.RPM = int(rpm)
	p.HeadSwitch = ms(hs)
	p.WriteSettle = ms(settle)
	pt := func(d int64, t float64) disk.SeekPoint { return disk.SeekPoint{Distance: int(d), Time: ms(t)} }
	need := func(name string, v float64) error {
		if v < 0 {
			return errAt(b.Pos, "Seek type %s needs %s", seekType, name)
		}
		return nil
	}
	switch seekType {
	case "extracted":
		if curve == "" {
			return errAt(b.Pos, "Seek type extracted needs Full seek curve")
		}
		tab, err := l.seekCurve(resolve(curvePos.File, curve), curvePos)
		if err != nil {
			return err
		}
		p.SeekTable = tab
		if single >= 0 {
			l.ignore(b.Type, "Single cylinder seek time", "the extracted curve's own point is used")
		}
		if full >= 0 {
			l.ignore(b.Type, "Full strobe seek time", "the extracted curve's own point is used")
		}
	case "constant":
		if err := need("Constant seek time", constant); err != nil {
			return err
		}
		p.SeekTable = []disk.SeekPoint{pt(1, constant)}
	case "linear":
		for _, e := range []error{need("Single cylinder seek time", single), need("Average seek time", avg), need("Full strobe seek time", full)} {
			if e != nil {
				return e
			}
		}
		// Through the single-cylinder, average (at a third of the
		// stroke, the mean random seek distance) and full-stroke points.
		third := max(cyls/3, 2)
		p.SeekTable = []disk.SeekPoint{pt(1, single)}
		if third < cyls-1 {
			p.SeekTable = append(p.SeekTable, pt(third, avg))
		}
		p.SeekTable = append(p.SeekTable, pt(max(cyls-1, 2), full))
	case "curve":
		for _, e := range []error{need("Single cylinder seek time", single), need("Average seek time", avg), need("Full strobe seek time", full)} {
			if e != nil {
				return e
			}
		}
		p.TrackToTrack, p.AverageSeek, p.FullStroke = ms(single), ms(avg), ms(full)
	case "hpl", "hplplus10":
		if len(hpl) != 6 {
			return errAt(b.Pos, "Seek type %s needs 6 HPL seek equation values, got %d", seekType, len(hpl))
		}
		if seekType == "hplplus10" && len(ten) != 10 {
			return errAt(b.Pos, "Seek type hplplus10 needs 10 First ten seek times, got %d", len(ten))
		}
		if cyls > 1<<20 {
			return errAt(b.Pos, "too many cylinders for an HPL table")
		}
		// Ruemmler & Wilkes: t(d) = V2 + V3*sqrt(d) for d < V1, else
		// V4 + V5*d; V6 (if not -1) is the one-cylinder time.
		for d := int64(1); d < max(cyls, 2); d++ {
			var t float64
			switch {
			case seekType == "hplplus10" && d <= 10:
				t = ten[d-1]
			case d == 1 && hpl[5] >= 0:
				t = hpl[5]
			case float64(d) < hpl[0]:
				t = hpl[1] + hpl[2]*math.Sqrt(float64(d))
			default:
				t = hpl[3] + hpl[4]*float64(d)
			}
			p.SeekTable = append(p.SeekTable, pt(d, t))
		}
	default:
		return errAt(b.Pos, "Seek type = %q: unknown (constant, linear, curve, hpl, hplplus10, extracted)", seekType)
	}
	return nil
}

func floats(v Value) ([]float64, error) {
	if v.Kind != ListValue {
		return nil, errAt(v.Pos, "want a list of numbers")
	}
	var out []float64
	for _, e := range v.List {
		f, err := e.Float()
		if err != nil {
			return nil, err
		}
		out = append(out, f)
	}
	return out, nil
}

// seekCurve reads an extracted seek file: "Seek distances measured: N"
// then N lines "distance, ms".
func (l *loader) seekCurve(path string, from Pos) ([]disk.SeekPoint, error) {
	src, err := l.read(path)
	if err != nil {
		return nil, errAt(from, "Full seek curve: %w", errors.Unwrap(err))
	}
	return ParseSeekCurve(filepath.Clean(path), src)
}

// ParseSeekCurve parses the text of an extracted seek curve file (name
// is used in errors).
func ParseSeekCurve(name string, src []byte) ([]disk.SeekPoint, error) {
	sc := bufio.NewScanner(bytes.NewReader(src))
	line := 0
	want := -1
	var tab []disk.SeekPoint
	for sc.Scan() {
		line++
		s := strings.TrimSpace(sc.Text())
		if s == "" {
			continue
		}
		at := Pos{name, line}
		if want < 0 {
			rest, ok := strings.CutPrefix(s, "Seek distances measured:")
			if !ok {
				return nil, errAt(at, "want \"Seek distances measured: N\"")
			}
			n, err := strconv.Atoi(strings.TrimSpace(rest))
			if err != nil || n < 1 || n > 1<<20 {
				return nil, errAt(at, "bad number of seek distances %q", strings.TrimSpace(rest))
			}
			want = n
			continue
		}
		ds, ts, ok := strings.Cut(s, ",")
		if !ok {
			return nil, errAt(at, "want \"distance, milliseconds\", got %q", s)
		}
		d, err := strconv.ParseInt(strings.TrimSpace(ds), 10, 32)
		if err != nil {
			return nil, errAt(at, "bad distance %q", strings.TrimSpace(ds))
		}
		t, err := strconv.ParseFloat(strings.TrimSpace(ts), 64)
		if err != nil || t < 0 || t > 1e4 {
			return nil, errAt(at, "bad seek time %q", strings.TrimSpace(ts))
		}
		if d <= 0 || (len(tab) > 0 && int(d) <= tab[len(tab)-1].Distance) {
			return nil, errAt(at, "distance %d: must be positive and increasing", d)
		}
		if len(tab) == want {
			return nil, errAt(at, "more than the %d distances announced", want)
		}
		tab = append(tab, disk.SeekPoint{Distance: int(d), Time: ms(t)})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("disksim: %s: %w", name, err)
	}
	if want < 0 {
		return nil, errAt(Pos{name, line}, "empty seek curve")
	}
	if len(tab) != want {
		return nil, errAt(Pos{name, line}, "%d distances announced, %d given", want, len(tab))
	}
	return tab, nil
}
