package handlers

import (
	"context"
	"encoding/json"

	"github.com/saverd/saverd/bridge"
	"github.com/saverd/saverd/rpc"
	"github.com/saverd/saverd/session"
)

// StatuslineParams is the statusline method's params: Claude Code's status line input, as it wrote it.
type StatuslineParams struct {
	Payload json.RawMessage `json:"payload"`
	Width   int             `json:"width,omitempty"`
}

// statusline reads Claude Code's status line input for what it says of its session (its model and
// window, which hooks do not say) and draws the session's band as one line (session.Table.Statusline).
func (s *Server) statusline(_ context.Context, raw json.RawMessage) (any, error) {
	p, err := decode[StatuslineParams](raw)
	if err != nil {
		return nil, err
	}
	line, err := bridge.ParseStatusLine(p.Payload)
	if err != nil {
		return nil, rpc.InvalidParams("params.payload: %v", err)
	}
	in := session.StatuslineInput{SessionID: line.SessionID, Model: line.Model, Window: line.Window, Width: p.Width}
	return s.tbl.Statusline(in), nil
}
