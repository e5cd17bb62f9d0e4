package cache

import (
	"errors"
	"fmt"

	"github.com/raidsim/raidsim/sim"
)

// A cache whose data lives on a device (an SSD in front of disks, as
// Linux bcache and dm-cache put one) keeps its index in memory and every
// byte it holds on that device, the tier: a hit reads the tier, an
// absorbed write writes it, a destage reads it before writing below,
// and data read below is written to it in the background. The index is
// made durable as bcache does, by a journal: each change to it is a key
// (bcache's bkey with one pointer, 24 bytes) appended to a journal ring
// at the end of the tier, written a batch at a time (whatever keys
// gathered while the previous journal write was in flight, at least a
// block). An absorbed write is acknowledged once its data and then the
// journal write holding its key have completed on the tier (group
// commit): so a power loss loses nothing acknowledged when the tier has
// power-loss protection, and, when it has not, what its volatile write
// buffer held, which the device itself reports. bcache acknowledges a
// write once its data is on the device and journals its key within
// journal_delay_ms (100 ms) unless the write is FUA or follows a flush;
// the group commit here is the variant that loses nothing with a
// protected device.

// journalKeyBytes is the size of one journal key.
const journalKeyBytes = 24

// journalShare is the fraction of the tier kept for the journal ring
// (at least 1 MiB): bcache's default journal is 8 buckets of 512 KiB.
const journalShare = 64

// journal is the state of the metadata journal on the tier.
type journal struct {
	off, size int64   // the ring, bytes of the tier
	next      int64   // where the next journal write goes, in the ring
	busy      bool    // a journal write is in flight
	keys      int     // keys gathered for the next journal write
	waiting   []*host // absorbed writes whose keys are in keys
	flying    []*host // those whose keys the write in flight carries
}

// NewOnDevice returns a cache on eng in front of below whose data lives
// on dev (the tier) rather than in memory: an SSD cache in front of a
// disk array. cfg.Size is the tier's bytes used for data; it and a
// journal ring (1/64 of it, at least 1 MiB) must fit on dev.
// HitLatency is the cache software's time per request; CopyRate does
// not apply (the tier's transfers take its time). SequentialCutoff
// defaults to 4 MiB.
func NewOnDevice(eng *sim.Engine, cfg Config, below, dev sim.Device, name string, obs *sim.Observer) (*Cache, error) {
	if cfg.SequentialCutoff == 0 {
		cfg.SequentialCutoff = DefaultSequentialCutoff
	}
	c, err := New(eng, cfg, below, name, obs)
	if err != nil {
		return nil, err
	}
	if dev == nil {
		return nil, errors.New("cache: NewOnDevice needs a device for the data, got nil")
	}
	cfg = c.cfg
	jr := max(cfg.Size/journalShare, 1<<20)
	jr = (jr + cfg.Block - 1) / cfg.Block * cfg.Block
	ss := int64(dev.SectorSize())
	switch {
	case ss <= 0 || cfg.Block%ss != 0:
		return nil, fmt.Errorf("cache: Config.Block %d bytes is not a multiple of the sector size %d of the cache device", cfg.Block, ss)
	case cfg.Size+jr > dev.Capacity():
		return nil, fmt.Errorf("cache: Config.Size %d bytes and a journal of %d bytes do not fit on the cache device's %d bytes", cfg.Size, jr, dev.Capacity())
	}
	c.tier = dev
	c.jr = journal{off: cfg.Size, size: jr}
	return c, nil
}

// Device returns the device the cache keeps its data on, or nil for a
// cache in memory.
func (c *Cache) Device() sim.Device { return c.tier }

// tierOffset returns where the n bytes of data at off live on the
// tier: off modulo the data region, moved back to fit if they would
// run past it.
func (c *Cache) tierOffset(off, n int64) int64 {
	return min(off%c.cfg.Size, c.cfg.Size-n) / c.ss * c.ss
}

// tierIO sends a read or write of [off, end)'s data to the tier, for
// host h (which waits for it) or none.
func (c *Cache) tierIO(kind uint8, h *host, op sim.Op, off, end int64) *child {
	ch := c.newChild(kind, h)
	n := end - off
	ch.Op, ch.Offset, ch.Length = op, c.tierOffset(off, n), n
	ch.off, ch.end = off, end
	if op == sim.Read {
		c.st.DeviceReads++
		c.st.DeviceReadBytes += n
	} else {
		c.st.DeviceWrites++
		c.st.DeviceWriteBytes += n
	}
	c.submitTo(c.tier, ch)
	return ch
}

