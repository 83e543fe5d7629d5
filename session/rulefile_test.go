//go:build unix

package session

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/saverd/saverd/state"
)

// TestFIFORuleFileWedgesNothing: a CLAUDE.md that is a FIFO (no writer) is never opened for good: the pane
// still draws, `/saver` answers, a write to it is refused saying why, and the session's later calls answer.
func TestFIFORuleFileWedgesNothing(t *testing.T) {
	h := newHarness(t, nil)
	h.cards(threeFindings())
	path := filepath.Join(h.cwd, "CLAUDE.md")
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Fatal(err)
	}
	call := func(method string, params map[string]any) <-chan error {
		done := make(chan error, 1)
		go func() { _, err := h.callErr(method, params); done <- err }()
		return done
	}
	answered(t, "/saver fix 1", call("command.run", map[string]any{"sessionId": "s", "at": 50_000, "command": "saver", "args": "fix 1"}))
	answered(t, "view.pane", call("view.pane", map[string]any{"sessionId": "s"}))
	done := make(chan struct{})
	var text string
	var err error
	go func() {
		defer close(done)
		text, err = h.act("write", map[string]any{"patternId": "execution:full-suite", "kind": state.ArtifactClaudeMD})
	}()
	select {
	case <-done:
	case <-time.After(hangGuard):
		t.Fatal("the write to a FIFO CLAUDE.md never answered")
	}
	if err != nil || !strings.Contains(text, path) || !strings.Contains(text, "not a regular file") {
		t.Fatalf("write = %q, %v: want a refusal naming %s and why", text, err, path)
	}
	answered(t, "a later tool call", call("tool.call", map[string]any{"sessionId": "s", "at": 70_000, "event": map[string]any{"tool": "Bash", "tool_use_id": "t-late", "command": "ls"}, "result": map[string]any{"text": "a"}}))
}
