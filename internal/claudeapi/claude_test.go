package claudeapi

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRealClient drives the real Claude Code against a script: a turn with a Bash tool use, a resumed
// turn, and a judge-style fork with its prompt on stdin and hooks off. It checks what the package doc
// says about the client.
func TestRealClient(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the real Claude Code (a few seconds)")
	}
	turn1 := Usage{Input: 1200, Output: 30, CacheRead: 20000, CacheCreation: 3000}
	turn2 := Usage{Input: 40, Output: 12, CacheRead: 23000, CacheCreation: 200}
	srv, c := Offline(t, Route(
		Case{Match: isFork, Script: Steps(Text("fork: nothing to report").WithUsage(Usage{Input: 7, Output: 5, CacheRead: 24000}))},
		Case{Match: func(Request) bool { return true }, Script: Steps(
			ToolUse("Bash", map[string]string{"command": "echo hi", "description": "Say hi"}).WithUsage(turn1),
			Text("It printed hi.").WithUsage(turn2),
			Text("Next done."),
		)},
	))
	// A project hook that notes every prompt, to see which runs fire hooks.
	hookLog := filepath.Join(c.Home, "hook.log")
	writeSettings(t, c.Dir, hookLog)

	// Turn 1: a tool use, then a text answer.
	first := c.Print(t, "say hi", "--allowedTools", "Bash Read")
	if first.Result != "It printed hi." || first.IsError || first.NumTurns != 2 {
		t.Fatalf("first run: result %q, is_error %v, num_turns %d", first.Result, first.IsError, first.NumTurns)
	}
	if want := sum(turn1, turn2); first.Usage != want {
		t.Errorf("first run usage = %+v, want the two replies' sum %+v", first.Usage, want)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("first run made %d requests, want 2", len(reqs))
	}
	if id := reqs[0].Header.Get("X-Claude-Code-Session-Id"); id != first.SessionID || !reqs[0].Stream {
		t.Errorf("first request: session header %q (want %s), stream %v", id, first.SessionID, reqs[0].Stream)
	}
	if got := reqs[0].LastUserText(); !strings.HasSuffix(got, "say hi") {
		t.Errorf("first request's last user text = %q, want the prompt at its end", got)
	}
	toolID := lastToolUseID(t, reqs[1])
	if got := reqs[1].ToolResults()[toolID]; got != "hi" {
		t.Errorf("second request's tool_result for %s = %q, want the real output %q", toolID, got, "hi")
	}
	path, err := Transcript(c.Home, first.SessionID)
	if err != nil {
		t.Fatal(err)
	}
	lines := transcriptLines(t, path)
	if !hasUsage(lines, turn1) || !hasUsage(lines, turn2) {
		t.Errorf("transcript %s does not carry the scripted usage %+v and %+v", path, turn1, turn2)
	}

	// Turn 2: --resume appends to the same transcript, the session id kept.
	second := c.Print(t, "next", "--resume", first.SessionID)
	if second.SessionID != first.SessionID || second.Result != "Next done." {
		t.Errorf("resumed run: session %s result %q, want session %s result %q", second.SessionID, second.Result, first.SessionID, "Next done.")
	}
	if again := transcriptLines(t, path); len(again) <= len(lines) || again[0]["uuid"] != lines[0]["uuid"] {
		t.Errorf("resumed run did not append to %s: %d lines before, %d after", path, len(lines), len(again))
	}
	main := srv.Requests()[2]

	// The judge's fork: the prompt on stdin, one turn, plan mode, hooks off.
	out, _, err := c.Run("judge: list findings", "-p", "--resume", first.SessionID, "--fork-session",
		"--output-format", "json", "--max-turns", "1", "--permission-mode", "plan", "--settings", `{"disableAllHooks":true}`)
	if err != nil {
		t.Fatal(err)
	}
	fork, err := ParseResult(out)
	if err != nil {
		t.Fatal(err)
	}
	if fork.Result != "fork: nothing to report" || fork.SessionID == first.SessionID {
		t.Errorf("fork: session %s result %q, want a new session answering %q", fork.SessionID, fork.Result, "fork: nothing to report")
	}
	reqs = srv.Requests()
	if len(reqs) != 4 {
		t.Fatalf("%d requests after the fork, want 4", len(reqs))
	}
	f := reqs[3]
	if f.Model != main.Model || f.SystemText() != main.SystemText() || strings.Join(f.ToolNames(), " ") != strings.Join(main.ToolNames(), " ") {
		t.Errorf("fork request: model %q, system prompt same %v, tools same %v; want the parent's", f.Model,
			f.SystemText() == main.SystemText(), strings.Join(f.ToolNames(), " ") == strings.Join(main.ToolNames(), " "))
	}
	if !strings.Contains(f.Text(), "It printed hi.") || !strings.Contains(f.Text(), "Next done.") {
		t.Errorf("fork request lacks the parent's messages")
	}
	if mode := planMode(f); mode != "plan" {
		t.Errorf("fork request's permission mode = %q, want plan", mode)
	}
	if _, err := Transcript(c.Home, fork.SessionID); err != nil {
		t.Errorf("fork transcript: %v", err)
	}
	if others := srv.Others(); len(others) != 0 {
		t.Errorf("the client called other endpoints: %+v", others)
	}
	log, err := os.ReadFile(hookLog)
	if err != nil {
		t.Fatalf("the project's hook never ran: %v", err)
	}
	if got := strings.Count(string(log), "UserPromptSubmit"); got != 2 {
		t.Errorf("UserPromptSubmit hook ran %d times, want 2 (the two turns, not the fork with hooks off):\n%s", got, log)
	}
}

