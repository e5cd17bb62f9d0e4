package drive

import (
	"strconv"
	"strings"
)

// Report is one drive's section of a run's report. Its JSON form is the
// kind's own (a disk's seeks, an SSD's write amplification) beside the
// fields of Common, under the same names, with "kind" telling which.
type Report interface {
	// Common returns the figures every kind of drive reports.
	Common() Common
	// Row is the drive's row of its kind's text table.
	Row() Row
	// PowerLossWhy says, in words, why a power failure would lose lost
	// bytes of this drive's data, or why it would lose none.
	PowerLossWhy(lost int64) string
}

// Common is what every drive's report says, whatever its kind.
type Common struct {
	// Name is the drive's name in the stack ("disk0"); Kind its kind
	// ("disk", "ssd"); Model its model's name.
	Name, Kind, Model string
	// Settings are the settings a report's first line shows, in words:
	// "drive write cache on, satf, NCQ depth 32".
	Settings string
	// WriteCache reports a write cache (an SSD's DRAM buffer) that
	// acknowledges writes before they reach stable media.
	WriteCache bool
	// QueueDepth is the drive's command queue depth.
	QueueDepth int
	// IOs counts the requests the drive completed, flushes included.
	IOs int64
	// UtilizationRatio is the fraction of the run, 0..1, during which the
	// drive had a request outstanding.
	UtilizationRatio float64
	// DirtyAtEndBytes is the data acknowledged but only in volatile
	// memory when the report was made.
	DirtyAtEndBytes int64
}

// Row is one drive's (or preset's) row of its kind's text table. Rows
// whose Table titles are equal print as one table.
type Row struct {
	Table Table
	Cells []Cell
}

// Table is the head of a kind's text table: its title, its column
// headers (each naming its unit) and notes printed under it.
type Table struct {
	Title  string
	Header []string
	Notes  []string
}

// Cell is one value of a Row: a text, or a number with the decimals it
// prints with.
type Cell struct {
	// Text, when not empty, is printed as is.
	Text string
	// Value is the number, printed with Decimals digits after the point,
	// or exactly (as few digits as it needs) when Decimals is negative.
	Value    float64
	Decimals int
}

// Text is a cell printed as is.
func Text(s string) Cell { return Cell{Text: s} }

// Int is an integer cell.
func Int(n int64) Cell { return Cell{Value: float64(n)} }

// Fixed is a cell of v with decimals digits after the point.
func Fixed(v float64, decimals int) Cell { return Cell{Value: v, Decimals: decimals} }

// KiB is a cell of b bytes in KiB, exact: 3072, 2.5.
func KiB(b int64) Cell { return Cell{Value: float64(b) / 1024, Decimals: -1} }

// String prints the cell (a negative zero as 0).
func (c Cell) String() string {
	if c.Text != "" {
		return c.Text
	}
	v := c.Value
	if v == 0 {
		v = 0 // no "-0"
	}
	s := strconv.FormatFloat(v, 'f', c.Decimals, 64)
	if len(s) > 1 && s[0] == '-' && strings.Trim(s[1:], "0.") == "" {
		return s[1:] // a small negative rounded to zero
	}
	return s
}

// TextTable is a kind's table ready to print: its head and its rows'
// cells as text.
type TextTable struct {
	Table
	Rows [][]string
}

// Tables gathers rows into tables, one per table title, in the order
// the titles first appear.
func Tables(rows []Row) []TextTable {
	var out []TextTable
	index := map[string]int{}
	for _, r := range rows {
		i, ok := index[r.Table.Title]
		if !ok {
			i = len(out)
			index[r.Table.Title] = i
			out = append(out, TextTable{Table: r.Table})
		}
		cells := make([]string, len(r.Cells))
		for j, c := range r.Cells {
			cells[j] = c.String()
		}
		out[i].Rows = append(out[i].Rows, cells)
	}
	return out
}
