package oracle

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"strconv"
)

// gen draws one model's values. Every dimension of the coverage list
// (a parameter and its values, as the manuals define them) takes each of
// its values in turn in a window of pairs, and random ones elsewhere, so
// that a corpus of a few hundred pairs has every value several times.
type gen struct {
	i     int // the pair's index
	r     *rand.Rand
	used  map[string]string // dimension -> value chosen
	total int               // the corpus size the windows are spread over
	free  bool              // no value is forced
	wild  bool              // values DiskSim always stops on may be drawn
	vary  float64           // the chance that a dimension not forced leaves the base
	force map[string]string // values set from outside (tests)
	// defects is the kind of defect lists the model's zones draw
	defects string
	vals    map[string][]string
	// scheduling is set when a queue's policy is not FCFS
	scheduling bool
	// policies draws the queues' scheduling policies, apart from r so
	// that adding them left the rest of each pair's draws as they were
	policies *rand.Rand
	// drawn remembers the values each dimension was drawn from
	drawn map[string][]string
}

// valsOf returns the values dimension name was drawn from.
func (g *gen) valsOf(name string) []string { return g.drawn[name] }

// window returns the forced value index of dimension name with n values
// for pair i, or -1.
func (g *gen) window(name string, n int) int {
	if g.free {
		return -1
	}
	h := 0
	for _, c := range name {
		h = h*31 + int(c)
	}
	if h < 0 {
		h = -h
	}
	span := max(g.total-2*n, 1)
	start := h % span
	if g.i >= start && g.i < start+2*n {
		// the second round shifted by one, so that no value falls on
		// wild pairs (every tenth) only
		k := g.i - start
		return (k + k/n) % n
	}
	return -1
}

// pick chooses one of vals for dimension name and records it: the
// value its coverage window forces, else mostly the first (the base
// configuration, which DiskSim runs), else any.
func (g *gen) pick(name string, vals ...string) string {
	if g.vals != nil {
		g.vals[name] = vals
	}
	if g.drawn == nil {
		g.drawn = map[string][]string{}
	}
	g.drawn[name] = vals
	if v, ok := g.force[name]; ok {
		g.used[name] = v
		return v
	}
	k := g.window(name, len(vals))
	if k < 0 {
		k = 0
		if g.r.Float64() < g.vary {
			k = g.r.IntN(len(vals))
		}
	}
	g.used[name] = vals[k]
	return vals[k]
}

// flag picks "0" or "1".
func (g *gen) flag(name string) string { return g.pick(name, "0", "1") }

func f6(x float64) string { return strconv.FormatFloat(x, 'f', 6, 64) }

// ms returns a time in ms: zero, small, or larger, as the dimension
// picks it.
func (g *gen) ms(name string, hi float64) string {
	switch g.pick(name, "small", "zero", "large") {
	case "zero":
		return "0.000000"
	case "small":
		return f6(hi * 0.05 * g.r.Float64())
	}
	return f6(hi * (0.05 + 0.95*g.r.Float64()))
}

// Pair is a generated model and request stream.
type Pair struct {
	Index  int
	Model  *Model
	Stream StreamSpec
	// Dims holds the value each coverage dimension took.
	Dims map[string]string
}

// Generate returns pair i of a corpus of total pairs drawn from seed,
// with a stream of n requests.
//
// Most of the values the manuals allow make DiskSim 4.0 stop or hang
// in some combination (assertions, a division by zero, requests never
// answered). A pair is therefore drawn again, keeping the values its
// coverage windows force (for 50 draws, straying further from the base
// configuration each time; freely after that), until exact
// mode (which stops where DiskSim does) runs every request; every tenth
// pair is kept as first drawn,
// so that the corpus also checks that raidsim fails where DiskSim does.
func Generate(i, total int, seed uint64, n int) Pair {
	var p Pair
	for attempt := 0; attempt < 100; attempt++ {
		p = draw(i, total, seed, n, attempt)
		if i%10 == 9 || runsAll(p) {
			break
		}
	}
	return p
}

// runsAll reports whether exact mode runs every request of p (ASCII
// streams: all but those the end of the trace leaves outstanding).
func runsAll(p Pair) bool {
	recs := p.Stream.Requests()
	o := RunExact(p.Model.Files(), p.Stream, recs, nil)
	if o.Rejected {
		return false
	}
	done := 0
	for _, r := range o.Resp {
		if !math.IsNaN(r) {
			done++
		}
	}
	return done >= len(recs)-8
}

func draw(i, total int, seed uint64, n, attempt int) Pair {
	g := &gen{i: i, r: rand.New(rand.NewPCG(seed, uint64(i)<<8|uint64(attempt))), used: map[string]string{}, total: total,
		free: attempt >= 50, wild: i%10 == 9, vary: min(0.1+0.02*float64(attempt%50), 0.8),
		policies: rand.New(rand.NewPCG(seed^0x5c4ed, uint64(i)<<8|uint64(attempt)))}
	if g.wild {
		g.vary = 0.5
		// the first wild pairs each show one value DiskSim stops on
		// (two pairs a value), so that the corpus always has them
		if k := i / 10; k < 2*len(stopValues) {
			g.force = map[string]string{stopValues[k/2][0]: stopValues[k/2][1]}
		}
	}
	return g.pair(n)
}

