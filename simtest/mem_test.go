package simtest_test

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/raidsim/raidsim/sim"
	"github.com/raidsim/raidsim/simtest"
)

func newMem(t testing.TB, eng *sim.Engine, cfg simtest.MemConfig) *simtest.MemDevice {
	t.Helper()
	d, err := simtest.NewMemDevice(eng, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func TestMemDeviceConformance(t *testing.T) {
	configs := map[string]simtest.MemConfig{
		"zero-latency": {Capacity: 64 << 20},
		"latency":      {Capacity: 1 << 30, SectorSize: 4096, ReadLatency: 100 * time.Microsecond, WriteLatency: 300 * time.Microsecond, FlushLatency: time.Millisecond, Bandwidth: 500 << 20},
		"serial":       {Capacity: 8 << 20, ReadLatency: 50 * time.Microsecond, WriteLatency: 70 * time.Microsecond, Serial: true},
		"tiny":         {Capacity: 4096, SectorSize: 512, WriteLatency: time.Microsecond},
		"one-sector":   {Capacity: 512, ReadLatency: time.Microsecond},
		"byte-sectors": {Capacity: 1 << 20, SectorSize: 1, ReadLatency: time.Microsecond},
		"odd-sectors":  {Capacity: 520 * 10000, SectorSize: 520, WriteLatency: 2 * time.Microsecond},
		"huge":         {Capacity: 1 << 50, SectorSize: 4096, ReadLatency: 5 * time.Millisecond, WriteLatency: 5 * time.Millisecond},
	}
	for name, cfg := range configs {
		t.Run(name, func(t *testing.T) {
			simtest.TestDevice(t, func(t *testing.T) (sim.Device, *sim.Engine) {
				eng := sim.NewEngine(1)
				return newMem(t, eng, cfg), eng
			}, simtest.WithData())
		})
	}
}

func TestMemConfigValidate(t *testing.T) {
	err := simtest.MemConfig{Capacity: -1, SectorSize: -2, ReadLatency: -1, WriteLatency: -1, FlushLatency: -1, Bandwidth: -1}.Validate()
	for _, field := range []string{"Capacity", "SectorSize", "ReadLatency", "WriteLatency", "FlushLatency", "Bandwidth"} {
		if err == nil || !strings.Contains(err.Error(), "MemConfig."+field) {
			t.Errorf("Validate error %v does not name %s", err, field)
		}
	}
	if err := (simtest.MemConfig{Capacity: 1000, SectorSize: 512}).Validate(); err == nil || !strings.Contains(err.Error(), "multiple") {
		t.Errorf("capacity not a multiple of the sector size: got %v", err)
	}
	if _, err := simtest.NewMemDevice(nil, simtest.MemConfig{Capacity: 512}); err == nil {
		t.Error("NewMemDevice with a nil engine: no error")
	}
	d := newMem(t, sim.NewEngine(1), simtest.MemConfig{Capacity: 1 << 20})
	if got := d.SectorSize(); got != simtest.DefaultSectorSize {
		t.Errorf("default SectorSize = %d, want %d", got, simtest.DefaultSectorSize)
	}
}

func TestMemDeviceSparse(t *testing.T) {
	eng := sim.NewEngine(1)
	const tib = 1 << 40
	d := newMem(t, eng, simtest.MemConfig{Capacity: tib, SectorSize: 4096, WriteLatency: time.Millisecond})
	data := bytes.Repeat([]byte("raidsim!"), 512) // 4 KiB
	var done int
	for _, off := range []int64{0, tib / 2, tib - 4096} {
		r := &sim.Request{Op: sim.Write, Offset: off, Length: 4096, Data: data, Done: func(*sim.Request) { done++ }}
		if err := d.Submit(r); err != nil {
			t.Fatal(err)
		}
	}
	// A write of zeros and a read of nothing written allocate nothing.
	zw := &sim.Request{Op: sim.Write, Offset: 1 << 30, Length: 1 << 20, Data: make([]byte, 1<<20), Done: func(*sim.Request) { done++ }}
	rd := &sim.Request{Op: sim.Read, Offset: 1 << 35, Length: 1 << 20, Data: make([]byte, 1<<20), Done: func(*sim.Request) { done++ }}
	for _, r := range []*sim.Request{zw, rd} {
		if err := d.Submit(r); err != nil {
			t.Fatal(err)
		}
	}
	eng.Run()
	if done != 5 {
		t.Fatalf("%d requests completed, want 5", done)
	}
	if got, max := d.Allocated(), int64(3*64<<10); got > max {
		t.Errorf("Allocated() = %d bytes after three 4 KiB writes, want at most %d", got, max)
	}
	got := make([]byte, 4096)
	if _, err := d.ReadAt(got, tib-4096); err != nil || !bytes.Equal(got, data) {
		t.Errorf("ReadAt(last sector) = %q..., %v", got[:16], err)
	}
	if !bytes.Equal(rd.Data, make([]byte, 1<<20)) {
		t.Error("a read of never-written bytes did not return zeros")
	}
	if n, err := d.ReadAt(got, tib-100); n != 100 || err != io.EOF {
		t.Errorf("ReadAt across the end = %d, %v; want 100, io.EOF", n, err)
	}
	if _, err := d.WriteAt(got, tib-100); err == nil {
		t.Error("WriteAt across the end: no error")
	}
}

func TestMemDeviceTiming(t *testing.T) {
	eng := sim.NewEngine(1)
	d := newMem(t, eng, simtest.MemConfig{
		Capacity: 1 << 20, ReadLatency: 100 * time.Microsecond, WriteLatency: 200 * time.Microsecond,
		FlushLatency: time.Millisecond, Bandwidth: 1 << 20, // 1 MiB/s: 4 KiB takes 3.90625ms
	})
	var lat []time.Duration
	done := func(r *sim.Request) { lat = append(lat, r.Latency()) }
	for _, r := range []*sim.Request{
		{Op: sim.Read, Length: 4096, Done: done},
		{Op: sim.Write, Length: 4096, FUA: true, Done: done},
		{Op: sim.Flush, Done: done},
	} {
		if err := d.Submit(r); err != nil {
			t.Fatal(err)
		}
	}
	eng.Run()
	want := []time.Duration{time.Millisecond, 100*time.Microsecond + 3906250, 200*time.Microsecond + 3906250}
	if len(lat) != 3 || lat[0] != want[0] || lat[1] != want[1] || lat[2] != want[2] {
		t.Errorf("latencies in completion order = %v, want %v", lat, want)
	}
	st := d.Stats()
	if st.Reads != 1 || st.Writes != 1 || st.FUAWrites != 1 || st.Flushes != 1 || st.BytesRead != 4096 || st.BytesWritten != 4096 || st.InFlight != 0 {
		t.Errorf("Stats() = %+v", st)
	}
}

func TestMemDeviceSerial(t *testing.T) {
	eng := sim.NewEngine(1)
	d := newMem(t, eng, simtest.MemConfig{Capacity: 1 << 20, ReadLatency: time.Millisecond, WriteLatency: 2 * time.Millisecond, Serial: true})
	var at []sim.Time
	done := func(r *sim.Request) { at = append(at, r.Completed) }
	for _, op := range []sim.Op{sim.Write, sim.Read, sim.Read} {
		if err := d.Submit(&sim.Request{Op: op, Length: 512, Done: done}); err != nil {
			t.Fatal(err)
		}
	}
	eng.Run()
	want := []sim.Time{sim.Time(2 * time.Millisecond), sim.Time(3 * time.Millisecond), sim.Time(4 * time.Millisecond)}
	if len(at) != 3 || at[0] != want[0] || at[1] != want[1] || at[2] != want[2] {
		t.Errorf("serial completions at %v, want %v", at, want)
	}
}

func TestMemDeviceFaults(t *testing.T) {
	eng := sim.NewEngine(1)
	d := newMem(t, eng, simtest.MemConfig{Capacity: 1 << 20, WriteLatency: time.Microsecond})
	media := errors.New("media error")
	d.FailNext(media)
	w1 := &sim.Request{Op: sim.Write, Length: 512, Data: bytes.Repeat([]byte{1}, 512), Done: func(*sim.Request) {}}
	w2 := &sim.Request{Op: sim.Write, Offset: 512, Length: 512, Data: bytes.Repeat([]byte{2}, 512), Done: func(*sim.Request) {}}
	for _, r := range []*sim.Request{w1, w2} {
		if err := d.Submit(r); err != nil {
			t.Fatal(err)
		}
	}
	eng.Run()
	if !errors.Is(w1.Err, media) || w2.Err != nil {
		t.Errorf("after FailNext: errs %v, %v; want %v, nil", w1.Err, w2.Err, media)
	}
	got := make([]byte, 1024)
	d.ReadAt(got, 0)
	if got[0] != 0 || got[512] != 2 {
		t.Errorf("failed write stored data, or good write did not: %d %d", got[0], got[512])
	}

	d.SetFault(func(r *sim.Request) error {
		if r.Op == sim.Read && r.Offset == 512 {
			return media
		}
		return nil
	})
	r := &sim.Request{Op: sim.Read, Offset: 512, Length: 512, Data: make([]byte, 512), Done: func(*sim.Request) {}}
	if err := d.Submit(r); err != nil {
		t.Fatal(err)
	}
	eng.Run()
	if !errors.Is(r.Err, media) || r.Data[0] != 0 {
		t.Errorf("SetFault read: Err %v, data %d; want %v and untouched data", r.Err, r.Data[0], media)
	}
	if st := d.Stats(); st.Failed != 2 {
		t.Errorf("Stats().Failed = %d, want 2", st.Failed)
	}
}

func TestMemDeviceEqualChecksum(t *testing.T) {
	eng := sim.NewEngine(1)
	a := newMem(t, eng, simtest.MemConfig{Capacity: 1 << 30})
	b := newMem(t, eng, simtest.MemConfig{Capacity: 1 << 30})
	if !a.Equal(b) || a.Checksum() != b.Checksum() {
		t.Fatal("empty devices differ")
	}
	a.WriteAt([]byte("hello"), 1<<29+7)
	if off, same := a.Diff(b); same || off != 1<<29+7 {
		t.Errorf("Diff = %d, %v; want %d, false", off, same, 1<<29+7)
	}
	if a.Checksum() == b.Checksum() {
		t.Error("different contents, same checksum")
	}
	b.WriteAt([]byte("hello"), 1<<29+7)
	// Zeros written explicitly equal bytes never written.
	a.WriteAt(make([]byte, 100), 5000)
	b.WriteAt([]byte("x"), 9000)
	b.WriteAt([]byte{0}, 9000)
	if !a.Equal(b) || a.Checksum() != b.Checksum() {
		t.Error("equal contents compare unequal")
	}
	c := newMem(t, eng, simtest.MemConfig{Capacity: 1 << 20})
	if a.Equal(c) {
		t.Error("devices of different capacity compare equal")
	}
}

func TestMemDeviceSetLatency(t *testing.T) {
	eng := sim.NewEngine(1)
	d := newMem(t, eng, simtest.MemConfig{Capacity: 1 << 20, ReadLatency: time.Millisecond})
	// Later offsets complete first.
	d.SetLatency(func(r *sim.Request) time.Duration { return time.Duration(10_000-r.Offset) * time.Microsecond })
	var order []int64
	for _, off := range []int64{0, 512, 1024} {
		r := &sim.Request{Op: sim.Read, Offset: off, Length: 512, Done: func(r *sim.Request) { order = append(order, r.Offset) }}
		if err := d.Submit(r); err != nil {
			t.Fatal(err)
		}
	}
	eng.Run()
	if len(order) != 3 || order[0] != 1024 || order[2] != 0 {
		t.Errorf("completion order %v, want [1024 512 0]", order)
	}
	d.SetLatency(nil)
	r := &sim.Request{Op: sim.Read, Length: 512, Done: func(*sim.Request) {}}
	d.Submit(r)
	eng.Run()
	if r.Latency() != time.Millisecond {
		t.Errorf("latency after SetLatency(nil) = %v, want 1ms", r.Latency())
	}
}

func TestMemDeviceSteadyStateAllocs(t *testing.T) {
	eng := sim.NewEngine(1)
	d := newMem(t, eng, simtest.MemConfig{Capacity: 1 << 20, ReadLatency: time.Microsecond, WriteLatency: time.Microsecond})
	done := func(*sim.Request) {}
	w := &sim.Request{Op: sim.Write, Offset: 4096, Length: 4096, Data: bytes.Repeat([]byte{7}, 4096), Done: done}
	r := &sim.Request{Op: sim.Read, Offset: 4096, Length: 4096, Data: make([]byte, 4096), Done: done}
	step := func() {
		if d.Submit(w) != nil || d.Submit(r) != nil {
			t.Fatal("rejected")
		}
		eng.Run()
	}
	step() // warm up: chunk, free list, event heap
	if n := testing.AllocsPerRun(100, step); n != 0 {
		t.Errorf("a write and a read allocate %v times; want 0 in the steady state", n)
	}
}
