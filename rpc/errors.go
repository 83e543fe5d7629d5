package rpc

import (
	"errors"
	"fmt"

	"go.lsp.dev/jsonrpc2"
)

// The standard JSON-RPC 2.0 error codes, as go.lsp.dev/jsonrpc2 defines them. The daemon's own codes
// (an unknown session, shutting down, a failed request) live with its methods, in package handlers.
const (
	CodeParseError     = int64(jsonrpc2.ParseError)
	CodeInvalidRequest = int64(jsonrpc2.InvalidRequest)
	CodeMethodNotFound = int64(jsonrpc2.MethodNotFound)
	CodeInvalidParams  = int64(jsonrpc2.InvalidParams)
	CodeInternalError  = int64(jsonrpc2.InternalError)
)

// ErrClosed is wrapped by every error caused by the connection having ended,
// whatever the reason (Close, the peer hanging up, a broken pipe).
var ErrClosed = errors.New("rpc: connection closed")

// Error is a JSON-RPC error object. Handlers return one to choose the code
// sent to the peer; Call returns one when the peer answers with an error.
type Error struct {
	Code    int64  `json:"code"`
	Message string `json:"message"`
	// Data is optional detail. For errors received from the peer it holds
	// the raw JSON (a json.RawMessage).
	Data any `json:"data,omitempty"`
}

// Error returns the message alone, so that wrapping an *Error with
// fmt.Errorf("context: %w", e) reads naturally; the code travels separately.
func (e *Error) Error() string {
	if e == nil {
		return "<nil *rpc.Error>" // a typed nil must not crash a logger
	}
	return e.Message
}

// WithData returns a copy of e carrying data.
func (e *Error) WithData(data any) *Error {
	c := *e
	c.Data = data
	return &c
}

// NewError returns an error with the given code and message.
func NewError(code int64, message string) *Error {
	return &Error{Code: code, Message: message}
}

// Errorf returns an error with the given code and a formatted message.
func Errorf(code int64, format string, args ...any) *Error {
	return NewError(code, fmt.Sprintf(format, args...))
}

// InvalidParams returns a -32602 error, e.g. for a missing required field.
func InvalidParams(format string, args ...any) *Error {
	return Errorf(CodeInvalidParams, format, args...)
}

// MethodNotFound returns the -32601 error for method.
func MethodNotFound(method string) *Error {
	return Errorf(CodeMethodNotFound, "method not found: %s", method)
}

// InternalError returns a -32603 error.
func InternalError(format string, args ...any) *Error {
	return Errorf(CodeInternalError, format, args...)
}

// AsError returns the *Error that answers err on the wire: err itself if it
// is one; the code and data of a wrapped *Error with err's full message, so
// context added by wrapping reaches the peer; otherwise -32603 with err's
// message. It returns nil for a nil err.
func AsError(err error) *Error {
	if err == nil {
		return nil
	}
	var e *Error
	if !errors.As(err, &e) {
		return NewError(CodeInternalError, err.Error())
	}
	if e == nil {
		// A typed nil *Error returned as a non-nil error interface.
		return NewError(CodeInternalError, "handler returned a nil *rpc.Error")
	}
	if e == err {
		return e
	}
	return &Error{Code: e.Code, Message: err.Error(), Data: e.Data}
}
