package handlers

import (
	"testing"

	"github.com/saverd/saverd/rpc"
)

// The daemon's own errors keep the codes and words protocol.md's "Errors" table gives them.
func TestOwnErrors(t *testing.T) {
	tests := []struct {
		err  *rpc.Error
		code int64
		msg  string
	}{
		{unknownSession("s1"), -32001, `unknown sessionId "s1": call session.start first`},
		{unknownSession(""), -32001, `unknown sessionId "": call session.start first`},
		{serverShuttingDown(), -32002, "server shutting down"},
		{requestFailed("model %s", "gone"), -32003, "model gone"},
	}
	for _, tt := range tests {
		if tt.err.Code != tt.code || tt.err.Error() != tt.msg || tt.err.Data != nil {
			t.Errorf("got %d %q (data %v), want %d %q", tt.err.Code, tt.err.Error(), tt.err.Data, tt.code, tt.msg)
		}
	}
}
