// Command campaign soaks raidsim in fault campaigns: it runs the fault
// schedules of package internal/campaign (arrays with real bytes, member
// failures and rebuilds, unreadable sectors, timeouts, power losses,
// volatile caches) for as long as asked, on every core, printing
// schedules per second, and stops at the first schedule that breaks the
// property, printing its seed:
//
//	go run ./cmd/campaign -soak 10m
//	go test ./internal/campaign -run TestCampaign -seed SEED   # replays one
//
// The CI form (2,000 schedules) is go test ./internal/campaign.
package main

import (
	"flag"
	"fmt"
	"os"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/raidsim/raidsim/internal/campaign"
)

func main() {
	soak := flag.Duration("soak", time.Minute, "how long to run schedules")
	from := flag.Uint64("from", 1_000_000, "the first seed; seeds go up from it")
	workers := flag.Int("parallel", runtime.GOMAXPROCS(0), "schedules run at once")
	seed := flag.Uint64("seed", 0, "run only this schedule and print it")
	flag.Parse()
	if *seed != 0 {
		os.Exit(one(*seed))
	}
	if *soak <= 0 || *workers <= 0 {
		fmt.Fprintln(os.Stderr, "campaign: -soak and -parallel must be positive")
		os.Exit(2)
	}
	os.Exit(run(*soak, *from, *workers))
}

// one runs the schedule of seed and prints it with what it found.
func one(seed uint64) int {
	s := campaign.Draw(seed)
	res, err := campaign.Run(s)
	if err != nil {
		fmt.Fprintf(os.Stderr, "%v\ncampaign: %v\n", s, err)
		return 1
	}
	fmt.Printf("%v\n%+v\n", s, *res)
	if len(res.Violations) > 0 {
		return 1
	}
	return 0
}

// run runs schedules from seed from on workers goroutines for d.
func run(d time.Duration, from uint64, workers int) int {
	start := time.Now()
	deadline := start.Add(d)
	var next, done, lost atomic.Uint64
	next.Store(from)
	var failed atomic.Bool
	var mu sync.Mutex
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for !failed.Load() && time.Now().Before(deadline) {
				seed := next.Add(1) - 1
				s := campaign.Draw(seed)
				res, err := campaign.Run(s)
				if err != nil || len(res.Violations) > 0 {
					if failed.Swap(true) {
						return
					}
					mu.Lock()
					fmt.Printf("FAILED %v\nerror: %v\n", s, err)
					if res != nil {
						fmt.Printf("violations: %v\n", res.Violations)
					}
					fmt.Printf("reproduce: go test ./internal/campaign -run TestCampaign -seed %d\n", seed)
					mu.Unlock()
					return
				}
				if res.Wrong > 0 {
					lost.Add(1)
				}
				done.Add(1)
			}
		}()
	}
	stop := make(chan struct{})
	go func() {
		t := time.NewTicker(10 * time.Second)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case <-t.C:
				mu.Lock()
				n := done.Load()
				fmt.Printf("%8.0fs  %d schedules, %.0f/s, %d with data named lost\n", time.Since(start).Seconds(), n, float64(n)/time.Since(start).Seconds(), lost.Load())
				mu.Unlock()
			}
		}
	}()
	wg.Wait()
	close(stop)
	n, el := done.Load(), time.Since(start).Seconds()
	fmt.Printf("%d schedules in %.0f s (%.0f/s, %d workers), seeds %d..%d, %d with data named lost; ", n, el, float64(n)/el, workers, from, from+n-1, lost.Load())
	if failed.Load() {
		fmt.Println("a schedule broke the property")
		return 1
	}
	fmt.Println("no violation")
	return 0
}
