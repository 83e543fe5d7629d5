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
// card is the Stop hook's message, which Codex shows as a hook's warning, naming Codex as the agent and
// `$saver fix 1` (Codex refuses `/saver`), and `$saver fix 1` fixes it at zero requests.
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
	// The card names Codex, the person's agent, where the detector's kind says Claude.
	if flat := strings.Join(strings.Fields(screen), " "); !strings.Contains(flat, "Codex keeps re-running `npm run build`") ||
		strings.Contains(flat, "Claude keeps") || !strings.Contains(flat, "$saver fix 1 fixes it") {
		t.Errorf("the card under the answer:\n%s", screen)
	}
	for _, r := range e.srv.Requests() {
		if strings.Contains(string(r.Body), "You are auditing THIS session") || strings.Contains(string(r.Body), "found without a model") {
			t.Fatalf("a request was the judge's or carried the card: %.300s", r.Body)
		}
	}
	e.saver("$saver fix 1", "· fixed")
}

// TestClaudeCodePluginTUISpelling: with only saverd's plugin installed, Claude Code knows `/saver:saver`
// and refuses `/saver` (`Unknown command: /saver`), so the card under the answer, before the person typed
// any saverd command, names the plugin's spelling, and so does the pane they open with it.
func TestClaudeCodePluginTUISpelling(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the real Claude Code")
	}
	t.Parallel()
	e := newClaudeTUI(t)
	e.c.Env = append(e.c.Env, "PATH="+e.bins+string(os.PathListSeparator)+pathWithoutSaverd())
	pkg := `{"name":"calc","version":"1.0.0","scripts":{"build":"node -e \"console.log('built module\\n'.repeat(300))\""}}`
	if err := os.WriteFile(filepath.Join(e.c.Dir, "package.json"), []byte(pkg), 0o644); err != nil {
		t.Fatal(err)
	}
	repo, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if out := e.claude("plugin", "marketplace", "add", repo); !strings.Contains(out, "Successfully added marketplace: saverd") {
		t.Fatalf("marketplace add:\n%s", out)
	}
	if out := e.claude("plugin", "install", "saver@saverd"); !strings.Contains(out, "Successfully installed plugin: saver@saverd") {
		t.Fatalf("plugin install:\n%s", out)
	}
	e.start()
	build := e.bash("npm run build")
	e.turn("build it", "Built.", build, build, build, build)
	screen := e.tm.WaitText(30*time.Second, "found without a model")
	flat := strings.Join(strings.Fields(screen), " ")
	if !strings.Contains(flat, "/saver:saver fix 1 fixes it, /saver:saver ignore 1 if it is fine") || strings.Contains(flat, " /saver fix") {
		t.Errorf("the card under the answer names a command the person cannot type:\n%s", screen)
	}
	e.saver(saverLine{line: "/saver:saver", shows: "/saver:saver fix <n> [note] · /saver:saver ignore <n>"})
	e.saver(saverLine{line: "/saver:saver fix 1", shows: "· fixed"})
}
