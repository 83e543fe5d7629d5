package textview

import (
	"math"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestWidth(t *testing.T) {
	cases := []struct {
		s    string
		want int
	}{
		{"", 0},
		{"abc", 3},
		{"日本語", 6},
		{"한국어", 6},
		{"ｈｉ", 4},           // fullwidth
		{"😀x", 3},           // emoji presentation
		{"e\u0301", 1},      // combining acute
		{"a\u200db", 2},     // zero-width joiner
		{"…█░▁", 4},         // ambiguous-width symbols the pane draws: one column
		{"\x00\x1b\x7f", 0}, // controls never reach the output, but take no room
		{"é", 1},
	}
	for _, c := range cases {
		if got := width(c.s); got != c.want {
			t.Errorf("width(%q) = %d, want %d", c.s, got, c.want)
		}
	}
}

func TestCut(t *testing.T) {
	cases := []struct {
		s    string
		w    int
		want string
	}{
		{"abcdef", 6, "abcdef"},
		{"abcdef", 5, "abcd…"},
		{"abc def", 5, "abc…"}, // never a space before …
		{"日本語テキスト", 5, "日本…"},
		{"日本語テキスト", 6, "日本…"},
		{"a😀b", 2, "a…"},
		{"abc", 1, "…"},
		{"abc", 0, ""},
		{"abc", -3, ""},
	}
	for _, c := range cases {
		got := cut(c.s, c.w)
		if got != c.want {
			t.Errorf("cut(%q, %d) = %q, want %q", c.s, c.w, got, c.want)
		}
		if width(got) > max(c.w, 0) {
			t.Errorf("cut(%q, %d) = %q is %d wide", c.s, c.w, got, width(got))
		}
	}
}

func TestCutLeft(t *testing.T) {
	cases := []struct {
		s    string
		w    int
		want string
	}{
		{"/home/u/p/CLAUDE.md", 40, "/home/u/p/CLAUDE.md"},
		{"/home/u/p/CLAUDE.md", 10, "…CLAUDE.md"},
		{"/プロジェクト/a.md", 8, "…ト/a.md"},
		{"abc", 0, ""},
	}
	for _, c := range cases {
		if got := cutLeft(c.s, c.w); got != c.want {
			t.Errorf("cutLeft(%q, %d) = %q, want %q", c.s, c.w, got, c.want)
		}
	}
}

func TestClean(t *testing.T) {
	cases := []struct{ in, want string }{
		{"plain", "plain"},
		{"  two\n\tlines  ", "two lines"},
		{"esc\x1b[31mred", "esc [31mred"},
		{"c1\u0085next", "c1 next"},
		{"bad\xffbyte", "bad\uFFFDbyte"},
		{"nbsp\u00a0x", "nbsp x"},
	}
	for _, c := range cases {
		got := clean(c.in)
		if got != c.want || !utf8.ValidString(got) {
			t.Errorf("clean(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestWrap(t *testing.T) {
	cases := []struct {
		text, first, rest string
		w                 int
		want              []string
	}{
		{"one two three four", "- ", "  ", 10, []string{"- one two", "  three", "  four"}},
		{"", "why: ", "     ", 20, []string{"why:"}},
		{"abcdefghijklmnop", "> ", "  ", 8, []string{"> abcdef", "  ghijkl", "  mnop"}},
		{"日本語の文章です", "", "", 6, []string{"日本語", "の文章", "です"}},
		{"fits exactly", "", "", 12, []string{"fits exactly"}},
		{"a\nb\tc", "", "", 40, []string{"a b c"}},
	}
	for _, c := range cases {
		got := wrap(c.text, c.w, c.first, c.rest)
		if strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("wrap(%q, %d) = %q, want %q", c.text, c.w, got, c.want)
		}
		for _, l := range got {
			if width(l) > c.w {
				t.Errorf("wrap(%q, %d): line %q is %d wide", c.text, c.w, l, width(l))
			}
		}
	}
}

func TestNum(t *testing.T) {
	cases := []struct {
		f    float64
		want string
	}{{32, "32"}, {7.25, "7.3"}, {0.04, "0"}, {-0.01, "0"}, {12.5, "12.5"}, {math.Inf(1), "0"}, {math.NaN(), "0"}}
	for _, c := range cases {
		if got := num(c.f); got != c.want {
			t.Errorf("num(%v) = %q, want %q", c.f, got, c.want)
		}
	}
}