// stopValues are dimension values DiskSim stops on, always (the
// cylinder mappings 6, sparing scheme 0) or mostly (degenerate defect
// lists).
var stopValues = [][2]string{
	{"driver cylinder mapping", "6"}, {"disk cylinder mapping", "6"}, {"sparing scheme", "0"}, {"defects", "degenerate"},
}

// pair draws a model and a stream of n requests.
func (g *gen) pair(n int) Pair {
	m := &Model{}
	g.layout(m)
	g.mech(m)
	g.path(m)
	g.disk(m)
	if g.used["segment size"] == "disk" {
		fitSegmentToDisk(m)
	}
	size := m.BlockCount
	if em, err := LoadFiles(m.Files()); err == nil {
		if s, err := em.Sectors(); err == nil {
			size = s
		}
	}
	// DiskSim reads ahead past the disk's last block and stops (its
	// zone lookup asserts), so streams mostly keep off the last eighth.
	if g.pick("stream end", "short", "disk end") == "short" {
		size -= size / 8
	}
	return Pair{Index: g.i, Model: m, Stream: g.stream(size, n), Dims: g.used}
}

// path sets the driver, its queue, the buses and the controller.
func (g *gen) path(m *Model) {
	m.Driver = []KV{{"type", "1"}, {"Constant access time", g.constTime()}, {"Use queueing in subsystem", g.flag("driver queueing")}}
	m.DriverSched = g.queue("driver")
	m.DiskSched = g.queue("disk")
	// the disk's queue holds more than one request only when the
	// driver queues in the subsystem
	diskSched := g.used["disk scheduling policy"] != "1"
	// a queue under a policy that asks for an access time stops DiskSim
	// at its first choice: such a pair is not shaped to fill the
	// queues, so that a draw exact mode runs whole is found and the
	// pair keeps the values its coverage windows force
	if asksAccessTime(g.used["disk scheduling policy"]) || asksAccessTime(g.used["driver scheduling policy"]) {
		diskSched, g.scheduling = false, false
	}
	m.Driver[2].Val = g.queueingIf(diskSched, "driver queueing", m.Driver[2].Val, "0", "1")
	// the controller type is drawn from the policies' source, after
	// the queues' draws, so that pairs of type 1 stay as they were
	r := g.r
	if g.policies != nil {
		g.r = g.policies
	}
	ctype := g.pick("controller type", "1", "2", "3")
	g.r = r
	if ctype == "3" {
		g.force = withForce(g.force, "topology", "ctlr")
	} else if ctype != "1" {
		// a disk asking a 53C700 how much of a transfer under way it
		// has moved reads memory the controller never set (exact's
		// ErrUndefined; DiskSim mostly stops or crashes after it):
		// transfers taking no time leave nothing under way
		for k, v := range map[string]string{"topology": "ctlr", "disk bus read block time": "zero", "disk bus write block time": "zero", "controller bulk time": "zero", "disk bulk sector time": "zero"} {
			g.force = withForce(g.force, k, v)
		}
	}
	topo := g.pick("topology", "ctlr", "direct")
	bus := func(name string) []KV {
		// type 3 is neither: DiskSim takes it (an exclusive bus; an
		// arbitration it exits on when it must choose between waiters)
		return []KV{{"type", g.pick(name+" type", "1", "2", "3")}, {"Arbitration type", g.pick(name+" arbitration", "1", "2", "3")},
			{"Arbitration time", g.ms(name+" arbitration time", 0.2)},
			{"Read block transfer time", g.ms(name+" read block time", 0.05)},
			{"Write block transfer time", g.ms(name+" write block time", 0.05)},
			{"Print stats", "0"}}
	}
	m.TopBus = bus("top bus")
	if topo == "direct" {
		return
	}
	m.DiskBus = bus("disk bus")
	scale := g.pick("controller scale", "0.0", "0.001", "0.02")
	m.Ctlr = []KV{{"type", ctype}, {"Scale for delays", scale},
		{"Bulk sector transfer time", g.ms("controller bulk time", 0.05)},
		{"Maximum queue length", "0"}, {"Print stats", "0"}}
	if ctype == "3" {
		g.smart(m)
	}
}

