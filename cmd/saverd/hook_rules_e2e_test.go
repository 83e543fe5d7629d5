package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestHookSaverWriteAndUndo: typed in Claude Code's prompt box, `/saver write 1` writes the pane's rule 1
// and `/saver undo` takes it back byte for byte, through the real binary's hook path and the socket
// daemon it starts; each is answered with a block (no model request) naming what happened.
func TestHookSaverWriteAndUndo(t *testing.T) {
	e := newHookEnv(t)
	alt := "run only the tests covering the files you changed"
	e.judgeAnswers(map[string]any{"id": "execution:full-suite", "category": "execution", "kind": "Claude keeps running the whole suite after every edit",
		"evidence": []string{"r4", "r7"}, "signature": map[string]any{"tool": "Bash", "key": "test:bun test"},
		"why": "the suite ran after each one-file edit", "alternative": alt,
		"confidence": 0.9, "est_tokens_per_turn": nil, "proposal": nil})
	claudeMD := filepath.Join(e.cwd, "CLAUDE.md")
	mine := "# Repo\r\n\r\nOur own notes, CRLF and no final newline"
	if err := os.WriteFile(claudeMD, []byte(mine), 0o640); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(claudeMD, 0o640); err != nil {
		t.Fatal(err)
	}
	e.hook("SessionStart", map[string]any{"source": "startup"})
	e.hook("UserPromptSubmit", map[string]any{"prompt": "fix the math"})
	e.suiteRuns()
	saver := func(prompt string) string {
		t.Helper()
		a := e.answer(e.hook("UserPromptSubmit", map[string]any{"prompt": prompt}))
		reason, _ := a["reason"].(string)
		if a["decision"] != "block" || reason == "" {
			t.Fatalf("%s answered %v: want a block with a reason, so no model request is made", prompt, a)
		}
		return reason
	}
	if r := saver("/saver write 1"); r != "ContextSaver: no rule to write" {
		t.Fatalf("/saver write 1 before any decision = %q", r)
	}
	saver("/saver check")
	saver("/saver fix 1")
	pane := saver("/saver")
	for _, want := range []string{"RULES TO WRITE (1)", "1. ", "under ## ContextSaver:", "│ - " + alt, "/saver write 1 writes it", "/saver undo"} {
		if !strings.Contains(pane, want) {
			t.Fatalf("the pane lacks %q:\n%s", want, pane)
		}
	}

	if r := saver("/saver write 1"); r != "Wrote "+claudeMD+" · /saver undo takes it back" {
		t.Fatalf("/saver write 1 = %q", r)
	}
	written, _ := os.ReadFile(claudeMD)
	if want := mine + "\n\n## ContextSaver\n- " + alt + "\n"; string(written) != want {
		t.Fatalf("CLAUDE.md =\n%q\nwant\n%q", written, want)
	}
	journals, _ := filepath.Glob(filepath.Join(e.dir, "state", "saverd", "writes", "*.json"))
	if len(journals) != 1 {
		t.Fatalf("journal files %v, want one in the state dir", journals)
	}
	if r := saver("/saver write 1"); r != "ContextSaver: no rule to write" {
		t.Fatalf("a second /saver write 1 = %q", r)
	}

	if r := saver("/saver undo"); r != "ContextSaver: took back the rule written to "+claudeMD+" — the file is as it was before (this session does not offer it again)" {
		t.Fatalf("/saver undo = %q", r)
	}
	back, _ := os.ReadFile(claudeMD)
	info, err := os.Stat(claudeMD)
	if string(back) != mine || err != nil || info.Mode().Perm() != 0o640 {
		t.Fatalf("CLAUDE.md after undo = %q (%v, %v), want the bytes and mode it had", back, info.Mode(), err)
	}
	if r := saver("/saver undo"); r != "ContextSaver: nothing to undo" {
		t.Fatalf("a second /saver undo = %q", r)
	}
}
