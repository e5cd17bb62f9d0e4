package sweep

import (
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
)

// PointError is the error of one point of a sweep.
type PointError struct {
	// Point is the failing point, without its tree.
	Point Point
	// Err is what eval returned (or the panic it raised).
	Err error
}

func (e *PointError) Error() string {
	return fmt.Sprintf("sweep: point %d (%s): %v", e.Point.Index, e.Point, e.Err)
}

func (e *PointError) Unwrap() error { return e.Err }

// Run evaluates points on workers goroutines and returns the results in
// the order of points, whatever the number of workers and however long
// each evaluation takes. workers < 1 means runtime.GOMAXPROCS(0); there
// are never more workers than points.
//
// eval runs concurrently with itself and must not share mutable state
// between points; each Point owns its Tree. Points are handed out in
// order. When an evaluation fails (or panics), no further points start,
// the running ones finish, and Run returns a *PointError for the failing
// point with the lowest index. Since every point before a failing one has
// already been handed out, that is the first failing point of the list,
// the same point an evaluation on one worker would stop at.
//
// progress, if not nil, is called after each point completes with the
// number completed so far and len(points). Calls come one at a time from
// the goroutine that called Run, with done increasing by one each time.
func Run[R any](points []Point, workers int, eval func(Point) (R, error), progress func(done, total int)) ([]R, error) {
	n := len(points)
	results := make([]R, n)
	if n == 0 {
		return results, nil
	}
	if workers < 1 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = min(workers, n)

	var (
		next    atomic.Int64 // index of the next point to hand out
		stop    atomic.Bool  // set by the first failure
		mu      sync.Mutex
		errs    = make(map[int]error) // failures by position in points
		done    = make(chan struct{}, n)
		wg      sync.WaitGroup
		protect = func(p Point) (r R, err error) {
			defer func() {
				if x := recover(); x != nil {
					err = fmt.Errorf("panic: %v", x)
				}
			}()
			return eval(p)
		}
	)
	for range workers {
		wg.Go(func() {
			for !stop.Load() {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				r, err := protect(points[i])
				if err != nil {
					mu.Lock()
					errs[i] = err
					mu.Unlock()
					stop.Store(true)
				} else {
					results[i] = r
				}
				done <- struct{}{}
			}
		})
	}
	go func() {
		wg.Wait()
		close(done)
	}()
	count := 0
	for range done {
		count++
		if progress != nil {
			progress(count, n)
		}
	}
	if len(errs) == 0 {
		return results, nil
	}
	first := n
	for i := range errs {
		first = min(first, i)
	}
	p := points[first]
	p.Tree = nil
	return nil, &PointError{Point: p, Err: errs[first]}
}
