//go:build linux

package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestClaudeCodeTUIDetectorCard drives the real Claude Code's interactive UI through a turn that builds
// four times with nothing edited: when it ends, the person reads the detectors' card under the answer
// (the Stop hook's message) and on the status line band, no judge is asked and nothing reaches the
// model, and `/saver fix 1` fixes it from the prompt box at zero requests.
func TestClaudeCodeTUIDetectorCard(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the real Claude Code")
	}
	t.Parallel()
	e := newClaudeTUI(t)
	pkg := `{"name":"calc","version":"1.0.0","scripts":{"build":"node -e \"console.log('built module\\n'.repeat(300))\""}}`
	if err := os.WriteFile(filepath.Join(e.c.Dir, "package.json"), []byte(pkg), 0o644); err != nil {
		t.Fatal(err)
	}
	e.saverd("install", "claude-code")
	e.start()
	build := e.bash("npm run build")
	e.turn("build it", "Built.", build, build, build, build)
	screen := e.tm.WaitText(30*time.Second, "found without a model")
	if !strings.Contains(strings.Join(strings.Fields(screen), " "), "Claude keeps re-running `npm run build` with nothing edited since the last run") {
		t.Errorf("the card under the answer:\n%s", screen)
	}
	e.tm.WaitFor("the card on the band", 15*time.Second, func(s string) bool { return strings.Contains(statusLine(s), "1 waster waiting") })
	for _, r := range e.srv.Requests() {
		if judgeRequest(r) || bytes.Contains(r.Body, []byte("found without a model")) {
			t.Fatalf("a request was the judge's or carried the card: %.300q", r.LastUserText())
		}
	}
	e.saver(saverLine{line: "/saver fix 1", shows: "· fixed"})
	e.tm.WaitFor("the band without the card", 15*time.Second, func(s string) bool { return !strings.Contains(statusLine(s), "waiting") })
}

// TestCodexTUIDetectorCard is TestClaudeCodeTUIDetectorCard in the real Codex CLI's interactive UI: the
// card is the Stop hook's message, which Codex shows as a hook's warning, naming `$saver fix 1` (Codex
// refuses `/saver`), and `$saver fix 1` fixes it at zero requests.
func TestCodexTUIDetectorCard(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the real Codex CLI")
	}
	e := offlineCodexTUI(t)
	if e == nil {
		return
	}
	pkg := `{"name":"calc","version":"1.0.0","scripts":{"build":"node -e \"console.log('built module\\n'.repeat(300))\""}}`
	if err := os.WriteFile(filepath.Join(e.proj, "package.json"), []byte(pkg), 0o644); err != nil {
		t.Fatal(err)
	}
	e.saverd("install", "codex")
	e.start()
	build := codexExec("npm run build")
	e.turn("build it", "Built.", build, build, build, build)
	screen := e.tm.WaitText(30*time.Second, "found without a model")
	if flat := strings.Join(strings.Fields(screen), " "); !strings.Contains(flat, "re-running `npm run build`") || !strings.Contains(flat, "$saver fix 1 fixes it") {
		t.Errorf("the card under the answer:\n%s", screen)
	}
	for _, r := range e.srv.Requests() {
		if strings.Contains(string(r.Body), "You are auditing THIS session") || strings.Contains(string(r.Body), "found without a model") {
			t.Fatalf("a request was the judge's or carried the card: %.300s", r.Body)
		}
	}
	e.saver("$saver fix 1", "· fixed")
}
