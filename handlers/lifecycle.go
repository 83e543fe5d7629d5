package handlers

import (
	"context"
	"encoding/json"

	"github.com/saverd/saverd/rpc"
)

// hooked is the params of a session method.
type hooked interface{ hook() Hook }

// sessionFor decodes a session method's params and finds the session they name.
func sessionFor[T hooked](s *Server, raw json.RawMessage) (T, *Session, error) {
	p, err := decode[T](raw)
	if err != nil {
		return p, nil, err
	}
	sess, err := s.session(p.hook().SessionID)
	return p, sess, err
}

func decode[T any](raw json.RawMessage) (T, error) {
	var v T
	if len(raw) == 0 || string(raw) == "null" {
		return v, nil
	}
	if err := rpc.DecodeParams(raw, &v); err != nil {
		return v, err
	}
	if c, ok := any(v).(checked); ok {
		return v, c.check()
	}
	return v, nil
}

func (s *Server) initialize(_ context.Context, raw json.RawMessage) (any, error) {
	p, err := decode[InitializeParams](raw)
	if err != nil {
		return nil, err
	}
	if err := checkBudget(p.JudgeBudget); err != nil {
		return nil, err
	}
	if p.StoreDir != "" && s.opt.OpenStore != nil {
		st, err := s.opt.OpenStore(p.StoreDir)
		if err != nil {
			return nil, &rpc.Error{Code: rpc.CodeInvalidParams, Message: "params.storeDir: " + err.Error()}
		}
		s.mu.Lock()
		s.store = st
		s.mu.Unlock()
	}
	s.mu.Lock()
	if p.JudgeBudget != nil {
		s.budget = new(*p.JudgeBudget)
	}
	if p.Detectors != nil {
		s.detectors = *p.Detectors
	}
	if p.Capabilities != nil {
		s.canFork = p.Capabilities.Fork || s.opt.ForkAlways
		if p.Capabilities.Invalidate != nil {
			s.invalidates.Store(*p.Capabilities.Invalidate)
		}
	}
	s.mu.Unlock()
	return InitializeResult{ServerInfo: ServerInfo{Name: "saverd", Version: s.opt.Version}, ProtocolVersion: ProtocolVersion}, nil
}

// shutdownMethod flushes every session's registry and refuses every request after it but `exit`; the
// process exits on `exit` or at EOF. It never waits for a fork: those end with the process.
func (s *Server) shutdownMethod(_ context.Context, _ json.RawMessage) (any, error) {
	s.shutdown.Store(true)
	s.FlushAll()
	return nil, nil
}

// exit is a notification: the daemon's main loop watches Exited.
func (s *Server) exit(_ context.Context, _ json.RawMessage) (any, error) {
	s.shutdown.Store(true)
	s.exitOnce.Do(func() { close(s.exitC) })
	return nil, nil
}

// Exited is closed once the host sent `exit`.
func (s *Server) Exited() <-chan struct{} { return s.exitC }

// debugPanic exists only with TestHooks: it changes the session, then panics, so the tests can prove
// the change is rolled back and the connection goes on.
func (s *Server) debugPanic(_ context.Context, raw json.RawMessage) (any, error) {
	p, sess, err := sessionFor[SessionParams](s, raw)
	if err != nil {
		return nil, err
	}
	sess.event(func() {
		sess.dispatch(turnStartAction(s.now(p.At)))
		panic("debug.panic: a handler failed mid-event")
	})
	return nil, nil
}

// FlushAll writes every session's registry and waits for the writes: the socket daemon's exit.
func (s *Server) FlushAll() {
	s.mu.Lock()
	sessions := make([]*Session, 0, len(s.sessions))
	for _, sess := range s.sessions {
		sessions = append(sessions, sess)
	}
	s.mu.Unlock()
	for _, sess := range sessions {
		sess.flush()
	}
}
