package main

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/raidsim/raidsim/trace"
)

// fio job files (fio's HOWTO, "Job file format"): an INI file of
// sections, each a job named by its header except [global], whose
// options are the defaults of the jobs after it. A line is a section
// header, an option (key=value, or a bare key for a switch), an
// `include FILE` directive (relative to the including file), a comment
// (starting with ; or #) or blank. ${VAR} in a value is the environment
// variable VAR. Each job file after the first starts with a stonewall,
// as fio runs several job files.

// Limits on what a job file may ask for, so a hostile file costs
// bounded memory: lines of at most trace.MaxLineBytes, includes nested
// at most maxFioIncludeDepth deep, at most maxFioJobs job sections and
// maxFioOptions options in all.
const (
	maxFioIncludeDepth = 16
	maxFioJobs         = 1024
	maxFioOptions      = 65536
)

// fioOption is one option of a job file: its key in lower case, its
// value (empty for a bare switch) and where it was written.
type fioOption struct {
	key, value string
	bare       bool   // written without "=": a switch turned on
	at         string // "FILE:LINE"
}

// fioSection is one job section: its name, where its header is, the
// [global] options in force at its header and its own options, in file
// order.
type fioSection struct {
	name      string
	at        string
	globals   []fioOption
	own       []fioOption
	stonewall bool // the first job of a job file after the first
}

// options returns the section's options, the globals first, so a later
// one of a key overrides an earlier one.
func (s *fioSection) options() []fioOption {
	return append(append([]fioOption(nil), s.globals...), s.own...)
}

// fioJobFile is what job files describe: their jobs in order and the
// [global] options each file set (for fio's "global options").
type fioJobFile struct {
	jobs    []*fioSection
	globals []fioOption
	options int // options read, for the limit
}

// readFioJobFiles reads the job files in order.
func readFioJobFiles(paths []string) (*fioJobFile, error) {
	jf := &fioJobFile{}
	for i, path := range paths {
		p := &fioParser{jf: jf, stonewall: i > 0}
		if err := p.file(path, 0, nil); err != nil {
			return nil, err
		}
	}
	if len(jf.jobs) == 0 {
		return nil, fmt.Errorf("%s: no job sections (a job is a [name] section other than [global])", strings.Join(paths, ", "))
	}
	return jf, nil
}

// fioParser reads one job file and the files it includes.
type fioParser struct {
	jf        *fioJobFile
	section   *fioSection // nil before the first header
	global    bool        // in a [global] section
	globals   []fioOption // the global options in force
	stonewall bool        // the file's first job starts a new phase
}

// file reads the job file at path, included depth deep from the files
// in chain.
func (p *fioParser) file(path string, depth int, chain []string) error {
	abs, err := filepath.Abs(path)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	for _, c := range chain {
		if c == abs {
			return fmt.Errorf("%s: includes itself (through %s)", path, strings.Join(chain, " -> "))
		}
	}
	if depth > maxFioIncludeDepth {
		return fmt.Errorf("%s: includes nested more than %d deep", path, maxFioIncludeDepth)
	}
	st, err := os.Stat(path)
	if err != nil {
		return fmt.Errorf("job file: %w", err)
	}
	if !st.Mode().IsRegular() {
		return fmt.Errorf("job file %s is not a regular file", path)
	}
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("job file: %w", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 4096), trace.MaxLineBytes)
	for n := 1; sc.Scan(); n++ {
		at := fmt.Sprintf("%s:%d", path, n)
		if err := p.line(strings.TrimSpace(sc.Text()), at, filepath.Dir(path), depth, append(chain, abs)); err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

// line reads one trimmed line written at at, in a file of directory dir.
func (p *fioParser) line(s, at, dir string, depth int, chain []string) error {
	switch {
	case s == "" || s[0] == ';' || s[0] == '#':
		return nil
	case s[0] == '[':
		if !strings.HasSuffix(s, "]") || len(s) < 3 {
			return fmt.Errorf("%s: section header %q: want [name]", at, s)
		}
		return p.header(strings.TrimSpace(s[1:len(s)-1]), at)
	}
	if rest, ok := strings.CutPrefix(s, "include"); ok && (rest == "" || rest[0] == ' ' || rest[0] == '\t') {
		name := strings.TrimSpace(rest)
		if name == "" {
			return fmt.Errorf("%s: include needs a file name", at)
		}
		if !filepath.IsAbs(name) {
			name = filepath.Join(dir, name)
		}
		return p.file(name, depth+1, chain)
	}
	return p.option(s, at)
}

// header starts a section.
func (p *fioParser) header(name, at string) error {
	if strings.EqualFold(name, "global") {
		p.section, p.global = nil, true
		return nil
	}
	if len(p.jf.jobs) == maxFioJobs {
		return fmt.Errorf("%s: more than %d jobs", at, maxFioJobs)
	}
	p.global = false
	p.section = &fioSection{name: name, at: at, globals: p.globals, stonewall: p.stonewall}
	p.stonewall = false
	p.jf.jobs = append(p.jf.jobs, p.section)
	return nil
}

// option reads "key=value" or a bare "key" into the current section.
func (p *fioParser) option(s, at string) error {
	key, value, hasValue := strings.Cut(s, "=")
	o := fioOption{key: strings.ToLower(strings.TrimSpace(key)), value: strings.TrimSpace(value), bare: !hasValue, at: at}
	if o.key == "" || strings.ContainsAny(o.key, " \t") {
		return fmt.Errorf("%s: %q is not an option (want key=value or a switch)", at, s)
	}
	v, err := expandFioEnv(o.value)
	if err != nil {
		return fmt.Errorf("%s: %s: %w", at, o.key, err)
	}
	o.value = v
	if p.jf.options++; p.jf.options > maxFioOptions {
		return fmt.Errorf("%s: more than %d options", at, maxFioOptions)
	}
	switch {
	case p.global:
		// The jobs already read keep the globals they were read with.
		p.globals = append(p.globals[:len(p.globals):len(p.globals)], o)
		p.jf.globals = append(p.jf.globals, o)
	case p.section != nil:
		p.section.own = append(p.section.own, o)
	default:
		return fmt.Errorf("%s: option %q outside a section (start with [global] or [jobname])", at, o.key)
	}
	return nil
}

// expandFioEnv replaces each ${NAME} in v by the environment variable
// NAME, which must be set. fio's own keywords ($pagesize, $mb_memory,
// $ncpus) describe the machine fio runs on, which a simulation does not
// have: they are refused.
func expandFioEnv(v string) (string, error) {
	var b strings.Builder
	for {
		i := strings.IndexByte(v, '$')
		if i < 0 {
			b.WriteString(v)
			return b.String(), nil
		}
		b.WriteString(v[:i])
		v = v[i:]
		if !strings.HasPrefix(v, "${") {
			return "", fmt.Errorf("%q: fio's keywords ($pagesize, $mb_memory, $ncpus) describe a real machine; write the value", v)
		}
		end := strings.IndexByte(v, '}')
		if end < 0 {
			return "", fmt.Errorf("%q: ${ without a closing }", v)
		}
		name := v[2:end]
		val, ok := os.LookupEnv(name)
		if !ok {
			return "", fmt.Errorf("environment variable %s is not set", name)
		}
		b.WriteString(val)
		v = v[end+1:]
	}
}
