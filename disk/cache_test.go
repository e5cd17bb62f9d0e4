package disk

import (
	"testing"
	"time"

	"github.com/raidsim/raidsim/sim"
)

// mediaLog records media writes by sector.
type mediaLog struct {
	lastWrite map[int64]sim.Time // sector -> end of the latest media write covering it
}

func watchMedia(d *Drive) *mediaLog {
	m := &mediaLog{lastWrite: map[int64]sim.Time{}}
	d.mediaHook = func(lba, n int64, write bool, _, end sim.Time) {
		if write {
			for i := lba; i < lba+n; i++ {
				m.lastWrite[i] = end
			}
		}
	}
	return m
}

// TestFlush: a FLUSH completes only after every write completed before
// it is on the media; before the flush some of them were not.
func TestFlush(t *testing.T) {
	d, eng := presetDrive(t, "deskstar-7k500", nil)
	m := watchMedia(d)
	rng := eng.Rand("flush")
	const n = 40
	var writes [n]sim.Request
	var flush sim.Request
	completed := 0
	var lateBeforeFlush int
	flushDone := false
	onWrite := func(r *sim.Request) {
		completed++
		if end, ok := m.lastWrite[r.Offset/512]; !ok || end > r.Completed {
			lateBeforeFlush++ // acknowledged before it reached the media
		}
		if completed == n {
			flush = sim.Request{Op: sim.Flush, Done: func(f *sim.Request) {
				flushDone = true
				if got := d.DirtyBytes(); got != 0 {
					t.Errorf("flush completed with %d dirty bytes", got)
				}
				for i := range writes {
					w := &writes[i]
					for s := w.Offset / 512; s < w.End()/512; s++ {
						end, ok := m.lastWrite[s]
						if !ok || end > f.Completed {
							t.Fatalf("flush completed at %v but sector %d of %v reached the media at %v (written: %v)", f.Completed, s, w, end, ok)
						}
					}
				}
			}}
			if err := d.Submit(&flush); err != nil {
				t.Fatal(err)
			}
		}
	}
	for i := range writes {
		writes[i] = sim.Request{Op: sim.Write, Offset: rng.Int64N(d.Capacity()/4096-16) * 4096, Length: 8192, Done: onWrite}
		if err := d.Submit(&writes[i]); err != nil {
			t.Fatal(err)
		}
	}
	eng.Run()
	if !flushDone {
		t.Fatal("flush never completed")
	}
	if lateBeforeFlush == 0 {
		t.Error("every write was on the media when acknowledged: the write cache did nothing")
	}
	if st := d.Stats(); st.Flushes != 1 || st.Destages == 0 {
		t.Errorf("stats: %d flushes, %d destages", st.Flushes, st.Destages)
	}
}

// TestFUA: a FUA write completes only after its own media write, while
// a plain write is acknowledged before its media write.
func TestFUA(t *testing.T) {
	d, eng := presetDrive(t, "deskstar-7k500", nil)
	m := watchMedia(d)
	var mediaEnd sim.Time
	d.obs = &sim.Observer{Phase: func(_ string, r *sim.Request, p sim.Phase, _, e sim.Time) {
		if p == sim.PhaseMedia && r.FUA {
			mediaEnd = e
		}
	}}
	plain := sim.Request{Op: sim.Write, Offset: 1 << 30, Length: 4096}
	fua := sim.Request{Op: sim.Write, Offset: 3 << 30, Length: 4096, FUA: true}
	var plainAck, fuaAck sim.Time
	plain.Done = func(r *sim.Request) {
		plainAck = r.Completed
		if err := d.Submit(&fua); err != nil {
			t.Fatal(err)
		}
	}
	fua.Done = func(r *sim.Request) {
		fuaAck = r.Completed
		end, ok := m.lastWrite[r.Offset/512]
		if !ok || end > r.Completed {
			t.Errorf("FUA write completed at %v, its media write ends at %v (done: %v)", r.Completed, end, ok)
		}
		if mediaEnd == 0 || mediaEnd > r.Completed {
			t.Errorf("FUA media phase ends at %v, completion at %v", mediaEnd, r.Completed)
		}
	}
	if err := d.Submit(&plain); err != nil {
		t.Fatal(err)
	}
	eng.Run()
	if fuaAck == 0 {
		t.Fatal("FUA write never completed")
	}
	if end := m.lastWrite[plain.Offset/512]; end <= plainAck {
		t.Errorf("plain write acknowledged at %v, after its media write at %v: not cached", plainAck, end)
	}
	if fuaAck-plainAck < sim.Time(d.SeekTime(1, true)) {
		t.Errorf("FUA write took only %v", fuaAck-plainAck)
	}
}

