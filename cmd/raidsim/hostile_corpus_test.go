package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

// corpusCase is one line of testdata/hostile/cases.txt.
type corpusCase struct {
	line    int
	class   string
	refuse  bool
	args    []string
	pattern string
}

// readCorpus reads the hostile-input corpus: "## class NAME" headings,
// then lines "refuse | ARGS | TEXT" (exit 1 or 2, TEXT in stderr) or
// "ok | ARGS | TEXT" (exit 0, TEXT in stdout).
func readCorpus(t *testing.T) []corpusCase {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "hostile", "cases.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var cases []corpusCase
	class := ""
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if name, ok := strings.CutPrefix(line, "## class "); ok {
			class = name
			continue
		}
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		parts := strings.SplitN(line, " | ", 3)
		if len(parts) != 3 || parts[0] != "refuse" && parts[0] != "ok" || class == "" {
			t.Fatalf("cases.txt:%d: want a class heading, then EXPECT | ARGS | TEXT, got %q", n, line)
		}
		cases = append(cases, corpusCase{line: n, class: class, refuse: parts[0] == "refuse",
			args: strings.Fields(parts[1]), pattern: parts[2]})
	}
	return cases
}

// TestHostileCorpus runs every case of the hostile-input corpus through
// the command line in process: each refusal exits 1 or 2 with its text
// on stderr (and a flag-value case names the flag and the value), each
// acceptance exits 0 with its text on stdout; none panics, none runs
// past 10 s, none leaves the heap above 2 GiB, and none touches the
// file that stands for an existing file ($EXISTING keeps its bytes
// without --force, and a named pipe stays a pipe).
func TestHostileCorpus(t *testing.T) {
	cases := readCorpus(t)
	classes := map[string]int{}
	start := time.Now()
	for _, c := range cases {
		classes[c.class]++
		name := fmt.Sprintf("%d:%s", c.line, strings.Join(c.args, " "))
		runCorpusCase(t, name, c)
	}
	t.Logf("%d cases in %d classes %v, %v", len(cases), len(classes), classes, time.Since(start).Round(time.Millisecond))
	if len(cases) < 500 {
		t.Errorf("%d cases, want at least 500", len(cases))
	}
	for _, want := range []string{"flags", "output", "time", "runaway", "wrong", "unclear", "trace", "config"} {
		if classes[want] == 0 {
			t.Errorf("no case of class %q", want)
		}
	}
}

// runCorpusCase runs one case in a fresh directory holding $EXISTING
// and $FIFO.
func runCorpusCase(t *testing.T, name string, c corpusCase) {
	dir := t.TempDir()
	existing, fifo := filepath.Join(dir, "existing.txt"), filepath.Join(dir, "fifo")
	keep := []byte("keep me\n")
	if err := os.WriteFile(existing, keep, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	hostile, err := filepath.Abs(filepath.Join("testdata", "hostile"))
	if err != nil {
		t.Fatal(err)
	}
	expand := strings.NewReplacer("$T", hostile, "$EXISTING", existing, "$FIFO", fifo, "$D", dir)
	args := make([]string, len(c.args))
	for i, a := range c.args {
		args[i] = expand.Replace(a)
	}
	pattern := expand.Replace(c.pattern)
	type result struct {
		code        int
		out, errOut string
		panicked    any
	}
	done := make(chan result, 1)
	go func() {
		var r result
		defer func() {
			r.panicked = recover()
			done <- r
		}()
		var out, errOut bytes.Buffer
		r.code = run(args, &out, &errOut)
		r.out, r.errOut = out.String(), errOut.String()
	}()
	var r result
	select {
	case r = <-done:
	case <-time.After(10 * time.Second):
		t.Fatalf("%s: still running after 10 s", name)
	}
	switch {
	case r.panicked != nil:
		t.Errorf("%s: panic: %v", name, r.panicked)
	case c.refuse && r.code != 1 && r.code != 2:
		t.Errorf("%s: exit %d, want a refusal (1 or 2); stdout %.200q", name, r.code, r.out)
	case c.refuse && !strings.Contains(r.errOut, pattern):
		t.Errorf("%s: stderr\n%s\nwant it to hold\n%s", name, r.errOut, pattern)
	case !c.refuse && r.code != 0:
		t.Errorf("%s: exit %d, want 0: %s", name, r.code, r.errOut)
	case !c.refuse && !strings.Contains(r.out, pattern):
		t.Errorf("%s: stdout %.300q, want it to hold %q", name, r.out, pattern)
	}
	if strings.Contains(r.errOut, "goroutine ") || strings.Contains(r.errOut, "panic:") {
		t.Errorf("%s: a stack trace on stderr: %.300s", name, r.errOut)
	}
	if c.class == "flags" && c.refuse {
		last := c.args[len(c.args)-1]
		flag, _, _ := strings.Cut(last, "=")
		if !strings.Contains(pattern, strings.ReplaceAll(flag, "_", "-")) {
			t.Errorf("%s: the error %q does not name %s", name, pattern, flag)
		}
	}
	if b, err := os.ReadFile(existing); err != nil || !bytes.Equal(b, keep) && !slices.Contains(c.args, "--force") {
		t.Errorf("%s: $EXISTING changed: %q, %v", name, b, err)
	}
	if st, err := os.Lstat(fifo); err != nil || st.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("%s: $FIFO is no longer a named pipe: %v", name, err)
	}
	if h := heapInUse(2 << 30); h > 2<<30 {
		t.Errorf("%s: %d bytes of heap after the case", name, h)
	}
}

// heapInUse returns the heap's objects, live and not yet collected: at
// most limit bytes of them, none need a collection to show that the
// live heap is within limit; past it, the live heap after a collection.
// (A collection after each of the corpus's cases was a third of the
// package's test time.)
func heapInUse(limit uint64) uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	if metrics.Read(s); s[0].Value.Uint64() <= limit {
		return s[0].Value.Uint64()
	}
	runtime.GC()
	metrics.Read(s)
	return s[0].Value.Uint64()
}
