package disksim

import (
	"fmt"
	"math"
	"os"
	"sort"

	"github.com/raidsim/raidsim/disk/disksim/exact"
)

// LoadExact reads the DiskSim 4.0 parameter file at path into a model
// that package exact simulates as DiskSim's source does: every value
// checked and converted the way DiskSim's loader does it (see Mode).
// Errors name a file, a line and a parameter: one DiskSim itself
// rejects, or one whose behaviour exact mode does not reproduce.
func LoadExact(path string) (*exact.Model, Report, error) {
	return LoadExactWith(path, os.ReadFile)
}

// LoadExactWith is LoadExact reading files with read.
func LoadExactWith(path string, read ReadFunc) (*exact.Model, Report, error) {
	var files []string
	rd := func(p string) ([]byte, error) {
		files = append(files, p)
		return read(p)
	}
	f, err := Parse(path, rd)
	if err != nil {
		return nil, Report{}, err
	}
	l := &loader{f: f, path: path, read: rd, ignored: map[string]bool{}}
	m, err := l.exactModel()
	if err != nil {
		return nil, Report{}, err
	}
	rep := Report{Disk: l.diskName, Files: files}
	for k := range l.ignored {
		rep.Ignored = append(rep.Ignored, k)
	}
	sort.Strings(rep.Ignored)
	return m, rep, nil
}

func (l *loader) exactModel() (*exact.Model, error) {
	db, err := l.findDisk()
	if err != nil {
		return nil, err
	}
	l.diskName = db.Name
	m := &exact.Model{}
	if err := l.exactPath(db, m); err != nil {
		return nil, err
	}
	if err := l.exactDisk(db, m); err != nil {
		return nil, err
	}
	if err := m.Check(); err != nil {
		return nil, fmt.Errorf("disksim: %s: %w", l.path, err)
	}
	return m, nil
}

// exactPath reads the topology from the driver to the disk: a bus, and
// optionally a controller and a second bus.
func (l *loader) exactPath(db *Block, m *exact.Model) error {
	path, typeOf := l.diskPath(db)
	if len(path) == 0 {
		return errAt(db.Pos, "%s %s: not in the topology", db.Type, db.Name)
	}
	var blocks []*Block
	for _, n := range path {
		b := typeOf[n.Name]
		if b == nil {
			return errAt(n.Pos, "topology: %s is not instantiated", n.Name)
		}
		blocks = append(blocks, b)
	}
	types := ""
	for _, b := range blocks {
		types += b.Type + " "
	}
	switch types {
	case "disksim_iodriver disksim_bus disksim_disk ":
	case "disksim_iodriver disksim_bus disksim_ctlr disksim_bus disksim_disk ":
	default:
		for i := 0; i+1 < len(blocks); i++ {
			if blocks[i].Type == "disksim_ctlr" && blocks[i+1].Type != "disksim_bus" {
				return errAt(path[i].Pos, "topology: %s %s has a %s below it: DiskSim rejects it (a controller takes only buses below it)", blocks[i].Type, blocks[i].Name, blocks[i+1].Type)
			}
		}
		return errAt(path[0].Pos, "topology: %s: exact mode simulates a driver, a bus, optionally a controller and a bus, and the disk", types)
	}
	if err := l.exactDriver(blocks[0], m); err != nil {
		return err
	}
	if len(blocks) == 3 {
		return l.exactBus(blocks[1], &m.Bus)
	}
	if err := l.exactBus(blocks[1], &m.TopBus); err != nil {
		return err
	}
	m.Controller = &exact.Controller{}
	if err := l.exactCtlr(blocks[2], m.Controller); err != nil {
		return err
	}
	return l.exactBus(blocks[3], &m.Bus)
}

func (l *loader) exactDriver(b *Block, m *exact.Model) error {
	return readBlock(b, driverSpecs, func(name string, p Param) error {
		switch name {
		case "Constant access time":
			// negative values take the times from the trace
			// (exact.Model.DriverConstTime)
			f, _ := p.Value.Float()
			m.DriverConstTime = f
		case "Use queueing in subsystem":
			n, _ := p.Value.Int()
			m.DriverQueueing = n != 0
		case "Scheduler":
			return l.exactQueue(p.Value.Block, &m.DriverQueue)
		}
		return nil
	})
}