// smart adds what the smart controller (type 3) reads: its queue
// length, per-disk pending count, Scheduler and Cache, drawn from the
// policies' source (so that the other pairs keep their draws). The
// cache is a memory cache (DiskSim segfaults on a smart controller
// without one) of 2,048 blocks, with what exact mode simulates of a
// cache with space (written through or back), or of size 0 (every
// request goes through to the disk, reads moved to the host after it,
// writes before), where the
// parameters that only a cache with space reads vary over values
// DiskSim accepts, and flushing is drawn; its Max request size makes
// the driver send larger requests in parts.
func (g *gen) smart(m *Model) {
	r := g.r
	if g.policies != nil {
		g.r = g.policies
	}
	defer func() { g.r = r }()
	m.Ctlr = Set(m.Ctlr, "Maximum queue length", g.pick("controller queue length", "0", "3"))
	sched := inline("disksim_ioqueue", g.queue("controller"), "    ")
	// periodic and idle flushing walk the cache's LRU list: an empty
	// one (always in a cache of size 0, and before the first access
	// in one with space) is a null pointer for DiskSim, but under
	// segmented LRU with no SLRU segments, where they walk nothing; a
	// cache with space flushes later (60 ms, or 30 ms idle), once its
	// list holds lines
	flushPolicy, period, idle, cluster := "0", "0.0", "-1.0", "1"
	flush := g.pick("controller cache flush", "none", "periodic", "idle")
	size := g.pick("controller cache size", "2048", "0")
	if size != "0" {
		// what exact mode simulates of a cache with space: segmented
		// LRU with one segment (FIFO and LIFO never free a line; more
		// segments overflow DiskSim's map), lines of 8 blocks or of
		// size 0 (each block a line, granularity 1), no line-by-line
		// writes; 2,048 blocks hold the largest requests of four at
		// once
		for k, v := range map[string]string{"controller cache replacement": "2",
			"controller cache line by line": "0", "controller cache max gather": "0",
			"controller cache write scheme": []string{"1", "2", "3"}[g.r.IntN(3)]} {
			g.force = withForce(g.force, k, v)
		}
		cluster = []string{"1", "4"}[g.r.IntN(2)]
	}
	switch {
	case flush == "periodic" && size != "0":
		flushPolicy, period = "1", "60.0"
	case flush == "periodic":
		flushPolicy, period = "1", "5.0"
	case flush == "idle" && size != "0":
		idle = "30.0"
	case flush == "idle":
		idle = "2.0"
	}
	if flush != "none" {
		g.force = withForce(g.force, "controller cache replacement", "2")
	}
	line := g.pick("controller cache line size", "0", "8")
	gran := "1"
	if line != "0" {
		gran = g.pick("controller cache granularity", "1", "4")
	}
	cache := []KV{{"Cache size", size}}
	if size != "0" {
		cache = append(cache, KV{"SLRU segments", "[1.0]"})
	}
	cache = append(cache, []KV{{"Line size", line},
		{"Bit granularity", gran}, {"Lock granularity", gran}, {"Shared read locks", g.flag("controller cache shared locks")},
		{"Max request size", g.pick("controller cache max request size", "0", "8", "64")}, {"Replacement policy", g.pick("controller cache replacement", "1", "2", "3", "4")},
		{"Allocation policy", g.flag("controller cache allocation")},
		{"Write scheme", g.pick("controller cache write scheme", "1", "2", "3")},
		{"Flush policy", flushPolicy}, {"Flush period", period}, {"Flush idle delay", idle}, {"Flush max line cluster", cluster},
		{"Read prefetch type", g.pick("controller cache read prefetch", "0", "1", "2", "3")},
		{"Write prefetch type", g.pick("controller cache write prefetch", "0", "1", "2", "3")},
		{"Line-by-line fetches", g.flag("controller cache line by line")}, {"Max gather", g.pick("controller cache max gather", "0", "4")}}...)
	m.Ctlr = append(m.Ctlr, KV{"Scheduler", sched}, KV{"Cache", inline("disksim_cachemem", cache, "    ")},
		KV{"Max per-disk pending count", g.pick("controller pending count", "1", "2", "4")})
}

// queue returns an ioqueue: FCFS or one of the policies that order by
// block number (ELEVATOR_LBN, CYCLE_LBN, SSTF_LBN, VSCAN_LBN,
// PRI_VSCAN_LBN), by cylinder (ELEVATOR_CYL, SSTF_CYL, CYCLE_CYL,
// VSCAN_CYL) or by the disk's positioning estimates (8-16, 20-27:
// SPTF_OPT to TSPS), with the other values the manual lists that leave
// the order alone (no sequential stream scheme), and, in their coverage
// windows, the
// timeout schemes (which DiskSim's loader ignores) and the priority
// schemes (the generated streams flag no request time-critical).
func (g *gen) queue(who string) []KV {
	r := g.r
	if g.policies != nil {
		g.r = g.policies
	}
	name := who + " scheduling policy"
	policies := []string{"1", "2", "3", "4", "17", "5", "6", "7", "18", "19",
		"8", "9", "10", "11", "12", "13", "14", "15", "16", "20", "21", "22", "23", "24", "25", "26", "27"}
	policy := g.pick(name, policies...)
	// in the cylinder mapping's window (and outside the policy's) the
	// queue orders by cylinder, so that every strategy meets the
	// policies that read it
	if _, forced := g.force[name]; !forced && g.window(name, len(policies)) < 0 && g.window(who+" cylinder mapping", 6) >= 0 {
		policy = []string{"5", "6", "7", "18"}[g.r.IntN(4)]
		g.used[name] = policy
	}
	weight, timeoutPolicy, priority := "6", "4", "4"
	if policy == "19" {
		weight, timeoutPolicy, priority = g.priParams(who)
	} else if aged(policy) {
		weight = g.ageWeight(who)
	}
	g.r = r
	seq, diff := g.seqScheme(who, &policy)
	// the driver's queue only: exact mode refuses it on the disk's
	overlaps := "0"
	if who == "driver" {
		overlaps = g.windowed("driver overlap scheme", "0", "1", "2")
	}
	if overlaps != "0" {
		// a rereading stream arriving at once, so that requests for
		// the same blocks wait together
		g.force = withForce(withForce(g.force, "stream kind", "reread"), "stream gaps", "zero")
	}
	if policy != "1" || seq != "0" || overlaps != "0" {
		g.scheduling = true
	}
	concat := g.pick(who+" concat size", "0", "64", "128")
	if n, _ := strconv.Atoi(seq); n&3 != 0 && concat == "0" {
		concat = "64"
		g.used[who+" concat size"] = concat
	}
	return []KV{{"Scheduling policy", policy},
		{"Cylinder mapping strategy", g.cylMap(who, policy)},
		{"Write initiation delay", f6(g.r.Float64())}, {"Read initiation delay", f6(g.r.Float64())},
		{"Sequential stream scheme", seq}, {"Maximum concat size", concat},
		{"Overlapping request scheme", overlaps}, {"Sequential stream diff maximum", diff},
		{"Scheduling timeout scheme", g.scheme(who, "timeout scheme", "0", "1", "2")},
		{"Timeout time/weight", weight}, {"Timeout scheduling", timeoutPolicy},
		{"Scheduling priority scheme", g.scheme(who, "priority scheme", "0", "1")}, {"Priority scheduling", priority}}
}

