package session

import "fmt"

// Kind is what sort of refusal an Error is. The session API says what went wrong in these words; the
// adapters answer each kind with its code (handlers/errors.go, protocol.md "Errors").
type Kind int

const (
	// Invalid: the request names a value the method cannot take (a member missing, out of range, unknown).
	Invalid Kind = iota + 1
	// UnknownSession: the request names a session the daemon does not hold (or can rejoin).
	UnknownSession
	// Failed: the request was well formed but could not be carried out.
	Failed
)

// Error is a request the session API refuses, in words a person reads (the params' member named).
type Error struct {
	Kind    Kind
	Message string
}

func (e *Error) Error() string { return e.Message }

// invalid is the Invalid error with the given message.
func invalid(format string, args ...any) *Error {
	return &Error{Kind: Invalid, Message: fmt.Sprintf(format, args...)}
}

// unknownSession is the UnknownSession error for session id: the host is to call session.start first.
func unknownSession(id string) *Error {
	return &Error{Kind: UnknownSession, Message: fmt.Sprintf("unknown sessionId %q: call session.start first", id)}
}

// requestFailed is the Failed error with the given message.
func requestFailed(format string, args ...any) *Error {
	return &Error{Kind: Failed, Message: fmt.Sprintf(format, args...)}
}
