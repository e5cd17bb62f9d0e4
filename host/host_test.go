package host_test

import (
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/raidsim/raidsim/host"
	"github.com/raidsim/raidsim/sim"
	"github.com/raidsim/raidsim/simtest"
)

// bare is a host that costs nothing: tests switch on what they measure.
func bare() host.Params {
	return host.Params{Cores: 1, RAM: 64 << 20, PageCache: host.PageCache{Off: true}}
}

// newHost builds p over a MemDevice of cfg (capacity 8 GiB unless set),
// the device wrapped by the host's driver, and returns both.
func newHost(t testing.TB, p host.Params, cfg simtest.MemConfig, st host.Storage) (*host.Host, *sim.Engine, *simtest.MemDevice) {
	t.Helper()
	eng := sim.NewEngine(1)
	if cfg.Capacity == 0 {
		cfg.Capacity = 8 << 30
	}
	mem, err := simtest.NewMemDevice(eng, cfg)
	if err != nil {
		t.Fatal(err)
	}
	h, err := host.New(eng, p, "host", nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := h.Attach(h.Driver(mem, "disk0"), st); err != nil {
		t.Fatal(err)
	}
	return h, eng, mem
}

// stream issues n requests of op and length bytes sequentially from off,
// depth at a time (closed loop), or one every gap when gap > 0 (open
// loop), runs the engine dry and returns the time of the last
// completion.
type stream struct {
	op     sim.Op
	off    int64
	length int64
	n      int
	depth  int
	gap    time.Duration
}

func (s stream) run(t testing.TB, eng *sim.Engine, dev sim.Device) sim.Time {
	t.Helper()
	next, issued, done := s.off, 0, 0
	var last sim.Time
	var submit func()
	reqs := make([]sim.Request, s.n)
	onDone := func(r *sim.Request) {
		if r.Err != nil {
			t.Errorf("request %v: %v", r, r.Err)
		}
		done++
		last = r.Completed
		if s.gap == 0 {
			submit()
		}
	}
	submit = func() {
		if issued == s.n {
			return
		}
		r := &reqs[issued]
		*r = sim.Request{Op: s.op, Offset: next, Length: s.length, Done: onDone}
		issued++
		next += s.length
		if err := dev.Submit(r); err != nil {
			t.Fatalf("submit %v: %v", r, err)
		}
	}
	if s.gap > 0 {
		var tick sim.HandlerFunc
		tick = func(sim.Time, any) {
			submit()
			if issued < s.n {
				eng.After(s.gap, tick, nil)
			}
		}
		eng.After(0, tick, nil)
	} else {
		for range max(s.depth, 1) {
			submit()
		}
	}
	eng.Run()
	if done != s.n {
		t.Fatalf("%d of %d requests done", done, s.n)
	}
	return last
}

func within(t *testing.T, what string, got, want, tol float64) {
	t.Helper()
	if math.Abs(got-want) > tol*math.Abs(want) {
		t.Errorf("%s = %.6g, want %.6g (within %.2g%%)", what, got, want, 100*tol)
	} else {
		t.Logf("%s = %.6g (hand computation %.6g)", what, got, want)
	}
}

// TestCPUUtilizationHand checks utilization against (requests/s x cost
// per request + bytes/s x cost per byte) / cores for a fixed open-loop
// stream that never makes work wait.
func TestCPUUtilizationHand(t *testing.T) {
	p := bare()
	p.Cores, p.Direct = 2, true
	p.SyscallCost, p.CommandCost, p.DriverPerKiB = 7*time.Microsecond, 13*time.Microsecond, 2*time.Microsecond
	h, eng, _ := newHost(t, p, simtest.MemConfig{ReadLatency: 100 * time.Microsecond}, host.Storage{})
	const n, length, gap = 5000, 64 << 10, time.Millisecond
	from := h.Stats()
	stream{op: sim.Read, length: length, n: n, gap: gap}.run(t, eng, h)
	to := h.Stats()
	span := to.At.Sub(from.At).Seconds()
	rps, bps := float64(n)/span, float64(n*length)/span
	perReq := (p.SyscallCost + p.CommandCost).Seconds()
	perByte := p.DriverPerKiB.Seconds() / 1024
	want := 100 * (rps*perReq + bps*perByte) / float64(p.Cores)
	s := host.Summarize(from, to)
	within(t, "cpu_utilization_pct", s.CPUUtilizationPct, want, 1e-9)
	within(t, "cpu_seconds.driver", s.CPUSeconds.Driver, n*(p.CommandCost.Seconds()+64*p.DriverPerKiB.Seconds()), 1e-9)
	if s.CPUWaitSeconds != 0 {
		t.Errorf("work waited %v s for a core at %.1f%% utilization with 1 ms between requests", s.CPUWaitSeconds, s.CPUUtilizationPct)
	}
}

// TestCoresQueue: work arriving together on fewer cores than requests
// waits its turn, first come first served.
func TestCoresQueue(t *testing.T) {
	p := bare()
	p.Cores, p.Direct, p.SyscallCost = 2, true, time.Millisecond
	h, eng, _ := newHost(t, p, simtest.MemConfig{}, host.Storage{})
	var ends []time.Duration
	for i := range 5 {
		r := &sim.Request{Op: sim.Read, Offset: int64(i) * 4096, Length: 4096, Done: func(r *sim.Request) {
			ends = append(ends, time.Duration(r.Completed))
		}}
		if err := h.Submit(r); err != nil {
			t.Fatal(err)
		}
	}
	eng.Run()
	want := []time.Duration{time.Millisecond, time.Millisecond, 2 * time.Millisecond, 2 * time.Millisecond, 3 * time.Millisecond}
	for i := range want {
		if ends[i] != want[i] {
			t.Fatalf("completions at %v, want %v", ends, want)
		}
	}
	// Waits: 0, 0, 1, 1, 2 ms.
	if w := h.Stats().CPUWait; w != 4*time.Millisecond {
		t.Errorf("CPUWait %v, want 4ms", w)
	}
}

// TestParityBound: full-stripe writes to software RAID 5 on one core
// run at the XOR rate when parity is the only cost.
func TestParityBound(t *testing.T) {
	p := bare()
	p.Direct, p.XORRate = true, 100_000_000
	st := host.Storage{Parity: 1, StripeUnit: 64 << 10, DataMembers: 2}
	h, eng, _ := newHost(t, p, simtest.MemConfig{WriteLatency: 50 * time.Microsecond}, st)
	const n, length = 2000, 128 << 10
	last := stream{op: sim.Write, length: length, n: n, depth: 4}.run(t, eng, h)
	within(t, "MB/s", float64(n*length)/time.Duration(last).Seconds()/1e6, float64(p.XORRate)/1e6, 0.001)
}

// TestParityBytes compares ParityBytes with a stripe-by-stripe loop.
func TestParityBytes(t *testing.T) {
	for _, st := range []host.Storage{
		{Parity: 1, StripeUnit: 64 << 10, DataMembers: 2},
		{Parity: 2, StripeUnit: 4096, DataMembers: 3},
		{Parity: 1, StripeUnit: 512, DataMembers: 1},
	} {
		s := st.StripeUnit * int64(st.DataMembers)
		naive := func(off, n int64) int64 {
			var x int64
			for a := off; a < off+n; {
				b := min((a/s+1)*s, off+n)
				if b-a == s {
					x += s
				} else {
					x += min(2*(b-a), s)
				}
				a = b
			}
			return x * int64(st.Parity)
		}
		for off := int64(0); off < 3*s; off += 512 {
			for n := int64(512); n < 4*s; n += 512 * 7 {
				if got, want := st.ParityBytes(off, n), naive(off, n); got != want {
					t.Fatalf("%+v: ParityBytes(%d, %d) = %d, want %d", st, off, n, got, want)
				}
			}
		}
	}
}

// TestDirtyRatioThrottle: with dirty_ratio 20% of a 1 GiB page cache, a
// writer faster than the disk is throttled at 205 MB (204.8 MiB) of
// dirty data and then runs at the disk's rate.
func TestDirtyRatioThrottle(t *testing.T) {
	p := bare()
	p.RAM, p.PageCache = 1<<30, host.PageCache{DirtyRatio: 0.20}
	const disk = 50_000_000
	h, eng, _ := newHost(t, p, simtest.MemConfig{Bandwidth: disk, Serial: true}, host.Storage{})
	const n, length = 1024, 1 << 20 // 1 GiB
	from := h.Stats()
	last := stream{op: sim.Write, length: length, n: n}.run(t, eng, h)
	s := host.Summarize(from, h.Stats())
	ratio := 0.2
	limit := int64(ratio*(1<<30)) &^ 4095
	t.Logf("dirty limit %d bytes (%.1f MiB), peak %d, throttled %.2f s", limit, float64(limit)/(1<<20), s.DirtyPeakBytes, s.ThrottleSeconds)
	if s.DirtyPeakBytes > limit || s.DirtyPeakBytes <= limit-length {
		t.Errorf("dirty peak %d bytes, want within one %d-byte write under the limit %d", s.DirtyPeakBytes, length, limit)
	}
	if math.Abs(float64(limit)/(1<<20)-204.8) > 0.01 {
		t.Errorf("limit %.3f MiB, want 204.8", float64(limit)/(1<<20))
	}
	// The writer ran free until the limit: ~1 GiB less ~205 MiB of
	// background writeback needed throttling.
	if s.ThrottleSeconds < 10 {
		t.Errorf("throttled %.2f s, want most of the run", s.ThrottleSeconds)
	}
	// Acknowledged at the disk's rate plus the head start the dirty limit gives.
	want := float64(n*length-limit) / disk
	within(t, "seconds to acknowledge 1 GiB", time.Duration(last).Seconds(), want, 0.05)
}

// TestWriteback: dirty data below dirty_background_ratio stays until it
// expires, then goes at the flusher's next wake-up.
func TestWriteback(t *testing.T) {
	p := bare()
	p.RAM, p.PageCache = 1<<30, host.PageCache{}
	h, eng, mem := newHost(t, p, simtest.MemConfig{}, host.Storage{})
	eng.RunUntil(sim.Time(time.Second))
	for i := range 8 {
		if err := h.Submit(&sim.Request{Op: sim.Write, Offset: int64(i) << 20, Length: 1 << 20, Done: func(*sim.Request) {}}); err != nil {
			t.Fatal(err)
		}
	}
	eng.RunUntil(sim.Time(34 * time.Second))
	if w := mem.Stats().Writes; w != 0 {
		t.Fatalf("%d writes reached the disk before the data expired (written at 1 s, expire 30 s, wake-ups every 5 s)", w)
	}
	eng.RunUntil(sim.Time(35 * time.Second))
	if w := mem.Stats().BytesWritten; w != 8<<20 {
		t.Errorf("at 35 s the disk has %d bytes, want all 8 MiB written back at the wake-up", w)
	}
}

// TestReadTwiceOverGigabit: a file read twice through a NAS comes from
// memory the second time, at no more than the wire's rate.
func TestReadTwiceOverGigabit(t *testing.T) {
	p, err := host.Preset("nas-1gb")
	if err != nil {
		t.Fatal(err)
	}
	h, eng, _ := newHost(t, p, simtest.MemConfig{Bandwidth: 60_000_000, Serial: true}, host.Storage{})
	const n, length = 1024, 64 << 10 // 64 MiB
	t0 := eng.Now()
	t1 := stream{op: sim.Read, length: length, n: n}.run(t, eng, h)
	t2 := stream{op: sim.Read, length: length, n: n}.run(t, eng, h)
	first := float64(n*length) / t1.Sub(t0).Seconds() / 1e6
	second := float64(n*length) / t2.Sub(t1).Seconds() / 1e6
	wire := float64(p.Network.Rate) / 1e6
	t.Logf("first read %.1f MB/s, second %.1f MB/s, wire %.1f MB/s", first, second, wire)
	if second > wire || second < 1.2*first {
		t.Errorf("second read %.1f MB/s: want above the first (%.1f) and at most the wire's %.1f", second, first, wire)
	}
	if s := host.Summarize(host.Stats{}, h.Stats()); s.PageCacheHitRatio < 0.45 || s.NetworkUtilizationPct <= 0 {
		t.Errorf("hit ratio %.2f, network utilization %.1f%%", s.PageCacheHitRatio, s.NetworkUtilizationPct)
	}
}

// TestValidate: every problem at once, each naming its field.
func TestValidate(t *testing.T) {
	p := host.Params{Cores: -1, SyscallCost: -1, CopyRate: -5, RAM: 1 << 20, Reserve: 2 << 20, RAIDReadAheadStripes: -1,
		PageCache: host.PageCache{DirtyRatio: 1.5, DirtyBackgroundRatio: 2, DirtyExpire: -1, ReadAhead: 1000},
		Network:   &host.Link{Rate: 0, Latency: -1}}
	err := p.WithDefaults().Validate()
	if err == nil {
		t.Fatal("no error")
	}
	for _, f := range []string{"Params.Cores", "Params.SyscallCost", "Params.CopyRate", "Params.Reserve", "Params.RAIDReadAheadStripes",
		"Params.PageCache.DirtyRatio", "Params.PageCache.DirtyBackgroundRatio", "Params.PageCache.DirtyExpire",
		"Params.PageCache.ReadAhead", "Params.Network.Rate", "Params.Network.Latency"} {
		if !strings.Contains(err.Error(), f) {
			t.Errorf("error does not name %s:\n%v", f, err)
		}
	}
	if _, err := host.New(sim.NewEngine(1), p, "h", nil); err == nil {
		t.Error("New accepted bad parameters")
	}
}

// TestPresets: every preset is valid, and unknown names are refused.
func TestPresets(t *testing.T) {
	for _, name := range host.Presets() {
		p, err := host.Preset(name)
		if err != nil {
			t.Fatal(err)
		}
		if err := p.WithDefaults().Validate(); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		if p.Name != name {
			t.Errorf("preset %s is named %q", name, p.Name)
		}
	}
	if _, err := host.Preset("mainframe"); err == nil || !strings.Contains(err.Error(), "nas-1gb") {
		t.Errorf("unknown preset: %v", err)
	}
}

// TestConformance runs the device suite on a host with a page cache, a
// direct host, and a NAS behind a link.
func TestConformance(t *testing.T) {
	nas, _ := host.Preset("nas-1gb")
	direct := nas
	direct.Direct = true
	for name, p := range map[string]host.Params{"page-cache": {RAM: 64 << 20, SyscallCost: time.Microsecond, CommandCost: time.Microsecond},
		"direct": direct, "nas": nas} {
		t.Run(name, func(t *testing.T) {
			simtest.TestDevice(t, func(t *testing.T) (sim.Device, *sim.Engine) {
				h, eng, _ := newHost(t, p, simtest.MemConfig{Capacity: 1 << 30, ReadLatency: 100 * time.Microsecond, WriteLatency: 200 * time.Microsecond}, host.Storage{})
				return h, eng
			}, simtest.WithData())
		})
	}
}

// TestSubmitErrors: bad requests and a host with no storage are refused.
func TestSubmitErrors(t *testing.T) {
	eng := sim.NewEngine(1)
	h, err := host.New(eng, bare(), "h", nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := h.Submit(&sim.Request{Op: sim.Read, Length: 512, Done: func(*sim.Request) {}}); err == nil {
		t.Error("Submit before Attach accepted")
	}
	h2, _, _ := newHost(t, bare(), simtest.MemConfig{}, host.Storage{})
	err = h2.Submit(&sim.Request{Op: sim.Read, Offset: 3, Length: 512, Done: func(*sim.Request) {}})
	if !errors.Is(err, sim.ErrMisaligned) {
		t.Errorf("misaligned read: %v", err)
	}
	if err := h2.Attach(h2, host.Storage{}); err == nil {
		t.Error("second Attach accepted")
	}
}

// TestNoAllocs: serving requests through a NAS host with a page cache
// and software RAID costs allocates nothing in steady state.
func TestNoAllocs(t *testing.T) {
	p, _ := host.Preset("nas-1gb")
	p.PageCache.Size = 16 << 20 // full, and so in steady state, after the warm-up
	st := host.Storage{Parity: 1, StripeUnit: 64 << 10, DataMembers: 2}
	h, eng, _ := newHost(t, p, simtest.MemConfig{ReadLatency: 100 * time.Microsecond, WriteLatency: 100 * time.Microsecond}, st)
	var off int64
	r := &sim.Request{}
	done := func(*sim.Request) {}
	one := func(op sim.Op) {
		*r = sim.Request{Op: op, Offset: off % (4 << 30), Length: 64 << 10, Done: done}
		off += 64 << 10
		if err := h.Submit(r); err != nil {
			t.Fatal(err)
		}
		eng.Run()
	}
	for range 2000 {
		one(sim.Write)
		one(sim.Read)
	}
	a := testing.AllocsPerRun(500, func() { one(sim.Write); one(sim.Read) })
	if a != 0 {
		t.Errorf("%.1f allocations per write and read", a)
	}
}

// TestObserver: a NAS request's life shows the link (bus), the CPU
// (overhead) and the request the host sends its page cache.
func TestObserver(t *testing.T) {
	p, _ := host.Preset("nas-1gb")
	eng := sim.NewEngine(1)
	mem, _ := simtest.NewMemDevice(eng, simtest.MemConfig{Capacity: 1 << 30, ReadLatency: time.Millisecond})
	var log []string
	obs := &sim.Observer{
		Phase: func(dev string, r *sim.Request, ph sim.Phase, start, end sim.Time) {
			log = append(log, dev+" "+ph.String())
		},
		Child: func(dev string, parent, child *sim.Request, _ int, _ sim.Time) {
			if dev == "nas" {
				log = append(log, dev+" child "+child.String())
			}
		},
	}
	h, err := host.New(eng, p, "nas", obs)
	if err != nil {
		t.Fatal(err)
	}
	if err := h.Attach(h.Driver(mem, "disk0"), host.Storage{}); err != nil {
		t.Fatal(err)
	}
	if err := h.Submit(&sim.Request{Op: sim.Read, Length: 65536, Done: func(*sim.Request) {}}); err != nil {
		t.Fatal(err)
	}
	eng.Run()
	got := strings.Join(log, "; ")
	for _, want := range []string{"nas bus; nas overhead; nas child read 65536@0", "disk0 overhead", "nas bus"} {
		if !strings.Contains(got, want) {
			t.Errorf("log lacks %q:\n%s", want, got)
		}
	}
}

// TestDriverName: a drive behind the host's driver keeps its name for
// the layers above.
func TestDriverName(t *testing.T) {
	eng := sim.NewEngine(1)
	mem, _ := simtest.NewMemDevice(eng, simtest.MemConfig{Capacity: 1 << 20})
	h, _ := host.New(eng, bare(), "h", nil)
	d := h.Driver(mem, "disk3")
	if n, ok := d.(interface{ Name() string }); !ok || n.Name() != "disk3" {
		t.Errorf("driver shim does not name its drive (%v)", ok)
	}
}

// refuser is a device that refuses every request at submit time.
type refuser struct{ sim.Device }

func (refuser) Submit(*sim.Request) error { return errors.New("refused") }

// TestRefusedBelow: a request the storage refuses after the host took it
// completes with the error, from the event loop, never inside Submit.
func TestRefusedBelow(t *testing.T) {
	eng := sim.NewEngine(1)
	mem, _ := simtest.NewMemDevice(eng, simtest.MemConfig{Capacity: 1 << 20})
	p := bare()
	p.Direct = true
	h, _ := host.New(eng, p, "h", nil)
	if err := h.Attach(refuser{mem}, host.Storage{}); err != nil {
		t.Fatal(err)
	}
	inSubmit, done := true, false
	err := h.Submit(&sim.Request{Op: sim.Read, Length: 512, Done: func(r *sim.Request) {
		if inSubmit {
			t.Error("Done called inside Submit")
		}
		if r.Err == nil || !strings.Contains(r.Err.Error(), "refused") {
			t.Errorf("Err = %v, want the refusal", r.Err)
		}
		done = true
	}})
	inSubmit = false
	if err != nil {
		t.Fatal(err)
	}
	eng.Run()
	if !done {
		t.Error("the request never completed")
	}
}