// TestRealClientAgent: an Agent tool use starts a subagent whose requests IsSubagent tells apart, with
// the prompt the parent gave it; the main loop hears of its end in one more request.
func TestRealClientAgent(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the real Claude Code (a few seconds)")
	}
	const subPrompt = "Count the files and answer with the number."
	srv, c := Offline(t, Route(
		Case{Match: IsSubagent, Script: Steps(Text("sub: 3 files"))},
		Case{Match: func(r Request) bool { return strings.Contains(r.LastUserText(), "<task-notification>") },
			Script: Steps(Text("The subagent found 3 files."))},
		Case{Match: func(r Request) bool { return len(r.ToolResults()) > 0 }, Script: Steps(Text("Waiting for it."))},
		Case{Match: func(Request) bool { return true }, Script: Steps(
			ToolUse("Agent", map[string]string{"description": "Count files", "prompt": subPrompt, "subagent_type": "general-purpose"}))},
	))
	res := c.Print(t, "spawn a subagent", "--allowedTools", "Bash Read Agent")
	if res.Result != "The subagent found 3 files." {
		t.Errorf("result %q, want the answer to the subagent's notification", res.Result)
	}
	var subs []Request
	for _, r := range srv.Requests() {
		if IsSubagent(r) {
			subs = append(subs, r)
		}
	}
	if len(subs) != 1 || !strings.Contains(subs[0].LastUserText(), subPrompt) {
		t.Fatalf("%d subagent requests (want 1, carrying the prompt %q)", len(subs), subPrompt)
	}
	if subs[0].SystemText() == srv.Requests()[0].SystemText() {
		t.Error("the subagent's system prompt is its parent's")
	}
	path, err := Transcript(c.Home, res.SessionID)
	if err != nil {
		t.Fatal(err)
	}
	agents, err := filepath.Glob(filepath.Join(strings.TrimSuffix(path, ".jsonl"), "subagents", "agent-*.jsonl"))
	if err != nil || len(agents) != 1 {
		t.Errorf("subagent transcripts beside %s: %v %v, want one", path, agents, err)
	}
}

// isFork tells the judge's fork by its prompt.
func isFork(r Request) bool { return strings.HasPrefix(r.LastUserText(), "judge:") }

// writeSettings makes the project's .claude/settings.json with a UserPromptSubmit hook appending its
// event name to logPath.
func writeSettings(t *testing.T, dir, logPath string) {
	t.Helper()
	settings := map[string]any{"hooks": map[string]any{"UserPromptSubmit": []any{map[string]any{
		"hooks": []any{map[string]any{"type": "command", "command": "echo UserPromptSubmit >> " + logPath}},
	}}}}
	b, err := json.Marshal(settings)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, ".claude"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".claude", "settings.json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func sum(a, b Usage) Usage {
	return Usage{Input: a.Input + b.Input, Output: a.Output + b.Output, CacheRead: a.CacheRead + b.CacheRead,
		CacheCreation: a.CacheCreation + b.CacheCreation}
}

// lastToolUseID is the id of the last tool use the assistant made in r's messages.
func lastToolUseID(t *testing.T, r Request) string {
	t.Helper()
	for i := len(r.Messages) - 1; i >= 0; i-- {
		for _, c := range r.Messages[i].Content {
			if c.Type == "tool_use" {
				if !strings.HasPrefix(c.ID, "toolu_") {
					t.Errorf("tool use id %q does not start with toolu_", c.ID)
				}
				return c.ID
			}
		}
	}
	t.Fatalf("request %d carries no tool use", r.Seq)
	return ""
}

func transcriptLines(t *testing.T, path string) []map[string]any {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var lines []map[string]any
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		var line map[string]any
		if err := json.Unmarshal(sc.Bytes(), &line); err != nil {
			t.Fatalf("%s: a line is not JSON: %v", path, err)
		}
		lines = append(lines, line)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return lines
}

// hasUsage: some assistant line of the transcript carries u as its message.usage.
func hasUsage(lines []map[string]any, u Usage) bool {
	for _, l := range lines {
		msg, _ := l["message"].(map[string]any)
		if l["type"] != "assistant" || msg == nil {
			continue
		}
		b, err := json.Marshal(msg["usage"])
		if err != nil {
			continue
		}
		var got Usage
		if json.Unmarshal(b, &got) == nil && got == u {
			return true
		}
	}
	return false
}

// planMode is the permission mode the client declared in the request's safeguards, "" when none.
func planMode(r Request) string {
	guards, _ := r.JSON["safeguards"].([]any)
	for _, g := range guards {
		ctx, _ := g.(map[string]any)["classifier_context"].(map[string]any)
		if mode, ok := ctx["permission_mode"].(string); ok {
			return mode
		}
	}
	return ""
}

// TestPrintAPIError: a scripted API error comes back as an error result, not a failed test.
func TestPrintAPIError(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the real Claude Code (a second)")
	}
	// Every request fails: the client retries a 400 a few times before it gives up.
	_, c := Offline(t, func(Request) Reply { return Error(400, "invalid_request_error", "scripted failure") })
	res := c.Print(t, "hello")
	if !res.IsError || !strings.Contains(res.Result, "scripted failure") {
		t.Errorf("result %+v, want an error result with the API's message", res)
	}
}
