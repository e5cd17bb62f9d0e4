package drive_test

import (
	"fmt"

	"github.com/raidsim/raidsim/drive"
)

// A kind of drive prints each drive as a Row of cells that know their
// unit; Tables gathers the rows of one kind into its table.
func ExampleTables() {
	head := drive.Table{Title: "RAM disks", Header: []string{"ram", "IOs", "utilization", "dirty at end KiB"}}
	rows := []drive.Row{
		{Table: head, Cells: []drive.Cell{drive.Text("ram0"), drive.Int(1200), drive.Fixed(0.4567, 3), drive.KiB(3 << 20)}},
		{Table: head, Cells: []drive.Cell{drive.Text("ram1"), drive.Int(1180), drive.Fixed(0.4412, 3), drive.KiB(2560)}},
	}
	for _, t := range drive.Tables(rows) {
		fmt.Println(t.Title, t.Header)
		for _, r := range t.Rows {
			fmt.Println(r)
		}
	}
	// Output:
	// RAM disks [ram IOs utilization dirty at end KiB]
	// [ram0 1200 0.457 3072]
	// [ram1 1180 0.441 2.5]
}
