package agentlogtest

import (
	"os"
	"path/filepath"
	"testing"
)

// TestSpliced: the line stands whole between two lines of the log, none of which is lost or cut.
func TestSpliced(t *testing.T) {
	for log, want := range map[string]string{
		"a\nb\nc\nd\n":            "a\nb\nc\nX\nd\n",
		"first\nsecond\n":         "first\nsecond\nX\n",
		"one\ntwo\nthree\n":       "one\ntwo\nX\nthree\n",
		"{}\n{\"k\":1}\n{}\n{}\n": "{}\n{\"k\":1}\nX\n{}\n{}\n",
	} {
		if got := string(Spliced([]byte(log), "X\n")); got != want {
			t.Errorf("%q: %q, want %q", log, got, want)
		}
	}
}

// TestLines: every line of every file matched, in order; too few files fail the test.
func TestLines(t *testing.T) {
	dir := t.TempDir()
	for name, text := range map[string]string{"a.jsonl": "1\n2\n", "b.jsonl": "3\n\n"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	var got []string
	for _, l := range Lines(t, 2, filepath.Join(dir, "*.jsonl")) {
		got = append(got, string(l))
	}
	if len(got) != 3 || got[0] != "1" || got[1] != "2" || got[2] != "3" {
		t.Errorf("lines %q, want 1 2 3", got)
	}
}
