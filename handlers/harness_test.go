package handlers

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/saverd/saverd/bridge"
	"github.com/saverd/saverd/internal/testfake"
	"github.com/saverd/saverd/rpc"
	"github.com/saverd/saverd/session"
	"github.com/saverd/saverd/state"
)

// testHarness is one in-memory server driven through its methods as JSON, as a host drives it: the
// adapter end to end. The session's own behaviour is session's tests'.
type testHarness struct {
	t   testing.TB
	srv *Server
	cwd string
}

// newHarness is a server in Synchronous mode with session "s" started in a temp dir.
func newHarness(t testing.TB, start map[string]any) *testHarness {
	t.Helper()
	h := &testHarness{t: t, cwd: t.TempDir()}
	h.srv = New(session.Options{Synchronous: true, Store: testfake.NewRegistry(), Clock: func() int64 { return 999 }})
	h.srv.SetHost(nopHost{})
	h.call("initialize", map[string]any{"capabilities": map[string]any{"fork": false}})
	params := map[string]any{"sessionId": "s", "cwd": h.cwd, "at": 1_000, "usage": map[string]any{"window": 200_000}}
	for k, v := range start {
		params[k] = v
	}
	h.call("session.start", params)
	return h
}

func (h *testHarness) callErr(method string, params any) (json.RawMessage, error) {
	raw, err := json.Marshal(params)
	if err != nil {
		h.t.Fatal(err)
	}
	if method == "tool.call" {
		agreeToolCall(h.t, raw) // the one-pass reader and the full decoder read it alike
	}
	res, err := h.srv.Handle(context.Background(), rpc.Request{Method: method, Params: raw})
	if err != nil {
		return nil, err
	}
	out, err := json.Marshal(res)
	if err != nil {
		h.t.Fatal(err)
	}
	return out, nil
}

func (h *testHarness) call(method string, params any) json.RawMessage {
	h.t.Helper()
	res, err := h.callErr(method, params)
	if err != nil {
		h.t.Fatalf("%s: %v", method, err)
	}
	return res
}

// st is debug.state decoded into the state's own type.
func (h *testHarness) st() *state.State {
	h.t.Helper()
	var st state.State
	if err := json.Unmarshal(h.call("debug.state", map[string]any{"sessionId": "s"}), &st); err != nil {
		h.t.Fatal(err)
	}
	return &st
}

// hook is one harness hook of session cc-1, its payload's fields besides the common ones; it answers
// what the hook would print.
func (h *testHarness) hook(harness, event string, fields map[string]any) (*bridge.Answer, error) {
	p := map[string]any{"session_id": "cc-1", "transcript_path": "", "cwd": h.cwd, "hook_event_name": event}
	for k, v := range fields {
		p[k] = v
	}
	payload, _ := json.Marshal(p)
	raw, _ := json.Marshal(HookParams{Harness: harness, Event: event, Payload: payload})
	out, err := h.srv.Handle(context.Background(), rpc.Request{Method: "hook", Params: raw})
	if err != nil {
		return nil, err
	}
	return out.(HookResult).Output, nil
}

// TestHookBadInput: the hook's params name a harness and an event saverd knows, and a payload of that
// event; anything else is -32602, naming what was wrong, and nothing held is lost.
func TestHookBadInput(t *testing.T) {
	h := newHarness(t, nil)
	cases := []struct {
		name, harness, event string
		fields               map[string]any
		want                 string
	}{
		{"unknown event", "claude-code", "Nope", nil, `params.event: unknown hook event "Nope" (want one of SessionStart, `},
		{"unknown harness", "claud", "Stop", nil, `params.harness: want claude-code or codex, got "claud"`},
		{"no tool name", "claude-code", "PostToolUse", nil, "tool_name: required"},
		{"mismatch", "claude-code", "Stop", map[string]any{"hook_event_name": "SessionEnd"}, "hook for Stop got a SessionEnd payload"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := h.hook(c.harness, c.event, c.fields)
			var rerr *rpc.Error
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err = %v, want %q", err, c.want)
			}
			if e, ok := err.(*rpc.Error); ok {
				rerr = e
			}
			if rerr == nil || rerr.Code != rpc.CodeInvalidParams {
				t.Fatalf("err = %#v, want -32602", err)
			}
		})
	}
	// Nothing held was lost: a session started before still answers.
	if _, err := h.hook("claude-code", bridge.SessionStart, map[string]any{"source": "startup"}); err != nil {
		t.Fatal(err)
	}
	if _, err := h.hook("claude-code", "PostToolUse", map[string]any{"tool_name": "Bash", "tool_input": "not an object"}); err != nil {
		t.Fatalf("a tool input that is not an object: %v (want it skipped, logged)", err)
	}
}

// TestAPIErrorsCarryTheirCodes: what the session API refuses is answered with its kind's code and its
// own words, a bad member of params as -32602 before the API is called.
func TestAPIErrorsCarryTheirCodes(t *testing.T) {
	h := newHarness(t, nil)
	for _, c := range []struct {
		method string
		params any
		code   int64
		want   string
	}{
		{"turn.start", map[string]any{"sessionId": "nobody"}, CodeUnknownSession, `unknown sessionId "nobody": call session.start first`},
		{"turn.start", map[string]any{}, rpc.CodeInvalidParams, "params.sessionId: required"},
		{"turn.complete", map[string]any{"sessionId": "s", "reason": "bored"}, rpc.CodeInvalidParams, `params.reason: want answer, aborted, refusal or error, got "bored"`},
		{"ui.action", map[string]any{"sessionId": "s", "action": "write", "artifact": map[string]any{"patternId": "reading:grep-again", "kind": "claude-md"}}, CodeRequestFailed, ""},
		{"impact.query", map[string]any{"claude_dirs": "x"}, rpc.CodeInvalidParams, "claude_dirs"},
		{"impact.query", map[string]any{"days": 0}, rpc.CodeInvalidParams, "params.days: want ≥ 1, got 0"},
	} {
		_, err := h.callErr(c.method, c.params)
		var rerr *rpc.Error
		if !errors.As(err, &rerr) || rerr.Code != c.code || !strings.Contains(rerr.Message, c.want) {
			t.Errorf("%s %v = %v, want %d %q", c.method, c.params, err, c.code, c.want)
		}
	}
}

// stateJSON is debug.state as the bytes the host reads.
func (h *testHarness) stateJSON() string {
	h.t.Helper()
	return string(h.call("debug.state", map[string]any{"sessionId": "s"}))
}
