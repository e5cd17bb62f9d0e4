package keypath

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		path string
		want string // the path written back, or the error's tail
	}{
		{"a", "a"},
		{"stack.raid.stripe_unit", "stack.raid.stripe_unit"},
		{"phases[0].iodepth", "phases[0].iodepth"},
		{"m[1][2].x", "m[1][2].x"},
		{"phases[12].background[0].rw", "phases[12].background[0].rw"},
		{"", "empty field path"},
		{"a..b", "empty key"},
		{".a", "empty key"},
		{"a.", "ends with a dot"},
		{"a[x]", "bad list index"},
		{"a[]", "bad list index"},
		{"a[-1]", "bad list index"},
		{"a[+1]", "bad list index"},
		{"a[1", "unclosed ["},
		{"a]", "unexpected ]"},
		{"phases[0]]", "want . or [ after ]"},
		{"a[0]b", "want . or [ after ]"},
		{"[0].a", "starts with a key"},
	} {
		p, err := Parse(tc.path)
		if err != nil {
			assert.Contains(t, err.Error(), tc.want, tc.path)
			continue
		}
		assert.Equal(t, tc.want, p.String(), tc.path)
	}
}

func TestPatternAndLookup(t *testing.T) {
	got, err := Pattern("phases[3].background[1].bs")
	require.NoError(t, err)
	assert.Equal(t, "phases[].background[].bs", got)
	tree := map[string]any{"phases": []any{map[string]any{"bs": "4KiB"}}}
	p, _ := Parse("phases[0].bs")
	v, ok := Lookup(tree, p)
	assert.True(t, ok)
	assert.Equal(t, "4KiB", v)
	for _, miss := range []string{"phases[1].bs", "phases[0].rw", "phases.bs", "phases[0].bs.x"} {
		p, _ := Parse(miss)
		_, ok := Lookup(tree, p)
		assert.False(t, ok, miss)
	}
	assert.True(t, Under("phases[0].bs", "phases"))
	assert.False(t, Under("stack.raidx", "stack.raid"))
	assert.Equal(t, "a.b", Join("a", "b"))
	assert.Equal(t, "b", Join("", "b"))
}

// FuzzParse: a path that parses writes back to itself.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"a", "a.b[0].c", "m[1][2]", "a..b", "[0]", "a[01]"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := Parse(s)
		if err != nil {
			return
		}
		q, err := Parse(p.String())
		if err != nil || q.String() != p.String() {
			t.Fatalf("%q: written back as %q, which reads as %v (%v)", s, p.String(), q, err)
		}
	})
}
