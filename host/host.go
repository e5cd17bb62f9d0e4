package host

import (
	"errors"
	"fmt"

	"github.com/raidsim/raidsim/cache"
	"github.com/raidsim/raidsim/sim"
)

// Host is the computer in front of a storage stack: it implements
// sim.Device with the capacity and sector size of the storage, and each
// request it serves pays, in order: the network link from the client
// (when Params.Network is set), the file layer's CPU work (system call,
// copy, protocol server) on a free core, the page cache (or, with
// Direct, nothing), and on the way back the link to the client. Below
// the page cache, the CPU work of software RAID and a host-memory
// volume cache (the storage shim), and of every drive command (the
// driver shims that Driver returns), is charged as requests pass.
//
// Make one with New, wrap each drive with Driver while building the
// stack, then Attach the stack's top device.
type Host struct {
	eng   *sim.Engine
	p     Params
	name  string
	obs   *sim.Observer
	cpu   *cpu
	link  [2]wire
	views []*view      // the volumes, after AttachVolumes
	pc    *cache.Cache // the page cache, or nil
	top   sim.Device   // where buffered requests go: pc, or store
	cap   int64
	ss    int

	free  []*hreq
	done  func(*sim.Request) // childDone, bound once
	ev    stageHandler
	c     cost // scratch
	stats counts
}

// counts are the host's own request counters.
type counts struct {
	requests, direct int64
}

// hreq is the host's record of one request from above: the request it
// sends below is embedded, so one record serves both.
type hreq struct {
	sim.Request
	up    *sim.Request
	stage uint8
}

// Stages of a request, for the event handler.
const (
	stageArrive  = iota // reached the host over the link
	stageIssue          // its CPU work is done: send it below
	stageReply          // its reply reached the client
	stageRefused        // the layer below refused it: reply with the error
)

type stageHandler struct{ h *Host }

// HandleEvent moves a request to its next stage.
func (e stageHandler) HandleEvent(now sim.Time, arg any) {
	hr := arg.(*hreq)
	switch hr.stage {
	case stageArrive:
		e.h.arrive(now, hr)
	case stageIssue:
		e.h.issue(now, hr)
	case stageReply:
		e.h.finish(now, hr)
	case stageRefused:
		e.h.childDone(&hr.Request)
	}
}

