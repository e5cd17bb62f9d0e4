package disksim_test

import (
	"fmt"

	"github.com/raidsim/raidsim/disk"
	"github.com/raidsim/raidsim/disk/disksim"
	"github.com/raidsim/raidsim/sim"
)

// Load a DiskSim model and build a drive from it.
func ExampleLoad() {
	p, rep, err := disksim.Load("testdata/mini.parv")
	if err != nil {
		fmt.Println(err)
		return
	}
	d, err := disk.New(sim.NewEngine(1), p, rep.Disk, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%s: %d rpm, %d surfaces, %d cylinders, %d zones, %d blocks\n",
		d.Name(), p.RPM, p.Surfaces, d.Cylinders(), len(p.Zones), d.Capacity()/512)
	l, _ := d.LocateSector(0)
	fmt.Printf("LBN 0 is on cylinder %d, surface %d, sector %d\n", l.Cylinder, l.Head, l.Sector)
	// Output:
	// MINI: 6000 rpm, 4 surfaces, 20 cylinders, 2 zones, 3000 blocks
	// LBN 0 is on cylinder 0, surface 0, sector 10
}
