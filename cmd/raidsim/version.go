package main

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
)

// version writes what `raidsim --version` prints: the module's version
// (a tag with `go install ...@v1.2.3`, "(devel)" for a build from a
// checkout), the VCS commit and time the binary was built from, with
// "+modified" when the checkout had uncommitted changes, and the Go
// toolchain.
func writeVersion(w io.Writer, info *debug.BuildInfo, ok bool) {
	if !ok {
		fmt.Fprintf(w, "raidsim (no build information) %s\n", runtime.Version())
		return
	}
	v := info.Main.Version
	if v == "" {
		v = "(devel)"
	}
	line := "raidsim " + v
	set := map[string]string{}
	for _, s := range info.Settings {
		set[s.Key] = s.Value
	}
	if c := set["vcs.revision"]; c != "" {
		line += " commit " + c
		if set["vcs.modified"] == "true" {
			line += "+modified"
		}
		if t := set["vcs.time"]; t != "" {
			line += " (" + t + ")"
		}
	}
	fmt.Fprintf(w, "%s %s\n", line, info.GoVersion)
}

// runVersion is `raidsim version`.
func runVersion(args []string, stdout, _ io.Writer) error {
	fs := newFlags("version")
	rest, err := parseFlags(fs, args, stdout, func(w io.Writer) {
		writeHelp(w, "Usage: raidsim version\n\nPrints raidsim's module version, the commit it was built from and the Go toolchain\n(also raidsim --version).\n", fs)
	}, nil)
	if err != nil {
		return err
	}
	if err := noArgs(rest); err != nil {
		return err
	}
	info, ok := debug.ReadBuildInfo()
	writeVersion(stdout, info, ok)
	return nil
}
