package disksim

import (
	"regexp"
	"strings"
)

// DiskSim's parameter reader (libparam's lp_loadparams with the
// modules' generated tables) checks each block against a table of
// names, types and required flags: an integer parameter rejects a
// number written with a decimal point, a float one takes either, a
// missing required parameter fails the load, and a parameter that
// depends on another is read after it. The tables below are DiskSim
// 4.0's, as its modules declare them.

type ptype uint8

const (
	pInt ptype = iota
	pFloat
	pString
	pList
	pBlock
)

// pspec is one parameter of a block type.
type pspec struct {
	name string
	typ  ptype
	req  bool
	dep  string // read after this parameter
}

var diskSpecs = []pspec{
	{"Model", pBlock, true, ""}, {"Scheduler", pBlock, true, ""}, {"Max queue length", pInt, true, ""},
	{"Bulk sector transfer time", pFloat, true, ""}, {"Segment size (in blks)", pInt, true, ""},
	{"Number of buffer segments", pInt, true, ""}, {"Print stats", pInt, true, ""},
	{"Per-request overhead time", pFloat, true, ""}, {"Time scale for overheads", pFloat, true, ""},
	{"Hold bus entire read xfer", pInt, true, ""}, {"Hold bus entire write xfer", pInt, true, ""},
	{"Allow almost read hits", pInt, true, ""}, {"Allow sneaky full read hits", pInt, true, ""},
	{"Allow sneaky partial read hits", pInt, true, ""}, {"Allow sneaky intermediate read hits", pInt, true, ""},
	{"Allow read hits on write data", pInt, true, ""}, {"Allow write prebuffering", pInt, true, ""},
	{"Preseeking level", pInt, true, ""}, {"Never disconnect", pInt, true, ""},
	{"Avg sectors per cylinder", pInt, true, ""},
	{"Maximum number of write segments", pInt, true, "Number of buffer segments"},
	{"Use separate write segment", pInt, true, ""}, {"Low (write) water mark", pFloat, true, ""},
	{"High (read) water mark", pFloat, true, ""}, {"Set watermark by reqsize", pInt, true, ""},
	{"Calc sector by sector", pInt, true, ""}, {"Enable caching in buffer", pInt, true, ""},
	{"Buffer continuous read", pInt, true, ""}, {"Minimum read-ahead (blks)", pInt, true, ""},
	{"Maximum read-ahead (blks)", pInt, true, ""}, {"Read-ahead over requested", pInt, true, ""},
	{"Read-ahead on idle hit", pInt, true, ""}, {"Read any free blocks", pInt, true, ""},
	{"Fast write level", pInt, true, ""}, {"Combine seq writes", pInt, true, ""},
	{"Stop prefetch in sector", pInt, true, ""}, {"Disconnect write if seek", pInt, true, ""},
	{"Write hit stop prefetch", pInt, true, ""}, {"Read directly to buffer", pInt, true, ""},
	{"Immed transfer partial hit", pInt, true, ""},
	{"Read hit over. after read", pFloat, true, ""}, {"Read hit over. after write", pFloat, true, ""},
	{"Read miss over. after read", pFloat, true, ""}, {"Read miss over. after write", pFloat, true, ""},
	{"Write hit over. after read", pFloat, true, ""}, {"Write hit over. after write", pFloat, true, ""},
	{"Write miss over. after read", pFloat, true, ""}, {"Write miss over. after write", pFloat, true, ""},
	{"Read completion overhead", pFloat, true, ""}, {"Write completion overhead", pFloat, true, ""},
	{"Data preparation overhead", pFloat, true, ""}, {"First reselect overhead", pFloat, true, ""},
	{"Other reselect overhead", pFloat, true, ""}, {"Read disconnect afterread", pFloat, true, ""},
	{"Read disconnect afterwrite", pFloat, true, ""}, {"Write disconnect overhead", pFloat, true, ""},
	{"Extra write disconnect", pInt, true, ""}, {"Extradisc command overhead", pFloat, true, ""},
	{"Extradisc disconnect overhead", pFloat, true, ""}, {"Extradisc inter-disconnect delay", pFloat, true, ""},
	{"Extradisc 2nd disconnect overhead", pFloat, true, ""}, {"Extradisc seek delta", pFloat, true, ""},
	{"Minimum seek delay", pFloat, true, ""}, {"Immediate buffer read", pInt, true, ""},
	{"Immediate buffer write", pInt, true, ""},
}

var dmDiskSpecs = []pspec{
	{"Block count", pInt, true, ""}, {"Number of data surfaces", pInt, true, ""},
	{"Number of cylinders", pInt, true, ""}, {"Mechanical Model", pBlock, false, ""},
	{"Layout Model", pBlock, true, ""},
}

var mechSpecs = []pspec{
	{"Access time type", pString, true, ""}, {"Constant access time", pFloat, false, ""},
	{"Seek type", pString, true, ""}, {"Average seek time", pFloat, false, ""},
	{"Constant seek time", pFloat, false, ""}, {"Single cylinder seek time", pFloat, false, ""},
	{"Full strobe seek time", pFloat, false, ""}, {"Full seek curve", pString, false, "Seek type"},
	{"Add. write settling delay", pFloat, true, ""}, {"Head switch time", pFloat, true, ""},
	{"Rotation speed (in rpms)", pInt, true, ""}, {"Percent error in rpms", pFloat, true, ""},
	{"First ten seek times", pList, false, "Seek type"}, {"HPL seek equation values", pList, false, "Seek type"},
}