// TestReadBehindDestage: a read arriving while the arm destages waits
// for the destage; a read of dirty data hits in the buffer.
func TestReadBehindDestage(t *testing.T) {
	d, eng := presetDrive(t, "deskstar-7k500", nil)
	var destageEnd sim.Time
	d.mediaHook = func(_, _ int64, write bool, _, end sim.Time) {
		if write {
			destageEnd = end
		}
	}
	w := sim.Request{Op: sim.Write, Offset: 100 << 30, Length: 64 << 10, Done: func(*sim.Request) {}}
	var rd, hit sim.Request
	rd = sim.Request{Op: sim.Read, Offset: 10 << 30, Length: 4096, Done: func(r *sim.Request) {
		if destageEnd == 0 || r.Completed < destageEnd {
			t.Errorf("read completed at %v, destage ends at %v: it did not wait", r.Completed, destageEnd)
		}
	}}
	hit = sim.Request{Op: sim.Read, Offset: 100<<30 + 4096, Length: 8192, Done: func(r *sim.Request) {
		if r.Latency() > sim.Time(d.Params().ReadOverhead).Sub(0)+100_000 {
			t.Errorf("read of dirty data took %v: not a buffer hit", r.Latency())
		}
	}}
	if err := d.Submit(&w); err != nil {
		t.Fatal(err)
	}
	eng.RunUntil(sim.Time(1e6)) // the write is acknowledged, destage under way
	if d.DirtyBytes() != 64<<10 {
		t.Fatalf("dirty bytes %d after a cached 64 KiB write", d.DirtyBytes())
	}
	if err := d.Submit(&hit); err != nil {
		t.Fatal(err)
	}
	if err := d.Submit(&rd); err != nil {
		t.Fatal(err)
	}
	eng.Run()
	if d.DirtyBytes() != 0 {
		t.Errorf("dirty bytes %d after idling", d.DirtyBytes())
	}
	if st := d.Stats(); st.ReadHits != 1 {
		t.Errorf("read hits %d, want 1", st.ReadHits)
	}
}

// TestOverwriteInCache: overlapping cached writes replace each other's
// dirty data instead of piling up.
func TestOverwriteInCache(t *testing.T) {
	d, eng := presetDrive(t, "deskstar-7k500", nil)
	reqs := make([]sim.Request, 20)
	for i := range reqs {
		reqs[i] = sim.Request{Op: sim.Write, Offset: 5<<30 + int64(i%4)*4096, Length: 16384, Done: func(*sim.Request) {}}
	}
	for i := range reqs {
		if err := d.Submit(&reqs[i]); err != nil {
			t.Fatal(err)
		}
	}
	eng.RunUntil(eng.Now() + sim.Time(5e6))
	// At most the 28 KiB the writes span, plus one older copy of it
	// being destaged; 20 x 16 KiB if overwrites piled up.
	if got := d.Stats().DirtyBytesPeak; got > 2*7*4096 {
		t.Errorf("dirty peak %d bytes for writes spanning 28 KiB", got)
	}
	eng.Run()
}

// TestMixedReadsAndCachedWrites: under a deep queue of random reads with
// one write in ten, the write cache neither halves throughput (reads
// queue behind destaging, destages alternate with queued commands) nor
// lets either kind starve: every write and every read completes within
// about the starvation bound.
func TestMixedReadsAndCachedWrites(t *testing.T) {
	run := func(wc bool) (iops float64, maxRead, maxWrite time.Duration) {
		d, eng := presetDrive(t, "deskstar-7k160", func(p *Params) { p.WriteCache = wc })
		rng := eng.Rand("mix")
		const depth, total = 32, 6000
		reqs := make([]sim.Request, depth)
		issued, done := 0, 0
		var first, last sim.Time
		var submit func(r *sim.Request)
		onDone := func(r *sim.Request) {
			if r.Err != nil {
				t.Fatalf("%v: %v", r, r.Err)
			}
			done++
			if done == 500 {
				first = r.Completed
			}
			last = r.Completed
			if r.Op == sim.Read {
				maxRead = max(maxRead, r.Latency())
			} else {
				maxWrite = max(maxWrite, r.Latency())
			}
			if issued < total {
				submit(r)
			}
		}
		submit = func(r *sim.Request) {
			op := sim.Read
			if rng.IntN(10) == 0 {
				op = sim.Write
			}
			*r = sim.Request{Op: op, Offset: rng.Int64N(d.Capacity()/2048-1) * 2048, Length: 2048, Done: onDone}
			issued++
			if err := d.Submit(r); err != nil {
				t.Fatal(err)
			}
		}
		for i := range reqs {
			submit(&reqs[i])
		}
		eng.Run()
		return float64(done-500) / last.Sub(first).Seconds(), maxRead, maxWrite
	}
	on, onR, onW := run(true)
	off, offR, offW := run(false)
	t.Logf("90/10 random 2 KiB at depth 32: cache on %.1f IOPS (max read %v, write %v), off %.1f IOPS (max read %v, write %v)",
		on, onR, onW, off, offR, offW)
	if on < 0.85*off {
		t.Errorf("write cache on: %.1f IOPS, want at least 0.85 x %.1f (off)", on, off)
	}
	limit := time.Second // MaxQueueAge (500 ms) plus the service of what is ahead
	for _, m := range []time.Duration{onR, onW} {
		if m > limit {
			t.Errorf("with the write cache on a request waited %v, want under %v", m, limit)
		}
	}
}
