package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/saverd/saverd/internal/claudeapi"
)

// TestRealInstructionOncePerContext drives the real Claude Code through a habit, `/saver check`, `/saver
// fix 1` and four more prompts, each a `claude -p --resume` run of its own: every main-loop request after
// the fix holds the standing instruction exactly once (the context keeps what a hook added; re-sent with
// every prompt, the sixth request held five copies).
func TestRealInstructionOncePerContext(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the real Claude Code")
	}
	p := &phased{subagent: claudeapi.Steps(claudeapi.Text("Explored."))}
	srv, c, _ := realProject(t, p.script)
	tools := []string{"--allowedTools", "Bash Read Edit Agent"}
	bash := func(cmd string) claudeapi.Reply {
		return claudeapi.ToolUse("Bash", map[string]string{"command": cmd, "description": "run tests"})
	}
	edit := func(from, to string) claudeapi.Reply {
		return claudeapi.ToolUse("Edit", map[string]any{"file_path": filepath.Join(c.Dir, "math.js"), "old_string": from, "new_string": to})
	}
	p.set(claudeapi.Steps(bash("npm test"), edit("a+b", "a + b"), bash("npm test"), edit("a + b", "(a) + b"), bash("npm test"), claudeapi.Text("One.")))
	id := c.Print(t, "fix the math", tools...).SessionID
	p.set(claudeapi.Steps(edit("(a) + b", "a + (b)"), bash("npm test"), claudeapi.Text("Two.")))
	c.Print(t, "tidy it", append([]string{"--resume", id}, tools...)...)
	p.set(claudeapi.Steps())
	if r := c.Print(t, "/saver check", "--resume", id); !strings.Contains(r.Result, "1 new waster") {
		t.Fatalf("/saver check showed %q", r.Result)
	}
	if r := c.Print(t, "/saver fix 1", "--resume", id); !strings.Contains(r.Result, "· fixed") {
		t.Fatalf("/saver fix 1 showed %q", r.Result)
	}
	const instruction = "run only the tests covering the files you changed"
	fixedAt := len(srv.Requests())
	for i, prompt := range []string{"three", "four", "five", "six"} {
		p.set(claudeapi.Steps(claudeapi.ToolUse("Read", map[string]string{"file_path": filepath.Join(c.Dir, "a.txt")}), claudeapi.Text("Done "+prompt+".")))
		if r := c.Print(t, prompt, append([]string{"--resume", id}, tools...)...); r.IsError {
			t.Fatalf("turn %d: %+v", i+3, r)
		}
	}
	main := 0
	for _, req := range srv.Requests()[fixedAt:] {
		if claudeapi.IsSubagent(req) || strings.Contains(req.LastUserText(), "You are auditing THIS session") {
			continue
		}
		main++
		if n := strings.Count(req.Text(), instruction); n != 1 {
			t.Errorf("request %d holds the instruction %d times, want once:\n%.3000s", req.Seq, n, req.Text())
		}
	}
	if main != 8 {
		t.Errorf("%d main-loop requests after the fix, want 8", main)
	}
}
