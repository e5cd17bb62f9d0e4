package sweep

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func baseTree() map[string]any {
	return map[string]any{
		"stack": map[string]any{
			"drive": "deskstar-7k500",
			"raid":  map[string]any{"level": 5, "stripe_unit": "64KiB"},
		},
		"phases": []any{
			map[string]any{"rw": "randread", "iodepth": 1},
			map[string]any{"rw": "write", "iodepth": 4},
		},
	}
}

func TestParsePath(t *testing.T) {
	for _, tc := range []struct {
		path string
		want string // steps rendered back, or the error's tail
	}{
		{"a", "a"},
		{"stack.raid.stripe_unit", "stack.raid.stripe_unit"},
		{"phases[0].iodepth", "phases[0].iodepth"},
		{"m[1][2].x", "m[1][2].x"},
		{"", "empty field path"},
		{"a..b", "empty key"},
		{".a", "empty key"},
		{"a.", "ends with a dot"},
		{"a[x]", "bad list index"},
		{"a[-1]", "bad list index"},
		{"a[+1]", "bad list index"},
		{"a[1", "unclosed ["},
		{"a]", "unexpected ]"},
		{"a[0]b", "want . or [ after ]"},
		{"[0].a", "starts with a key"},
	} {
		steps, err := parsePath(tc.path)
		if err != nil {
			assert.Contains(t, err.Error(), tc.want, tc.path)
			continue
		}
		assert.Equal(t, tc.want, steps.String(), tc.path)
	}
}

func TestSplitForms(t *testing.T) {
	list := baseTree()
	list["sweep"] = []any{
		map[string]any{"path": "stack.raid.stripe_unit", "values": []any{"64KiB", "128KiB"}},
		map[string]any{"path": "phases[0].iodepth", "values": []any{1, 2, 4}},
	}
	base, axes, err := Split(list)
	require.NoError(t, err)
	assert.Equal(t, []Axis{
		{"stack.raid.stripe_unit", []any{"64KiB", "128KiB"}},
		{"phases[0].iodepth", []any{1, 2, 4}},
	}, axes, "list form keeps the listed order")
	assert.NotContains(t, base, "sweep")
	assert.Contains(t, list, "sweep", "Split leaves its argument alone")

	m := baseTree()
	m["sweep"] = map[string]any{
		"stack.raid.stripe_unit": []any{"64KiB", "128KiB"},
		"phases[0].iodepth":      []any{1, 2, 4},
	}
	_, axes, err = Split(m)
	require.NoError(t, err)
	assert.Equal(t, "phases[0].iodepth", axes[0].Path, "map form is ordered by path")
}

func TestPointsCartesianFirstAxisSlowest(t *testing.T) {
	axes := []Axis{
		{"stack.raid.stripe_unit", []any{"64KiB", "128KiB"}},
		{"stack.cache.size", []any{nil, "64MiB", 0}},
		{"phases[1].iodepth", []any{8}},
	}
	ps, err := Points(baseTree(), axes)
	require.NoError(t, err)
	require.Len(t, ps, 6)
	var got []string
	for i, p := range ps {
		assert.Equal(t, i, p.Index)
		got = append(got, p.String())
		stack := p.Tree["stack"].(map[string]any)
		assert.Equal(t, p.Values[0], stack["raid"].(map[string]any)["stripe_unit"])
		if p.Values[1] == nil {
			assert.NotContains(t, stack, "cache", "null removes and creates nothing")
		} else {
			assert.Equal(t, p.Values[1], stack["cache"].(map[string]any)["size"], "missing maps are created")
		}
		assert.Equal(t, 8, p.Tree["phases"].([]any)[1].(map[string]any)["iodepth"])
	}
	assert.Equal(t, []string{
		"stack.raid.stripe_unit=64KiB, stack.cache.size=none, phases[1].iodepth=8",
		"stack.raid.stripe_unit=64KiB, stack.cache.size=64MiB, phases[1].iodepth=8",
		"stack.raid.stripe_unit=64KiB, stack.cache.size=0, phases[1].iodepth=8",
		"stack.raid.stripe_unit=128KiB, stack.cache.size=none, phases[1].iodepth=8",
		"stack.raid.stripe_unit=128KiB, stack.cache.size=64MiB, phases[1].iodepth=8",
		"stack.raid.stripe_unit=128KiB, stack.cache.size=0, phases[1].iodepth=8",
	}, got)

	// Points are independent deep copies.
	ps[0].Tree["phases"].([]any)[0].(map[string]any)["rw"] = "changed"
	assert.Equal(t, "randread", ps[1].Tree["phases"].([]any)[0].(map[string]any)["rw"])
}

