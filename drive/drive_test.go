package drive_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/raidsim/raidsim/drive"
)

func TestCellString(t *testing.T) {
	for _, c := range []struct {
		cell drive.Cell
		want string
	}{
		{drive.Text("none"), "none"},
		{drive.Int(4456), "4456"},
		{drive.Fixed(0.98234, 3), "0.982"},
		{drive.Fixed(-0.0001, 2), "0.00"},
		{drive.Fixed(23.4, 0), "23"},
		{drive.KiB(3 << 20), "3072"},
		{drive.KiB(2560), "2.5"},
		{drive.KiB(0), "0"},
	} {
		assert.Equal(t, c.want, c.cell.String())
	}
}

// TestTables: rows of the same table title print as one table, in the
// order the titles first appear.
func TestTables(t *testing.T) {
	a := drive.Table{Title: "A", Header: []string{"name", "n"}}
	b := drive.Table{Title: "B", Header: []string{"name"}, Notes: []string{"b's note"}}
	tt := drive.Tables([]drive.Row{
		{Table: a, Cells: []drive.Cell{drive.Text("x"), drive.Int(1)}},
		{Table: b, Cells: []drive.Cell{drive.Text("y")}},
		{Table: a, Cells: []drive.Cell{drive.Text("z"), drive.Int(2)}},
	})
	require.Len(t, tt, 2)
	assert.Equal(t, "A", tt[0].Title)
	assert.Equal(t, [][]string{{"x", "1"}, {"z", "2"}}, tt[0].Rows)
	assert.Equal(t, []string{"b's note"}, tt[1].Notes)
	assert.Equal(t, [][]string{{"y"}}, tt[1].Rows)
}

func TestLookup(t *testing.T) {
	kinds := []drive.Kind{
		{Name: "disk", Presets: func() []string { return []string{"deskstar"} }},
		{Name: "ssd", Presets: func() []string { return []string{"x25m"} }},
	}
	k, err := drive.Lookup(kinds, "X25M")
	require.NoError(t, err)
	assert.Equal(t, "ssd", k.Name, "preset names in any case")
	_, err = drive.Lookup(kinds, "floppy")
	assert.EqualError(t, err, `drive: unknown preset "floppy" (known: deskstar, x25m)`)
}
