package outfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// dirOf writes the named files (name: content) into a new directory.
func dirOf(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(content), 0o640))
	}
	return dir
}

// names lists a directory, so a test sees no temporary file was left.
func names(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	return out
}

func write(p Policy, t Target) error {
	return p.WriteBytes(t, []byte("new\n"))
}

// TestInputNeverWritten: an input is refused as an output by its path,
// another path, a symlink and a hard link, with and without Force, and
// stays as it was.
func TestInputNeverWritten(t *testing.T) {
	dir := dirOf(t, map[string]string{"in.csv": "input\n"})
	in := filepath.Join(dir, "in.csv")
	require.NoError(t, os.Symlink(in, filepath.Join(dir, "sym.csv")))
	require.NoError(t, os.Link(in, filepath.Join(dir, "hard.csv")))
	require.NoError(t, os.Mkdir(filepath.Join(dir, "sub"), 0o755))
	for _, out := range []string{in, filepath.Join(dir, "sub", "..", "in.csv"), filepath.Join(dir, "sym.csv"), filepath.Join(dir, "hard.csv")} {
		for _, force := range []bool{false, true} {
			p := Policy{Force: force, Inputs: []Input{{"--trace", in}}}
			err := write(p, Target{Name: "--out", Path: out})
			require.Error(t, err, out)
			assert.Contains(t, err.Error(), "is the same file as the input --trace "+in)
			assert.Contains(t, err.Error(), "--out "+out)
		}
	}
	got, err := os.ReadFile(in)
	require.NoError(t, err)
	assert.Equal(t, "input\n", string(got))
	assert.Equal(t, []string{"hard.csv", "in.csv", "sub", "sym.csv"}, names(t, dir))
}

// TestOnlyRegularFilesReplaced: a directory, a named pipe and (as root)
// a character device made in a temporary directory are refused, Force or
// not, and stay what they were.
func TestOnlyRegularFilesReplaced(t *testing.T) {
	dir := t.TempDir()
	paths := map[string]string{"a directory": filepath.Join(dir, "d")}
	require.NoError(t, os.Mkdir(paths["a directory"], 0o755))
	if p, ok := mkfifo(t, dir); ok {
		paths["a named pipe"] = p
	}
	if p, ok := mknull(t, dir); ok {
		paths["a character device"] = p
	} else {
		t.Log("not root: the character device case is left out (CI runs as root)")
	}
	for what, path := range paths {
		before, err := os.Lstat(path)
		require.NoError(t, err)
		for _, force := range []bool{false, true} {
			err := write(Policy{Force: force}, Target{Name: "--out", Path: path})
			require.Error(t, err)
			assert.Contains(t, err.Error(), what+", not a regular file")
			after, err := os.Lstat(path)
			require.NoError(t, err)
			assert.Equal(t, before.Mode(), after.Mode(), what)
		}
		// A symlink to it is refused too.
		link := path + ".link"
		require.NoError(t, os.Symlink(path, link))
		err = write(Policy{Force: true}, Target{Name: "--out", Path: link})
		require.Error(t, err)
		assert.Contains(t, err.Error(), what)
	}
	for _, n := range names(t, dir) {
		assert.False(t, strings.Contains(n, ".tmp-"), "temporary file %s left behind", n)
	}
}

// TestExistingNeedsForce: an existing regular file is kept without
// Force and replaced with it, keeping its permissions.
func TestExistingNeedsForce(t *testing.T) {
	dir := dirOf(t, map[string]string{"out.csv": "precious\n"})
	out := filepath.Join(dir, "out.csv")
	err := write(Policy{}, Target{Name: "--out", Path: out})
	require.Error(t, err)
	assert.Equal(t, "--out "+out+": the file exists: add --force to replace it", err.Error())
	got, _ := os.ReadFile(out)
	assert.Equal(t, "precious\n", string(got))

	require.NoError(t, write(Policy{Force: true}, Target{Name: "--out", Path: out}))
	got, _ = os.ReadFile(out)
	assert.Equal(t, "new\n", string(got))
	st, err := os.Stat(out)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o640), st.Mode().Perm())
	assert.Equal(t, []string{"out.csv"}, names(t, dir))
}