// tierRead adds [pos, stop) to the tier reads of the host read h,
// extending the last one when it continues it.
func (c *Cache) tierRead(h *host, pos, stop int64) {
	if n := len(c.hitKids); n > 0 && c.hitKids[n-1].end == pos && stop-c.hitKids[n-1].off <= c.cfg.Size {
		c.hitKids[n-1].end = stop
		return
	}
	ch := c.newChild(kindTierRead, h)
	ch.off, ch.end = pos, stop
	c.hitKids = append(c.hitKids, ch)
}

// submitTierReads sends the tier reads tierRead gathered.
func (c *Cache) submitTierReads() {
	for i, ch := range c.hitKids {
		c.hitKids[i] = nil
		n := ch.end - ch.off
		ch.Op, ch.Offset, ch.Length = sim.Read, c.tierOffset(ch.off, n), n
		c.st.DeviceReads++
		c.st.DeviceReadBytes += n
		c.submitTo(c.tier, ch)
	}
	c.hitKids = c.hitKids[:0]
}

// absorbOnTier writes the absorbed write h to the tier; journalKey and
// the journal write acknowledge it.
func (c *Cache) absorbOnTier(h *host) {
	r := h.r
	ch := c.tierIO(kindTierWrite, nil, sim.Write, r.Offset, r.End())
	ch.owner = h
}

// tierWriteDone: an absorbed write's data is on the tier; its key goes
// in the journal.
func (c *Cache) tierWriteDone(ch *child) {
	h := ch.owner
	if ch.Err != nil && h.err == nil {
		h.err = ch.Err
	}
	c.journalKey(h)
}

// journalKey adds a key to the next journal write, for the absorbed
// write h (which waits for it) or none (an index change nobody waits
// for), and starts a journal write if none is in flight and a write
// waits or a block's worth of keys has gathered.
func (c *Cache) journalKey(h *host) {
	j := &c.jr
	j.keys++
	if h != nil {
		j.waiting = append(j.waiting, h)
	}
	if !j.busy && (len(j.waiting) > 0 || int64(j.keys)*journalKeyBytes >= c.cfg.Block) {
		c.startJournal()
	}
}

// startJournal writes the gathered keys to the journal ring.
func (c *Cache) startJournal() {
	j := &c.jr
	n := max(c.cfg.Block, (int64(j.keys)*journalKeyBytes+c.cfg.Block-1)/c.cfg.Block*c.cfg.Block)
	n = min(n, j.size)
	if j.next+n > j.size {
		j.next = 0
	}
	ch := c.newChild(kindJournal, nil)
	ch.Op, ch.Offset, ch.Length = sim.Write, j.off+j.next, n
	j.next += n
	j.keys = 0
	j.flying, j.waiting = j.waiting, j.flying[:0]
	j.busy = true
	c.st.JournalWrites++
	c.st.DeviceWrites++
	c.st.DeviceWriteBytes += n
	c.submitTo(c.tier, ch)
}

// journalDone acknowledges the writes whose keys the journal write
// carried, and starts the next one if keys wait.
func (c *Cache) journalDone(ch *child) {
	j := &c.jr
	now := c.eng.Now()
	// busy stays set while the writes are acknowledged, so that the keys
	// their acknowledgement adds wait for the next journal write rather
	// than start one over the list being walked.
	for i, h := range j.flying {
		j.flying[i] = nil
		if ch.Err != nil && h.err == nil {
			h.err = ch.Err
		}
		c.onAck(now, h)
	}
	j.flying = j.flying[:0]
	j.busy = false
	if len(j.waiting) > 0 || int64(j.keys)*journalKeyBytes >= c.cfg.Block {
		c.startJournal()
	}
}

// stageDone: a destage's data has been read from the tier; it goes
// below.
func (c *Cache) stageDone(ch *child) {
	p := ch.ext
	d := c.newChild(kindDestage, nil)
	d.ext = p
	d.Op, d.Offset, d.Length, d.Data = sim.Write, p.off, p.end-p.off, p.data
	if ch.Err != nil {
		d.Err = ch.Err
		c.destageDone(d)
		*d = child{}
		c.childFree.put(d)
		return
	}
	c.submitChild(d)
}

// bypasses reports whether the request r continues a sequential stream
// that has reached Config.SequentialCutoff, and tracks the stream.
func (c *Cache) bypasses(r *sim.Request) bool {
	if r.Offset == c.seqEnd {
		c.seqRun += r.Length
	} else {
		c.seqRun = r.Length
	}
	c.seqEnd = r.End()
	return c.cfg.SequentialCutoff > 0 && c.seqRun >= c.cfg.SequentialCutoff
}
