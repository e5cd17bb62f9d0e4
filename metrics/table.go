package metrics

import (
	"encoding/csv"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Align is the horizontal alignment of a table column.
type Align uint8

const (
	// AlignAuto right-aligns a column whose cells are all numbers (ignoring
	// empty cells and "-") and left-aligns any other.
	AlignAuto Align = iota
	// AlignLeft left-aligns the column.
	AlignLeft
	// AlignRight right-aligns the column.
	AlignRight
)

// Table is a small table of strings for reports: the summary of a run,
// drive listings, sweep results. WriteText renders it for people and
// WriteCSV for machines. The zero value is an empty table.
type Table struct {
	// Title is printed above the text table; empty for none. CSV omits it.
	Title string
	// Header names the columns; it may be nil.
	Header []string
	// Rows are the body cells. Rows shorter than the widest row (or the
	// header) are padded with empty cells.
	Rows [][]string
	// Notes are printed below the text table, after a blank line, each
	// wrapped at NoteWidth columns with continuation lines indented by two
	// spaces. CSV omits them.
	Notes []string
	// Align sets the alignment of column i; missing entries are
	// AlignAuto.
	Align []Align
	// MinWidths, when set, is the least width of column i in runes, so
	// that a long table written in pieces (one Table per piece, the
	// header in the first) keeps its columns aligned: pass each piece
	// the previous one's Widths and Alignment.
	MinWidths []int
}

// Widths returns the width WriteText gives each column: the widest of
// its cells, its header and MinWidths.
func (t *Table) Widths() []int {
	n := t.columns()
	width := make([]int, n)
	copy(width, t.MinWidths)
	measure := func(r []string) {
		for c, cell := range r {
			width[c] = max(width[c], utf8.RuneCountInString(cell))
		}
	}
	measure(t.Header)
	for _, r := range t.Rows {
		measure(r)
	}
	return width
}

// Alignment returns each column's alignment as WriteText resolves it:
// AlignRight or AlignLeft, never AlignAuto.
func (t *Table) Alignment() []Align {
	right := t.rightAligned(t.columns())
	out := make([]Align, len(right))
	for c, r := range right {
		out[c] = AlignLeft
		if r {
			out[c] = AlignRight
		}
	}
	return out
}

// AddRow appends one row of cells.
func (t *Table) AddRow(cells ...string) { t.Rows = append(t.Rows, cells) }

// columns returns the number of columns: the widest of header and rows.
func (t *Table) columns() int {
	n := max(len(t.Header), len(t.MinWidths))
	for _, r := range t.Rows {
		n = max(n, len(r))
	}
	return n
}

// rightAligned reports, per column, whether WriteText right-aligns it.
func (t *Table) rightAligned(n int) []bool {
	right := make([]bool, n)
	for c := range right {
		a := AlignAuto
		if c < len(t.Align) {
			a = t.Align[c]
		}
		switch a {
		case AlignLeft:
			continue
		case AlignRight:
			right[c] = true
			continue
		}
		numbers := 0
		right[c] = true
		for _, r := range t.Rows {
			if c >= len(r) || r[c] == "" || r[c] == "-" {
				continue
			}
			if !IsNumber(r[c]) {
				right[c] = false
				break
			}
			numbers++
		}
		right[c] = right[c] && numbers > 0
	}
	return right
}

// IsNumber reports whether cell reads as a number in a table: a decimal
// number as strconv.ParseFloat accepts it (including "NaN" and "Inf"),
// optionally followed by "%" or "x" (a percentage or a ratio such as
// "2.5x").
func IsNumber(cell string) bool {
	s := strings.TrimSpace(cell)
	s = strings.TrimSuffix(strings.TrimSuffix(s, "%"), "x")
	if s == "" {
		return false
	}
	_, err := strconv.ParseFloat(s, 64)
	return err == nil
}

// WriteText writes t as aligned plain text: the title, the header, a rule
// of dashes under each header cell, the rows and then the notes. Columns
// are separated by two spaces; numeric columns are right-aligned and text
// columns left-aligned (see Align). Widths count runes, so "µs" is two
// columns wide. Lines carry no trailing spaces.
func (t *Table) WriteText(w io.Writer) error {
	n := t.columns()
	width := t.Widths()
	right := t.rightAligned(n)

	var b, l strings.Builder
	line := func(r []string) {
		l.Reset()
		for c := 0; c < n; c++ {
			cell := ""
			if c < len(r) {
				cell = r[c]
			}
			if c > 0 {
				l.WriteString("  ")
			}
			pad := strings.Repeat(" ", width[c]-utf8.RuneCountInString(cell))
			if right[c] {
				l.WriteString(pad)
				l.WriteString(cell)
			} else {
				l.WriteString(cell)
				l.WriteString(pad)
			}
		}
		b.WriteString(strings.TrimRight(l.String(), " "))
		b.WriteString("\n")
	}
	if t.Title != "" {
		b.WriteString(t.Title)
		b.WriteString("\n")
	}
	if len(t.Header) > 0 {
		line(t.Header)
		rule := make([]string, n)
		for c := range rule {
			rule[c] = strings.Repeat("-", width[c])
		}
		line(rule)
	}
	for _, r := range t.Rows {
		line(r)
	}
	if len(t.Notes) > 0 {
		b.WriteString("\n")
	}
	for _, note := range t.Notes {
		wrapNote(&b, note)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteCSV writes the header (if any) and the rows as CSV with
// encoding/csv, every record padded to the same number of fields. The
// title and notes are left out so that the output parses as plain data.
func (t *Table) WriteCSV(w io.Writer) error {
	n := t.columns()
	cw := csv.NewWriter(w)
	rec := make([]string, n)
	write := func(r []string) error {
		clear(rec)
		copy(rec, r)
		return cw.Write(rec)
	}
	if len(t.Header) > 0 {
		if err := write(t.Header); err != nil {
			return err
		}
	}
	for _, r := range t.Rows {
		if err := write(r); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// NoteWidth is the column at which WriteText wraps a table's notes.
const NoteWidth = 100

// wrapNote writes note to b wrapped at NoteWidth columns, breaking at
// spaces; continuation lines are indented by two spaces. A word longer
// than the width stands on a line of its own.
func wrapNote(b *strings.Builder, note string) {
	col := 0
	for i, word := range strings.Fields(note) {
		n := utf8.RuneCountInString(word)
		switch {
		case i == 0:
		case col+1+n > NoteWidth:
			b.WriteString("\n  ")
			col = 2
		default:
			b.WriteByte(' ')
			col++
		}
		b.WriteString(word)
		col += n
	}
	b.WriteString("\n")
}
