package host_test

import (
	"strings"
	"testing"
	"time"

	"github.com/raidsim/raidsim/host"
	"github.com/raidsim/raidsim/sim"
	"github.com/raidsim/raidsim/simtest"
)

// twoVolumes is a host with a page cache over two MemDevices of 64 MiB
// and 96 MiB.
func twoVolumes(t testing.TB, p host.Params) (*host.Host, *sim.Engine, [2]*simtest.MemDevice) {
	t.Helper()
	eng := sim.NewEngine(1)
	var mem [2]*simtest.MemDevice
	var vols []host.Volume
	h, err := host.New(eng, p, "h", nil)
	if err != nil {
		t.Fatal(err)
	}
	for i, n := range []int64{64 << 20, 96 << 20} {
		m, err := simtest.NewMemDevice(eng, simtest.MemConfig{Capacity: n, ReadLatency: 100 * time.Microsecond,
			WriteLatency: 200 * time.Microsecond, FlushLatency: time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		mem[i] = m
		vols = append(vols, host.Volume{Dev: h.Driver(m, "disk"), Storage: host.Storage{}})
	}
	if err := h.AttachVolumes(vols...); err != nil {
		t.Fatal(err)
	}
	return h, eng, mem
}

// TestVolumesConformance runs the device suite on each volume of a
// two-volume host.
func TestVolumesConformance(t *testing.T) {
	p := host.Params{RAM: 64 << 20, SyscallCost: time.Microsecond, CommandCost: time.Microsecond}
	for i := range 2 {
		simtest.TestDevice(t, func(t *testing.T) (sim.Device, *sim.Engine) {
			h, eng, _ := twoVolumes(t, p)
			return h.Volume(i), eng
		}, simtest.WithData())
	}
}

// TestVolumesShare: one page cache over both volumes: a copy from one
// to the other reads one and writes the other, read-ahead at the end of
// the first never reaches the second, and a flush reaches both.
func TestVolumesShare(t *testing.T) {
	h, eng, mem := twoVolumes(t, host.Params{RAM: 256 << 20})
	a, b := h.Volume(0), h.Volume(1)
	if a.Capacity() != 64<<20 || b.Capacity() != 96<<20 {
		t.Fatalf("volume capacities %d and %d", a.Capacity(), b.Capacity())
	}
	buf := make([]byte, 64<<10)
	for i := range buf {
		buf[i] = byte(i * 7)
	}
	if _, err := mem[0].WriteAt(buf, 64<<20-64<<10); err != nil {
		t.Fatal(err)
	}
	// Copy the last 64 KiB of volume 0 to the start of volume 1.
	rd := &sim.Request{Op: sim.Read, Offset: 64<<20 - 64<<10, Length: 64 << 10, Data: make([]byte, 64<<10), Done: func(r *sim.Request) {
		wr := &sim.Request{Op: sim.Write, Offset: 0, Length: r.Length, Data: r.Data, Done: func(w *sim.Request) {
			if err := b.Submit(&sim.Request{Op: sim.Flush, Done: func(*sim.Request) {}}); err != nil {
				t.Error(err)
			}
		}}
		if err := b.Submit(wr); err != nil {
			t.Error(err)
		}
	}}
	// A read just before it first, so that the copy's read continues a
	// stream and the page cache reads ahead past volume 0's end.
	pre := &sim.Request{Op: sim.Read, Offset: 64<<20 - 128<<10, Length: 64 << 10, Done: func(*sim.Request) {
		if err := a.Submit(rd); err != nil {
			t.Error(err)
		}
	}}
	if err := a.Submit(pre); err != nil {
		t.Fatal(err)
	}
	eng.Run()
	if ra := h.PageCache().Stats().ReadAheadBytes; ra == 0 {
		t.Error("the page cache did not read ahead")
	}
	got := make([]byte, 64<<10)
	if _, err := mem[1].ReadAt(got, 0); err != nil || string(got) != string(buf) {
		t.Errorf("volume 1 does not hold the copy after the flush (%v)", err)
	}
	if s := mem[1].Stats(); s.Reads != 0 || s.Flushes != 1 {
		t.Errorf("volume 1: %d reads (read-ahead past volume 0 reached it?), %d flushes", s.Reads, s.Flushes)
	}
	if s := mem[0].Stats(); s.Flushes != 1 {
		t.Errorf("volume 0: %d flushes, want the host's fsync to reach it too", s.Flushes)
	}
	if err := h.Submit(rd); err == nil || !strings.Contains(err.Error(), "Volume(i)") {
		t.Errorf("Submit to a host of several volumes: %v", err)
	}
}

// TestVolumesErrors: volumes of different sector sizes are refused.
func TestVolumesErrors(t *testing.T) {
	eng := sim.NewEngine(1)
	m1, _ := simtest.NewMemDevice(eng, simtest.MemConfig{Capacity: 1 << 20})
	m2, _ := simtest.NewMemDevice(eng, simtest.MemConfig{Capacity: 1 << 20, SectorSize: 4096})
	h, _ := host.New(eng, host.Params{RAM: 64 << 20}, "h", nil)
	if err := h.AttachVolumes(host.Volume{Dev: m1}, host.Volume{Dev: m2}); err == nil || !strings.Contains(err.Error(), "sectors") {
		t.Errorf("mixed sector sizes: %v", err)
	}
	if err := h.AttachVolumes(); err == nil {
		t.Error("no volumes accepted")
	}
}