// scheme draws the driver's or the disk's queue's scheme in its
// coverage window (windowed, dimension "<who> <name>"); the smart
// controller's queue, drawn in type-3 pairs only, keeps the first value.
func (g *gen) scheme(who, name string, vals ...string) string {
	if who == "controller" {
		return vals[0]
	}
	return g.windowed(who+" "+name, vals...)
}

// seqScheme draws a queue's sequential stream scheme in its coverage
// window, nothing at random: concatenation of reads, writes or both
// (1-3, the driver's queue only: on the disk's, DiskSim asserts in
// ioqueue_set_starttime) with a concat size of 64 or more and a
// sequential stream, or stream detection for reads, writes or either
// (4, 8, 16) under a policy that reads it (ELEVATOR_LBN, SSTF_LBN,
// VSCAN_LBN, in turn by pair) and a diff maximum of 0, 8 or 64 (by
// pair; recorded as "<who> seq stream diff", outside the
// coverage test).
func (g *gen) seqScheme(who string, policy *string) (seq, diff string) {
	vals := []string{"0", "1", "2", "3", "4", "8", "16"}
	if who == "disk" {
		vals = []string{"0", "4", "8", "16"}
	}
	seq = g.scheme(who, "seq stream scheme", vals...)
	diff = "0"
	switch seq {
	case "0":
	case "1", "2", "3":
		g.force = withForce(g.force, "stream kind", "sequential")
	default:
		switch {
		case *policy == "2", *policy == "4", *policy == "17":
		case positional(*policy):
			// the positional policies price stream heads only too
		default:
			*policy = []string{"2", "4", "17"}[g.i%3]
			g.used[who+" scheduling policy"] = *policy
		}
		diff = []string{"0", "8", "64"}[g.i/3%3]
		g.used[who+" seq stream diff"] = diff
	}
	return seq, diff
}

// priParams draws the three parameters PRI_VSCAN_LBN reads (the age
// factor "Timeout time/weight", the distance's policy "Timeout
// scheduling", the priority factor "Priority scheduling") from the
// queue's random source and records them as dimension "<who>
// PRI_VSCAN_LBN weight/timeout/priority", whose agreement the table
// shows; the coverage test does not require its combinations.
func (g *gen) priParams(who string) (weight, timeoutPolicy, priority string) {
	weight = []string{"6", "0", "100", "5000"}[g.r.IntN(4)]
	timeoutPolicy = []string{"4", "2", "3", "1"}[g.r.IntN(4)]
	priority = []string{"4", "0", "50", "200"}[g.r.IntN(4)]
	g.used[who+" PRI_VSCAN_LBN weight/timeout/priority"] = weight + "/" + timeoutPolicy + "/" + priority
	return weight, timeoutPolicy, priority
}

// constTime draws the driver's constant access time: 0 (the subsystem
// is simulated), a time every request takes, ms, or a traced time (-2
// the queue times, -3 both, -1 and any other negative value the access
// times), in its coverage window only (a pair with a constant or traced
// access time leaves the disk idle). A traced time gets a validate
// stream: DiskSim's ASCII reader leaves the traced times unset.
func (g *gen) constTime() string {
	v := g.windowed("driver constant access time", "0.0", "2.500000", "12.000000", "-1.000000", "-2.000000", "-3.000000", "-0.500000")
	if v[0] == '-' {
		g.force = withForce(g.force, "stream format", "validate")
	}
	return v
}

// windowed picks one of vals for dimension name: the first, but in the
// dimension's coverage window (or where forced); it draws nothing at
// random, so that the pairs outside the window stay as they were.
func (g *gen) windowed(name string, vals ...string) string {
	if g.vals != nil {
		g.vals[name] = vals
	}
	v := vals[0]
	if f, ok := g.force[name]; ok {
		v = f
	} else if k := g.window(name, len(vals)); k >= 0 {
		v = vals[k]
	}
	g.used[name] = v
	return v
}

