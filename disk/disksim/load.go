package disksim

import (
	"errors"
	"fmt"
	"math"
	"os"
	"sort"
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
	c := ctrl{db: db, scale: 1, wmByReq: 1, caching: 1}
	if err := params(db, func(k string, pr Param) (bool, error) { return l.diskParam(&c, &p, k, pr) }); err != nil {
		return p, err
	}
	if err := c.apply(&p, blockTime); err != nil {
		return p, err
	}
	if err := l.model(c.model, &p); err != nil {
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
