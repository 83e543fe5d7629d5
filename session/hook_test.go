package session

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/saverd/saverd/bridge"
	"github.com/saverd/saverd/harness"
	"github.com/saverd/saverd/harness/claude"
	"github.com/saverd/saverd/harness/codex"
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

func TestHookJoinsASessionItDoesNotHold(t *testing.T) {
	h := newHookHarness(t)
	// A daemon that restarted mid-session meets a tool call first: it starts the session then.
	h.post("Bash", map[string]any{"command": "ls"}, map[string]any{"stdout": "a"})
	h.srv.mu.Lock()
	sess := h.srv.sessions["cc-1"]
	h.srv.mu.Unlock()
	if sess == nil || sess.bridge == nil {
		t.Fatal("no bridged session after a tool call")
	}
	var rows int
	sess.event(func() { rows = len(sess.st.Rows) })
	if rows != 1 {
		t.Fatalf("%d rows, want 1", rows)
	}
	if a := h.send(bridge.SessionEnd, map[string]any{"session_id": "unknown"}); a != nil {
		t.Fatalf("SessionEnd of an unknown session answered %+v", a)
	}
}

func TestHookParallelJoinStartsOneSession(t *testing.T) {
	h := newHookHarness(t)
	h.srv.opt.Synchronous = false
	var wg sync.WaitGroup
	for i := range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			h.sendErr("claude-code", bridge.PostToolUse, map[string]any{"tool_name": "Read", "tool_use_id": "toolu_p" + strconv.Itoa(i),
				"tool_input": map[string]any{"file_path": "/f" + strconv.Itoa(i)}, "tool_response": map[string]any{"file": map[string]any{"content": "x"}}})
		}()
	}
	wg.Wait()
	h.srv.mu.Lock()
	sess := h.srv.sessions["cc-1"]
	n := len(h.srv.sessions)
	h.srv.mu.Unlock()
	var rows int
	sess.event(func() { rows = len(sess.st.Rows) })
	if n != 1 || rows != 20 {
		t.Fatalf("%d sessions, %d rows; want one session with all 20 calls", n, rows)
	}
}

func TestHookRefusesAHostsSession(t *testing.T) {
	h := newHookHarness(t)
	if _, err := h.srv.Handle(context.Background(), rpc.Request{Method: "session.start", Params: []byte(`{"sessionId":"cc-1","cwd":"/x"}`)}); err != nil {
		t.Fatal(err)
	}
	_, err := h.sendErr("claude-code", bridge.Stop, nil)
	if err == nil || !strings.Contains(err.Error(), `session_id "cc-1" is a host's session`) {
		t.Fatalf("err = %v", err)
	}
}

// twoTurns joins a session whose transcript holds the two-turns fixture's first turn (a resume after a
// restart: its calls are adopted) and starts the second; it answers the fixture's lines and the path.
func (h *hookHarness) twoTurns() (lines []string, path string) {
	h.t.Helper()
	data, err := os.ReadFile("../bridge/testdata/transcript-two-turns.jsonl")
	if err != nil {
		h.t.Fatal(err)
	}
	lines = strings.SplitAfter(string(data), "\n")
	path = filepath.Join(h.t.TempDir(), "cc-1.jsonl")
	if err := os.WriteFile(path, []byte(strings.Join(lines[:61], "")), 0o600); err != nil {
		h.t.Fatal(err)
	}
	h.send(bridge.SessionStart, map[string]any{"source": "resume", "transcript_path": path})
	h.send(bridge.UserPromptSubmit, map[string]any{"prompt": "now commit", "transcript_path": path})
	return lines, path
}

