package outfile

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Input is a file the run reads, which no output may be.
type Input struct {
	// Name is the flag or argument that names the file in errors
	// ("--trace", "IN").
	Name string
	// Path is the file.
	Path string
}

// Target is a file the run writes.
type Target struct {
	// Name is the flag or argument that names the file in errors
	// ("--out", "--plot", "OUT").
	Name string
	// Path is the file.
	Path string
	// Exts are the extensions the target may take, each naming a format
	// the caller writes (".svg", ".png", ".csv.gz"), matched without
	// regard to case; nil takes any name.
	Exts []string
}

// Policy is what a run may replace.
type Policy struct {
	// Force lets an existing regular file be replaced (--force).
	Force bool
	// Inputs are the run's inputs: never written, Force or not.
	Inputs []Input
}

// Ext returns the longest of exts that path ends with (compared without
// regard to case), and whether there is one.
func Ext(path string, exts []string) (string, bool) {
	best := ""
	base := strings.ToLower(filepath.Base(path))
	for _, e := range exts {
		e = strings.ToLower(e)
		if len(e) > len(best) && len(base) > len(e) && strings.HasSuffix(base, e) {
			best = e
		}
	}
	return best, best != ""
}

// Check reports every problem of the targets at once (errors.Join): an
// extension not listed, a path that is an input, anything but a regular
// file, an existing file without Force, a missing directory, and two
// targets naming the same file. Nothing is written.
func (p Policy) Check(targets ...Target) error {
	var errs []error
	for i, t := range targets {
		if err := p.check(t); err != nil {
			errs = append(errs, err)
			continue
		}
		for _, u := range targets[:i] {
			if sameTarget(t.Path, u.Path) {
				errs = append(errs, fmt.Errorf("%s %s and %s %s are the same file: give each its own", u.Name, u.Path, t.Name, t.Path))
			}
		}
	}
	return errors.Join(errs...)
}

// check checks one target. Being an input is reported first, whatever
// else is wrong: it is the mistake that would cost the most.
func (p Policy) check(t Target) error {
	if t.Path == "" {
		return fmt.Errorf("%s: an empty file name", t.Name)
	}
	lst, err := os.Lstat(t.Path)
	if errors.Is(err, fs.ErrNotExist) {
		if err := checkExt(t); err != nil {
			return err
		}
		return checkDir(t)
	}
	if err != nil {
		return fmt.Errorf("%s %s: %w", t.Name, t.Path, unwrapPath(err))
	}
	st, err := os.Stat(t.Path)
	if errors.Is(err, fs.ErrNotExist) && lst.Mode()&fs.ModeSymlink != 0 {
		dest, _ := os.Readlink(t.Path)
		return fmt.Errorf("%s %s: a symbolic link to %s, which does not exist: name a regular file", t.Name, t.Path, dest)
	}
	if err != nil {
		return fmt.Errorf("%s %s: %w", t.Name, t.Path, unwrapPath(err))
	}
	for _, in := range p.Inputs {
		if ist, err := os.Stat(in.Path); err == nil && os.SameFile(ist, st) {
			return fmt.Errorf("%s %s is the same file as the input %s %s: an input is never written, --force or not; choose another name",
				t.Name, t.Path, in.Name, in.Path)
		}
	}
	if !st.Mode().IsRegular() {
		return fmt.Errorf("%s %s: %s, not a regular file: only regular files are written or replaced, even with --force", t.Name, t.Path, kind(st.Mode()))
	}
	if err := checkExt(t); err != nil {
		return err
	}
	if !p.Force {
		return fmt.Errorf("%s %s: the file exists: add --force to replace it", t.Name, t.Path)
	}
	return nil
}

// checkExt checks the target's extension is one it takes.
func checkExt(t Target) error {
	if len(t.Exts) == 0 {
		return nil
	}
	if _, ok := Ext(t.Path, t.Exts); !ok {
		return extError(t)
	}
	return nil
}

// extError says which extensions the target takes.
func extError(t Target) error {
	want := make([]string, len(t.Exts))
	copy(want, t.Exts)
	list := strings.Join(want, ", ")
	if n := len(want); n > 1 {
		list = strings.Join(want[:n-1], ", ") + " or " + want[n-1]
	}
	ext := filepath.Ext(t.Path)
	if ext == "" {
		return fmt.Errorf("%s %s: no extension names the file's format: end the name with %s", t.Name, t.Path, list)
	}
	return fmt.Errorf("%s %s: %s names no format written here: end the name with %s", t.Name, t.Path, ext, list)
}

// checkDir checks that a new file's directory exists.
func checkDir(t Target) error {
	dir := filepath.Dir(t.Path)
	st, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("%s %s: the directory %s does not exist", t.Name, t.Path, dir)
	case err != nil:
		return fmt.Errorf("%s %s: %w", t.Name, t.Path, unwrapPath(err))
	case !st.IsDir():
		return fmt.Errorf("%s %s: %s is not a directory", t.Name, t.Path, dir)
	}
	return nil
}

