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

// writeGroups lists the flags of table under their group headings, each
// with its usage, then the key path it sets and the value it has when
// not given: the base experiment's, else the field's default.
func writeGroups(w io.Writer, table []*runFlag) { writeGroupsOn(w, table, baseExperiment()) }

// writeGroupsOn is writeGroups naming x's values as the base.
func writeGroupsOn(w io.Writer, table []*runFlag, x spec.Experiment) {
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
			lines := wrap(f.usage, helpWidth-col)
			if info := f.pathInfo(baseTree); info != "" {
				lines = append(lines, wrap("["+info+"]", helpWidth-col)...)
			}
			fmt.Fprintf(w, "  %-*s%s\n", col-2, f.synopsis(), lines[0])
			for _, l := range lines[1:] {
				fmt.Fprintf(w, "%*s%s\n", col, "", l)
			}
		}
	}
}

// synopsis is "--name VALUE" with the aliases.
func (f *runFlag) synopsis() string {
	s := "--" + f.name
	if f.metavar != "" {
		s += " " + f.metavar
	}
	for _, a := range f.aliases {
		s += ", --" + a
	}
	return s
}

// helpPaths are the key paths of the flags that are not one path.
var helpPaths = map[string]string{
	"set":       "any key path",
	"fail-disk": "stack.failures[k]",
	"cache":     "stack.cache.size, off: no stack.cache; base: no cache",
}

// pathInfo says which field the flag sets and its value when the flag
// is not given.
func (f *runFlag) pathInfo(baseTree any) string {
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
	if v, ok := valueAt(baseTree, f.path); ok {
		return fmt.Sprintf("%s; base: %v", info, v)
	}
	if d, _ := spec.Default(f.path); d != "" {
		return fmt.Sprintf("%s; default: %s", info, strings.Trim(d, "()"))
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
