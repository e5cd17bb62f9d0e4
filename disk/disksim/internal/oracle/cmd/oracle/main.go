// Command oracle runs raidsim's differential harness against DiskSim
// 4.0 (see package oracle).
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/raidsim/raidsim/disk/disksim/internal/oracle"
)

func main() {
	shared := flag.String("shared", "/work/shared", "the shared folder with tools/disksim and disksim-models")
	from := flag.Int("from", 0, "first pair")
	to := flag.Int("to", 10, "pair after the last")
	total := flag.Int("total", 340, "corpus size (the coverage windows spread over it)")
	seed := flag.Uint64("seed", 21, "corpus seed")
	n := flag.Int("n", 2000, "requests per stream")
	dump := flag.String("dump", "", "write pair -from's files to this folder")
	trace := flag.Bool("trace", false, "print exact mode's event trace of pair -from and stop")
	dims := flag.Bool("dims", false, "print each pair's dimensions as JSON")
	jobs := flag.Int("j", runtime.NumCPU(), "pairs run at once")
	minimize := flag.Bool("minimize", false, "shrink pair -from, on which DiskSim and exact mode disagree, and write it to -dump")
	table := flag.String("table", "", "replay this corpus file in exact mode and print the agreement of every dimension value (markdown)")
	regen := flag.String("regen", "", "write the pairs and DiskSim's outcomes to this corpus file")
	flag.Parse()
	if *table != "" {
		entries, err := oracle.ReadCorpus(*table)
		if err != nil {
			fmt.Fprintln(os.Stderr, "oracle:", err)
			os.Exit(1)
		}
		printTable(entries, oracle.Replay(entries))
		return
	}
	tools, ok := oracle.DefaultTools(*shared)
	if !ok && !*trace {
		fmt.Fprintln(os.Stderr, "oracle: DiskSim not found under", *shared)
		os.Exit(1)
	}
	if *minimize {
		if *dump == "" {
			fmt.Fprintln(os.Stderr, "oracle: -minimize writes to -dump DIR")
			os.Exit(2)
		}
		p := oracle.Generate(*from, *total, *seed, *n)
		mz := &oracle.Minimizer{
			Want: func(f map[string]string, s oracle.StreamSpec, r []oracle.Record) oracle.Outcome {
				ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
				defer cancel()
				o, err := tools.RunDiskSim(ctx, f, s, r)
				if err != nil {
					return oracle.Outcome{Rejected: true, Why: err.Error()}
				}
				return o
			},
			Got: func(f map[string]string, s oracle.StreamSpec, r []oracle.Record) oracle.Outcome {
				return oracle.RunExact(f, s, r, nil)
			},
		}
		recs := p.Stream.Requests()
		if bad, _ := mz.Disagree(p.Model, p.Stream, recs); !bad {
			fmt.Printf("pair %d: DiskSim and exact mode agree; nothing to minimize\n", *from)
			return
		}
		m, small, v := mz.Minimize(p.Model, p.Stream, recs)
		os.MkdirAll(*dump, 0o755)
		for k, text := range m.Files() {
			os.WriteFile(*dump+"/"+k, []byte(text), 0o644)
		}
		os.WriteFile(*dump+"/stream.trace", []byte(p.Stream.Trace(small)), 0o644)
		fmt.Printf("pair %d minimized to %d zones and %d %s requests in %s: %s\n", *from, len(m.Zones), len(small), p.Stream.Format, *dump, v.Why)
		return
	}
	if *dump != "" || *trace {
		p := oracle.Generate(*from, *total, *seed, *n)
		files := p.Model.Files()
		recs := p.Stream.Requests()
		if *trace {
			err := oracle.TraceExact(files, p.Stream, recs, func(s string) { fmt.Println(s) })
			fmt.Println("end:", err)
			return
		}
		os.MkdirAll(*dump, 0o755)
		for k, v := range files {
			os.WriteFile(*dump+"/"+k, []byte(v), 0o644)
		}
		os.WriteFile(*dump+"/stream.trace", []byte(p.Stream.Trace(recs)), 0o644)
		fmt.Println("format", p.Stream.Format)
	}
	out := make([]string, *to-*from)
	bad := make([]bool, *to-*from)
	entries := make([]oracle.Entry, *to-*from)
	var wg sync.WaitGroup
	sem := make(chan bool, *jobs)
	for i := *from; i < *to; i++ {
		wg.Add(1)
		sem <- true
		go func(i int) {
			defer func() { <-sem; wg.Done() }()
			var b strings.Builder
			p := oracle.Generate(i, *total, *seed, *n)
			files := p.Model.Files()
			recs := p.Stream.Requests()
			if *dims {
				j, _ := json.Marshal(p.Dims)
				fmt.Fprintf(&b, "dims %d %s\n", i, j)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
			want, err := tools.RunDiskSim(ctx, files, p.Stream, recs)
			cancel()
			if err != nil {
				fmt.Fprintf(&b, "pair %d: %v\n", i, err)
				bad[i-*from] = true
				out[i-*from] = b.String()
				return
			}
			entries[i-*from] = oracle.Entry{Index: i, Dims: p.Dims, Stream: p.Stream, Files: files, DiskSim: want}
			got := oracle.RunExact(files, p.Stream, recs, nil)
			v := oracle.Compare(want, got)
			status := "agree"
			if !v.Agree {
				status = "DIFFER"
				bad[i-*from] = true
			}
			if want.Rejected {
				fmt.Fprintf(&b, "pair %d: %s: both reject? %v: DiskSim: %s | raidsim: %s\n", i, status, got.Rejected, want.Why, got.Why)
			} else {
				fmt.Fprintf(&b, "pair %d: %s %s/%s/%s: %d/%d within, %d exact, max %.3g, mean %.6f/%.6f %s\n", i, status, p.Stream.Format, p.Stream.Kind, p.Stream.Gaps, v.Within, v.Compared, v.Exact, v.MaxDiff, v.MeanWant, v.MeanGot, v.Why)
			}
			out[i-*from] = b.String()
		}(i)
	}
	wg.Wait()
	nbad := 0
	for i := range out {
		fmt.Print(out[i])
		if bad[i] {
			nbad++
		}
	}
	fmt.Printf("%d of %d disagree\n", nbad, *to-*from)
	if *regen != "" {
		for _, e := range entries {
			if e.Files == nil {
				fmt.Fprintln(os.Stderr, "oracle: a pair failed to run; corpus not written")
				os.Exit(1)
			}
		}
		if err := oracle.WriteCorpus(*regen, entries); err != nil {
			fmt.Fprintln(os.Stderr, "oracle:", err)
			os.Exit(1)
		}
	}
	if nbad > 0 {
		os.Exit(1)
	}
}

// printTable prints the agreement by dimension value as markdown.
func printTable(entries []oracle.Entry, verdicts []oracle.Verdict) {
	tal := oracle.Tallies(entries, verdicts)
	dims := oracle.Dimensions()
	fmt.Println("| dimension | value | pairs run | both reject | requests | within bound | largest difference (ms) |")
	fmt.Println("|---|---|---|---|---|---|---|")
	names := make([]string, 0, len(dims))
	for k := range dims {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		for _, v := range dims[k] {
			t := tal[k][v]
			if t == nil {
				t = &oracle.Tally{}
			}
			within := "-"
			if t.Requests > 0 {
				within = fmt.Sprintf("%.2f%%", 100*float64(t.Within)/float64(t.Requests))
			}
			fmt.Printf("| %s | %s | %d | %d | %d | %s | %.2g |\n", k, v, t.Pairs, t.Rejected, t.Requests, within, t.MaxDiff)
		}
	}
}
