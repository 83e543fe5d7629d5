package agentlogtest

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// Lines are the lines of every file the globs match (a fixture's logs), failing t when fewer than min
// files match: a test of a reader's every line must not pass on no lines.
func Lines(t testing.TB, min int, globs ...string) [][]byte {
	t.Helper()
	var paths []string
	for _, g := range globs {
		m, _ := filepath.Glob(g)
		paths = append(paths, m...)
	}
	if len(paths) < min {
		t.Fatalf("%d files match %q, want at least %d", len(paths), globs, min)
	}
	var lines [][]byte
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		lines = append(lines, bytes.Split(bytes.TrimSpace(data), []byte("\n"))...)
	}
	return lines
}

// Spliced is log with line (ending in a newline) put between two of its lines, near its middle, so that
// a reader meets it amid real lines, after its first ones.
func Spliced(log []byte, line string) []byte {
	cut := bytes.IndexByte(log[len(log)/2:], '\n') + len(log)/2 + 1
	return append(append(append([]byte(nil), log[:cut]...), line...), log[cut:]...)
}
