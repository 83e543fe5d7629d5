package session

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/saverd/saverd/bridge"
	"github.com/saverd/saverd/rpc"
)

// TestHookIsOneEvent: every hook takes its session's lock once, as one ordered event: the model a Codex
// hook names, the end of a compaction, the usage its session's log gained since the last turn ended (read
// before the lock), the command typed, the turn's end and its detectors all inside it. Only what a hook
// leaves to the background re-enters as its own event (SessionEnd's flush).
func TestHookIsOneEvent(t *testing.T) {
	tool := map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": "ls"}, "tool_use_id": "t1", "tool_response": map[string]any{"stdout": "a\n"}}
	type hookCase struct {
		name, harness, event string
		fields               map[string]any
		// stopped: a Stop ended the last turn and the log grew after it, so the hook has a late read to give it.
		stopped bool
		late    bool // read after its hook stopped waiting
		want    uint64
	}
	cases := []hookCase{
		{"Claude Code PostToolUse", "claude-code", bridge.PostToolUse, tool, false, false, 1},
		{"Codex PostToolUse", "codex", bridge.PostToolUse, map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": "ls"},
			"tool_use_id": "t1", "tool_response": "a\n", "model": "gpt-5.5", "turn_id": "u1"}, false, false, 1},
		{"PostToolUseFailure", "claude-code", bridge.PostToolUseFailure, map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": "false"},
			"tool_use_id": "t1", "error": "exit 1"}, false, false, 1},
		{"PreToolUse of an Agent", "claude-code", bridge.PreToolUse, map[string]any{"tool_name": "Agent", "tool_input": map[string]any{"prompt": "look"}, "tool_use_id": "t1"}, false, false, 1},
		{"SessionStart resume", "claude-code", bridge.SessionStart, map[string]any{"source": "resume"}, false, false, 1},
		{"SessionStart clear", "claude-code", bridge.SessionStart, map[string]any{"source": "clear"}, false, false, 1},
		{"SessionStart compact", "claude-code", bridge.SessionStart, map[string]any{"source": "compact"}, false, false, 1},
		{"UserPromptSubmit", "claude-code", bridge.UserPromptSubmit, map[string]any{"prompt": "go on"}, false, false, 1},
		{"UserPromptSubmit after a Stop the log grew after", "claude-code", bridge.UserPromptSubmit, map[string]any{"prompt": "go on"}, true, false, 1},
		{"Codex UserPromptSubmit", "codex", bridge.UserPromptSubmit, map[string]any{"prompt": "go on", "model": "gpt-5.5", "turn_id": "u2"}, false, false, 1},
		{"UserPromptSubmit late", "claude-code", bridge.UserPromptSubmit, map[string]any{"prompt": "go on"}, true, true, 1},
		{"/saver typed", "claude-code", bridge.UserPromptSubmit, map[string]any{"prompt": "/saver"}, true, false, 1},
		{"/saver debug typed", "claude-code", bridge.UserPromptSubmit, map[string]any{"prompt": "/saver debug"}, false, false, 1},
		{"/saver fix 1 typed", "claude-code", bridge.UserPromptSubmit, map[string]any{"prompt": "/saver fix 1"}, false, false, 1},
		{"/saver typed late", "claude-code", bridge.UserPromptSubmit, map[string]any{"prompt": "/saver"}, true, true, 1},
		{"Stop", "claude-code", bridge.Stop, map[string]any{"last_assistant_message": "Done."}, false, false, 1},
		{"Codex Stop", "codex", bridge.Stop, map[string]any{"last_assistant_message": "Done.", "model": "gpt-5.5", "turn_id": "u1"}, false, false, 1},
		{"SubagentStart", "claude-code", bridge.SubagentStart, map[string]any{"agent_id": "a1"}, false, false, 1},
		{"SubagentStop", "claude-code", bridge.SubagentStop, map[string]any{"agent_id": "a1", "last_assistant_message": "found it"}, false, false, 1},
		{"PreCompact", "claude-code", bridge.PreCompact, map[string]any{"trigger": "auto"}, false, false, 1},
		{"PostCompact", "claude-code", bridge.PostCompact, map[string]any{"trigger": "auto"}, false, false, 1},
		// SessionEnd's flush runs in the background (inline here: Options.Synchronous), as its own event.
		{"SessionEnd", "claude-code", bridge.SessionEnd, map[string]any{"reason": "exit"}, true, false, 2},
	}
	for _, event := range bridge.Events { // a hook kind added is counted here too
		if !slices.ContainsFunc(cases, func(c hookCase) bool { return c.event == event }) {
			t.Errorf("no case counts %s's events", event)
		}
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := newHookHarness(t)
			h.srv.SetHost(nil) // no judge run: its fork's events would count with the hook's
			lines, path := h.twoTurns()
			sess := h.session()
			if c.stopped {
				h.appendLines(path, lines[61:72])
				h.send(bridge.Stop, map[string]any{"last_assistant_message": "Turn two done.", "transcript_path": path})
				h.appendLines(path, lines[72:])
			} else {
				h.appendLines(path, lines[61:])
			}
			fields := map[string]any{"transcript_path": path}
			for k, v := range c.fields {
				fields[k] = v
			}
			before := sess.Events()
			if c.late {
				h.sendLate(c.event, fields)
			} else if _, err := h.sendErr(c.harness, c.event, fields); err != nil {
				t.Fatal(err)
			}
			if got := sess.Events() - before; got != c.want {
				t.Errorf("%s took %d events, want %d", c.event, got, c.want)
			}
			if c.stopped && c.event != bridge.SessionEnd {
				if turn := h.turn("Turn two done."); turn.Input != 4000 {
					t.Errorf("the turn the Stop ended counts %d input tokens after %s, want its four calls' 4000", turn.Input, c.event)
				}
			}
		})
	}
}

