package disk_test

import (
	"fmt"

	"github.com/raidsim/raidsim/disk"
	"github.com/raidsim/raidsim/sim"
)

// Build a drive from a preset, serve one random read and print where the
// time went.
func Example() {
	p, err := disk.Preset("deskstar-7k500")
	if err != nil {
		panic(err)
	}
	eng := sim.NewEngine(1)
	obs := &sim.Observer{Phase: func(_ string, _ *sim.Request, ph sim.Phase, start, end sim.Time) {
		fmt.Printf("  %-8v %v\n", ph, end.Sub(start))
	}}
	d, err := disk.New(eng, p, "sda", obs)
	if err != nil {
		panic(err)
	}
	r := &sim.Request{Op: sim.Read, Offset: 200 << 30, Length: 4096, Done: func(r *sim.Request) {
		fmt.Printf("read 4 KiB at 200 GiB: %v\n", r.Latency())
	}}
	if err := d.Submit(r); err != nil {
		panic(err)
	}
	eng.Run()
	// Output:
	//   overhead 300µs
	//   seek     9.155599ms
	//   rotate   7.954338ms
	//   media    65.488µs
	//   bus      13.654µs
	// read 4 KiB at 200 GiB: 17.475425ms
}

// Derived figures of every preset, as `raidsim drives` prints them.
func ExampleComputeFigures() {
	for _, name := range disk.PresetNames() {
		p, _ := disk.Preset(name)
		f, _ := disk.ComputeFigures(p)
		fmt.Printf("%-16s %5d rpm %4.0f GB  seek %4.1f ms  4K access %4.1f ms  %5.1f-%5.1f MB/s\n",
			name, f.RPM, float64(f.Capacity)/1e9, float64(f.AverageSeek)/1e6, float64(f.RandomAccess4K)/1e6,
			f.InnerSustained/1e6, f.OuterSustained/1e6)
	}
	// Output:
	// cheetah-15k5     15000 rpm  300 GB  seek  4.0 ms  4K access  6.2 ms   72.9-124.9 MB/s
	// deskstar-7k1000   7200 rpm 1000 GB  seek  8.7 ms  4K access 13.2 ms   46.4- 86.9 MB/s
	// deskstar-7k160    7200 rpm  160 GB  seek  8.5 ms  4K access 13.0 ms   36.2- 75.8 MB/s
	// deskstar-7k500    7200 rpm  500 GB  seek  8.5 ms  4K access 13.0 ms   31.0- 64.8 MB/s
	// travelstar-7k500  7200 rpm  500 GB  seek 11.5 ms  4K access 16.0 ms   55.0-110.0 MB/s
	// ultrastar-hc310   7200 rpm 6001 GB  seek  7.4 ms  4K access 11.7 ms  119.8-249.5 MB/s
	// wd-1600ajs        7200 rpm  160 GB  seek  8.9 ms  4K access 13.4 ms   50.0- 76.1 MB/s
}

// Write cache on versus off: a random 4 KiB write is acknowledged once
// in the buffer, and FLUSH waits for the platters.
func ExampleDrive_DirtyBytes() {
	for _, wc := range []bool{true, false} {
		p, _ := disk.Preset("deskstar-7k500")
		p.WriteCache = wc
		eng := sim.NewEngine(1)
		d, _ := disk.New(eng, p, "sda", nil)
		w := &sim.Request{Op: sim.Write, Offset: 300 << 30, Length: 4096}
		f := &sim.Request{Op: sim.Flush}
		w.Done = func(r *sim.Request) {
			fmt.Printf("write cache %-5v: write done after %v, %d bytes at risk\n", wc, r.Latency(), d.DirtyBytes())
			_ = d.Submit(f)
		}
		f.Done = func(r *sim.Request) {
			fmt.Printf("write cache %-5v: flush done after %v, %d bytes at risk\n", wc, r.Latency(), d.DirtyBytes())
		}
		_ = d.Submit(w)
		eng.Run()
	}
	// Output:
	// write cache true : write done after 313.654µs, 4096 bytes at risk
	// write cache true : flush done after 14.705383ms, 0 bytes at risk
	// write cache false: write done after 15.019037ms, 0 bytes at risk
	// write cache false: flush done after 300µs, 0 bytes at risk
}

// Spare sectors at the end of every cylinder (DiskSim's sparing scheme
// 2): a slipped sector takes its cylinder's spare, so the next cylinder
// starts where it would without the slip.
func ExampleSparing() {
	p := disk.Params{
		Name: "tiny", RPM: 6000, Surfaces: 2, BufferSize: 1 << 16,
		TrackToTrack: 1e6, AverageSeek: 2e6, FullStroke: 3e6,
		Sparing: disk.Sparing{Region: disk.SparePerCylinder},
		Zones: []disk.Zone{{FirstCylinder: 0, LastCylinder: 3, SectorsPerTrack: 10,
			RegionSpares: 1, Slips: []int64{4}}},
	}
	d, err := disk.New(sim.NewEngine(1), p, "tiny", nil)
	if err != nil {
		panic(err)
	}
	fmt.Println("LBAs:", d.Capacity()/512)
	for _, lba := range []int64{3, 4, 18, 19} {
		l, _ := d.LocateSector(lba)
		fmt.Printf("LBA %2d: cylinder %d, surface %d, sector %d\n", lba, l.Cylinder, l.Head, l.Sector)
	}
	// Output:
	// LBAs: 76
	// LBA  3: cylinder 0, surface 0, sector 3
	// LBA  4: cylinder 0, surface 0, sector 5
	// LBA 18: cylinder 0, surface 1, sector 9
	// LBA 19: cylinder 1, surface 0, sector 0
}
