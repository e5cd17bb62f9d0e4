package main

import (
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"

	"github.com/spf13/pflag"
)

// usageError is a problem with the command line: a bad flag, a flag's
// bad value, a missing argument. It is printed one line per problem,
// the last followed by a hint to --help, without the usage, and the
// command exits with status 2.
type usageError struct {
	lines []string
}

func (e *usageError) Error() string { return strings.Join(e.lines, "\n") }

// usagef returns a usageError of one line.
func usagef(format string, args ...any) error {
	return &usageError{lines: []string{fmt.Sprintf(format, args...)}}
}

// errHelp reports that a command printed its help on request: exit 0.
var errHelp = errors.New("help printed")

// newFlags returns a flag set for `raidsim cmd` taking GNU-style
// double-dash flags, named in kebab-case: an underscore is read as a
// dash, so fio's spellings (--random_distribution) work too. It prints
// nothing: parseFlags reports errors and prints the help.
func newFlags(cmd string) *pflag.FlagSet {
	fs := pflag.NewFlagSet("raidsim "+cmd, pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	fs.SortFlags = false
	fs.SetNormalizeFunc(kebab)
	return fs
}

// kebab normalizes a flag name: underscores are dashes.
func kebab(_ *pflag.FlagSet, name string) pflag.NormalizedName {
	return pflag.NormalizedName(strings.ReplaceAll(name, "_", "-"))
}

// parseFlags parses args into fs, calling each for every flag in
// command-line order when it is not nil (and then the flags' own Set is
// not called). --help (or -h) prints help to stdout and returns errHelp;
// a bad flag returns a usageError. It returns the positional arguments.
func parseFlags(fs *pflag.FlagSet, args []string, stdout io.Writer, help func(io.Writer), each func(*pflag.Flag, string) error) ([]string, error) {
	var err error
	if each != nil {
		err = fs.ParseAll(args, each)
	} else {
		err = fs.Parse(args)
	}
	switch {
	case errors.Is(err, pflag.ErrHelp):
		help(stdout)
		return nil, errHelp
	case err != nil:
		var ue *usageError
		if errors.As(err, &ue) {
			return nil, err
		}
		return nil, usagef("%s", flagValueError(fs, err))
	}
	return fs.Args(), nil
}

// badFlagValue matches pflag's message for a value its type refuses.
var badFlagValue = regexp.MustCompile(`^invalid argument "(.*)" for "(?:-\w, )?--([\w-]+)" flag: `)

// flagValueError restates pflag's "invalid argument X for --f flag:
// strconv.ParseInt: ..." as the flag, the value and what the flag's
// type takes.
func flagValueError(fs *pflag.FlagSet, err error) string {
	m := badFlagValue.FindStringSubmatch(err.Error())
	if m == nil {
		return err.Error()
	}
	want := "a value of its type"
	if f := fs.Lookup(m[2]); f != nil {
		switch f.Value.Type() {
		case "int", "int64", "uint", "uint64", "int32":
			want = "a whole number (no exponent or fraction)"
			if strings.ContainsAny(m[1], "0123456789") && !strings.ContainsAny(m[1], "eE.") {
				want = "a whole number that fits in 64 bits"
			}
		case "float64", "float32":
			want = "a number"
		case "bool":
			want = "true or false"
		case "duration":
			want = "a duration such as 5ms or 1.5s"
		}
	}
	return fmt.Sprintf("--%s: want %s, got %q", m[2], want, m[1])
}

// noArgs refuses positional arguments.
func noArgs(args []string) error {
	if len(args) > 0 {
		return usagef("unexpected argument %q (flags start with --)", args[0])
	}
	return nil
}

// writeHelp writes a command's help: its text, then its flags.
func writeHelp(w io.Writer, text string, fs *pflag.FlagSet) {
	fmt.Fprint(w, text)
	if fs.HasFlags() {
		fmt.Fprintf(w, "\nFlags:\n%s", fs.FlagUsagesWrapped(100))
	}
}

// reportError prints err for `raidsim cmd` to stderr and returns the
// exit status: 0 after help, 2 for a usage error (one line per problem
// and a hint to --help), 1 otherwise (every line prefixed).
func reportError(stderr io.Writer, cmd string, err error) int {
	var ue *usageError
	switch {
	case err == nil, errors.Is(err, errHelp):
		return 0
	case errors.As(err, &ue):
		for i, line := range ue.lines {
			if i == len(ue.lines)-1 {
				line += fmt.Sprintf(" (see raidsim %s --help)", cmd)
			}
			fmt.Fprintf(stderr, "raidsim %s: %s\n", cmd, line)
		}
		return 2
	}
	for _, line := range strings.Split(err.Error(), "\n") {
		fmt.Fprintf(stderr, "raidsim %s: %s\n", cmd, strings.TrimLeft(line, " "))
	}
	return 1
}
