//go:build linux

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/saverd/saverd/internal/ptyterm"
)

// hookBinOnce builds saverd-hook once beside binPath for the tests that drive an interactive UI.
var hookBinOnce struct {
	sync.Once
	path string
	err  error
}

// tuiBins is a directory of the test's own holding saverd and saverd-hook, as `go install ./cmd/...`
// leaves them: install writes saverd-hook into the hooks, and a test may take either away to see what
// the person sees then.
func tuiBins(t *testing.T) string {
	t.Helper()
	hookBinOnce.Do(func() {
		hookBinOnce.path = filepath.Join(filepath.Dir(binPath), "saverd-hook")
		build := exec.Command("go", "build", "-o", hookBinOnce.path, "../saverd-hook")
		build.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := build.CombinedOutput(); err != nil {
			hookBinOnce.err = err
			t.Logf("build saverd-hook: %s", out)
		}
	})
	if hookBinOnce.err != nil {
		t.Fatalf("build saverd-hook: %v", hookBinOnce.err)
	}
	dir := t.TempDir()
	for _, b := range []string{binPath, hookBinOnce.path} {
		copyExec(t, b, filepath.Join(dir, filepath.Base(b)))
	}
	return dir
}

func copyExec(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o755); err != nil {
		t.Fatal(err)
	}
}

// typeLine types a line as a person does, one key at a time, and presses Enter.
func typeLine(tm *ptyterm.Term, line string) {
	tm.Type(line)
	time.Sleep(300 * time.Millisecond) // the UI redraws the box (and the autocomplete) before Enter
	tm.Press(ptyterm.Enter)
}

// inputBox is the text in the prompt box: the line after the box's "❯", "" when it is empty.
func inputBox(screen string) string {
	lines := strings.Split(screen, "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		if rest, ok := strings.CutPrefix(lines[i], "❯"); ok {
			return strings.TrimSpace(rest)
		}
	}
	return "(no input box)"
}

// statusLine is the screen's last line that carries saverd's band ("ContextSaver · …"), "" when none.
func statusLine(screen string) string {
	lines := strings.Split(screen, "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		if strings.Contains(lines[i], "ContextSaver ·") {
			return strings.TrimSpace(lines[i])
		}
	}
	return ""
}

// pathWithoutSaverd is $PATH without the directories holding a saverd or saverd-hook of the machine's
// (a developer's go install): a test that takes its own binaries away must not find those.
func pathWithoutSaverd() string {
	var keep []string
	for _, dir := range filepath.SplitList(os.Getenv("PATH")) {
		if dir == "" || isExecutable(filepath.Join(dir, "saverd")) || isExecutable(filepath.Join(dir, "saverd-hook")) {
			continue
		}
		keep = append(keep, dir)
	}
	return strings.Join(keep, string(os.PathListSeparator))
}