func (l *loader) exactQueue(b *Block, q *exact.Queue) error {
	if b.Type != "disksim_ioqueue" {
		return errAt(b.Pos, "Scheduler: want a disksim_ioqueue block, got %s", b.Type)
	}
	cylMapAt := b.Pos
	err := readBlock(b, queueSpecs, func(name string, p Param) error {
		n, _ := p.Value.Int()
		switch name {
		case "Scheduling policy":
			if why := exact.PolicyRefusal(int(n)); why != "" {
				return errAt(p.Pos, "Scheduling policy = %d: %s; --disksim-mode refined takes 3, 4, 6-10", n, why)
			}
			q.Policy = int(n)
		case "Sequential stream scheme":
			q.SeqScheme = int(n)
		case "Maximum concat size":
			q.ConcatMax = int(n)
		case "Sequential stream diff maximum":
			q.SeqDiff = int(n)
		case "Overlapping request scheme":
			q.Overlaps = int(n)
		case "Scheduling timeout scheme":
			// DiskSim 4.0's loader stores nothing: it prints "** warning:
			// ignoring \"Scheduling timeout scheme\"" (verbose runs only)
			// and every queue keeps NOTIMEOUT
			l.ignore(b.Type, p.Key, "DiskSim 4.0's loader ignores it: no queue times out")
		case "Scheduling priority scheme":
			q.PriorityScheme = int(n)
		case "Cylinder mapping strategy":
			q.CylMap = int(n)
			cylMapAt = p.Pos
		case "Timeout scheduling": // PRI_VSCAN_LBN's distance
			q.TimeoutPolicy = int(n)
		case "Priority scheduling": // PRI_VSCAN_LBN's priority factor
			q.PriorityFactor = int(n)
		case "Timeout time/weight": // PRI_VSCAN_LBN's and the aged positional policies' age factor
			q.AgeFactor = int(n)
		case "Read initiation delay", "Write initiation delay":
			// the positional policies add them to their prices
			f, _ := p.Value.Float()
			if name == "Read initiation delay" {
				q.ReadDelay = f
			} else {
				q.WriteDelay = f
			}
		}
		return nil
	})
	if err == nil && !exact.ValidCylinderMapping(q.CylMap) {
		return errAt(cylMapAt, "Cylinder mapping strategy = %d: DiskSim 4.0 exits on it when it hands a request out (ioqueue_get_cylinder_mapping knows 0-6)", q.CylMap)
	}
	return err
}

func (l *loader) exactBus(b *Block, bus *exact.Bus) error {
	return readBlock(b, busSpecs, func(name string, p Param) error {
		f, _ := p.Value.Float()
		switch name {
		case "type":
			// DiskSim tests for 2 (interleaved); any other type is
			// exclusively owned
			bus.Interleaved = int(f) == 2
		case "Arbitration type":
			// types other than 1 and 2 load; DiskSim exits when it
			// must choose between waiters
			bus.FIFO = int(f) == 2
			bus.OtherArbitration = int(f) != 1 && int(f) != 2
		case "Arbitration time":
			bus.ArbTime = f
		case "Read block transfer time":
			bus.ReadBlock = f
		case "Write block transfer time":
			bus.WriteBlock = f
		}
		return nil
	})
}

func (l *loader) exactCtlr(b *Block, c *exact.Controller) error {
	smart := map[string]Param{} // read once the type is known
	err := readBlock(b, ctlrSpecs, func(name string, p Param) error {
		f, _ := p.Value.Float()
		switch name {
		case "Maximum queue length", "Scheduler", "Cache", "Max per-disk pending count":
			smart[name] = p
		case "Print stats":
			l.ignore(b.Type, p.Key, "statistics")
		case "type":
			if f < 1 || f > 3 {
				return errAt(p.Pos, "controller type %g: DiskSim exits on it at start-up (controller_event_arrive: unknown controller type)", f)
			}
			c.Type = int(f)
		case "Scale for delays":
			c.TimeScale = f
		case "Bulk sector transfer time":
			c.BlockTime = f
		}
		return nil
	})
	if err != nil {
		return err
	}
	if c.Type != 3 {
		for _, p := range smart {
			l.ignore(b.Type, p.Key, "read by the smart controller only")
		}
		return nil
	}
	return l.exactSmart(b, smart, c)
}

// ranged returns an error unless lo <= v <= hi, naming the parameter
// as DiskSim's checks do.
func ranged(p Param, v, lo, hi float64) error {
	if v < lo || v > hi || math.IsNaN(v) {
		return errAt(p.Pos, "%s = %g: DiskSim accepts %g..%g only", p.Key, v, lo, hi)
	}
	return nil
}
