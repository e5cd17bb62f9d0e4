package sweep_test

import (
	"fmt"

	"github.com/raidsim/raidsim/sweep"
)

func Example() {
	// A sweep file, as decoded from YAML or JSON.
	file := map[string]any{
		"stack": map[string]any{"raid": map[string]any{"level": 0, "stripe_unit": "64KiB"}},
		"sweep": []any{
			map[string]any{"path": "stack.raid.stripe_unit", "values": []any{"64KiB", "256KiB"}},
			map[string]any{"path": "stack.cache.size", "values": []any{nil, "64MiB"}},
		},
	}
	base, axes, err := sweep.Split(file)
	if err != nil {
		fmt.Println(err)
		return
	}
	points, err := sweep.Points(base, axes)
	if err != nil {
		fmt.Println(err)
		return
	}
	// Evaluate on two goroutines; results come back in point order.
	results, err := sweep.Run(points, 2, func(p sweep.Point) (string, error) {
		return fmt.Sprint(p.Tree["stack"]), nil
	}, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	for i, r := range results {
		fmt.Printf("%d  %s\n   %s\n", points[i].Index, points[i], r)
	}
	// Output:
	// 0  stack.raid.stripe_unit=64KiB, stack.cache.size=none
	//    map[raid:map[level:0 stripe_unit:64KiB]]
	// 1  stack.raid.stripe_unit=64KiB, stack.cache.size=64MiB
	//    map[cache:map[size:64MiB] raid:map[level:0 stripe_unit:64KiB]]
	// 2  stack.raid.stripe_unit=256KiB, stack.cache.size=none
	//    map[raid:map[level:0 stripe_unit:256KiB]]
	// 3  stack.raid.stripe_unit=256KiB, stack.cache.size=64MiB
	//    map[cache:map[size:64MiB] raid:map[level:0 stripe_unit:256KiB]]
}