// kind names what a file that is not regular is.
func kind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a block device"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	}
	return "a special file"
}

// unwrapPath drops the *fs.PathError's own repetition of the path.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// sameTarget reports whether two output paths name the same file: the
// same file if both exist, else the same directory and name.
func sameTarget(a, b string) bool {
	sa, ea := os.Stat(a)
	sb, eb := os.Stat(b)
	if ea == nil && eb == nil {
		return os.SameFile(sa, sb)
	}
	if filepath.Base(a) != filepath.Base(b) {
		return false
	}
	da, ea := os.Stat(filepath.Dir(a))
	db, eb := os.Stat(filepath.Dir(b))
	return ea == nil && eb == nil && os.SameFile(da, db)
}

// File is a target being written: under a temporary name beside it
// until Commit renames it into place.
type File struct {
	*os.File
	p     Policy
	t     Target
	final string      // the path renamed over: t.Path, symlinks resolved
	mode  os.FileMode // the permissions it gets
	done  bool
}

// Create checks t (as Check does) and opens a temporary file in its
// directory. The new file gets mode 0644, or the permissions of the
// file it replaces; a symbolic link is followed, so its target is
// replaced and the link kept. Finish with Commit, or Abort.
func (p Policy) Create(t Target) (*File, error) {
	if err := p.check(t); err != nil {
		return nil, err
	}
	f := &File{p: p, t: t, final: t.Path, mode: 0o644}
	if st, err := os.Stat(t.Path); err == nil {
		f.mode = st.Mode().Perm()
		if f.final, err = filepath.EvalSymlinks(t.Path); err != nil {
			return nil, fmt.Errorf("%s %s: %w", t.Name, t.Path, unwrapPath(err))
		}
	}
	tmp, err := os.CreateTemp(filepath.Dir(f.final), "."+filepath.Base(f.final)+".tmp-*")
	if err != nil {
		return nil, fmt.Errorf("%s %s: cannot write in %s: %w", t.Name, t.Path, filepath.Dir(f.final), unwrapPath(err))
	}
	f.File = tmp
	return f, nil
}

// Commit syncs the file and puts it in place: renamed over the path
// (with Force), or linked to it, which fails if a file appeared there
// meanwhile. The path is checked again first. On any error the
// temporary file is removed and the path left as it was.
func (f *File) Commit() error {
	if f.done {
		return fmt.Errorf("%s %s: already committed or aborted", f.t.Name, f.t.Path)
	}
	f.done = true
	tmp := f.Name()
	err := f.Chmod(f.mode)
	if serr := f.Sync(); err == nil {
		err = serr
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = f.p.check(f.t)
	}
	if err == nil {
		err = f.place(tmp)
	}
	if err != nil {
		os.Remove(tmp)
		var pe *fs.PathError
		var le *os.LinkError
		if errors.As(err, &pe) || errors.As(err, &le) {
			err = fmt.Errorf("%s %s: %w", f.t.Name, f.t.Path, err)
		}
	}
	return err
}

// place moves the written temporary file to its final name.
func (f *File) place(tmp string) error {
	if !f.p.Force {
		err := os.Link(tmp, f.final)
		switch {
		case err == nil:
			return os.Remove(tmp)
		case errors.Is(err, fs.ErrExist):
			return fmt.Errorf("%s %s: a file appeared there while this ran: add --force to replace it", f.t.Name, f.t.Path)
		}
		// A file system without hard links: the check above stands.
	}
	return os.Rename(tmp, f.final)
}

// Abort closes and removes the temporary file, leaving the path as it
// was. It does nothing after Commit.
func (f *File) Abort() {
	if f == nil || f.done {
		return
	}
	f.done = true
	f.Close()
	os.Remove(f.Name())
}

// Write writes t with fill (through a buffer) and commits it; if fill
// fails the path is left as it was and fill's error returned.
func (p Policy) Write(t Target, fill func(io.Writer) error) error {
	f, err := p.Create(t)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	if err := fill(w); err != nil {
		f.Abort()
		return err
	}
	if err := w.Flush(); err != nil {
		f.Abort()
		return fmt.Errorf("%s %s: %w", t.Name, t.Path, unwrapPath(err))
	}
	return f.Commit()
}

// WriteBytes writes b to t, as Write.
func (p Policy) WriteBytes(t Target, b []byte) error {
	return p.Write(t, func(w io.Writer) error {
		_, err := w.Write(b)
		return err
	})
}

// With returns p with more inputs.
func (p Policy) With(inputs ...Input) Policy {
	p.Inputs = append(slices.Clip(p.Inputs), inputs...)
	return p
}