// withForce returns force with key set to val, without changing a
// value already forced.
func withForce(force map[string]string, key, val string) map[string]string {
	if _, ok := force[key]; ok {
		return force
	}
	f := map[string]string{key: val}
	for k, v := range force {
		f[k] = v
	}
	return f
}

// cylMap draws a queue's cylinder mapping strategy. Strategy 6 divides
// by zero in DiskSim 4.0 at the first request (the queue's sectors per
// cylinder are never set), so only the wild pairs draw it. Under a
// cylinder policy the value is also recorded with the policy, as
// dimension "<who> cylinder policy/mapping" (e.g. "5/4"), whose
// agreement the table shows; the coverage test does not require its
// combinations.
func (g *gen) cylMap(who, policy string) string {
	name := who + " cylinder mapping"
	vals := []string{"0", "1", "2", "3", "4", "5"}
	if g.wild {
		vals = append(vals, "6")
	}
	v := g.pick(name, vals...)
	switch policy {
	case "5", "6", "7", "18":
		g.used[who+" cylinder policy/mapping"] = policy + "/" + v
	}
	return v
}

func (m *Model) slotsOf(z Zone) int {
	first, _ := strconv.Atoi(Get(z.KV, "First cylinder number"))
	last, _ := strconv.Atoi(Get(z.KV, "Last cylinder number"))
	bpt, _ := strconv.Atoi(Get(z.KV, "Blocks per track"))
	return (last - first + 1) * bpt * m.Surfaces
}

// layout sets the surfaces, cylinders and the G1 layout.
func (g *gen) layout(m *Model) {
	m.Surfaces = []int{1, 2, 3, 4, 6, 8}[g.r.IntN(6)]
	if v := g.pick("surfaces", "several", "one"); v == "one" {
		m.Surfaces = 1
	}
	nz := 1 + g.r.IntN(5)
	if g.pick("zones", "several", "one") == "one" {
		nz = 1
	}
	// one kind of defect list for the model (its first zone has it,
	// the others mostly), so that the pair's dimensions say what it has
	kinds := []string{"none", "slips", "defects", "both", "no spares", "outside", "degenerate"}
	g.defects = g.pick("defects", kinds...)
	if g.force["defects"] == "" && g.window("defects", len(kinds)) < 0 {
		// more pairs with defect lists than the base's share gives:
		// they are what real drives' models differ in most
		switch {
		case g.wild && g.r.IntN(4) == 0:
			g.defects = "degenerate"
		case g.r.IntN(4) == 0:
			g.defects = kinds[1+g.r.IntN(5)]
		}
		g.used["defects"] = g.defects
	}
	schemes := []string{"9", "1", "2", "3", "4", "5", "6", "7", "8", "10"}
	noScheme := g.force["sparing scheme"] == "" && g.window("sparing scheme", len(schemes)) < 0
	sparing, _ := strconv.Atoi(g.pick("sparing scheme", schemes...))
	if g.defects == "no spares" && noScheme && g.r.IntN(2) == 0 {
		// DiskSim's own validated models have slips and no spares
		// under scheme 7 (spares at the end of the disk)
		sparing = 7
		g.used["sparing scheme"] = "7"
	}
	if g.vals != nil {
		g.vals["sparing scheme"] = append(g.vals["sparing scheme"], "0")
	}
	if g.wild && g.r.IntN(8) == 0 {
		// DiskSim rejects scheme 0 (dm_layout_g1_compute_blksinband:
		// unknown sparing scheme): the harness checks raidsim does too
		sparing = 0
		g.used["sparing scheme"] = "0"
	}
	revs := g.pick("skew units", "sectors", "revolutions", "default")
	m.Layout = []KV{{"LBN-to-PBN mapping scheme", g.pick("mapping", "0", "1", "2")},
		{"Sparing scheme used", strconv.Itoa(sparing)}}
	rangeSize := 1 + g.r.IntN(6)
	m.Layout = append(m.Layout, KV{"Rangesize for sparing", strconv.Itoa(rangeSize)})
	if revs != "default" {
		m.Layout = append(m.Layout, KV{"Skew units", revs})
	}
	bpt := 40 + g.r.IntN(400)
	cyl := 0
	for zi := 0; zi < nz; zi++ {
		switch g.pick("zone boundary", "adjacent", "gap", "shared") {
		case "gap":
			if zi > 0 {
				cyl += 1 + g.r.IntN(5)
			}
		case "shared":
			if zi > 0 {
				cyl--
			}
		}
		n := 2 + g.r.IntN(40)
		z := g.zone(m, zi, cyl, cyl+n-1, bpt, sparing, rangeSize, revs)
		m.Zones = append(m.Zones, z)
		cyl += n
		bpt = max(12, bpt-g.r.IntN(bpt/4+1))
	}
	switch g.pick("cylinder count", "exact", "more", "fewer") {
	case "exact":
		m.Cyls = cyl
	case "more":
		m.Cyls = cyl + 1 + g.r.IntN(20)
	default:
		m.Cyls = max(1, cyl-1-g.r.IntN(3))
	}
	total := 0
	for _, z := range m.Zones {
		total += m.slotsOf(z)
	}
	m.BlockCount = total
	if g.pick("block count", "slots", "other") == "other" {
		m.BlockCount = total / 2
	}
}

