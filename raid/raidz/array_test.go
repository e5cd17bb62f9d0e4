package raidz

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/raidsim/raidsim/raid"
	"github.com/raidsim/raidsim/sim"
	"github.com/raidsim/raidsim/simtest"
)

func memMembers(t *testing.T, eng *sim.Engine, n int, capacity int64) []*simtest.MemDevice {
	t.Helper()
	out := make([]*simtest.MemDevice, n)
	for i := range out {
		m, err := simtest.NewMemDevice(eng, simtest.MemConfig{Capacity: capacity, SectorSize: 512,
			ReadLatency: 100 * time.Microsecond, WriteLatency: 200 * time.Microsecond})
		if err != nil {
			t.Fatal(err)
		}
		out[i] = m
	}
	return out
}

func newMem(t *testing.T, eng *sim.Engine, cfg Config, disks int, capacity int64) (*Array, []*simtest.MemDevice) {
	t.Helper()
	mem := memMembers(t, eng, disks, capacity)
	devs := make([]sim.Device, disks)
	for i, m := range mem {
		devs[i] = m
	}
	a, err := New(eng, cfg, devs, "z")
	if err != nil {
		t.Fatal(err)
	}
	return a, mem
}

func TestConformance(t *testing.T) {
	for np := 1; np <= 3; np++ {
		simtest.TestDevice(t, func(t *testing.T) (sim.Device, *sim.Engine) {
			eng := sim.NewEngine(1)
			a, _ := newMem(t, eng, Config{Parity: np, RecordSize: 16 << 10, Data: true}, np+3, 64<<20)
			return a, eng
		}, simtest.WithData(), simtest.WithTrimZeroes())
	}
}

// run submits r and runs the engine until it completes.
func run(t *testing.T, eng *sim.Engine, dev sim.Device, r *sim.Request) {
	t.Helper()
	done := false
	r.Done = func(*sim.Request) { done = true }
	if err := dev.Submit(r); err != nil {
		t.Fatal(err)
	}
	for !done && eng.Step() {
	}
	if !done {
		t.Fatalf("%v never completed", r)
	}
}

// checkParity reads every record's columns straight from the members
// and checks its parity against its data with real bytes.
func checkParity(t *testing.T, a *Array, mem []*simtest.MemDevice) {
	t.Helper()
	for slot := range a.slots.n {
		cols := a.Columns(slot)
		if cols == nil {
			continue
		}
		units := make([][]byte, len(cols))
		for i, c := range cols {
			units[i] = make([]byte, c.Size)
			mem[c.Disk].ReadAt(units[i], c.Offset)
		}
		want := append([][]byte(nil), units...)
		for p := range a.g.Parity {
			want[p] = make([]byte, len(units[p]))
		}
		Generate(want, a.g.Parity)
		for p := range a.g.Parity {
			if !bytes.Equal(want[p], units[p]) {
				t.Fatalf("slot %d: parity column %d disagrees with the data", slot, p)
			}
		}
	}
}