func TestMapAndListValuesAreCopied(t *testing.T) {
	cache := map[string]any{"size": "64MiB"}
	ps, err := Points(baseTree(), []Axis{{"stack.cache", []any{nil, cache}}})
	require.NoError(t, err)
	got := ps[1].Tree["stack"].(map[string]any)["cache"].(map[string]any)
	got["size"] = "1GiB"
	assert.Equal(t, "64MiB", cache["size"])
	assert.Equal(t, "{size: 64MiB}", FormatValue(cache))
}

// TestBadSweeps: every malformed sweep is an error naming the path or
// section, and none panics.
func TestBadSweeps(t *testing.T) {
	for _, tc := range []struct {
		name  string
		sweep any
		want  string
	}{
		{"no section", nil, `no "sweep" section`},
		{"scalar section", "stack.raid.level", `"sweep" section must be`},
		{"empty map", map[string]any{}, "is empty"},
		{"empty list", []any{}, "is empty"},
		{"through a scalar", map[string]any{"stack.drive.rpm": []any{7200}}, `stack.drive.rpm: stack.drive is the string "deskstar-7k500"`},
		{"through a number", map[string]any{"stack.raid.level.x": []any{1}}, "stack.raid.level.x: stack.raid.level is the value 5"},
		{"empty values", map[string]any{"stack.raid.level": []any{}}, "stack.raid.level: empty list of values"},
		{"values not a list", map[string]any{"stack.raid.level": 5}, "stack.raid.level: values must be a list, got the value 5"},
		{"values a string", map[string]any{"stack.raid.level": "0,5"}, `stack.raid.level: values must be a list, got the string "0,5"`},
		{"values null", map[string]any{"stack.raid.level": nil}, "stack.raid.level: values must be a list, got null"},
		{"index past end", map[string]any{"phases[2].iodepth": []any{1}}, "phases[2].iodepth: phases has 2 elements, no [2]"},
		{"index a map", map[string]any{"stack[0]": []any{1}}, "stack[0]: stack is a map, not a list"},
		{"key a list", map[string]any{"phases.iodepth": []any{1}}, "phases.iodepth: phases is a list, not a map"},
		{"index a missing list", map[string]any{"extra[0]": []any{1}}, "extra[0]: extra does not exist"},
		{"null list element", map[string]any{"phases[1]": []any{nil}}, "phases[1]: null cannot remove a list element"},
		{"bad path", map[string]any{"stack..raid": []any{1}}, "stack..raid: empty key"},
		{"the sweep section", map[string]any{"sweep.x": []any{1, 2}}, `sweep.x: names the "sweep" section itself, not a field of the configuration`},
		{"list item not a map", []any{"stack.raid.level"}, "sweep[0]: want a map"},
		{"list item no path", []any{map[string]any{"values": []any{1}}}, "sweep[0].path: want a field path string"},
		{"list item unknown key", []any{map[string]any{"path": "a", "value": []any{1}}}, `sweep[0]: unknown key "value"`},
		{"list item values", []any{map[string]any{"path": "stack.raid.level", "values": 0}}, "stack.raid.level: values must be a list"},
		{"duplicate path", []any{
			map[string]any{"path": "stack.raid.level", "values": []any{0}},
			map[string]any{"path": "stack.raid.level", "values": []any{5}},
		}, "stack.raid.level: swept twice"},
		{"second value bad", []any{
			map[string]any{"path": "stack.cache", "values": []any{nil, "64MiB"}},
			map[string]any{"path": "stack.cache.size", "values": []any{1}},
		}, `stack.cache.size: stack.cache is the string "64MiB"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tree := baseTree()
			if tc.sweep != nil {
				tree["sweep"] = tc.sweep
			}
			var err error
			require.NotPanics(t, func() {
				var base map[string]any
				var axes []Axis
				base, axes, err = Split(tree)
				if err == nil {
					_, err = Points(base, axes)
				}
			})
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
			assert.True(t, strings.HasPrefix(err.Error(), "sweep: "), err.Error())
		})
	}
}

func TestParseShard(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Shard
		err  string
	}{
		{"", Shard{}, ""},
		{"1/1", Shard{1, 1}, ""},
		{"2/8", Shard{2, 8}, ""},
		{"8/8", Shard{8, 8}, ""},
		{"0/4", Shard{}, "I counts from 1 to N=4"},
		{"5/4", Shard{}, "I counts from 1 to N=4"},
		{"-1/4", Shard{}, "I counts from 1"},
		{"1/0", Shard{}, "N must be at least 1"},
		{"x/y", Shard{}, "want two whole numbers"},
		{"1/", Shard{}, "want two whole numbers"},
		{"3", Shard{}, "want I/N"},
		{"1/2/3", Shard{}, "want two whole numbers"},
		{"1.5/4", Shard{}, "want two whole numbers"},
	} {
		got, err := ParseShard(tc.in)
		if tc.err != "" {
			require.Error(t, err, tc.in)
			assert.Contains(t, err.Error(), tc.err, tc.in)
			assert.Contains(t, err.Error(), fmt.Sprintf("%q", tc.in), "the error quotes the flag value")
			continue
		}
		require.NoError(t, err, tc.in)
		assert.Equal(t, tc.want, got)
		assert.Equal(t, tc.in, got.String())
	}
}

// TestShardsPartitionTheGrid: for every grid size and shard count, the
// shards' ranges tile [0, total) in order with sizes differing by at most 1.
func TestShardsPartitionTheGrid(t *testing.T) {
	for total := 0; total <= 40; total++ {
		for n := 1; n <= 12; n++ {
			next := 0
			small, big := total, 0
			for i := 1; i <= n; i++ {
				lo, hi := Shard{i, n}.Range(total)
				require.Equal(t, next, lo, "total %d shard %d/%d", total, i, n)
				require.LessOrEqual(t, lo, hi)
				small, big = min(small, hi-lo), max(big, hi-lo)
				next = hi
			}
			require.Equal(t, total, next, "total %d n %d", total, n)
			require.LessOrEqual(t, big-small, 1)
		}
		lo, hi := Shard{}.Range(total)
		require.Equal(t, [2]int{0, total}, [2]int{lo, hi})
	}
}

// TestRunKeepsPointOrder: with many workers and evaluations of uneven
// length (each point yields the processor a different number of times),
// results come back in point order and progress counts up by one.
func TestRunKeepsPointOrder(t *testing.T) {
	ps, err := Points(map[string]any{}, []Axis{
		{"a", []any{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}},
		{"b", []any{0, 1, 2, 3, 4, 5, 6}},
	})
	require.NoError(t, err)
	for _, workers := range []int{0, 1, 2, 3, 8, 64, 1000} {
		var seen []int
		got, err := Run(ps, workers, func(p Point) (int, error) {
			for range (p.Index * 7919) % 97 {
				runtime.Gosched()
			}
			return p.Tree["a"].(int)*7 + p.Tree["b"].(int), nil
		}, func(done, total int) {
			seen = append(seen, done)
			require.Equal(t, len(ps), total)
		})
		require.NoError(t, err)
		require.Len(t, got, len(ps))
		for i, r := range got {
			require.Equal(t, ps[i].Index, r, "workers=%d", workers)
		}
		require.Len(t, seen, len(ps))
		for i, d := range seen {
			require.Equal(t, i+1, d)
		}
	}
}

func TestRunReportsTheFirstFailingPoint(t *testing.T) {
	ps, err := Points(map[string]any{}, []Axis{{"stack.raid.stripe_unit", []any{"64KiB", "96KiB", "128KiB", "3000", "256KiB", "5000"}}})
	require.NoError(t, err)
	bad := errors.New("not a power of two")
	for _, workers := range []int{1, 2, 6} {
		_, err := Run(ps, workers, func(p Point) (int, error) {
			s := p.Values[0].(string)
			if s == "96KiB" || s == "3000" || s == "5000" {
				for range 50 * (6 - p.Index) {
					runtime.Gosched() // the earlier failure finishes last
				}
				return 0, bad
			}
			return 1, nil
		}, nil)
		var pe *PointError
		require.ErrorAs(t, err, &pe)
		assert.ErrorIs(t, err, bad)
		assert.Equal(t, 1, pe.Point.Index, "workers=%d", workers)
		assert.Nil(t, pe.Point.Tree)
		assert.Equal(t, "sweep: point 1 (stack.raid.stripe_unit=96KiB): not a power of two", err.Error())
	}
}

// TestRunRecoversPanics: a panic in one evaluation becomes that point's
// error, naming the point and the panic value, instead of crashing the
// sweep.
func TestRunRecoversPanics(t *testing.T) {
	ps, err := Points(map[string]any{}, []Axis{{"x", []any{1, 2, 3}}})
	require.NoError(t, err)
	_, err = Run(ps, 2, func(p Point) (int, error) {
		if p.Index == 2 {
			panic(fmt.Sprintf("boom at point %d", p.Index))
		}
		return 0, nil
	}, nil)
	var pe *PointError
	require.ErrorAs(t, err, &pe)
	assert.Equal(t, 2, pe.Point.Index)
	assert.Equal(t, "sweep: point 2 (x=3): panic: boom at point 2", err.Error())
}

func TestRunNoPoints(t *testing.T) {
	got, err := Run(nil, 4, func(Point) (int, error) { return 1, nil }, func(int, int) { t.Error("progress called") })
	require.NoError(t, err)
	assert.Empty(t, got)
}

func TestFormatValue(t *testing.T) {
	for v, want := range map[any]string{
		nil: "none", "64KiB": "64KiB", 3: "3", int64(-4): "-4", uint64(5): "5",
		0.25: "0.25", 1e6: "1000000", 1e20: "1e+20", true: "true",
	} {
		assert.Equal(t, want, FormatValue(v), "%#v", v)
	}
	assert.Equal(t, `[1, a, "b c", {"k:": none}]`, FormatValue([]any{1, "a", "b c", map[string]any{"k:": nil}}))
}

func TestGridPointRange(t *testing.T) {
	g, err := NewGrid(baseTree(), []Axis{{"stack.raid.level", []any{0, 5}}})
	require.NoError(t, err)
	_, err = g.Point(2)
	assert.ErrorContains(t, err, "point 2 out of range")
	_, err = g.Points(1, 3)
	assert.ErrorContains(t, err, "out of range")
	big := make([]any, 1<<14)
	_, err = NewGrid(nil, []Axis{{"a", big}, {"b", big}, {"c", big}})
	assert.ErrorContains(t, err, "c: the grid would have more than")
}

// FuzzPoints: no path and value list makes Split, NewGrid or Points
// panic, and every point they return has the values set.
func FuzzPoints(f *testing.F) {
	for _, p := range []string{"stack.raid.stripe_unit", "phases[1].iodepth", "a[0][1]", "x..y", "[0]", "phases[9]", "stack.drive.x"} {
		f.Add(p, "64KiB", true)
	}
	f.Fuzz(func(t *testing.T, path, value string, null bool) {
		var v any = value
		if null {
			v = nil
		}
		tree := baseTree()
		tree["sweep"] = []any{map[string]any{"path": path, "values": []any{v, "other"}}}
		base, axes, err := Split(tree)
		if err != nil {
			return
		}
		ps, err := Points(base, axes)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "sweep: ") {
				t.Fatalf("error without the package prefix: %v", err)
			}
			return
		}
		if len(ps) != 2 {
			t.Fatalf("%d points", len(ps))
		}
	})
}
