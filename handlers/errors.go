package handlers

import (
	"fmt"

	"github.com/saverd/saverd/rpc"
)

// saverd's own error codes, from the range JSON-RPC reserves for servers (protocol.md, "Errors"). The
// wire package keeps only the standard codes; these belong to the methods that answer them.
const (
	// CodeUnknownSession: the request names a session the daemon does not hold (or can rejoin).
	CodeUnknownSession int64 = -32001
	// CodeServerShuttingDown: after `shutdown`, every request but `exit`.
	CodeServerShuttingDown int64 = -32002
	// CodeRequestFailed: the request was well formed but could not be carried out.
	CodeRequestFailed int64 = -32003
)

// unknownSession is the -32001 answer for session id: the host is to call session.start first.
func unknownSession(id string) *rpc.Error {
	return rpc.Errorf(CodeUnknownSession, "unknown sessionId %q: call session.start first", id)
}

// serverShuttingDown is the -32002 answer.
func serverShuttingDown() *rpc.Error {
	return rpc.NewError(CodeServerShuttingDown, "server shutting down")
}

// requestFailed is a -32003 answer with the given message.
func requestFailed(format string, args ...any) *rpc.Error {
	return rpc.NewError(CodeRequestFailed, fmt.Sprintf(format, args...))
}