// A property test over random record sizes and fill levels: random
// writes (partial records make smaller records and read-modify-write),
// overwrites and trims against a plain copy; then every record's parity
// checked with real bytes, every slot read back, and reads with every
// loss of up to Parity children returning the same bytes.
func TestPropertyRandomRecordsAndFill(t *testing.T) {
	for _, seed := range propertySeeds {
		np := 1 + int(seed%3)
		disks := np + 2 + int(seed%4)
		rs := int64(4<<10) << (seed % 4) // 4..32 KiB records
		fill := []float64{0.1, 0.5, 0.9}[seed%3]
		t.Run(fmt.Sprintf("seed=%d/raidz%d/disks=%d/rs=%d/fill=%.1f", seed, np, disks, rs, fill), func(t *testing.T) {
			eng := sim.NewEngine(seed)
			a, mem := newMem(t, eng, Config{Parity: np, RecordSize: rs, Data: true}, disks, 1<<20)
			rng := rand.New(rand.NewPCG(seed, 77))
			model := make([]byte, a.Capacity())
			ops := int(fill * float64(a.Capacity()) / float64(rs) * 3)
			for range ops {
				sl := rng.Int64N(int64(float64(a.slots.n)*fill) + 1)
				off := sl*rs + rng.Int64N(rs/512)*512
				n := min(1+rng.Int64N(2*rs/512), (a.Capacity()-off)/512) * 512
				if rng.IntN(8) == 0 {
					run(t, eng, a, &sim.Request{Op: sim.Trim, Offset: off, Length: n})
					clear(model[off : off+n])
					continue
				}
				data := make([]byte, n)
				for i := range data {
					data[i] = byte(rng.Uint32())
				}
				run(t, eng, a, &sim.Request{Op: sim.Write, Offset: off, Length: n, Data: data})
				copy(model[off:], data)
			}
			eng.Run()
			checkParity(t, a, mem)
			readAll := func(what string) {
				buf := make([]byte, a.Capacity())
				r := &sim.Request{Op: sim.Read, Offset: 0, Length: a.Capacity(), Data: buf}
				run(t, eng, a, r)
				if r.Err != nil {
					t.Fatalf("%s: %v", what, r.Err)
				}
				if i := firstDiff(buf, model); i >= 0 {
					t.Fatalf("%s: byte %d (slot %d) differs", what, i, int64(i)/rs)
				}
			}
			readAll("healthy")
			// Every loss of one or two children (as for RAID 6), and for
			// RAIDZ3 a few of three.
			forEachLoss(disks, min(np, 2), func(lost []int) {
				for _, m := range lost {
					a.failed[m] = true
				}
				readAll(fmt.Sprintf("children %v lost", lost))
				for _, m := range lost {
					a.failed[m] = false
				}
			})
			for range 3 * (np / 3) {
				lost := rng.Perm(disks)[:3]
				for _, m := range lost {
					a.failed[m] = true
				}
				readAll(fmt.Sprintf("children %v lost", lost))
				for _, m := range lost {
					a.failed[m] = false
				}
			}
			a.failed[0], a.failed[1%disks] = true, true
			if np == 1 {
				r := &sim.Request{Op: sim.Read, Offset: 0, Length: a.Capacity(), Data: make([]byte, a.Capacity())}
				run(t, eng, a, r)
				if a.AllocatedBytes() > 0 && !errors.Is(r.Err, raid.ErrDataLost) {
					t.Fatalf("two children lost on RAIDZ1: %v, want ErrDataLost", r.Err)
				}
			}
		})
	}
}

func firstDiff(a, b []byte) int {
	for i := range a {
		if a[i] != b[i] {
			return i
		}
	}
	return -1
}

// A resilver writes the failed child's column of every allocated record
// to the spare and nothing else: one write per record touching the
// child, none for free space; afterwards the spare holds exactly what the
// lost child held, and the array reads back healthy from it.
func TestResilverTouchesOnlyAllocatedRecords(t *testing.T) {
	for np := 1; np <= 3; np++ {
		eng := sim.NewEngine(5)
		disks := np + 3
		a, mem := newMem(t, eng, Config{Parity: np, RecordSize: 32 << 10, Data: true, ScanBatch: 7}, disks, 8<<20)
		rng := rand.New(rand.NewPCG(uint64(np), 1))
		written := map[int64]bool{}
		for range 40 {
			sl := rng.Int64N(a.slots.n)
			n := int64(1+rng.IntN(64)) * 512
			data := make([]byte, n)
			for i := range data {
				data[i] = byte(rng.Uint32())
			}
			run(t, eng, a, &sim.Request{Op: sim.Write, Offset: sl * 32 << 10, Length: n, Data: data})
			written[sl] = true
		}
		eng.Run()
		want := map[int]Column{}
		lostBytes := map[int64][]byte{}
		for sl := range written {
			for _, c := range a.Columns(sl) {
				if c.Disk == 1 {
					want[int(sl)] = c
					b := make([]byte, c.Size)
					mem[1].ReadAt(b, c.Offset)
					lostBytes[sl] = b
				}
			}
		}
		if err := a.Fail(1); err != nil {
			t.Fatal(err)
		}
		spareMem := memMembers(t, eng, 1, 8<<20)[0]
		rec := simtest.NewRecorder(eng, spareMem)
		if err := a.Rebuild(rec); err != nil {
			t.Fatal(err)
		}
		eng.Run()
		st, _ := a.Scan()
		if st.Active || st.Err != nil || st.Bytes != st.Total {
			t.Fatalf("raidz%d: resilver %+v", np, st)
		}
		log := rec.Requests()
		if len(log) != len(want) {
			t.Fatalf("raidz%d: %d requests to the spare for %d records touching the child", np, len(log), len(want))
		}
		for _, e := range log {
			if e.Op != sim.Write {
				t.Fatalf("raidz%d: the resilver sent the spare a %v", np, e.Op)
			}
		}
		for sl, b := range lostBytes {
			c := want[int(sl)]
			got := make([]byte, c.Size)
			spareMem.ReadAt(got, c.Offset)
			if !bytes.Equal(got, b) {
				t.Fatalf("raidz%d: slot %d's column on the spare differs from the lost child's", np, sl)
			}
		}
		if len(a.Failed()) != 0 {
			t.Fatalf("raidz%d: still failed after the resilver: %v", np, a.Failed())
		}
		mem[1] = spareMem
		checkParity(t, a, mem)
	}
}

