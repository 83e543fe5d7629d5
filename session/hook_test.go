package session

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/saverd/saverd/bridge"
	"github.com/saverd/saverd/harness"
	"github.com/saverd/saverd/internal/testfake"
	"github.com/saverd/saverd/rpc"
	"github.com/saverd/saverd/state"
)

// hookHarness drives a server through the hook method only, as `saverd hook` does for Claude Code.
type hookHarness struct {
	t    *testing.T
	srv  *Table
	host *fakeHost
	cwd  string
	seq  int
	// plugin: the hooks come through saverd's plugin (saverd-hook --plugin).
	plugin bool
}

func newHookHarness(t *testing.T) *hookHarness {
	h := &hookHarness{t: t, host: &fakeHost{}, cwd: t.TempDir()}
	h.srv = New(Options{Synchronous: true, ForkAlways: true, Store: testfake.NewRegistry()})
	h.srv.SetHost(h.host)
	return h
}

// twoTurnsTranscript copies the two-turns fixture (it begins 2026-12-01T19:33) to a session's transcript
// path: its bytes, and the path.
func twoTurnsTranscript(t *testing.T) (data []byte, path string) {
	t.Helper()
	data, err := os.ReadFile("../bridge/testdata/transcript-two-turns.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	path = filepath.Join(t.TempDir(), "cc-1.jsonl")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return data, path
}

// restarted is a daemon started after h's died, on the same project and on opt's registry and journal.
func (h *hookHarness) restarted(opt Options) *hookHarness {
	r := &hookHarness{t: h.t, host: &fakeHost{}, cwd: h.cwd}
	opt.Synchronous, opt.ForkAlways = true, true
	r.srv = New(opt)
	r.srv.SetHost(r.host)
	return r
}

// send is one hook; it answers what the hook would print (nil: nothing).
func (h *hookHarness) send(event string, fields map[string]any) *bridge.Answer {
	h.t.Helper()
	res, err := h.sendErr("claude-code", event, fields)
	if err != nil {
		h.t.Fatalf("%s: %v", event, err)
	}
	return res
}

func (h *hookHarness) sendErr(harness, event string, fields map[string]any) (*bridge.Answer, error) {
	p := map[string]any{"session_id": "cc-1", "transcript_path": "", "cwd": h.cwd, "hook_event_name": event}
	for k, v := range fields {
		p[k] = v
	}
	payload, _ := json.Marshal(p)
	raw, _ := json.Marshal(HookParams{Harness: harness, Event: event, Payload: payload, Plugin: h.plugin})
	out, err := h.srv.Handle(context.Background(), rpc.Request{Method: "hook", Params: raw})
	if err != nil {
		return nil, err
	}
	return out.(HookResult).Output, nil
}

func (h *hookHarness) post(tool string, input map[string]any, response any) *bridge.Answer {
	h.seq++
	return h.send(bridge.PostToolUse, map[string]any{"tool_name": tool, "tool_input": input,
		"tool_use_id": "toolu_" + string(rune('a'+h.seq)), "tool_response": response, "duration_ms": 1500})
}

// twelve is the suite run after every edit, through PostToolUse hooks: rows r1..r12.
func (h *hookHarness) twelve() {
	suite := func() {
		h.post("Bash", map[string]any{"command": "bun test"}, map[string]any{"stdout": strings.Repeat("212 pass\n", 500), "stderr": ""})
	}
	read := func(f string) {
		h.post("Read", map[string]any{"file_path": h.cwd + "/" + f}, map[string]any{"type": "text", "file": map[string]any{"content": "ok"}})
	}
	edit := func(f string) {
		h.post("Edit", map[string]any{"file_path": h.cwd + "/" + f, "old_string": "a", "new_string": "b"}, map[string]any{"filePath": h.cwd + "/" + f})
	}
	suite()
	read("a.ts")
	edit("a.ts")
	suite()
	read("b.ts")
	edit("b.ts")
	suite()
	h.post("Grep", map[string]any{"pattern": "refresh", "path": h.cwd}, map[string]any{"filenames": []string{"a.ts"}})
	for _, f := range []string{"c.ts", "d.ts", "e.ts", "f.ts"} {
		read(f)
	}
}

func TestHookSessionFromStartToFix(t *testing.T) {
	h := newHookHarness(t)
	if a := h.send(bridge.SessionStart, map[string]any{"source": "startup"}); a != nil {
		t.Fatalf("SessionStart with nothing standing answered %+v", a)
	}
	if a := h.send(bridge.UserPromptSubmit, map[string]any{"prompt": "fix the math"}); a != nil {
		t.Fatalf("a first prompt carried %+v", a)
	}
	h.twelve()

	h.host.queue(threeFindings())
	a := h.send(bridge.UserPromptSubmit, map[string]any{"prompt": "/saver check"})
	if a == nil || a.Decision != "block" {
		t.Fatalf("/saver check answered %+v, want a block", a)
	}
	if !strings.Contains(a.Reason, "ContextSaver: 3 new wasters") || !strings.Contains(a.Reason, "whole suite after every edit") {
		t.Fatalf("/saver check reason %q: want the run's toast and the cards", a.Reason)
	}
	forks := h.host.forksOf("judge")
	if len(forks) != 1 || forks[0].Harness != string(harness.ClaudeCode) || forks[0].Cwd != h.cwd || forks[0].SessionID != "cc-1" {
		t.Fatalf("forks %+v", forks)
	}

	a = h.send(bridge.UserPromptSubmit, map[string]any{"prompt": "/saver fix 1"})
	if a == nil || a.Decision != "block" || !strings.Contains(a.Reason, "· fixed") {
		t.Fatalf("/saver fix 1 answered %+v", a)
	}
	a = h.send(bridge.UserPromptSubmit, map[string]any{"prompt": "next step"})
	if a == nil || a.HookSpecificOutput == nil || !strings.Contains(a.HookSpecificOutput.AdditionalContext, "Instruction from the user (via ContextSaver)") {
		t.Fatalf("the next prompt carried %+v, want the instruction", a)
	}
	if a.HookSpecificOutput.HookEventName != bridge.UserPromptSubmit {
		t.Fatalf("hookEventName %q", a.HookSpecificOutput.HookEventName)
	}

	input := map[string]any{"description": "explore", "prompt": "read a.txt", "subagent_type": "general-purpose"}
	a = h.send(bridge.PreToolUse, map[string]any{"tool_name": "Agent", "tool_input": input, "tool_use_id": "toolu_agent"})
	if a == nil || a.HookSpecificOutput == nil {
		t.Fatalf("PreToolUse Agent answered %+v, want the rewritten input", a)
	}
	var in map[string]string
	if err := json.Unmarshal(a.HookSpecificOutput.UpdatedInput, &in); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(in["prompt"], "read a.txt\n\nInstruction from the user") || in["description"] != "explore" || in["subagent_type"] != "general-purpose" {
		t.Fatalf("updatedInput %v", in)
	}
	h.send(bridge.PostToolUse, map[string]any{"tool_name": "Agent", "tool_input": input, "tool_use_id": "toolu_agent",
		"tool_response": map[string]any{"isAsync": true, "status": "async_launched", "agentId": "ag1", "description": "explore"}})
	var open int
	h.srv.mu.Lock()
	sess := h.srv.sessions["cc-1"]
	h.srv.mu.Unlock()
	sess.event(func() { open = len(sess.st.Rewrites) + len(sess.bridge.spawns) })
	if open != 0 {
		t.Fatalf("%d spawns still open after the Agent result", open)
	}

	if a := h.send(bridge.SubagentStart, map[string]any{"agent_id": "ag1", "agent_type": "general-purpose"}); a != nil && a.HookSpecificOutput != nil {
		t.Fatalf("SubagentStart answered %+v", a)
	}
	h.send(bridge.SubagentStop, map[string]any{"agent_id": "ag1", "last_assistant_message": "done"})
	h.send(bridge.Stop, map[string]any{"last_assistant_message": "Done."})
	if a := h.send(bridge.SessionEnd, map[string]any{"reason": "other"}); a != nil && a.HookSpecificOutput != nil {
		t.Fatalf("SessionEnd answered %+v", a)
	}
	// A resume of the same session carries its history, the instruction a prompt carried included: it
	// is not sent again. A compaction drops it: the new context gets it from its first request on, once.
	if a := h.send(bridge.SessionStart, map[string]any{"source": "resume"}); a != nil && a.HookSpecificOutput != nil {
		t.Fatalf("resume answered %+v, want nothing: the context holds the instruction", a)
	}
	a = h.send(bridge.SessionStart, map[string]any{"source": "compact"})
	if a == nil || a.HookSpecificOutput == nil || strings.Count(a.HookSpecificOutput.AdditionalContext, "Instruction from the user") != 1 {
		t.Fatalf("after a compaction answered %+v, want the standing instruction once", a)
	}
	if a.HookSpecificOutput.HookEventName != bridge.SessionStart {
		t.Fatalf("hookEventName %q", a.HookSpecificOutput.HookEventName)
	}
	if a := h.send(bridge.UserPromptSubmit, map[string]any{"prompt": "go on"}); a != nil && a.HookSpecificOutput != nil {
		t.Fatalf("the next prompt answered %+v, want nothing: the new context holds it", a)
	}
}

func TestHookToastsRideTheNextAnswer(t *testing.T) {
	h := newHookHarness(t)
	h.send(bridge.SessionStart, map[string]any{"source": "startup"})
	h.twelve()
	h.host.queue(errForkBroke)
	a := h.send(bridge.UserPromptSubmit, map[string]any{"prompt": "/saver check"})
	if a == nil || !strings.Contains(a.Reason, "check failed — fork broke") {
		t.Fatalf("/saver check answered %+v, want the failure and its reason", a)
	}
	// The toast was the reply's; it is not said twice.
	if a := h.post("Read", map[string]any{"file_path": "x"}, map[string]any{"file": map[string]any{"content": "x"}}); a != nil && a.SystemMessage != "" {
		t.Fatalf("toast repeated: %q", a.SystemMessage)
	}
}

// judgedSession is the hook session after the twelve calls, with the fake host holding threeFindings for
// the next run.
func (h *hookHarness) judgedSession() *Session {
	h.send(bridge.SessionStart, map[string]any{"source": "startup"})
	h.twelve()
	h.host.queue(threeFindings())
	h.srv.mu.Lock()
	defer h.srv.mu.Unlock()
	return h.srv.sessions["cc-1"]
}

func TestHookAutomaticRunSaysWhatItFound(t *testing.T) {
	h := newHookHarness(t)
	sess := h.judgedSession()
	// The turn's end opens the cadence gate: a run nobody asked for.
	sess.event(func() { sess.judgeAt(10_000_000, reasonTurnComplete) })
	if len(h.host.forksOf("judge")) == 0 {
		sess.event(func() { sess.runJudge(reasonToolCall, 10_000_000) })
	}
	a := h.post("Read", map[string]any{"file_path": "/z"}, map[string]any{"file": map[string]any{"content": "z"}})
	if a == nil || !strings.Contains(a.SystemMessage, "3 new wasters — /saver shows them") {
		t.Fatalf("the next answer after an automatic run carried %+v", a)
	}
}

func TestHookNeverRecordsACallTwice(t *testing.T) {
	h := newHookHarness(t)
	_, path := twoTurnsTranscript(t)
	// The daemon joins with the transcript already holding the calls; the hooks then report them.
	h.send(bridge.SessionStart, map[string]any{"source": "startup", "transcript_path": path})
	for _, p := range payloads(t) {
		if p["hook_event_name"] == bridge.PostToolUse || p["hook_event_name"] == bridge.PostToolUseFailure {
			h.send(p["hook_event_name"].(string), p)
		}
	}
	h.srv.mu.Lock()
	sess := h.srv.sessions["cc-1"]
	h.srv.mu.Unlock()
	var rows int
	sess.event(func() { rows = len(sess.st.Rows) })
	if rows != 11 {
		t.Fatalf("%d rows for 11 calls", rows)
	}
}

// payloads is the real Claude Code's hook payloads of the two-turn fixture, for session cc-1.
func payloads(t *testing.T) []map[string]any {
	t.Helper()
	data, err := os.ReadFile("../bridge/testdata/hooks-two-turns.ndjson")
	if err != nil {
		t.Fatal(err)
	}
	var out []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var p map[string]any
		if err := json.Unmarshal([]byte(line), &p); err != nil {
			t.Fatal(err)
		}
		p["session_id"] = "cc-1"
		delete(p, "cwd")
		delete(p, "transcript_path")
		out = append(out, p)
	}
	return out
}

