package handlers

import (
	"context"
	"encoding/json"

	"github.com/saverd/saverd/session"
)

// initialize configures the table for the host (session.Table.Initialize) and says who answers.
func (s *Server) initialize(_ context.Context, raw json.RawMessage) (any, error) {
	p, err := decode[session.InitializeParams](raw)
	if err != nil {
		return nil, err
	}
	if err := s.tbl.Initialize(p); err != nil {
		return nil, err
	}
	return session.InitializeResult{ServerInfo: session.ServerInfo{Name: "saverd", Version: s.version}, ProtocolVersion: ProtocolVersion}, nil
}

// shutdownMethod flushes every session's registry and refuses every request after it but `exit`; the
// process exits on `exit` or at EOF. It never waits for a fork: those end with the process.
func (s *Server) shutdownMethod(_ context.Context, _ json.RawMessage) (any, error) {
	s.shutdown.Store(true)
	s.tbl.FlushAll()
	return nil, nil
}

// exit is a notification: the daemon's main loop watches Exited.
func (s *Server) exit(_ context.Context, _ json.RawMessage) (any, error) {
	s.shutdown.Store(true)
	s.exitOnce.Do(func() { close(s.exitC) })
	return nil, nil
}