// A scrub reads every column of every record and finds none whose
// parity disagrees; a column corrupted behind the array's back is found.
func TestScrub(t *testing.T) {
	eng := sim.NewEngine(1)
	a, mem := newMem(t, eng, Config{Parity: 2, RecordSize: 16 << 10, Data: true}, 5, 4<<20)
	for sl := range int64(20) {
		data := bytes.Repeat([]byte{byte(sl + 1)}, 16<<10)
		run(t, eng, a, &sim.Request{Op: sim.Write, Offset: sl * 16 << 10, Length: 16 << 10, Data: data})
	}
	if err := a.Scrub(); err != nil {
		t.Fatal(err)
	}
	eng.Run()
	st, _ := a.Scan()
	if st.Records != 20 || st.Mismatches != 0 || st.Bytes != 20*a.g.AllocSize(16<<10)-20*0 && st.Bytes <= 20*16<<10 {
		t.Fatalf("scrub %+v", st)
	}
	c := a.Columns(3)[3]
	mem[c.Disk].WriteAt([]byte{0xff}, c.Offset)
	if err := a.Scrub(); err != nil {
		t.Fatal(err)
	}
	eng.Run()
	if st, _ := a.Scan(); st.Mismatches != 1 {
		t.Fatalf("scrub after corrupting one column: %d mismatches, want 1", st.Mismatches)
	}
}

// Records are placed in allocation order; a rewrite goes to a new place
// (copy-on-write) and frees the old one.
func TestAllocationOrderAndCopyOnWrite(t *testing.T) {
	eng := sim.NewEngine(1)
	a, _ := newMem(t, eng, Config{Parity: 1, RecordSize: 128 << 10, Data: true}, 4, 16<<20)
	for _, sl := range []int64{5, 2, 9} {
		run(t, eng, a, &sim.Request{Op: sim.Write, Offset: sl << 17, Length: 128 << 10, Data: make([]byte, 128<<10)})
	}
	asize := a.g.AllocSize(128 << 10)
	for i, sl := range []int64{5, 2, 9} {
		if off, _, _ := a.Record(sl); off != int64(i)*asize {
			t.Fatalf("slot %d at %d, want %d (the %d-th allocation)", sl, off, int64(i)*asize, i)
		}
	}
	used := a.AllocatedBytes()
	run(t, eng, a, &sim.Request{Op: sim.Write, Offset: 2 << 17, Length: 4096, Data: make([]byte, 4096)})
	if off, psize, _ := a.Record(2); off != 3*asize || psize != 128<<10 {
		t.Fatalf("rewritten slot 2 at %d (%d bytes), want %d (128 KiB)", off, psize, 3*asize)
	}
	if a.AllocatedBytes() != used || a.Stats().RMWReads != 1 {
		t.Fatalf("after the rewrite: %d bytes allocated (want %d), %d RMW reads (want 1)", a.AllocatedBytes(), used, a.Stats().RMWReads)
	}
	// A small first write makes a small record.
	run(t, eng, a, &sim.Request{Op: sim.Write, Offset: 20 << 17, Length: 8192, Data: make([]byte, 8192)})
	if _, psize, _ := a.Record(20); psize != 8192 {
		t.Fatalf("slot written with 8 KiB holds a %d-byte record", psize)
	}
}