// TestStatuslineIsOneEvent: the status line, drawn every second, takes its session's lock once, the usage
// its log gained since the last turn ended included.
func TestStatuslineIsOneEvent(t *testing.T) {
	h := newHookHarness(t)
	lines, path := h.twoTurns()
	sess := h.session()
	h.appendLines(path, lines[61:72])
	h.send(bridge.Stop, map[string]any{"last_assistant_message": "Turn two done.", "transcript_path": path})
	h.appendLines(path, lines[72:])
	before := sess.Events()
	payload, _ := json.Marshal(map[string]any{"session_id": "cc-1", "transcript_path": path, "context_window": map[string]any{"context_window_size": 200000}})
	raw, _ := json.Marshal(StatuslineParams{Payload: payload})
	if _, err := h.srv.Handle(context.Background(), rpc.Request{Method: "statusline", Params: raw}); err != nil {
		t.Fatal(err)
	}
	if got := sess.Events() - before; got != 1 {
		t.Errorf("the status line took %d events, want 1", got)
	}
	if turn := h.turn("Turn two done."); turn.Input != 4000 {
		t.Errorf("the turn counts %d input tokens after the status line, want 4000", turn.Input)
	}
}

// TestClearStartsOver: a fix stands for the session's contexts until a clear, which starts the session over
// as ContextSaver's reset did — its standing instructions with it — so the prompt after it carries none
// (protocol.md "prompt.submit"); a compaction, by contrast, owes the new context the fix once.
func TestClearStartsOver(t *testing.T) {
	for _, c := range []struct {
		source string
		sent   bool
	}{{"compact", true}, {"clear", false}} {
		t.Run(c.source, func(t *testing.T) {
			h := newHookHarness(t)
			h.send(bridge.SessionStart, map[string]any{"source": "startup"})
			h.builds("build it", 4)
			h.send(bridge.UserPromptSubmit, map[string]any{"prompt": "/saver fix 1"})
			if !carries(h.send(bridge.UserPromptSubmit, map[string]any{"prompt": "next"}), "npm run build") {
				t.Fatal("the prompt after /saver fix 1 carries no fix")
			}
			h.send(bridge.Stop, map[string]any{"last_assistant_message": "ok"})
			start := h.send(bridge.SessionStart, map[string]any{"source": c.source})
			next := h.send(bridge.UserPromptSubmit, map[string]any{"prompt": "after"})
			if got := carries(start, "npm run build") || carries(next, "npm run build"); got != c.sent {
				t.Errorf("after a %s the fix was sent again: %v, want %v (start %+v, prompt %+v)", c.source, got, c.sent, start, next)
			}
		})
	}
}

// carries reports whether a hook's answer puts text into the model's context.
func carries(a *bridge.Answer, text string) bool {
	return a != nil && a.HookSpecificOutput != nil && strings.Contains(a.HookSpecificOutput.AdditionalContext, text)
}
