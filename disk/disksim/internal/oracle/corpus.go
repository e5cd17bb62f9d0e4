package oracle

import (
	"bufio"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"sort"
	"strconv"
	"strings"
)

// Entry is one recorded pair of the corpus: the model's files as
// generated, the stream's spec (the requests are drawn again from it),
// the dimensions it covers and what DiskSim made of it.
type Entry struct {
	Index  int
	Dims   map[string]string
	Stream StreamSpec
	Files  map[string]string
	// DiskSim is DiskSim 4.0's outcome: rejected (with its last words)
	// or each request's response time, NaN for requests it did not log.
	DiskSim Outcome
}

const corpusMagic = "raidsim-disksim-oracle 1"

// WriteCorpus writes the entries, gzipped, to path.
func WriteCorpus(path string, entries []Entry) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	zw, _ := gzip.NewWriterLevel(f, gzip.BestCompression)
	w := bufio.NewWriter(zw)
	fmt.Fprintf(w, "%s\n", corpusMagic)
	for _, e := range entries {
		writeEntry(w, e)
	}
	if err := w.Flush(); err != nil {
		return err
	}
	if err := zw.Close(); err != nil {
		return err
	}
	return f.Close()
}

func writeEntry(w *bufio.Writer, e Entry) {
	dims, _ := json.Marshal(e.Dims)
	fmt.Fprintf(w, "pair %d\ndims %s\n", e.Index, dims)
	s := e.Stream
	fmt.Fprintf(w, "stream %s %s %s %d %d %d\n", s.Format, s.Kind, s.Gaps, s.Size, s.N, s.Seed)
	names := make([]string, 0, len(e.Files))
	for n := range e.Files {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "file %s %d\n%s", n, len(e.Files[n]), e.Files[n])
	}
	if e.DiskSim.Rejected {
		fmt.Fprintf(w, "rejected %s\n", strings.ReplaceAll(e.DiskSim.Why, "\n", " | "))
		return
	}
	fmt.Fprintf(w, "responses %d\n", len(e.DiskSim.Resp))
	for _, r := range e.DiskSim.Resp {
		if math.IsNaN(r) {
			w.WriteString("-\n")
		} else {
			// 1e-5 ms: DiskSim's own x87 noise, a thousandth of the
			// agreement bound
			w.WriteString(strconv.FormatFloat(r, 'f', 5, 64) + "\n")
		}
	}
}

// ReadCorpus reads a corpus file.
func ReadCorpus(path string) ([]Entry, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	r := bufio.NewReader(zr)
	if s, err := r.ReadString('\n'); err != nil || s != corpusMagic+"\n" {
		return nil, fmt.Errorf("%s: not a corpus file", path)
	}
	var out []Entry
	for {
		if _, err := r.Peek(1); err == io.EOF {
			return out, nil
		}
		e, err := readEntry(r)
		if err != nil {
			return nil, fmt.Errorf("%s: entry %d: %w", path, len(out), err)
		}
		out = append(out, e)
	}
}

func readEntry(r *bufio.Reader) (Entry, error) {
	var e Entry
	bad := func(what string, err error) (Entry, error) {
		return e, fmt.Errorf("%s: %v", what, err)
	}
	line := func() (string, error) {
		s, err := r.ReadString('\n')
		return strings.TrimSuffix(s, "\n"), err
	}
	s, _ := line()
	if _, err := fmt.Sscanf(s, "pair %d", &e.Index); err != nil {
		return bad("pair line", err)
	}
	s, _ = line()
	if err := json.Unmarshal([]byte(strings.TrimPrefix(s, "dims ")), &e.Dims); err != nil {
		return bad("dims line", err)
	}
	s, _ = line()
	st := &e.Stream
	if _, err := fmt.Sscanf(s, "stream %s %s %s %d %d %d", &st.Format, &st.Kind, &st.Gaps, &st.Size, &st.N, &st.Seed); err != nil {
		return bad("stream line", err)
	}
	e.Files = map[string]string{}
	for {
		s, err := line()
		if err != nil {
			return bad("outcome line", err)
		}
		var name string
		var n int
		if _, err := fmt.Sscanf(s, "file %s %d", &name, &n); err == nil {
			buf := make([]byte, n)
			if _, err := io.ReadFull(r, buf); err != nil {
				return bad("file "+name, err)
			}
			e.Files[name] = string(buf)
			continue
		}
		if why, ok := strings.CutPrefix(s, "rejected "); ok {
			e.DiskSim = Outcome{Rejected: true, Why: why}
			return e, nil
		}
		if _, err := fmt.Sscanf(s, "responses %d", &n); err != nil {
			return bad("outcome line", err)
		}
		e.DiskSim.Resp = make([]float64, n)
		for i := range e.DiskSim.Resp {
			v, err := line()
			if err != nil {
				return bad("responses", err)
			}
			if v == "-" {
				e.DiskSim.Resp[i] = math.NaN()
				continue
			}
			if e.DiskSim.Resp[i], err = strconv.ParseFloat(v, 64); err != nil {
				return bad("responses", err)
			}
		}
		return e, nil
	}
}
