package jstext

import "testing"

func TestLess16(t *testing.T) {
	// U+FF5E sorts after U+1F600 by code point but before it by UTF-16 unit, as JavaScript compares.
	for _, c := range []struct {
		a, b string
		want bool
	}{
		{"😀", "～", true},
		{"～", "😀", false},
		{"a", "b", true},
		{"ab", "abc", true},
		{"abc", "ab", false},
		{"b", "b", false},
		{"", "a", true},
		{"😀", "😁", true}, // the same high surrogate: the low ones decide
	} {
		if got := Less16(c.a, c.b); got != c.want {
			t.Errorf("Less16(%q, %q) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
}

// TestMarshal: JSON as JSON.stringify writes it — `<`, `>` and `&` as they are, no newline after.
func TestMarshal(t *testing.T) {
	for _, c := range []struct {
		v    any
		want string
	}{
		{"ignore <n> && go", `"ignore <n> && go"`},
		{map[string]any{"b": 1, "a": []int{1}}, `{"a":[1],"b":1}`},
		{nil, `null`},
	} {
		got, err := Marshal(c.v)
		if err != nil || string(got) != c.want {
			t.Errorf("Marshal(%v) = %s, %v; want %s", c.v, got, err, c.want)
		}
	}
	if _, err := Marshal(func() {}); err == nil {
		t.Error("Marshal of a func: no error")
	}
}
