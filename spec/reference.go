package spec

import (
	"bufio"
	"fmt"
	"io"
	"strings"
)

// referenceIntro opens the key reference.
const referenceIntro = `# Config keys

<!-- Generated from the field table of package spec (spec.Fields) by
spec.WriteReference; TestKeyReferenceIsCurrent keeps it current. Do not
edit by hand: change the table, then run
go test ./spec -run TestKeyReferenceIsCurrent -update -->

Every key of an experiment file (YAML or JSON, keys in snake_case). The
same keys are the key paths of ` + "`raidsim run --set PATH=VALUE`" + `, of
the sweep axes, and of the ` + "`raidsim run`" + ` flags (raidsim run --help
names the path of each); Go code fills the same fields of spec.Experiment.
A path names a key inside sections with dots and a list element with
[i]: ` + "`stack.raid.stripe_unit`, `phases[1].bs`" + `.

**Sizes** are whole numbers of bytes (` + "`65536`" + `) or strings with a binary
unit (` + "`64KiB`, `64k`, `1MiB`, `2GiB`" + `: every unit is a power of 1024).
**Durations** are Go duration strings (` + "`500us`, `5ms`, `1.5s`" + `).
**Rates** in MB/s are 10^6 bytes per second, as data sheets give them;
rates in bytes/s are sizes per second. **Switches** are true or false
(on and off, yes and no). A key marked *no 0* takes its default when
left out and refuses an explicit zero: leave it out instead. An unknown
key is an error naming its path, with the keys known there.
`

// WriteReference writes the key reference of t as Markdown: one table
// per section, each key with its meaning (and the names an enumeration
// takes), unit, default and bounds. docs/config-keys.md is
// WriteReference(w, Fields()).
func WriteReference(w io.Writer, t Table) error {
	bw := bufio.NewWriter(w)
	bw.WriteString(referenceIntro)
	var sections []string
	rows := map[string][]Field{}
	for _, f := range t {
		parent := parentOf(f.Path)
		if rows[parent] == nil {
			sections = append(sections, parent)
		}
		rows[parent] = append(rows[parent], f)
	}
	for _, parent := range sections {
		heading := "Top level"
		if parent != "" {
			heading = "`" + strings.ReplaceAll(parent, "[]", "[i]") + "`"
		}
		fmt.Fprintf(bw, "\n## %s\n\n| key | meaning | unit | default | bounds |\n|---|---|---|---|---|\n", heading)
		for _, f := range rows[parent] {
			fmt.Fprintf(bw, "| `%s` | %s | %s | %s | %s |\n", f.Key(), cell(f.meaning()), cell(f.unitWords()),
				cell(f.defaultCell()), cell(f.boundsCell()))
		}
	}
	return bw.Flush()
}

// parentOf is the section path a key lies in ("" for the top level).
func parentOf(path string) string {
	i := strings.LastIndexByte(path, '.')
	if i < 0 {
		return ""
	}
	return path[:i]
}

// meaning is the doc with the names an enumeration takes.
func (f Field) meaning() string {
	if len(f.Values) == 0 {
		return f.Doc
	}
	names := make([]string, len(f.Values))
	for i, v := range f.Values {
		names[i] = "`" + v + "`"
	}
	return f.Doc + ": " + orList(names)
}

// unitWords is the unit, or the kind of a value that has none.
func (f Field) unitWords() string {
	if f.Unit != "" {
		return f.Unit
	}
	switch k := f.Kind(); k {
	case "duration", "boolean", "section", "list":
		return k
	}
	return ""
}

func (f Field) defaultCell() string {
	d := f.DefaultWords()
	if f.Default != "" {
		d = "`" + d + "`"
	}
	if f.NoZero {
		d += " (no 0)"
	}
	return d
}

func (f Field) boundsCell() string {
	b := f.BoundsWords()
	if f.Aligned {
		if b != "" {
			b += ", "
		}
		b += "a multiple of the sector size"
	}
	return b
}

// cell escapes text for a Markdown table cell.
func cell(s string) string { return strings.ReplaceAll(s, "|", `\|`) }
