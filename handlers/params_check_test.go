package handlers

import (
	"errors"
	"testing"

	"github.com/saverd/saverd/rpc"
)

// TestParamsOutOfRange: a value no host can mean (the session API refuses it, session/params_check.go)
// is answered -32602 naming the member, and the session is left as it was; the same requests with the
// value in range are taken.
func TestParamsOutOfRange(t *testing.T) {
	tool := map[string]any{"tool": "Bash", "tool_use_id": "t1", "command": "ls"}
	cases := []struct {
		method    string
		bad, good map[string]any
		want      string
	}{
		{"turn.start", map[string]any{"at": -5}, map[string]any{"at": 0}, "params.at: want a value ≥ 0, got -5"},
		{"session.compact", map[string]any{"at": -1}, map[string]any{"at": 5}, "params.at: want a value ≥ 0, got -1"},
		{"tool.call", map[string]any{"at": -5, "event": tool}, map[string]any{"at": 5, "event": tool}, "params.at: want a value ≥ 0, got -5"},
		{"turn.complete", map[string]any{"durationMs": -1}, map[string]any{"durationMs": 0}, "params.durationMs: want a duration in ms ≥ 0, got -1"},
		{"turn.complete", map[string]any{"usage": map[string]any{"input_tokens": -5000000}}, map[string]any{"usage": map[string]any{"input_tokens": 5}},
			"params.usage.input_tokens: want a token count ≥ 0, got -5000000"},
		{"turn.complete", map[string]any{"usage": map[string]any{"cache_read_input_tokens": -1}}, map[string]any{"usage": map[string]any{"cache_read_input_tokens": 1}},
			"params.usage.cache_read_input_tokens: want a token count ≥ 0, got -1"},
		{"turn.complete", map[string]any{"context": map[string]any{"window": 200000, "percent": -3}}, map[string]any{"context": map[string]any{"window": 200000, "percent": 3}},
			"params.context.percent: want a percentage ≥ 0, got -3"},
		{"turn.complete", map[string]any{"context": map[string]any{"window": -1}}, map[string]any{"context": map[string]any{"window": 1}},
			"params.context.window: want a token count ≥ 0, got -1"},
		{"turn.complete", map[string]any{"context": map[string]any{"window": 9, "tokens": -2}}, map[string]any{"context": map[string]any{"window": 9, "tokens": 2}},
			"params.context.tokens: want a value ≥ 0, got -2"},
	}
	for _, c := range cases {
		h := newHarness(t, nil)
		before := h.stateJSON()
		with := func(extra map[string]any) map[string]any {
			p := map[string]any{"sessionId": "s"}
			if c.method == "turn.complete" {
				p["reason"] = "answer"
			}
			for k, v := range extra {
				p[k] = v
			}
			return p
		}
		_, err := h.callErr(c.method, with(c.bad))
		var rerr *rpc.Error
		if !errors.As(err, &rerr) || rerr.Code != rpc.CodeInvalidParams || rerr.Message != c.want {
			t.Errorf("%s %v: err = %v, want -32602 %q", c.method, c.bad, err, c.want)
		}
		if after := h.stateJSON(); after != before {
			t.Errorf("%s %v: a refused request changed the session", c.method, c.bad)
		}
		if _, err := h.callErr(c.method, with(c.good)); err != nil {
			t.Errorf("%s %v: %v", c.method, c.good, err)
		}
	}
}

// TestSessionStartChecks: a relative cwd, a negative window or sample is refused before anything is
// loaded.
func TestSessionStartChecks(t *testing.T) {
	h := newHarness(t, nil)
	for _, c := range []struct {
		params map[string]any
		want   string
	}{
		{map[string]any{"sessionId": "n", "cwd": "relative/dir"}, `params.cwd: want an absolute path, got "relative/dir"`},
		{map[string]any{"sessionId": "n", "cwd": h.cwd, "usage": map[string]any{"window": -1}}, "params.usage.window: want a token count ≥ 0, got -1"},
		{map[string]any{"sessionId": "n", "cwd": h.cwd, "usage": map[string]any{"window": 9, "compactAt": -4}}, "params.usage.compactAt: want a value ≥ 0, got -4"},
		{map[string]any{"sessionId": "n", "cwd": h.cwd, "at": -1}, "params.at: want a value ≥ 0, got -1"},
	} {
		_, err := h.callErr("session.start", c.params)
		var rerr *rpc.Error
		if !errors.As(err, &rerr) || rerr.Code != rpc.CodeInvalidParams || rerr.Message != c.want {
			t.Errorf("session.start %v: err = %v, want -32602 %q", c.params, err, c.want)
		}
		if _, err := h.callErr("view.band", map[string]any{"sessionId": "n"}); err == nil {
			t.Errorf("session.start %v: refused, yet the session was started", c.params)
		}
	}
}

// TestInitializeRelativeStoreDir: a store named relative to nothing the host knows is refused.
func TestInitializeRelativeStoreDir(t *testing.T) {
	h := newHarness(t, nil)
	_, err := h.callErr("initialize", map[string]any{"storeDir": "state/saverd"})
	var rerr *rpc.Error
	if !errors.As(err, &rerr) || rerr.Code != rpc.CodeInvalidParams || rerr.Message != `params.storeDir: want an absolute path, got "state/saverd"` {
		t.Errorf("err = %v", err)
	}
}
