package calibrate_test

import (
	"fmt"
	"time"

	"github.com/raidsim/raidsim/calibrate"
)

// Compare scores a replay and names the class of requests whose gap moves
// the mean the most.
func ExampleCompare() {
	const ms = time.Millisecond
	reqs := []calibrate.Request{
		{Measured: 8 * ms, Simulated: 9 * ms},                              // a random read from the media
		{Measured: 6 * ms, Simulated: 7 * ms},                              // another
		{Measured: 1 * ms, Simulated: ms / 2, Hit: true, Sequential: true}, // a buffer hit
		{Measured: 1 * ms, Simulated: 1 * ms, Write: true, Hit: true},      // an absorbed write
	}
	c := calibrate.Compare(reqs)
	fmt.Printf("mean %.3f ms measured, %.3f ms simulated; p50 %.1f / %.1f ms\n", c.Measured.Mean, c.Simulated.Mean, c.Measured.P50, c.Simulated.P50)
	g, _ := c.LargestGap()
	fmt.Println(g.Describe())
	// Output:
	// mean 4.000 ms measured, 4.375 ms simulated; p50 1.0 / 1.0 ms
	// simulated random reads that went to the media are 1.000 ms slow (50.0% of the requests)
}