// TestSymlinkTargetReplaced: with Force a symlink to a regular file
// stays a link and its target is replaced; a dangling link is refused.
func TestSymlinkTargetReplaced(t *testing.T) {
	dir := dirOf(t, map[string]string{"target.csv": "old\n"})
	link := filepath.Join(dir, "link.csv")
	require.NoError(t, os.Symlink(filepath.Join(dir, "target.csv"), link))
	require.NoError(t, write(Policy{Force: true}, Target{Name: "--out", Path: link}))
	got, _ := os.ReadFile(filepath.Join(dir, "target.csv"))
	assert.Equal(t, "new\n", string(got))
	st, err := os.Lstat(link)
	require.NoError(t, err)
	assert.NotZero(t, st.Mode()&os.ModeSymlink)

	dangling := filepath.Join(dir, "dangling.csv")
	require.NoError(t, os.Symlink(filepath.Join(dir, "nowhere.csv"), dangling))
	err = write(Policy{Force: true}, Target{Name: "--out", Path: dangling})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "which does not exist")
}

// TestFailedWriteLeavesNothing: a fill that fails leaves no file, and an
// existing file replaced with Force as it was.
func TestFailedWriteLeavesNothing(t *testing.T) {
	dir := dirOf(t, map[string]string{"old.csv": "precious\n"})
	boom := errors.New("boom")
	fail := func(w io.Writer) error {
		_, _ = w.Write([]byte(strings.Repeat("x", 1<<20)))
		return boom
	}
	assert.ErrorIs(t, Policy{}.Write(Target{Name: "--out", Path: filepath.Join(dir, "new.csv")}, fail), boom)
	assert.ErrorIs(t, Policy{Force: true}.Write(Target{Name: "--out", Path: filepath.Join(dir, "old.csv")}, fail), boom)
	got, _ := os.ReadFile(filepath.Join(dir, "old.csv"))
	assert.Equal(t, "precious\n", string(got))
	assert.Equal(t, []string{"old.csv"}, names(t, dir))
}

// TestAppearedMeanwhile: a file created at the path after Create and
// before Commit is kept without Force.
func TestAppearedMeanwhile(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out.svg")
	f, err := Policy{}.Create(Target{Name: "--plot", Path: out, Exts: []string{".svg"}})
	require.NoError(t, err)
	_, _ = f.Write([]byte("mine"))
	require.NoError(t, os.WriteFile(out, []byte("theirs"), 0o644))
	err = f.Commit()
	require.Error(t, err)
	assert.Contains(t, err.Error(), "add --force")
	got, _ := os.ReadFile(out)
	assert.Equal(t, "theirs", string(got))
	assert.Equal(t, []string{"out.svg"}, names(t, dir))
}

// TestExtensions: the extension names the format; others are refused
// naming the ones taken; the longest match wins.
func TestExtensions(t *testing.T) {
	exts := []string{".csv", ".csv.gz", ".log"}
	ext, ok := Ext("a/T.CSV.GZ", exts)
	assert.True(t, ok)
	assert.Equal(t, ".csv.gz", ext)
	_, ok = Ext(".csv", exts)
	assert.False(t, ok, "a name that is only an extension")

	dir := t.TempDir()
	err := Policy{}.Check(Target{Name: "--plot", Path: filepath.Join(dir, "out.jpg"), Exts: []string{".svg", ".png"}})
	require.Error(t, err)
	assert.Contains(t, err.Error(), ".jpg names no format written here: end the name with .svg or .png")
	err = Policy{}.Check(Target{Name: "--plot", Path: filepath.Join(dir, "out"), Exts: []string{".svg"}})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "no extension names the file's format: end the name with .svg")
}

// TestCheckEveryProblem: Check reports each bad target and two targets
// naming one file.
func TestCheckEveryProblem(t *testing.T) {
	dir := dirOf(t, map[string]string{"exists.svg": ""})
	err := Policy{}.Check(
		Target{Name: "--plot", Path: filepath.Join(dir, "a.svg")},
		Target{Name: "--cdf", Path: filepath.Join(dir, ".", "a.svg")},
		Target{Name: "--trace-events", Path: filepath.Join(dir, "exists.svg")},
		Target{Name: "--out", Path: filepath.Join(dir, "missing", "x.csv")},
	)
	require.Error(t, err)
	msg := err.Error()
	assert.Contains(t, msg, "are the same file")
	assert.Contains(t, msg, "--trace-events "+filepath.Join(dir, "exists.svg")+": the file exists")
	assert.Contains(t, msg, "the directory "+filepath.Join(dir, "missing")+" does not exist")
	assert.Equal(t, 3, strings.Count(msg, "\n")+1)
}