func TestHookTurnUsageFromTheTranscript(t *testing.T) {
	h := newHookHarness(t)
	lines, path := h.twoTurns()
	// The second turn's lines are written while it runs; Stop reads only those.
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(strings.Join(lines[61:], ""))
	f.Close()
	h.send(bridge.Stop, map[string]any{"last_assistant_message": "Turn two done.", "transcript_path": path})
	h.srv.mu.Lock()
	sess := h.srv.sessions["cc-1"]
	h.srv.mu.Unlock()
	var rows int
	var last state.TurnStat
	sess.event(func() {
		rows = len(sess.st.Rows)
		last = sess.st.Turns[len(sess.st.Turns)-1]
	})
	if rows != 8 {
		t.Fatalf("adopted %d rows from the first turn, want 8", rows)
	}
	// The fixture's second turn: four API calls of 1,000 input tokens each, 6,250 in the window after.
	if last.Input != 4000 || last.AnswerHead != "Turn two done." || last.Context == nil || *last.Context != 6250 {
		t.Fatalf("turn stat %+v", last)
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

// TestCommandSpelledAsTyped: what saverd tells a person to type names the command as their harness takes
// it: the pane, the toast of an automatic run and the replies say $saver in a Codex session, /saver in
// Claude Code's.
func TestCommandSpelledAsTyped(t *testing.T) {
	for _, c := range []struct {
		live       harness.Live
		say, other string
	}{{claude.Harness{}, "/saver", "$saver"}, {codex.Harness{}, "$saver", "/saver"}} {
		t.Run(string(c.live.ID()), func(t *testing.T) {
			h := newHookHarness(t)
			h.send(bridge.SessionStart, map[string]any{"source": "startup"})
			h.srv.mu.Lock()
			sess := h.srv.sessions["cc-1"]
			h.srv.mu.Unlock()
			sess.event(func() { sess.bridge.live = c.live })
			h.twelve()
			h.host.queue(threeFindings())
			sess.event(func() { sess.runJudge(reasonToolCall, 10_000_000) })
			toast := h.post("Read", map[string]any{"file_path": "/z"}, map[string]any{"file": map[string]any{"content": "z"}})
			if toast == nil || !strings.Contains(toast.SystemMessage, "— "+c.say+" shows them, "+c.say+" fix 1 fixes the first") {
				t.Errorf("the toast of an automatic run: %+v", toast)
			}
			for _, typed := range []struct{ line, shows string }{
				{c.say, c.say + " fix <n> [note]"},
				{c.say + " fix", "Usage: " + c.say + " fix [n]"},
				{c.say + " frobnicate", "Usage: " + c.say + " [check | fix"},
			} {
				a := h.send(bridge.UserPromptSubmit, map[string]any{"prompt": typed.line})
				if a == nil || !strings.Contains(a.Reason, typed.shows) || strings.Contains(a.Reason, c.other+" ") {
					t.Errorf("%s answered %+v: want %q, and no %s", typed.line, a, typed.shows, c.other)
				}
			}
		})
	}
}

func TestViewsDoNotEscapeHTML(t *testing.T) {
	h := newHarness(t, nil)
	h.tool(2_000, ev("Bash", "command", "make a && make b > out.txt"), map[string]any{"text": "<ok>"})
	res, err := h.srv.Handle(context.Background(), rpc.Request{Method: "debug.state", Params: []byte(`{"sessionId":"s"}`)})
	if err != nil {
		t.Fatal(err)
	}
	raw := string(res.(json.RawMessage))
	if strings.Contains(raw, `\u0026`) || strings.Contains(raw, `\u003c`) || !strings.Contains(raw, "make a && make b > out.txt") {
		t.Fatalf("debug.state escapes HTML: %.300s", raw)
	}
}

func TestNoInvalidateAfterSessionEnd(t *testing.T) {
	h := newHarnessWith(t, Options{}, true, nil)
	h.tool(2_000, ev("Read", "file_path", "/a"), nil) // schedules a coalesced ui.invalidate
	h.call("session.end", map[string]any{"sessionId": "s"})
	h.host.reset()
	time.Sleep(3 * invalidateEvery)
	if n := h.host.count(NotifyInvalidate); n != 0 {
		t.Fatalf("%d ui.invalidate after session.end", n)
	}
}

func TestHookNeverRecordsACallTwice(t *testing.T) {
	h := newHookHarness(t)
	path := filepath.Join(t.TempDir(), "cc-1.jsonl")
	data, err := os.ReadFile("../bridge/testdata/transcript-two-turns.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
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

// TestHookRejoinKeepsTheSessionsFixes: a daemon that died mid-session is replaced, and the Fix the
// person made in this session still rides the next prompt (it is in the registry, dated after the
// session's transcript began); a Fix from an earlier session does not.
func TestHookRejoinKeepsTheSessionsFixes(t *testing.T) {
	h := newHookHarness(t)
	h.send(bridge.SessionStart, map[string]any{"source": "startup"})
	h.twelve()
	h.host.queue(threeFindings())
	h.send(bridge.UserPromptSubmit, map[string]any{"prompt": "/saver check"})
	if a := h.send(bridge.UserPromptSubmit, map[string]any{"prompt": "/saver fix 1"}); a == nil || !strings.Contains(a.Reason, "· fixed") {
		t.Fatalf("/saver fix 1 answered %+v", a)
	}
	transcript := filepath.Join(t.TempDir(), "cc-1.jsonl")
	data, err := os.ReadFile("../bridge/testdata/transcript-two-turns.jsonl") // begins 2026-12-01T19:33
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(transcript, data, 0o600); err != nil {
		t.Fatal(err)
	}
	// The daemon is gone; a new one, on the same registry, meets the session's next prompt first.
	restarted := &hookHarness{t: t, host: &fakeHost{}, cwd: h.cwd}
	restarted.srv = New(Options{Synchronous: true, ForkAlways: true, Store: h.srv.opt.Store})
	restarted.srv.SetHost(restarted.host)
	a := restarted.send(bridge.UserPromptSubmit, map[string]any{"prompt": "go on", "transcript_path": transcript})
	if a == nil || a.HookSpecificOutput == nil || !strings.Contains(a.HookSpecificOutput.AdditionalContext, suiteAlt) {
		t.Fatalf("after the restart the prompt carried %+v, want the session's fix", a)
	}
	// A resume whose transcript already carries the fix since its last compaction is sent no second copy.
	held := filepath.Join(t.TempDir(), "cc-3.jsonl")
	line, _ := json.Marshal(map[string]any{"type": "attachment", "timestamp": "2026-12-01T19:34:00Z",
		"attachment": map[string]any{"type": "hook_additional_context", "content": []string{suiteNote}}})
	if err := os.WriteFile(held, append(append(data, line...), '\n'), 0o600); err != nil {
		t.Fatal(err)
	}
	again := &hookHarness{t: t, host: &fakeHost{}, cwd: h.cwd}
	again.srv = New(Options{Synchronous: true, ForkAlways: true, Store: h.srv.opt.Store})
	again.srv.SetHost(again.host)
	if a := again.send(bridge.SessionStart, map[string]any{"source": "resume", "transcript_path": held}); a != nil && a.HookSpecificOutput != nil {
		t.Fatalf("a resume into a context that holds the fix answered %+v", a)
	}
	if a := again.send(bridge.UserPromptSubmit, map[string]any{"prompt": "go on", "transcript_path": held}); a != nil && a.HookSpecificOutput != nil {
		t.Fatalf("the prompt after answered %+v, want nothing", a)
	}
	// A later session of the same project starts clean: the fix was that session's.
	later := filepath.Join(t.TempDir(), "cc-2.jsonl")
	if err := os.WriteFile(later, []byte(`{"type":"user","timestamp":"2099-01-01T00:00:00Z","message":{"role":"user","content":"hi"}}`+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	a = restarted.send(bridge.UserPromptSubmit, map[string]any{"session_id": "cc-2", "prompt": "go on", "transcript_path": later})
	if a != nil && a.HookSpecificOutput != nil && strings.Contains(a.HookSpecificOutput.AdditionalContext, suiteAlt) {
		t.Fatalf("a later session carried an earlier session's fix: %+v", a)
	}
}

// TestHookCompactionCountedOnce: PreCompact, PostCompact and SessionStart(compact) are one compaction in
// whichever order and number the harness sends them; a compaction after other work is another.
func TestHookCompactionCountedOnce(t *testing.T) {
	for _, c := range []struct {
		name   string
		events [][2]string // event, source
		want   int
	}{
		{"pre, post, start", [][2]string{{bridge.PreCompact, ""}, {bridge.PostCompact, ""}, {bridge.SessionStart, "compact"}}, 1},
		{"pre, start, post", [][2]string{{bridge.PreCompact, ""}, {bridge.SessionStart, "compact"}, {bridge.PostCompact, ""}}, 1},
		{"post alone", [][2]string{{bridge.PostCompact, ""}}, 1},
		{"start alone", [][2]string{{bridge.SessionStart, "compact"}}, 1},
		{"two, work between", [][2]string{{bridge.PreCompact, ""}, {bridge.PostCompact, ""}, {bridge.UserPromptSubmit, ""}, {bridge.PreCompact, ""}, {bridge.SessionStart, "compact"}}, 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := newHookHarness(t)
			h.send(bridge.SessionStart, map[string]any{"source": "startup"})
			h.send(bridge.UserPromptSubmit, map[string]any{"prompt": "hi"})
			for _, e := range c.events {
				fields := map[string]any{"trigger": "auto"}
				switch e[0] {
				case bridge.SessionStart:
					fields = map[string]any{"source": e[1]}
				case bridge.UserPromptSubmit:
					fields = map[string]any{"prompt": "go on"}
				}
				h.send(e[0], fields)
			}
			var st state.State
			raw, err := h.srv.Handle(context.Background(), rpc.Request{Method: "debug.state", Params: json.RawMessage(`{"sessionId":"cc-1"}`)})
			if err != nil {
				t.Fatal(err)
			}
			b, _ := json.Marshal(raw)
			if err := json.Unmarshal(b, &st); err != nil {
				t.Fatal(err)
			}
			if len(st.Compactions) != c.want {
				t.Errorf("compactions %v, want %d", st.Compactions, c.want)
			}
		})
	}
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

// firstCardFixed is a session the hooks fed the twelve calls, checked (three cards) and fixed card 1 of, so
// its pane offers the suite's rule.
func (h *hookHarness) firstCardFixed() *Session {
	h.t.Helper()
	h.send(bridge.SessionStart, map[string]any{"source": "startup"})
	h.send(bridge.UserPromptSubmit, map[string]any{"prompt": "fix the math"})
	h.twelve()
	h.host.queue(threeFindings())
	h.send(bridge.UserPromptSubmit, map[string]any{"prompt": "/saver check"})
	h.send(bridge.UserPromptSubmit, map[string]any{"prompt": "/saver fix 1"})
	h.srv.mu.Lock()
	defer h.srv.mu.Unlock()
	return h.srv.sessions["cc-1"]
}

// TestCodexRulesGoToAgentsMD: a Codex session's pane offers its lasting rules as AGENTS.md bullets, the
// file Codex reads; the same session under Claude Code offers CLAUDE.md.
func TestCodexRulesGoToAgentsMD(t *testing.T) {
	h := newHookHarness(t)
	sess := h.firstCardFixed()
	paths := func() []string {
		var out []string
		sess.event(func() {
			for _, a := range sess.proposals() {
				out = append(out, string(a.Kind)+" "+strings.TrimPrefix(a.Path, h.cwd))
			}
		})
		return out
	}
	if got := paths(); len(got) == 0 || strings.Contains(strings.Join(got, ","), "AGENTS.md") {
		t.Fatalf("Claude Code session: %v", got)
	}
	sess.event(func() { sess.bridge.live = codex.Harness{} })
	for _, p := range paths() {
		if p != "agents-md /AGENTS.md" {
			t.Fatalf("Codex session offers %v", paths())
		}
	}
}

// TestSpellingFollowsTheRouteAndTheTyped: the commands a reply names are spelled as the person typed
// saverd's command last in the session, when the harness takes that spelling, else as the route the hooks
// come by: saverd's plugin's (`/saver:saver`, `$saver:saver`: with only the plugin, Claude Code refuses
// `/saver`), else the harness's own. A Codex person's kinds name Codex, not Claude.
func TestSpellingFollowsTheRouteAndTheTyped(t *testing.T) {
	for _, c := range []struct {
		name   string
		live   harness.Live
		plugin bool
		typed  string
		say    string
	}{
		{"claude-code, its own hooks", claude.Harness{}, false, "", "/saver"},
		{"claude-code, the plugin's hooks", claude.Harness{}, true, "", "/saver:saver"},
		{"claude-code, the plugin's hooks, /saver typed", claude.Harness{}, true, "/saver debug", "/saver"},
		{"claude-code, /saver:saver typed", claude.Harness{}, false, "/saver:saver debug", "/saver:saver"},
		{"codex, the plugin's hooks", codex.Harness{}, true, "", "$saver:saver"},
		{"codex, / typed with a leading space is not what it takes", codex.Harness{}, false, " /saver debug", "$saver"},
		{"codex, $saver:saver typed", codex.Harness{}, false, "$saver:saver debug", "$saver:saver"},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := newHookHarness(t)
			h.plugin = c.plugin
			send := h.send
			send(bridge.SessionStart, map[string]any{"source": "startup"})
			h.srv.mu.Lock()
			sess := h.srv.sessions["cc-1"]
			h.srv.mu.Unlock()
			sess.event(func() { sess.bridge.live = c.live })
			if c.typed != "" {
				send(bridge.UserPromptSubmit, map[string]any{"prompt": c.typed})
			}
			h.twelve()
			h.host.queue(threeFindings())
			sess.event(func() { sess.runJudge(reasonToolCall, 10_000_000) })
			toast := send(bridge.PostToolUse, map[string]any{"tool_name": "Read", "tool_use_id": "toolu_z",
				"tool_input": map[string]any{"file_path": "/z"}, "tool_response": map[string]any{"file": map[string]any{"content": "z"}}})
			if toast == nil || !strings.Contains(toast.SystemMessage, "— "+c.say+" shows them, "+c.say+" fix 1 fixes the first") {
				t.Fatalf("the toast of an automatic run: %+v, want %s", toast, c.say)
			}
			pane := send(bridge.UserPromptSubmit, map[string]any{"prompt": c.say})
			agent, other := "Claude keeps", "Codex keeps"
			if c.live.ID() == harness.Codex {
				agent, other = other, agent
			}
			if pane == nil || !strings.Contains(pane.Reason, c.say+" fix <n> [note] · "+c.say+" ignore <n>") ||
				!strings.Contains(pane.Reason, agent) || strings.Contains(pane.Reason, other) {
				t.Fatalf("the pane: %+v, want %s and %q", pane, c.say, agent)
			}
		})
	}
}

// TestAgentNamed: a kind's agent is the harness's; the harness's own name, and "Claude" anywhere but a
// kind's lead (a command, a path, a rule, a note the person typed), stay.
func TestAgentNamed(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"Claude keeps re-running `npm run build`", "Codex keeps re-running `npm run build`"},
		{"1. [execution] Claude keeps a\n- fixed · Claude keeps b", "1. [execution] Codex keeps a\n- fixed · Codex keeps b"},
		{"install Claude Code's hooks; Claude keeps", "install Claude Code's hooks; Claude keeps"},
		{"install Claude Code's hooks; Claude keeps x", "install Claude Code's hooks; Codex keeps x"},
		{"fixed: Claude keeps a — note: ask Claude to run one test", "fixed: Codex keeps a — note: ask Claude to run one test"},
		{"r3 Read /home/u/Claude Notes/todo.md", "r3 Read /home/u/Claude Notes/todo.md"},
		{"nothing to name", "nothing to name"},
		{"Claude", "Claude"},
	} {
		if got := agentNamed(c.in, "Codex"); got != c.want {
			t.Errorf("agentNamed(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestTypedDecisionSaidOnce: `/saver ignore 1` typed in a harness answers one line that says it (the
// reply), not the reply and a toast in other words; a Fix's toast stays, as it says what is sent.
func TestTypedDecisionSaidOnce(t *testing.T) {
	h := newHookHarness(t)
	sess := h.judgedSession()
	sess.event(func() { sess.runJudge(reasonToolCall, 10_000_000) })
	h.post("Read", map[string]any{"file_path": "/z"}, map[string]any{"file": map[string]any{"content": "z"}}) // takes the run's toast
	for _, c := range []struct{ line, want, not string }{
		{"/saver ignore 1", `ContextSaver: card 1 — "` + suiteKind + `" · ignored`, "ContextSaver: ignored"},
		{"/saver fix 2 only grep src/", "· fixed with your note: only grep src/", "ContextSaver: fixed with your note —"},
		{"/saver fix 3", "ContextSaver: fixed — " + rereadAlt, ""},
	} {
		a := h.send(bridge.UserPromptSubmit, map[string]any{"prompt": c.line})
		if a == nil || !strings.Contains(a.Reason, c.want) || (c.not != "" && strings.Contains(a.Reason, c.not)) {
			t.Fatalf("%s answered %+v: want %q and no %q", c.line, a, c.want, c.not)
		}
	}
}
