package session

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/saverd/saverd/bridge"
	"github.com/saverd/saverd/harness"
	"github.com/saverd/saverd/harness/all"
	"github.com/saverd/saverd/rpc"
	"github.com/saverd/saverd/state/intake"
)

// The tests of this package write a method's params as the protocol does, in JSON, and read its result
// as a host would: Handle decodes them with encoding/json into the API's params and calls the session
// API, as handlers does (its own tests hold the adapter: the values it refuses, the one-pass readers,
// the rpc.Then of tool.call, the codes). handle's cases are handlers' method table but the connection's
// shutdown and exit: handlers' TestSessionTestsDispatchTheMethodTable reads them from this file.

// The codes protocol.md's "Errors" gives the API's errors (handlers/errors.go answers them so).
const (
	CodeUnknownSession     int64 = -32001
	CodeServerShuttingDown int64 = -32002
	CodeRequestFailed      int64 = -32003
)

// HookParams is the hook method's params, as saverd-hook sends them.
type HookParams struct {
	Harness string          `json:"harness"`
	Event   string          `json:"event"`
	Payload json.RawMessage `json:"payload"`
	Debug   bool            `json:"debug,omitempty"`
	Plugin  bool            `json:"plugin,omitempty"`
	ReadBy  int64           `json:"readBy,omitempty"`
	Width   int64           `json:"width,omitempty"`
}

// HookResult is the hook method's result.
type HookResult struct {
	Output *bridge.Answer `json:"output"`
}

// StatuslineParams is the statusline method's params.
type StatuslineParams struct {
	Payload json.RawMessage `json:"payload"`
	Width   int             `json:"width,omitempty"`
}

// Handle answers one request through the session API, its errors with their codes.
func (s *Table) Handle(ctx context.Context, req rpc.Request) (any, error) {
	res, err := s.handle(ctx, req.Method, req.Params)
	var serr *Error
	if errors.As(err, &serr) {
		code := map[Kind]int64{Invalid: rpc.CodeInvalidParams, UnknownSession: CodeUnknownSession, Failed: CodeRequestFailed}[serr.Kind]
		return nil, &rpc.Error{Code: code, Message: serr.Message}
	}
	if err != nil {
		return nil, err
	}
	return res, nil
}

func (s *Table) handle(ctx context.Context, method string, raw json.RawMessage) (any, error) {
	switch method {
	case "initialize":
		return nil, s.Initialize(params[InitializeParams](raw))
	case "session.start":
		return s.SessionStart(params[SessionStartParams](raw))
	case "session.end":
		return nil, s.SessionEnd(params[SessionParams](raw))
	case "session.compact":
		return nil, s.SessionCompact(params[SessionParams](raw))
	case "turn.start":
		return nil, s.TurnStart(params[SessionParams](raw))
	case "turn.complete":
		return nil, s.TurnComplete(params[TurnCompleteParams](raw))
	case "tool.call":
		p := params[ToolCallParams](raw)
		sess, c, err := s.CallOf(&p, noEvent, p.At)
		if err != nil {
			return nil, err
		}
		return ContextResult{Context: append([]string{}, sess.ToolCall(&c)...)}, nil
	case "agent.spawn":
		return s.AgentSpawn(params[AgentSpawnParams](raw))
	case "agent.spawned":
		return nil, s.AgentSpawned(params[AgentSpawnedParams](raw))
	case "prompt.submit":
		return s.PromptSubmit(params[PromptSubmitParams](raw))
	case "command.run":
		return s.CommandRun(params[CommandRunParams](raw))
	case "ui.action":
		return s.UIAction(params[UIActionParams](raw))
	case "ui.closed":
		return nil, s.UIClosed(params[SessionParams](raw))
	case "ui.columns":
		return nil, s.UIColumns(params[ColumnsParams](raw))
	case "view.band":
		return s.ViewBand(params[SessionParams](raw))
	case "view.pane":
		return s.ViewPane(params[SessionParams](raw))
	case "view.text":
		return s.ViewText(params[ViewTextParams](raw))
	case "debug.state":
		return s.DebugState(params[SessionParams](raw))
	case "debug.panic":
		return nil, s.DebugPanic(params[SessionParams](raw))
	case "impact.query", "impact.pending":
		q, err := s.Impact(params[ImpactParams](raw))
		if err != nil {
			return nil, err
		}
		if method == "impact.pending" {
			return q.Pending(ctx)
		}
		return q.Report(ctx)
	case "hook":
		return s.hookJSON(ctx, params[HookParams](raw))
	case "statusline":
		return s.statuslineJSON(params[StatuslineParams](raw))
	}
	return nil, &rpc.Error{Code: rpc.CodeMethodNotFound, Message: "method not found: " + method}
}

// noEvent: tool.call's event is decoded by CallOf, as for params no one-pass reader read.
var noEvent intake.ToolEvent

// params decodes raw as encoding/json does; a test's params are well formed.
func params[P any](raw json.RawMessage) P {
	var p P
	if len(raw) > 0 {
		if err := json.Unmarshal(raw, &p); err != nil {
			panic("test params " + string(raw) + ": " + err.Error())
		}
	}
	return p
}

func (s *Table) hookJSON(ctx context.Context, p HookParams) (HookResult, error) {
	if p.Harness == "" {
		p.Harness = string(harness.Hooked)
	}
	live, ok := all.LiveOf(harness.ID(p.Harness))
	if !ok {
		return HookResult{}, invalid("params.harness: unknown %q", p.Harness)
	}
	pl, err := bridge.Parse(p.Event, p.Payload)
	if err != nil {
		return HookResult{}, invalid("params.payload: %v", err)
	}
	late := p.ReadBy > 0 && time.Now().UnixMilli() > p.ReadBy
	out, err := s.Hook(ctx, live, HookInput{Payload: pl, Debug: p.Debug, Plugin: p.Plugin, Late: late, Width: p.Width})
	return HookResult{Output: out}, err
}

func (s *Table) statuslineJSON(p StatuslineParams) (TextResult, error) {
	line, err := bridge.ParseStatusLine(p.Payload)
	if err != nil {
		return TextResult{}, invalid("params.payload: %v", err)
	}
	in := StatuslineInput{SessionID: line.SessionID, Model: line.Model, Window: line.Window, Width: p.Width}
	return s.Statusline(in), nil
}
