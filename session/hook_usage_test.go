package session

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/saverd/saverd/bridge"
	"github.com/saverd/saverd/rpc"
	"github.com/saverd/saverd/state"
)

// TestHookTurnUsageWrittenAfterStop: Claude Code 2.1.328 writes a turn's last response after its Stop
// hook runs. Whatever event comes next (the next prompt, a /saver command, the status line, SessionEnd),
// that call counts in the turn it belongs to, with the window after it, and in no later turn.
func TestHookTurnUsageWrittenAfterStop(t *testing.T) {
	for _, next := range []string{"prompt", "/saver debug", "statusline", "SessionEnd"} {
		t.Run(next, func(t *testing.T) {
			h := newHookHarness(t)
			lines, path := h.twoTurns()
			appendLines := func(part []string) { h.appendLines(path, part) }
			// The fixture's second turn is four calls of 1,000 input tokens; the fourth (line 73) is
			// written after the Stop hook read the transcript.
			appendLines(lines[61:72])
			h.send(bridge.Stop, map[string]any{"last_assistant_message": "Turn two done.", "transcript_path": path})
			if turn := h.turn("Turn two done."); turn.Input != 3000 {
				t.Fatalf("at Stop the turn counts %d input tokens, want the three calls written before it (3000)", turn.Input)
			}
			appendLines(lines[72:])
			switch next {
			case "prompt", "/saver debug":
				h.send(bridge.UserPromptSubmit, map[string]any{"prompt": next, "transcript_path": path})
			case "statusline":
				payload, _ := json.Marshal(map[string]any{"session_id": "cc-1", "transcript_path": path})
				raw, _ := json.Marshal(StatuslineParams{Payload: payload})
				if _, err := h.srv.Handle(context.Background(), rpc.Request{Method: "statusline", Params: raw}); err != nil {
					t.Fatal(err)
				}
			case "SessionEnd":
				h.send(bridge.SessionEnd, map[string]any{"reason": "exit", "transcript_path": path})
			}
			turn := h.turn("Turn two done.")
			if turn.Input != 4000 || turn.Context == nil || *turn.Context != 6250 {
				t.Fatalf("after %s the turn is %+v: want its four calls (4000 input tokens) and the window after the last (6250)", next, turn)
			}
			if next != "prompt" {
				return
			}
			h.send(bridge.Stop, map[string]any{"last_assistant_message": "Turn three done.", "transcript_path": path})
			if turn := h.turn("Turn three done."); turn.Input != 0 {
				t.Fatalf("the next turn, which made no call, counts %d input tokens", turn.Input)
			}
		})
	}
}

// turn is the session's completed turn whose answer begins with head.
func (h *hookHarness) turn(head string) state.TurnStat {
	h.t.Helper()
	h.srv.mu.Lock()
	sess := h.srv.sessions["cc-1"]
	h.srv.mu.Unlock()
	var turns []state.TurnStat
	sess.event(func() { turns = append(turns, sess.st.Turns...) })
	for _, t := range turns {
		if t.AnswerHead == head {
			return t
		}
	}
	h.t.Fatalf("no turn answered %q in %+v", head, turns)
	return state.TurnStat{}
}

// appendLines writes lines at the end of the transcript at path, as the harness does while a turn runs.
func (h *hookHarness) appendLines(path string, lines []string) {
	h.t.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		h.t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(strings.Join(lines, "")); err != nil {
		h.t.Fatal(err)
	}
}

// sendLate is one hook the daemon reads after the hook stopped waiting for it (HookParams.ReadBy passed).
func (h *hookHarness) sendLate(event string, fields map[string]any) *bridge.Answer {
	h.t.Helper()
	p := map[string]any{"session_id": "cc-1", "transcript_path": "", "cwd": h.cwd, "hook_event_name": event}
	for k, v := range fields {
		p[k] = v
	}
	payload, _ := json.Marshal(p)
	raw, _ := json.Marshal(HookParams{Harness: "claude-code", Event: event, Payload: payload, ReadBy: time.Now().Add(-time.Second).UnixMilli()})
	out, err := h.srv.Handle(context.Background(), rpc.Request{Method: "hook", Params: raw})
	if err != nil {
		h.t.Fatalf("%s: %v", event, err)
	}
	return out.(HookResult).Output
}

// TestHookReadLateDeliversNothing: a hook the daemon reads after the hook stopped waiting (it was
// stopped) is recorded, but what its answer would carry is kept for an answer someone reads: a saverd
// command does not run (the person was told saverd did not answer), a prompt starts its turn and the
// standing fix goes with the next prompt instead, a tool call is a row.
func TestHookReadLateDeliversNothing(t *testing.T) {
	h := newHookHarness(t)
	h.send(bridge.SessionStart, map[string]any{"source": "startup"})
	h.send(bridge.UserPromptSubmit, map[string]any{"prompt": "fix the math"})
	h.twelve()
	h.host.queue(threeFindings())
	h.send(bridge.UserPromptSubmit, map[string]any{"prompt": "/saver check"})
	h.srv.mu.Lock()
	sess := h.srv.sessions["cc-1"]
	h.srv.mu.Unlock()
	snapshot := func() (standing, rows, turn int) {
		sess.event(func() { standing, rows, turn = len(sess.st.Standing), len(sess.st.Rows), sess.st.Turn })
		return
	}

	a := h.sendLate(bridge.UserPromptSubmit, map[string]any{"prompt": "/saver fix 1"})
	if a == nil || !strings.Contains(a.Reason, "did not run it") {
		t.Fatalf("a late /saver fix 1 answered %+v", a)
	}
	if standing, _, _ := snapshot(); standing != 0 {
		t.Fatalf("a late /saver fix 1 ran: %d standing", standing)
	}
	if a := h.send(bridge.UserPromptSubmit, map[string]any{"prompt": "/saver fix 1"}); a == nil || !strings.Contains(a.Reason, "fixed") {
		t.Fatalf("/saver fix 1 answered %+v", a)
	}
	standing, rows, turn := snapshot()
	if a := h.sendLate(bridge.UserPromptSubmit, map[string]any{"prompt": "go on"}); !a.Empty() {
		t.Fatalf("a late prompt answered %+v", a)
	}
	h.sendLate(bridge.PostToolUse, map[string]any{"tool_name": "Bash", "tool_use_id": "toolu_late",
		"tool_input": map[string]any{"command": "ls"}, "tool_response": map[string]any{"stdout": "a.ts"}})
	if s, r, tn := snapshot(); s != standing || r != rows+1 || tn != turn+1 {
		t.Fatalf("after a late prompt and tool call: %d standing, %d rows, turn %d; want %d, %d, %d", s, r, tn, standing, rows+1, turn+1)
	}
	a = h.send(bridge.UserPromptSubmit, map[string]any{"prompt": "and again"})
	if a == nil || a.HookSpecificOutput == nil || a.HookSpecificOutput.AdditionalContext == "" {
		t.Fatalf("the next prompt someone waits for carries no standing fix: %+v", a)
	}
}
