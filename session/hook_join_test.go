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

	"github.com/saverd/saverd/bridge"
	"github.com/saverd/saverd/rpc"
	"github.com/saverd/saverd/state"
)

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
	data, transcript := twoTurnsTranscript(t)
	// The daemon is gone; a new one, on the same registry, meets the session's next prompt first.
	restarted := h.restarted(Options{Store: h.srv.opt.Store})
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
	again := h.restarted(Options{Store: h.srv.opt.Store})
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
