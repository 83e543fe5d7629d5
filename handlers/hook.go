package handlers

import (
	"context"
	"encoding/json"
	"strings"
	"time"

	"github.com/saverd/saverd/bridge"
	"github.com/saverd/saverd/harness"
	"github.com/saverd/saverd/harness/all"
	"github.com/saverd/saverd/rpc"
	"github.com/saverd/saverd/session"
)

// HookParams is the hook method's params: one harness hook, its payload as the harness wrote it.
type HookParams struct {
	Harness string          `json:"harness"`
	Event   string          `json:"event"`
	Payload json.RawMessage `json:"payload"`
	// Debug makes a session the hook starts a debug session (CONTEXTSAVER_DEBUG in the hook's environment).
	Debug bool `json:"debug,omitempty"`
	// Plugin: the hook is one of saverd's plugin's (saverd-hook --plugin), so the session's replies name
	// the plugin's command until the person types one.
	Plugin bool `json:"plugin,omitempty"`
	// ReadBy (Unix ms, the hook's clock: the same machine's) is when the hook stops waiting for the daemon
	// to read the request. A request read after it was sent to a daemon that was stopped or wedged: its
	// event is recorded, and its answer goes nowhere (late).
	ReadBy int64 `json:"readBy,omitempty"`
	// Width is how many columns the harness shows the hook's answer in (saverd-hook sends it with a
	// UserPromptSubmit of a harness whose margins it knows): the pane a `/saver` line answers is drawn to
	// it, no wider than its own 100 columns, so the harness never wraps the pane's lines.
	Width int64 `json:"width,omitempty"`
}

// hookWire is HookParams as the hook method reads them: the payload, which can hold tens of megabytes of
// tool output, left where it lies in the request's params (which are the request's own and outlive the
// call) rather than copied.
type hookWire struct {
	Harness string `json:"harness"`
	Event   string `json:"event"`
	Payload lent   `json:"payload"`
	Debug   bool   `json:"debug,omitempty"`
	Plugin  bool   `json:"plugin,omitempty"`
	ReadBy  int64  `json:"readBy,omitempty"`
	Width   int64  `json:"width,omitempty"`
}

// lent is a JSON value kept as the decoder found it in its input, not copied (json.RawMessage copies).
type lent []byte

func (l *lent) UnmarshalJSON(b []byte) error {
	*l = b
	return nil
}

// HookResult is what the hook prints on its standard output; output null prints nothing.
type HookResult struct {
	Output *bridge.Answer `json:"output"`
}

// hook is one harness hook: the payload mapped onto the session methods, the answer in the harness's
// own words, and the toasts since the last answer as its systemMessage. protocol.md has the table. These
// are the params the frame's own pass could not read (readHookParams): decoded here, as they always were.
func (s *Server) hook(ctx context.Context, raw json.RawMessage) (any, error) {
	w, err := decode[hookWire](raw)
	if err != nil {
		return nil, err
	}
	p := HookParams{Harness: w.Harness, Event: w.Event, Payload: json.RawMessage(w.Payload), Debug: w.Debug, Plugin: w.Plugin, ReadBy: w.ReadBy, Width: w.Width}
	late := p.lateNow()
	live, err := harnessOf(&p)
	if err != nil {
		return nil, err
	}
	pl, err := bridge.Parse(p.Event, p.Payload)
	if err != nil {
		return nil, rpc.InvalidParams("params.payload: %v", err)
	}
	return s.answerHook(ctx, live, session.HookInput{Payload: pl, Debug: p.Debug, Plugin: p.Plugin, Late: late, Width: p.Width})
}

// runHook is the hook method for params read with the frame (readHookParams): checked as hook checks
// them, the payload as bridge.Parse checks it.
func (s *Server) runHook(ctx context.Context, r *hookRead) (any, error) {
	late := r.p.lateNow()
	live, err := harnessOf(&r.p)
	if err != nil {
		return nil, err
	}
	if err := bridge.Check(r.p.Event, &r.pl); err != nil {
		return nil, rpc.InvalidParams("params.payload: %v", err)
	}
	return s.answerHook(ctx, live, session.HookInput{Payload: r.pl, Debug: r.p.Debug, Plugin: r.p.Plugin, Late: late, Width: r.p.Width})
}

// lateNow: the hook stopped waiting for the daemon to read it before it was read (HookParams.ReadBy).
func (p HookParams) lateNow() bool { return p.ReadBy > 0 && time.Now().UnixMilli() > p.ReadBy }

// harnessOf is the harness a hook's params name (the default one when they name none, protocol.md
// "hook"), or the error naming what is wrong with them: a harness or an event saverd does not know.
func harnessOf(p *HookParams) (harness.Live, error) {
	if p.Harness == "" {
		p.Harness = string(harness.Hooked)
	}
	live, ok := all.LiveOf(harness.ID(p.Harness))
	if !ok {
		return nil, rpc.InvalidParams("params.harness: want %s, got %q", all.LiveNames(), p.Harness)
	}
	if !bridge.Known(p.Event) {
		return nil, rpc.InvalidParams("params.event: unknown hook event %q (want one of %s)", p.Event, strings.Join(bridge.Events, ", "))
	}
	return live, nil
}

// answerHook applies the hook to its session (session.Table.Hook) and answers what the hook prints.
func (s *Server) answerHook(ctx context.Context, live harness.Live, in session.HookInput) (any, error) {
	out, err := s.tbl.Hook(ctx, live, in)
	if err != nil {
		return nil, err
	}
	return HookResult{Output: out}, nil
}