// zone returns one zone, its spares, slips and defects drawn for the
// sparing scheme.
func (g *gen) zone(m *Model, zi, first, last, bpt, sparing, rangeSize int, revs string) Zone {
	cyls := last - first + 1
	tracks := cyls * m.Surfaces
	slots := tracks * bpt
	kv := []KV{{"First cylinder number", strconv.Itoa(first)}, {"Last cylinder number", strconv.Itoa(last)},
		{"Blocks per track", strconv.Itoa(bpt)}}
	zrevs := revs == "revolutions"
	if g.r.IntN(8) == 0 {
		zrevs = !zrevs
		if zrevs {
			kv = append(kv, KV{"Skew units", "revolutions"})
		} else {
			kv = append(kv, KV{"Skew units", "sectors"})
		}
	}
	angle := func(dim string) string {
		if zrevs {
			return f6(g.r.Float64())
		}
		switch g.pick(dim, "whole", "zero", "fraction") {
		case "zero":
			return "0.000000"
		case "whole":
			return fmt.Sprintf("%d.000000", g.r.IntN(bpt))
		}
		return f6(float64(g.r.IntN(bpt)) + g.r.Float64())
	}
	kv = append(kv, KV{"Offset of first block", angle("zone offset")})
	empty := "0"
	if g.pick("empty space", "none", "some") == "some" && zi == 0 {
		empty = strconv.Itoa(g.r.IntN(bpt * 2))
	}
	kv = append(kv, KV{"Empty space at zone front", empty},
		KV{"Skew for track switch", angle("track skew")}, KV{"Skew for cylinder switch", angle("cylinder skew")})
	kind := g.defects
	if zi > 0 && g.r.IntN(4) == 0 {
		kind = "none"
	}
	spares, slips, defects := g.sparing(kind, sparing, cyls, tracks, slots, bpt, rangeSize, m.Surfaces)
	kv = append(kv, KV{"Number of spares", strconv.Itoa(spares)}, KV{"slips", intList(slips)}, KV{"defects", intList(defects)})
	return Zone{KV: kv}
}

func intList(xs []int) string {
	if len(xs) == 0 {
		return "[ ]"
	}
	s := "["
	for i, x := range xs {
		if i > 0 {
			s += ","
		}
		s += " " + strconv.Itoa(x)
	}
	return s + " ]"
}

// sparing draws the zone's spares, slips and defect pairs: usually as
// a real drive would have them (slips within the spares of their
// region, defects moved to spare slots); or slips with no spares at all
// (as DiskSim's own validated models have them under scheme 7, spares
// at the end of the disk); or defects outside the zone's data (a
// defect in a spare slot, a replacement past the zone's slots); or
// degenerate (all of these at once, with unsorted slips).
func (g *gen) sparing(kind string, scheme, cyls, tracks, slots, bpt, rangeSize, surfaces int) (spares int, slips, defects []int) {
	perCyl := bpt * surfaces
	switch scheme {
	case 1:
		spares = g.r.IntN(4)
	case 2, 4, 5, 6:
		spares = g.r.IntN(max(2, perCyl/8))
	case 3:
		spares = g.r.IntN(max(2, bpt/8))
	case 8:
		spares = g.r.IntN(max(2, perCyl*rangeSize/8))
	default:
		spares = g.r.IntN(max(2, slots/16))
	}
	if (scheme == 5 || scheme == 6 || scheme == 7) && !g.wild && g.window("spares", 2) < 0 && g.r.IntN(5) != 0 {
		// DiskSim loops or asserts on spares at the front of cylinders
		// and on spares at the end of the disk: mostly without them
		g.force = withForce(g.force, "spares", "none")
	}
	if g.pick("spares", "some", "none") == "none" {
		spares = 0
	}
	if kind == "none" {
		return spares, nil, nil
	}
	switch kind {
	case "degenerate":
		return g.degenerate(scheme, spares, tracks, slots)
	case "no spares":
		return 0, g.noSpareSlips(scheme, tracks, slots), nil
	case "outside":
		return spares, nil, g.outsideDefects(scheme, spares, tracks, slots)
	}
	// Regions and their spare locations, as the scheme places them:
	// the locations are tracks under track sparing, slots otherwise.
	var regionSize, regions int
	front := false
	switch scheme {
	case 1:
		regionSize, regions = tracks, 1
	case 2, 4:
		regionSize, regions = perCyl, cyls
	case 5, 6:
		regionSize, regions, front = perCyl, cyls, true
	case 3:
		regionSize, regions = bpt, tracks
	case 8:
		regionSize, regions = perCyl*rangeSize, cyls/rangeSize
	default:
		regionSize, regions = slots, 1
	}
	if scheme == 1 {
		spares = max(spares, 1+g.r.IntN(4))
	}
	spares = max(1, min(spares, regionSize/2))
	if regions < 1 {
		return spares, nil, nil
	}
	spareAt := func(r, k int) int { // the k-th spare of region r, from the region's end
		if front {
			return r*regionSize + spares - 1 - k
		}
		return r*regionSize + regionSize - 1 - k
	}
	dataAt := func(r int) int {
		if front {
			return r*regionSize + spares + g.r.IntN(regionSize-spares)
		}
		return r*regionSize + g.r.IntN(regionSize-spares)
	}
	n := 1 + g.r.IntN(4)
	used := map[int]int{} // spares taken per region
	taken := map[int]bool{}
	for k := 0; k < n; k++ {
		r := g.r.IntN(regions)
		if used[r] >= spares {
			continue
		}
		loc := dataAt(r)
		if taken[loc] {
			continue
		}
		taken[loc] = true
		wantSlip := kind == "slips" || (kind == "both" && k%2 == 0)
		if wantSlip {
			slips = append(slips, loc)
		} else {
			defects = append(defects, loc, spareAt(r, used[r]))
		}
		used[r]++
	}
	sort.Ints(slips)
	return spares, slips, defects
}

