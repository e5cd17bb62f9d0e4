package disksim

// pathTimes are the slowest block transfer times (ms) on the path to
// the disk, for data going to the host (read) and to the disk (write).
type pathTimes struct{ read, write float64 }

// pathTransfer returns the slowest block transfer times of the buses
// and controllers between the driver and the disk, checks that they add
// no delays the drive model cannot honour, and lists their unused
// parameters.
func (l *loader) pathTransfer(db *Block) (pathTimes, error) {
	path, typeOf := l.diskPath(db)
	var bt pathTimes
	onPath := map[*Block]bool{db: true}
	for _, n := range path[:max(len(path)-1, 0)] {
		b := typeOf[n.Name]
		if b == nil {
			return bt, errAt(n.Pos, "topology: %s is not instantiated", n.Name)
		}
		onPath[b] = true
		var t pathTimes
		var err error
		switch b.Type {
		case "disksim_bus":
			t, err = l.bus(b)
		case "disksim_ctlr":
			t.read, err = l.controller(b)
			t.write = t.read
		case "disksim_iodriver":
			err = l.driver(b)
		default:
			return bt, errAt(n.Pos, "topology: unexpected %s between the driver and the disk", b.Type)
		}
		bt = pathTimes{max(bt.read, t.read), max(bt.write, t.write)}
		if err != nil {
			return bt, err
		}
	}
	for _, b := range l.f.Blocks {
		if !onPath[b] && b.Type != "dm_disk" {
			l.ignore(b.Type, b.Name, "block not on the path to the disk")
		}
	}
	return bt, nil
}

// diskPath returns the topology's path from its root to the first
// instance of disk block db (none if db is not in it), and the block each
// instance name stands for.
func (l *loader) diskPath(db *Block) (path []Node, typeOf map[string]*Block) {
	// Instances name components: which names are of the disk's type?
	diskNames := map[string]bool{}
	typeOf = map[string]*Block{}
	for _, in := range l.f.Instances {
		b := l.f.Lookup(in.As)
		for _, n := range in.Names {
			typeOf[n] = b
			if b == db {
				diskNames[n] = true
			}
		}
	}
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
	return path, typeOf
}

// bus reads a disksim_bus block: its block transfer times (ms) towards
// the host (read) and towards the disk (write).
func (l *loader) bus(b *Block) (pathTimes, error) {
	var rd, wr float64
	err := params(b, func(k string, pr Param) (bool, error) {
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
	return pathTimes{rd, wr}, err
}

// controller reads a disksim_ctlr block, which must pass requests
// through: its bulk sector transfer time (ms).
func (l *loader) controller(b *Block) (float64, error) {
	var bt float64
	err := params(b, func(k string, pr Param) (bool, error) {
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
	return bt, err
}

// driver reads a disksim_iodriver block, which must add no time.
func (l *loader) driver(b *Block) error {
	return params(b, func(k string, pr Param) (bool, error) {
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
}
