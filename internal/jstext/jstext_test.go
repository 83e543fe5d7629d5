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

// TestFitWords: a behaviour quoted back in a reply is cut at a word's end, never inside one, unless its
// first word alone is most of the room.
func TestFitWords(t *testing.T) {
	cases := []struct {
		text string
		n    int
		want string
	}{
		{"Claude keeps running the whole npm test suite after every edit", 60, "Claude keeps running the whole npm test suite after every…"},
		{"Claude keeps running the whole npm test suite after every e", 60, "Claude keeps running the whole npm test suite after every e"},
		{"Claude keeps running the whole npm test suite after every edit", 59, "Claude keeps running the whole npm test suite after every…"},
		{"Claude keeps re-reading", 13, "Claude keeps…"},
		{"Claude keeps re-reading", 14, "Claude keeps…"},
		{"Claudekeepsrereading files", 10, "Claudekee…"},
		{"ab", 2, "ab"},
		{"日本語の テキスト です", 7, "日本語の…"},
	}
	for _, c := range cases {
		if got := FitWords(c.text, c.n); got != c.want {
			t.Errorf("FitWords(%q, %d) = %q, want %q", c.text, c.n, got, c.want)
		}
	}
}
