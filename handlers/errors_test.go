package handlers

import (
	"errors"
	"testing"

	"github.com/saverd/saverd/rpc"
	"github.com/saverd/saverd/session"
)

// The daemon's own errors keep the codes and words protocol.md's "Errors" table gives them: the session
// API's by their kind, the adapter's own as they are.
func TestOwnErrors(t *testing.T) {
	tests := []struct {
		err  error
		code int64
		msg  string
	}{
		{&session.Error{Kind: session.UnknownSession, Message: `unknown sessionId "s1": call session.start first`}, -32001, `unknown sessionId "s1": call session.start first`},
		{&session.Error{Kind: session.Invalid, Message: "params.x: required"}, -32602, "params.x: required"},
		{&session.Error{Kind: session.Failed, Message: "model gone"}, -32003, "model gone"},
		{serverShuttingDown(), -32002, "server shutting down"},
		{rpc.InvalidParams("params.y: %s", "bad"), -32602, "params.y: bad"},
	}
	for _, tt := range tests {
		var rerr *rpc.Error
		if !errors.As(wireError(tt.err), &rerr) || rerr.Code != tt.code || rerr.Error() != tt.msg || rerr.Data != nil {
			t.Errorf("%v: got %v, want %d %q", tt.err, wireError(tt.err), tt.code, tt.msg)
		}
	}
	if wireError(nil) != nil {
		t.Error("wireError(nil) is not nil")
	}
}
