package handlers

import (
	"context"
	"encoding/json"
	"sync"
	"sync/atomic"

	"github.com/saverd/saverd/rpc"
	"github.com/saverd/saverd/session"
)

// ProtocolVersion is the version of the method set protocol.md documents.
const ProtocolVersion = "1"

// Server answers every method of the protocol over the session API (session.Table): each method decodes its
// params, makes one call (which checks their values), and encodes the result or the error's code. It is safe
// for the rpc read loop and the background runs to call concurrently.
type Server struct {
	tbl     *session.Table
	version string

	shutdown atomic.Bool // after `shutdown`, every request but `exit` is refused; read on every request
	table    map[string]method
	exitC    chan struct{}
	exitOnce sync.Once
}

// New is a Server over a new table of sessions, with no host yet: SetHost attaches the connection the
// daemon serves.
func New(opt session.Options) *Server {
	s := &Server{tbl: session.New(opt), version: opt.Version, exitC: make(chan struct{})}
	s.table = s.methods(opt.TestHooks)
	return s
}

// Sessions is the table of sessions the methods act on: the session API, for a test or a caller that
// needs no JSON.
func (s *Server) Sessions() *session.Table { return s.tbl }

// SetHost attaches the host the daemon forks through and notifies.
func (s *Server) SetHost(h session.Host) { s.tbl.SetHost(h) }

// Quiesce waits until no background run is in flight (session.Table.Quiesce).
func (s *Server) Quiesce() { s.tbl.Quiesce() }

// Shutdown cancels the forks in flight and waits up to the deadline for the background work
// (session.Table.Shutdown).
func (s *Server) Shutdown(ctx context.Context) error { return s.tbl.Shutdown(ctx) }

// FlushAll writes every session's registry and waits for the writes: the socket daemon's exit.
func (s *Server) FlushAll() { s.tbl.FlushAll() }

// Exited is closed once the host sent `exit`.
func (s *Server) Exited() <-chan struct{} { return s.exitC }

type method func(ctx context.Context, raw json.RawMessage) (any, error)

// Handle answers one request, its work done when it returns: a call HandleConn would answer before its
// recording is recorded first. For callers that are not an rpc.Conn (a replay, the tests).
func (s *Server) Handle(ctx context.Context, req rpc.Request) (any, error) {
	result, err := s.HandleConn(ctx, req)
	return rpc.SettleThen(result), err
}

// HandleConn answers one request for an rpc.Conn, which calls it in wire order: it may return an
// *rpc.Then, whose rest the connection runs after writing the reply and before reading the next request.
func (s *Server) HandleConn(ctx context.Context, req rpc.Request) (any, error) {
	m, ok := s.table[req.Method]
	if !ok {
		return nil, &rpc.Error{Code: rpc.CodeMethodNotFound, Message: "method not found: " + req.Method}
	}
	if req.Method != "exit" && s.shutdown.Load() {
		return nil, serverShuttingDown()
	}
	if r, ok := req.Read.(*toolCallRead); ok && req.Method == "tool.call" {
		res, err := s.runToolCall(r) // read with the frame (ParamsReaders)
		return res, wireError(err)
	}
	if r, ok := req.Read.(*hookRead); ok && req.Method == "hook" {
		res, err := s.runHook(ctx, r) // read with the frame: the payload's tool output measured there
		return res, wireError(err)
	}
	res, err := m(ctx, req.Params)
	return res, wireError(err)
}

func (s *Server) methods(testHooks bool) map[string]method {
	t := s.tbl
	table := map[string]method{
		"initialize":      s.initialize,
		"shutdown":        s.shutdownMethod,
		"exit":            s.exit,
		"session.start":   answers(t.SessionStart),
		"session.end":     none(t.SessionEnd),
		"session.compact": none(t.SessionCompact),
		"turn.start":      none(t.TurnStart),
		"turn.complete":   none(t.TurnComplete),
		"tool.call":       s.toolCall,
		"agent.spawn":     answers(t.AgentSpawn),
		"agent.spawned":   none(t.AgentSpawned),
		"prompt.submit":   answers(t.PromptSubmit),
		"command.run":     answers(t.CommandRun),
		"ui.action":       answers(t.UIAction),
		"ui.closed":       none(t.UIClosed),
		"ui.columns":      none(t.UIColumns),
		"view.band":       answers(t.ViewBand),
		"view.pane":       answers(t.ViewPane),
		"view.text":       answers(t.ViewText),
		"debug.state":     answers(t.DebugState),
		"impact.query":    s.impactQuery,
		"impact.pending":  s.impactPending,
		"hook":            s.hook,
		"statusline":      s.statusline,
	}
	if testHooks {
		table["debug.panic"] = none(t.DebugPanic)
	}
	return table
}

// answers is a method whose params are decoded (decode) and whose result is what one call of the session
// API answers with them.
func answers[P, R any](fn func(P) (R, error)) method {
	return func(_ context.Context, raw json.RawMessage) (any, error) {
		p, err := decode[P](raw)
		if err != nil {
			return nil, err
		}
		res, err := fn(p)
		if err != nil {
			return nil, err
		}
		return res, nil
	}
}

// none is a method whose result is null: its params decoded (decode), one call of the session API.
func none[P any](fn func(P) error) method {
	return func(_ context.Context, raw json.RawMessage) (any, error) {
		p, err := decode[P](raw)
		if err != nil {
			return nil, err
		}
		return nil, fn(p)
	}
}

// decode reads a method's params with the rpc layer's decoder: absent or null params are the zero value.
// Their values are the session API's to check (session/params_check.go).
func decode[T any](raw json.RawMessage) (T, error) {
	var v T
	if len(raw) == 0 || string(raw) == "null" {
		return v, nil
	}
	err := rpc.DecodeParams(raw, &v)
	return v, err
}
