package textout

import (
	"bytes"
	"os"
	"testing"
	"time"
)

func TestFigures(t *testing.T) {
	total, zero := 1.234, 0.0
	tiny := 0.004
	for _, tc := range []struct{ got, want string }{
		{Tokens(950), "950"}, {Tokens(12_345), "12.3k"}, {Tokens(4_560_000), "4.56M"}, {Tokens(2_000_000_000), "2.00B"},
		{USD(&total, total), "$1.23"}, {USD(nil, 0), "?"}, {USD(nil, 0.5), "$0.50+"}, {USD(&tiny, tiny), "<$0.01"}, {USD(&zero, 0), "$0.00"},
		// A negative amount has its minus sign (U+2212) before the dollar, as the pane's Net row writes it.
		{Cents(-0.01), "−$0.01"}, {Cents(-1.5), "−$1.50"}, {Cents(-0.001), "−<$0.01"}, {Cents(0), "$0.00"},
		{Duration(42 * time.Second), "42s"}, {Duration(17 * time.Minute), "17m"}, {Duration(125 * time.Minute), "2h05m"},
		{Plural(1, "turn"), "1 turn"}, {Plural(0, "turn"), "0 turns"}, {Plural(3, "file"), "3 files"},
		{OrDash(""), "-"}, {OrDash("x"), "x"}, {Deref(nil), ""},
		{string(TrimRight([]byte("a  \nb\t \n\nc  "))), "a\nb\t\n\nc"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}

func TestWriteJSON(t *testing.T) {
	var b bytes.Buffer
	if err := WriteJSON(&b, map[string]any{"a": []int{1}, "h": "<&>"}); err != nil || b.String() != "{\n  \"a\": [\n    1\n  ],\n  \"h\": \"<&>\"\n}\n" {
		t.Errorf("%q %v", b.String(), err)
	}
}

// TestIsTerminal: a buffer, a file and /dev/null are no terminal (a table is for a person's screen).
func TestIsTerminal(t *testing.T) {
	null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()
	f, err := os.CreateTemp(t.TempDir(), "out")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if IsTerminal(&bytes.Buffer{}) || IsTerminal(null) || IsTerminal(f) {
		t.Error("a buffer, /dev/null or a file taken for a terminal")
	}
}