// degenerate draws lists a drive would not have: slips with no spares,
// replacements outside the zone's slots, unsorted slips.
func (g *gen) degenerate(scheme, spares, tracks, slots int) (int, []int, []int) {
	units := slots
	if scheme == 1 {
		units = tracks
	}
	if g.r.IntN(2) == 0 {
		spares = 0
	}
	slips := g.distinct(1+g.r.IntN(4), units)
	if g.r.IntN(2) == 0 {
		sort.Ints(slips)
	}
	var defects []int
	for _, d := range g.distinct(1+g.r.IntN(3), units) {
		spare := g.r.IntN(units)
		if g.r.IntN(2) == 0 {
			spare = units + g.r.IntN(units)
		}
		defects = append(defects, d, spare)
	}
	return spares, slips, defects
}

// noSpareSlips draws sorted slips for a zone with no spares: up to 60,
// in the zone's slots (tracks under track sparing).
func (g *gen) noSpareSlips(scheme, tracks, slots int) []int {
	units := slots
	if scheme == 1 {
		units = tracks
	}
	slips := g.distinct(1+g.r.IntN(min(60, max(1, units/8))), units)
	sort.Ints(slips)
	return slips
}

// outsideDefects draws sorted defect pairs that leave the zone's data:
// a defect in one of the last slots (the spares of schemes that keep
// them at the zone's end: no data to remap) or a replacement past the
// zone's slots.
func (g *gen) outsideDefects(scheme, spares, tracks, slots int) []int {
	units := slots
	if scheme == 1 {
		units = tracks
	}
	var defects []int
	for _, d := range g.distinct(1+g.r.IntN(3), units) {
		if g.r.IntN(2) == 0 {
			d = units - 1 - g.r.IntN(max(1, min(spares, units)))
			defects = append(defects, d, g.r.IntN(units))
			continue
		}
		defects = append(defects, d, units+g.r.IntN(units))
	}
	type pair struct{ at, to int }
	ps := make([]pair, 0, len(defects)/2)
	seen := map[int]bool{}
	for i := 0; i < len(defects); i += 2 {
		if !seen[defects[i]] {
			seen[defects[i]] = true
			ps = append(ps, pair{defects[i], defects[i+1]})
		}
	}
	sort.Slice(ps, func(i, j int) bool { return ps[i].at < ps[j].at })
	defects = defects[:0]
	for _, p := range ps {
		defects = append(defects, p.at, p.to)
	}
	return defects
}

