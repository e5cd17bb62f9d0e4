package metrics

import (
	"bytes"
	"encoding/csv"
	"math"
	"slices"
	"strings"
	"testing"
)

func TestTableWriteText(t *testing.T) {
	tb := Table{
		Title:  "Drives",
		Header: []string{"model", "rpm", "µs/seek", "note"},
		Rows: [][]string{
			{"Hitachi 7K160", "7200", "8.5", "3.5-inch"},
			{"Seagate Cheetah 15K.5", "15000", "3.5", ""},
			{"Travelstar", "-", "11", "2.5-inch", "extra"},
			{"short"},
		},
		Notes: []string{"source: data sheets"},
	}
	var buf bytes.Buffer
	if err := tb.WriteText(&buf); err != nil {
		t.Fatal(err)
	}
	want := "" +
		"Drives\n" +
		"model                    rpm  µs/seek  note\n" +
		"---------------------  -----  -------  --------  -----\n" +
		"Hitachi 7K160           7200      8.5  3.5-inch\n" +
		"Seagate Cheetah 15K.5  15000      3.5\n" +
		"Travelstar                 -       11  2.5-inch  extra\n" +
		"short\n" +
		"\n" +
		"source: data sheets\n"
	if got := buf.String(); got != want {
		t.Errorf("WriteText:\n%s\nwant:\n%s", got, want)
	}
}

func TestTableWrapsNotes(t *testing.T) {
	long := strings.Repeat("word ", 30) + strings.Repeat("x", NoteWidth+5)
	tb := Table{Header: []string{"a"}, Rows: [][]string{{"1"}}, Notes: []string{long, "short note"}}
	var buf bytes.Buffer
	if err := tb.WriteText(&buf); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	want := []string{"a", "-", "1", "",
		strings.TrimSpace(strings.Repeat("word ", 20)),
		"  " + strings.TrimSpace(strings.Repeat("word ", 10)),
		"  " + strings.Repeat("x", NoteWidth+5),
		"short note"}
	if strings.Join(lines, "|") != strings.Join(want, "|") {
		t.Errorf("notes wrapped as\n%s\nwant\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
}

func TestTableAlignOverride(t *testing.T) {
	tb := Table{
		Header: []string{"id", "name"},
		Rows:   [][]string{{"1", "a"}, {"22", "bb"}},
		Align:  []Align{AlignLeft, AlignRight},
	}
	var buf bytes.Buffer
	if err := tb.WriteText(&buf); err != nil {
		t.Fatal(err)
	}
	want := "id  name\n--  ----\n1      a\n22    bb\n"
	if got := buf.String(); got != want {
		t.Errorf("WriteText:\n%s\nwant:\n%s", got, want)
	}
	var empty bytes.Buffer
	if err := (&Table{}).WriteText(&empty); err != nil || empty.Len() != 0 {
		t.Errorf("empty table wrote %q, %v", empty.String(), err)
	}
}

func TestTableWriteCSV(t *testing.T) {
	tb := Table{
		Title:  "ignored",
		Header: []string{"name", "value"},
		Rows:   [][]string{{"a, with comma", `say "hi"`}, {"multi\nline"}, {"x", "1", "3"}},
		Notes:  []string{"ignored too"},
	}
	var buf bytes.Buffer
	if err := tb.WriteCSV(&buf); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatalf("output is not valid CSV: %v\n%s", err, buf.String())
	}
	want := [][]string{
		{"name", "value", ""},
		{"a, with comma", `say "hi"`, ""},
		{"multi\nline", "", ""},
		{"x", "1", "3"},
	}
	if !slices.EqualFunc(recs, want, slices.Equal) {
		t.Errorf("CSV parses to %q, want %q", recs, want)
	}
	if strings.Contains(buf.String(), "ignored") {
		t.Errorf("CSV holds the title or notes")
	}
}

func TestSummaryTableCSV(t *testing.T) {
	tb := goldenRecorder(t).Summarize(10e9).Table()
	var buf bytes.Buffer
	if err := tb.WriteCSV(&buf); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 4 || recs[0][0] != "op" || recs[1][0] != "read" || recs[3][0] != "all" {
		t.Errorf("summary CSV: %q", recs)
	}
}

func TestIsNumber(t *testing.T) {
	for cell, want := range map[string]bool{
		"12": true, "-3.5": true, "1e6": true, "45%": true, "2.5x": true, " 7 ": true,
		"NaN": true, "+Inf": true, "": false, "-": false, "abc": false, "7200rpm": false,
		"%": false, "1,000": false,
	} {
		if got := IsNumber(cell); got != want {
			t.Errorf("IsNumber(%q) = %v, want %v", cell, got, want)
		}
	}
}

func TestFormat(t *testing.T) {
	for _, c := range []struct {
		got, want string
	}{
		{FormatFixed(1.23456, 2), "1.23"},
		{FormatFixed(2.5, 0), "2"}, // strconv rounds half to even
		{FormatFixed(-0.0001, 2), "0.00"},
		{FormatFixed(math.Copysign(0, -1), 1), "0.0"},
		{FormatFixed(-1.5, 1), "-1.5"},
		{FormatFixed(3, -2), "3"},
		{FormatFixed(math.NaN(), 2), "NaN"},
		{FormatFixed(math.Inf(1), 2), "+Inf"},
		{FormatSig(12345.6, 4), "12346"},
		{FormatSig(12.3456, 4), "12.35"},
		{FormatSig(1, 4), "1.000"},
		{FormatSig(0.0051234, 3), "0.00512"},
		{FormatSig(-0.0051234, 3), "-0.00512"},
		{FormatSig(0.99996, 4), "1.0000"},
		{FormatSig(1e-10, 3), "0.000000000"},
		{FormatSig(0, 4), "0"},
		{FormatSig(7.5, 0), "8"},
		{FormatSig(math.Inf(-1), 3), "-Inf"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}