// New returns a host on eng with parameters p (defaults filled, every
// problem reported at once). name labels it for the observer (may be
// nil).
func New(eng *sim.Engine, p Params, name string, obs *sim.Observer) (*Host, error) {
	p = p.WithDefaults()
	errs := []error{p.Validate()}
	if eng == nil {
		errs = append(errs, errors.New("host: New needs an engine, got nil"))
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	if p.Network != nil {
		l := *p.Network
		p.Network = &l // the host keeps its own copy
	}
	h := &Host{eng: eng, p: p, name: name, obs: obs, cpu: newCPU(p.Cores)}
	h.ev, h.done = stageHandler{h}, h.childDone
	return h, nil
}

// Params returns the parameters in use, defaults filled in.
func (h *Host) Params() Params { return h.p }

// Driver returns dev behind the host's drive driver: every command dev
// receives first costs Params.CommandCost (plus DriverPerKiB) on a host
// core. Wrap each drive of the stack with it before building the array.
func (h *Host) Driver(dev sim.Device, name string) sim.Device {
	s := &shim{h: h, below: dev, kind: shimDriver, name: name}
	s.ev = shimHandler{s}
	return s
}

// Attach makes below, described by st, the storage the host reads and
// writes, and builds the page cache over it. It is called once, before
// the first Submit.
func (h *Host) Attach(below sim.Device, st Storage) error {
	if h.top != nil {
		return errors.New("host: Attach called twice")
	}
	if below == nil {
		return errors.New("host: Attach needs a device, got nil")
	}
	if err := st.validate(); err != nil {
		return err
	}
	s := &shim{h: h, below: below, kind: shimStorage, name: h.name + "-storage", st: st}
	s.ev = shimHandler{s}
	return h.attachTop(s, below.Capacity(), below.SectorSize(), h.p.ReadAheadFor(st))
}

// attachTop makes dev (capacity bytes of ss-byte sectors) what the host
// sends requests to, under the page cache when there is one, reading
// ahead readAhead bytes.
func (h *Host) attachTop(dev sim.Device, capacity int64, ss int, readAhead int64) error {
	h.top, h.cap, h.ss = dev, capacity, ss
	if h.p.PageCacheSize() == 0 {
		return nil
	}
	cfg := h.p.PageCacheConfig()
	cfg.ReadAhead = readAhead
	pc, err := cache.New(h.eng, cfg, dev, h.name+"-page-cache", h.obs)
	if err != nil {
		h.top = nil
		return fmt.Errorf("host: page cache: %w", err)
	}
	h.pc, h.top = pc, pc
	return nil
}

// PageCache returns the page cache, or nil when there is none.
func (h *Host) PageCache() *cache.Cache { return h.pc }

// Capacity returns the storage's capacity in bytes (0 before Attach);
// with several volumes, the span of the page cache's address space that
// holds them all (use Volume(i) for each).
func (h *Host) Capacity() int64 { return h.cap }

// SectorSize returns the storage's sector size in bytes (0 before
// Attach).
func (h *Host) SectorSize() int { return h.ss }

// Submit accepts r from the client program and serves it through the
// host. It returns an error wrapping a sim sentinel for a request that
// can never be served.
func (h *Host) Submit(r *sim.Request) error {
	if len(h.views) > 0 {
		return errors.New("host: a host with several volumes takes requests through Volume(i)")
	}
	return h.submit(r, 0, h.cap)
}

// submit serves r, addressed within a volume of capacity bytes that
// starts at base in the page cache's address space.
func (h *Host) submit(r *sim.Request, base, capacity int64) error {
	if h.top == nil {
		return errors.New("host: Submit before Attach")
	}
	now := h.eng.Now()
	r.Issued = now
	if err := sim.CheckRequest(r, capacity, h.ss); err != nil {
		return fmt.Errorf("host %s: %w", h.name, err)
	}
	h.obs.OnSubmitted(h.name, r, now)
	hr := h.get(r)
	if r.Op != sim.Flush {
		hr.Offset += base
	}
	h.stats.requests++
	if l := h.p.Network; l != nil {
		n := l.Overhead
		if r.Op == sim.Write {
			n += r.Length
		}
		hr.stage = stageArrive
		at := h.link[toHost].send(now, n, l)
		h.obs.OnPhase(h.name, r, sim.PhaseBus, now, at)
		h.eng.Schedule(at, &h.ev, hr)
		return nil
	}
	h.arrive(now, hr)
	return nil
}

// arrive charges the file layer's CPU work and issues the request when
// it is done.
func (h *Host) arrive(now sim.Time, hr *hreq) {
	r, p := hr.up, &h.p
	h.c = cost{}
	h.c[KindSyscall] = p.SyscallCost
	if h.pc != nil {
		h.c[KindCopy] = perRate(dataLen(r), p.CopyRate)
	}
	if l := p.Network; l != nil {
		h.c[KindNetwork] = satAdd(l.CPUPerRequest, perKiB(dataLen(r), l.CPUPerKiB))
	}
	start, end := h.cpu.run(now, &h.c)
	h.obs.OnPhase(h.name, r, sim.PhaseQueue, now, start)
	h.obs.OnPhase(h.name, r, sim.PhaseOverhead, start, end)
	if end == now {
		h.issue(now, hr)
		return
	}
	hr.stage = stageIssue
	h.eng.Schedule(end, &h.ev, hr)
}

// issue sends the request to the page cache, or with Direct to the
// storage.
func (h *Host) issue(now sim.Time, hr *hreq) {
	dev := h.top
	if h.pc == nil {
		h.stats.direct++
	}
	h.obs.OnChild(h.name, hr.up, &hr.Request, -1, now)
	if err := dev.Submit(&hr.Request); err != nil {
		// Answer from the event loop: issue may run inside Submit.
		hr.Err, hr.Completed, hr.stage = err, now, stageRefused
		h.eng.Schedule(now, &h.ev, hr)
	}
}

// childDone: the request came back from below; send the reply.
func (h *Host) childDone(q *sim.Request) {
	hr := q.Ctx.(*hreq)
	now := h.eng.Now()
	if l := h.p.Network; l != nil {
		n := l.Overhead
		if hr.up.Op == sim.Read {
			n += hr.up.Length
		}
		hr.stage = stageReply
		at := h.link[toClient].send(now, n, l)
		h.obs.OnPhase(h.name, hr.up, sim.PhaseBus, now, at)
		h.eng.Schedule(at, &h.ev, hr)
		return
	}
	h.finish(now, hr)
}

// finish completes the request from above.
func (h *Host) finish(now sim.Time, hr *hreq) {
	r := hr.up
	r.Err, r.Completed = hr.Err, now
	h.put(hr)
	h.obs.OnCompleted(h.name, r, now)
	r.Done(r)
}

// get returns a record for r from the free list.
func (h *Host) get(r *sim.Request) *hreq {
	var hr *hreq
	if n := len(h.free); n > 0 {
		hr, h.free = h.free[n-1], h.free[:n-1]
	} else {
		hr = &hreq{}
		hr.Ctx = hr
		hr.Done = h.done
	}
	hr.up = r
	hr.Op, hr.Offset, hr.Length, hr.FUA, hr.Data = r.Op, r.Offset, r.Length, r.FUA, r.Data
	hr.Err, hr.Issued, hr.Completed = nil, 0, 0
	return hr
}

// put recycles hr.
func (h *Host) put(hr *hreq) {
	hr.up, hr.Data, hr.Err = nil, nil, nil
	h.free = append(h.free, hr)
}