// distinct returns n distinct ints in [0, n).
func (g *gen) distinct(n, below int) []int {
	seen := map[int]bool{}
	var out []int
	for len(out) < n && len(out) < below {
		x := g.r.IntN(below)
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

// mech sets the mechanics: every access time type and seek type, the
// write settle of either sign, head switch, speed.
func (g *gen) mech(m *Model) {
	rpm := []int{3600, 5400, 7200, 10025, 15000}[g.r.IntN(5)]
	// the seek types whose parameters have their own coverage windows
	switch {
	case g.window("hpl one-cylinder value", 2) >= 0:
		g.force = withForce(g.force, "seek type", []string{"hpl", "hplplus10"}[g.r.IntN(2)])
	case g.window("curve header", 2) >= 0 || g.window("curve start", 2) >= 0:
		g.force = withForce(g.force, "seek type", "extracted")
	}
	st := g.pick("seek type", "extracted", "constant", "linear", "curve", "hpl", "hplplus10")
	m.Mech = []KV{{"Access time type", g.pick("access time type", "trackSwitchPlusRotation", "averageRotation", "constant")}}
	if g.r.IntN(2) == 0 {
		m.Mech = append(m.Mech, KV{"Constant access time", f6(5 * g.r.Float64())})
	}
	m.Mech = append(m.Mech, KV{"Seek type", st})
	one, avg, full := 0.5+g.r.Float64(), 3+5*g.r.Float64(), 8+10*g.r.Float64()
	m.Mech = append(m.Mech, KV{"Single cylinder seek time", f6(one)}, KV{"Average seek time", f6(avg)}, KV{"Full strobe seek time", f6(full)})
	if st == "constant" || g.r.IntN(4) == 0 {
		m.Mech = append(m.Mech, KV{"Constant seek time", f6(2 * g.r.Float64())})
	}
	switch st {
	case "extracted":
		// DiskSim takes the extracted type without a curve (its seeks
		// then take no time)
		file := g.pick("seek curve file", "given", "none")
		if g.window("curve header", 2) >= 0 || g.window("curve start", 2) >= 0 {
			file = "given"
			g.used["seek curve file"] = file
		}
		if file == "none" {
			break
		}
		m.Mech = append(m.Mech, KV{"Full seek curve", "curve.seek"})
		m.Curve = g.curve(m, one, full)
		m.CurveHeader = g.pick("curve header", "yes", "no") == "yes"
	case "hpl", "hplplus10":
		v1 := 1 + g.r.IntN(max(2, m.Cyls/2+10))
		v6 := "-1.000000"
		if g.pick("hpl one-cylinder value", "given", "none") == "given" {
			v6 = f6(one)
		}
		m.Mech = append(m.Mech, KV{"HPL seek equation values",
			fmt.Sprintf("[ %d, %s, %s, %s, %s, %s ]", v1, f6(0.5+g.r.Float64()), f6(0.1+0.3*g.r.Float64()),
				f6(2+3*g.r.Float64()), f6(0.001+0.01*g.r.Float64()), v6)})
		if st == "hplplus10" {
			var ten []string
			for k := 0; k < 10; k++ {
				ten = append(ten, f6(one+0.2*float64(k)*g.r.Float64()))
			}
			m.Mech = append(m.Mech, KV{"First ten seek times", "[ " + join(ten) + " ]"})
		}
	}
	settle := 0.0
	switch g.pick("write settle", "zero", "positive", "negative") {
	case "positive":
		settle = 0.5 * g.r.Float64()
	case "negative":
		settle = -0.3 * g.r.Float64()
	}
	headSwitch := g.ms("head switch", 1.5)
	rpmError := g.pick("rpm error", "0.0", "0.5")
	// dm_mech_g1's loaders, like the disk's, do nothing when a range
	// test fails
	switch g.pick("mechanics out of range", "none", "negative head switch", "negative seek time", "rpm error") {
	case "negative head switch":
		headSwitch = f6(-0.5 * g.r.Float64())
	case "negative seek time":
		k := []string{"Single cylinder seek time", "Average seek time", "Full strobe seek time"}[g.r.IntN(3)]
		m.Mech = Set(m.Mech, k, f6(-2*g.r.Float64()))
	case "rpm error":
		rpmError = "150.0"
	}
	m.Mech = append(m.Mech, KV{"Add. write settling delay", f6(settle)},
		KV{"Head switch time", headSwitch},
		KV{"Rotation speed (in rpms)", strconv.Itoa(rpm)},
		KV{"Percent error in rpms", rpmError})
	m.MechBeforeLayout = g.r.IntN(2) == 0
}

func join(xs []string) string {
	s := ""
	for i, x := range xs {
		if i > 0 {
			s += ", "
		}
		s += x
	}
	return s
}

// curve returns an extracted seek curve: measured-like points from one
// cylinder to past the full stroke, not always monotone, with gaps.
func (g *gen) curve(m *Model, one, full float64) [][2]float64 {
	maxd := max(m.Cyls+5, 12)
	var pts [][2]float64
	d := 1
	if g.pick("curve start", "one", "later") == "later" {
		d = 2 + g.r.IntN(3)
	}
	for d < maxd {
		t := one + (full-one)*math.Sqrt(float64(d)/float64(maxd)) + 0.1*(g.r.Float64()-0.5)
		pts = append(pts, [2]float64{float64(d), max(t, 0.1)})
		if d < 10 {
			d++
		} else {
			d += 1 + g.r.IntN(d/4+1)
		}
	}
	return pts
}

// positional reports whether policy prices requests by the disk's
// positioning estimates (8-16, 20-27).
func positional(policy string) bool {
	n, err := strconv.Atoi(policy)
	return err == nil && (n >= 8 && n <= 16 || n >= 20 && n <= 27)
}

// asksAccessTime reports whether policy asks the disk for an access
// time (SATF_OPT, WATF_OPT, ASATF_OPT, TSPS), which stops DiskSim at
// the queue's first choice between two requests.
func asksAccessTime(policy string) bool {
	switch policy {
	case "10", "13", "16", "27":
		return true
	}
	return false
}

// aged reports whether policy weighs a request's age by "Timeout
// time/weight": WPTF, WPCTF, WATF (11-13), ASPTF, ASPCTF, ASATF (14-16).
func aged(policy string) bool {
	n, err := strconv.Atoi(policy)
	return err == nil && n >= 11 && n <= 16
}

// ageWeight draws the "Timeout time/weight" of an aged positional
// policy from the queue's random source and records it as dimension
// "<who> age weight", whose agreement the table shows; the coverage
// test does not require its values.
func (g *gen) ageWeight(who string) string {
	w := []string{"6", "1", "50", "1000"}[g.r.IntN(4)]
	g.used[who+" age weight"] = w
	return w
}
