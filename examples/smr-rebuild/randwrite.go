package main

import (
	"math/rand/v2"

	"github.com/raidsim/raidsim/sim"
	"github.com/raidsim/raidsim/smr"
)

// depth is the random-write test's queue depth.
const depth = 4

// RandomWrites is sustained 4 KiB random writes on one drive: while
// its media cache fills, once it is full, and after idle time.
type RandomWrites struct {
	Preset string
	// Fresh, Full and AfterIdle are writes per second: until the cache
	// first had to clean in the foreground, for RandomAfter writes then,
	// and for the same number of writes after Idle.
	Fresh, Full, AfterIdle float64
	// FillWrites is how many writes filled the cache.
	FillWrites int
	// IdleCleans counts the bands cleaned while idle.
	IdleCleans int64
	// Cache samples the media cache over the whole run.
	Cache []smr.Point
}

// writer keeps depth random 4 KiB writes outstanding.
type writer struct {
	eng          *sim.Engine
	dev          sim.Device
	rng          *rand.Rand
	left         int // writes still to issue
	issued, done int
	until        func() bool // stop issuing once true
	err          error
}

func (w *writer) issue() {
	if w.left == 0 || w.until != nil && w.until() {
		return
	}
	w.left--
	w.issued++
	off := w.rng.Int64N(w.dev.Capacity()/4096) * 4096
	r := &sim.Request{Op: sim.Write, Offset: off, Length: 4096, Done: w.complete}
	if err := w.dev.Submit(r); err != nil && w.err == nil {
		w.err = err
	}
}

func (w *writer) complete(*sim.Request) {
	w.done++
	w.issue()
}

// run issues n writes at depth, fewer if until turns true first, and
// returns how many completed and their rate per second.
func (w *writer) run(n int, until func() bool) (int, float64) {
	w.left, w.issued, w.done, w.until = n, 0, 0, until
	start := w.eng.Now()
	for range depth {
		w.issue()
	}
	for w.done < w.issued && w.eng.Step() {
	}
	el := w.eng.Now().Sub(start).Seconds()
	if el == 0 {
		return w.done, 0
	}
	return w.done, float64(w.done) / el
}

// RunRandomWrites measures preset (whose bands all hold data, as on a
// drive written over once) under sustained random writes.
func RunRandomWrites(preset string, sz Sizes) (*RandomWrites, error) {
	eng := sim.NewEngine(27)
	p, err := smr.Preset(preset)
	if err != nil {
		return nil, err
	}
	m, err := smr.NewModel(p)
	if err != nil {
		return nil, err
	}
	d, err := m.NewDrive(eng, preset, nil)
	if err != nil {
		return nil, err
	}
	d.FillBands()
	w := &writer{eng: eng, dev: d, rng: rand.New(rand.NewPCG(27, 4096))}
	out := &RandomWrites{Preset: preset}
	full := func() bool { return d.Stats().ForegroundCleans > 0 }
	out.FillWrites, out.Fresh = w.run(1<<30, full)
	_, out.Full = w.run(sz.RandomAfter, nil)
	before := d.Stats().IdleCleans
	eng.RunUntil(eng.Now().Add(sz.Idle))
	out.IdleCleans = d.Stats().IdleCleans - before
	_, out.AfterIdle = w.run(sz.RandomAfter, nil)
	out.Cache = d.Series()
	return out, w.err
}