var layoutSpecs = []pspec{
	{"LBN-to-PBN mapping scheme", pInt, true, ""}, {"Sparing scheme used", pInt, true, ""},
	{"Rangesize for sparing", pInt, true, ""}, {"Skew units", pString, false, ""}, {"Zones", pList, true, ""},
}

var zoneSpecs = []pspec{
	{"First cylinder number", pInt, true, ""}, {"Last cylinder number", pInt, true, ""},
	{"Blocks per track", pInt, true, ""}, {"Offset of first block", pFloat, true, "Blocks per track"},
	{"Skew units", pString, false, ""}, {"Empty space at zone front", pInt, true, ""},
	{"Skew for track switch", pFloat, false, "Blocks per track"},
	{"Skew for cylinder switch", pFloat, false, "Blocks per track"},
	{"Number of spares", pInt, true, ""}, {"slips", pList, true, ""}, {"defects", pList, true, ""},
}

var queueSpecs = []pspec{
	{"Scheduling policy", pInt, true, ""}, {"Cylinder mapping strategy", pInt, true, ""},
	{"Write initiation delay", pFloat, true, ""}, {"Read initiation delay", pFloat, true, ""},
	{"Sequential stream scheme", pInt, true, ""}, {"Maximum concat size", pInt, true, ""},
	{"Overlapping request scheme", pInt, true, ""}, {"Sequential stream diff maximum", pInt, true, ""},
	{"Scheduling timeout scheme", pInt, true, ""}, {"Timeout time/weight", pInt, true, ""},
	{"Timeout scheduling", pInt, true, ""}, {"Scheduling priority scheme", pInt, true, ""},
	{"Priority scheduling", pInt, true, ""},
}

var driverSpecs = []pspec{
	{"type", pInt, true, ""}, {"Constant access time", pFloat, true, ""},
	{"Use queueing in subsystem", pInt, true, ""}, {"Scheduler", pBlock, true, ""},
}

var busSpecs = []pspec{
	{"type", pInt, true, ""}, {"Arbitration type", pInt, true, ""}, {"Arbitration time", pFloat, true, ""},
	{"Read block transfer time", pFloat, true, ""}, {"Write block transfer time", pFloat, true, ""},
	{"Print stats", pInt, true, ""},
}

var ctlrSpecs = []pspec{
	{"type", pInt, true, ""}, {"Scale for delays", pFloat, true, ""}, {"Bulk sector transfer time", pFloat, true, ""},
	{"Maximum queue length", pInt, true, ""}, {"Print stats", pInt, true, ""}, {"Scheduler", pBlock, false, ""},
	{"Cache", pBlock, false, ""}, {"Max per-disk pending count", pInt, false, ""},
}

var intWord = regexp.MustCompile(`^[-+]?[0-9]+$`)

// readBlock reads block b against specs in DiskSim's order: file order,
// a parameter after the one it depends on, the first of a repeated
// name only. set receives each parameter by its table name. Errors
// name the file and line.
func readBlock(b *Block, specs []pspec, set func(name string, p Param) error) error {
	byKey := map[string]*pspec{}
	for i := range specs {
		byKey[normKey(specs[i].name)] = &specs[i]
	}
	at := map[string]int{} // first position of each key
	for i, p := range b.Params {
		k := normKey(p.Key)
		if _, ok := byKey[k]; !ok {
			return errAt(p.Pos, "%s: unknown parameter %q (DiskSim rejects it)", b.Type, p.Key)
		}
		if _, ok := at[k]; !ok {
			at[k] = i
		}
	}
	done := map[string]bool{}
	var do func(i int) error
	do = func(i int) error {
		p := b.Params[i]
		k := normKey(p.Key)
		if done[k] {
			return nil
		}
		sp := byKey[k]
		if sp.dep != "" && !done[normKey(sp.dep)] {
			if j, ok := at[normKey(sp.dep)]; ok {
				if err := do(j); err != nil {
					return err
				}
			}
		}
		done[k] = true
		if err := checkType(b, sp, p); err != nil {
			return err
		}
		return set(sp.name, p)
	}
	for i := range b.Params {
		if at[normKey(b.Params[i].Key)] != i {
			continue
		}
		if err := do(i); err != nil {
			return err
		}
	}
	for _, sp := range specs {
		if sp.req && !done[normKey(sp.name)] {
			return errAt(b.Pos, "%s %s: missing required parameter %q (DiskSim rejects it)", b.Type, b.Name, sp.name)
		}
	}
	return nil
}

// checkType applies libparam's type check.
func checkType(b *Block, sp *pspec, p Param) error {
	v := p.Value
	ok := false
	switch sp.typ {
	case pInt:
		ok = v.Kind == Word && intWord.MatchString(v.Word)
	case pFloat:
		if v.Kind == Word {
			_, err := v.Float()
			ok = err == nil
		}
	case pString:
		ok = v.Kind == Word
	case pList:
		ok = v.Kind == ListValue
	case pBlock:
		ok = v.Kind == BlockValue
	}
	if !ok {
		return errAt(p.Pos, "%s: %q cannot take %s (DiskSim's type check rejects it)", b.Type, sp.name, describe(v))
	}
	return nil
}

func describe(v Value) string {
	switch v.Kind {
	case BlockValue:
		return "a block"
	case ListValue:
		return "a list"
	}
	if strings.ContainsAny(v.Word, ".eE") {
		return "a float (" + v.Word + ")"
	}
	return "the word " + v.Word
}
