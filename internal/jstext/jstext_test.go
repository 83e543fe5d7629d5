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
