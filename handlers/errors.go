package handlers

import (
	"errors"

	"github.com/saverd/saverd/rpc"
	"github.com/saverd/saverd/session"
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

// serverShuttingDown is the -32002 answer.
func serverShuttingDown() *rpc.Error {
	return rpc.NewError(CodeServerShuttingDown, "server shutting down")
}

// codes are the answers to the session API's errors, by kind.
var codes = map[session.Kind]int64{
	session.Invalid:        rpc.CodeInvalidParams,
	session.UnknownSession: CodeUnknownSession,
	session.Failed:         CodeRequestFailed,
}

// wireError is err as the wire answers it: a session API error with its kind's code and its words;
// anything else (the rpc layer's own, nil) as it is.
func wireError(err error) error {
	if err == nil {
		return nil // the common case, with no allocation: errors.As's target would escape
	}
	var serr *session.Error
	if !errors.As(err, &serr) {
		return err
	}
	code, ok := codes[serr.Kind]
	if !ok {
		code = rpc.CodeInternalError
	}
	return &rpc.Error{Code: code, Message: serr.Message}
}
