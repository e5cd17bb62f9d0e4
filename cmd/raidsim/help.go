package main

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/raidsim/raidsim/internal/keypath"
	"github.com/raidsim/raidsim/spec"
)

// helpWidth is the width --help wraps its text to.
const helpWidth = 100

// keys is the field table the help renders: spec.Fields, the one
// definition of every key.
var keys = spec.Fields()

// writeGroups lists the flags of table under their group headings, each
// with its help, then the key path it sets, the value it has when not
// given (the base experiment's, else the field's default) and its
// bounds.
func writeGroups(w io.Writer, table []*runFlag) { writeGroupsOn(w, table, baseExperiment()) }

// writeGroupsOn is writeGroups naming x's values as the base.
func writeGroupsOn(w io.Writer, table []*runFlag, x spec.Experiment) {
	writeGroupsWith(w, table, x, keys)
}

// writeGroupsWith is writeGroupsOn with the field definitions of t.
func writeGroupsWith(w io.Writer, table []*runFlag, x spec.Experiment, t spec.Table) {
	baseTree := treeOf(x)
	col := 0
	for _, f := range table {
		col = max(col, len(f.synopsis()))
	}
	col += 4
	var groups []string
	for _, f := range table {
		if !slices.Contains(groups, f.group) {
			groups = append(groups, f.group)
		}
	}
	for _, g := range groups {
		fmt.Fprintf(w, "\n%s:\n", g)
		for _, f := range table {
			if f.group != g {
				continue
			}
			lines := wrap(f.help(t), helpWidth-col)
			info := f.pathInfo(baseTree, t)
			if a := f.also(); a != "" {
				info = strings.TrimPrefix(info+"; "+a, "; ")
			}
			if info != "" {
				lines = append(lines, wrap("["+info+"]", helpWidth-col)...)
			}
			fmt.Fprintf(w, "  %-*s%s\n", col-2, f.synopsis(), lines[0])
			for _, l := range lines[1:] {
				fmt.Fprintf(w, "%*s%s\n", col, "", l)
			}
		}
	}
}

// synopsis is "--name VALUE".
func (f *runFlag) synopsis() string {
	s := "--" + f.name
	if f.metavar != "" {
		s += " " + f.metavar
	}
	return s
}

// also names the flag's other spellings (fio's), for its help.
func (f *runFlag) also() string {
	if len(f.aliases) == 0 {
		return ""
	}
	return "also --" + strings.Join(f.aliases, ", --")
}

// helpPaths are the key paths of the flags that are not one path.
var helpPaths = map[string]string{
	"set":       "any key path",
	"fail-disk": "stack.failures[k]",
	"cache":     "stack.cache.size, off: no stack.cache; base: no cache",
}

// help is the flag's help: for a flag that sets one field, the field's
// doc and names (spec.Fields), then the flag's note; else its usage.
func (f *runFlag) help(t spec.Table) string {
	fd, ok := t.Lookup(f.path)
	if f.path == "" || !ok || f.settings != nil {
		return f.usage
	}
	s := fd.Doc
	if len(fd.Values) > 0 {
		s += ": " + orList(fd.Values)
	}
	if td, ok := t.Lookup(f.tracePath); ok && f.tracePath != "" {
		s += "; with --trace: " + td.Doc
	}
	if f.usage != "" {
		s += "; " + f.usage
	}
	return s
}

// orList writes "a, b or c".
func orList(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// pathInfo says which field the flag sets, its value when the flag is
// not given and its bounds.
func (f *runFlag) pathInfo(baseTree any, t spec.Table) string {
	if p, ok := helpPaths[f.name]; ok {
		return p
	}
	info := f.path
	if f.tracePath != "" {
		info += ", with --trace " + f.tracePath
	}
	if f.path == "" {
		return info
	}
	fd, _ := t.Lookup(f.path)
	if v, ok := valueAt(baseTree, f.path); ok {
		info = fmt.Sprintf("%s; base: %v", info, v)
	} else if d := fd.DefaultWords(); d != "" && !fd.Required {
		info = fmt.Sprintf("%s; default: %s", info, d)
	}
	if b := fd.BoundsWords(); b != "" {
		info += "; " + b
	}
	return info
}

// treeOf returns x as the tree a file of it decodes to.
func treeOf(x spec.Experiment) any {
	var tree any
	b, err := yaml.Marshal(x)
	if err == nil {
		err = yaml.Unmarshal(b, &tree)
	}
	if err != nil {
		panic("raidsim: the base experiment does not marshal: " + err.Error())
	}
	return tree
}

// valueAt returns the value at a key path of a decoded tree.
func valueAt(tree any, path string) (any, bool) {
	p, err := keypath.Parse(path)
	if err != nil {
		return nil, false
	}
	return keypath.Lookup(tree, p)
}

// wrap splits text into lines of at most width characters, at spaces.
func wrap(text string, width int) []string {
	var lines []string
	line := ""
	for _, word := range strings.Fields(text) {
		if line != "" && len(line)+1+len(word) > width {
			lines = append(lines, line)
			line = ""
		}
		if line != "" {
			line += " "
		}
		line += word
	}
	return append(lines, line)
}