// TestHookTaskNotificationInATurn: a subagent's task notification that arrives while a turn runs is part
// of that turn: the Stop that ends it counts the calls made before the notification too.
func TestHookTaskNotificationInATurn(t *testing.T) {
	h := newHookHarness(t)
	lines, path := h.twoTurns()
	appendLines := func(part []string) { h.appendLines(path, part) }
	half := 61 + (len(lines)-61)/2
	appendLines(lines[61:half])
	h.send(bridge.UserPromptSubmit, map[string]any{"prompt": "<task-notification>\n<task-id>a1</task-id>\n<status>completed</status>\n</task-notification>", "transcript_path": path})
	appendLines(lines[half:])
	h.send(bridge.Stop, map[string]any{"last_assistant_message": "Turn two done.", "transcript_path": path})
	h.srv.mu.Lock()
	sess := h.srv.sessions["cc-1"]
	h.srv.mu.Unlock()
	var turns []state.TurnStat
	sess.event(func() { turns = append(turns, sess.st.Turns...) })
	if len(turns) == 0 || turns[len(turns)-1].Input != 4000 {
		t.Fatalf("turns %+v: want the last to count the turn's four calls (4000 input tokens)", turns)
	}
}

// TestStatuslineHasNoPaneToClose: in a harness `/saver` shows the pane each time, so the status line
// says how to see it even while the session's pane is open.
func TestStatuslineHasNoPaneToClose(t *testing.T) {
	h := newHookHarness(t)
	h.send(bridge.SessionStart, map[string]any{"source": "startup"})
	h.srv.mu.Lock()
	sess := h.srv.sessions["cc-1"]
	h.srv.mu.Unlock()
	sess.event(func() { sess.st.PaneOpen = true })
	raw, _ := json.Marshal(StatuslineParams{Payload: json.RawMessage(`{"session_id":"cc-1"}`), Width: 200})
	out, err := h.srv.Handle(context.Background(), rpc.Request{Method: "statusline", Params: raw})
	if err != nil {
		t.Fatal(err)
	}
	if text := *out.(TextResult).Text; !strings.HasSuffix(text, "/saver to open") {
		t.Fatalf("status line %q", text)
	}
}
