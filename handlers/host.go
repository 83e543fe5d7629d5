package handlers

import (
	"context"
	"errors"

	"github.com/saverd/saverd/state/judge"
)

// Host is what the daemon asks of the process that spawned it: a fork of the model over the session's
// transcript, and fire-and-forget notifications for its UI. cmd/saverd backs it with the rpc connection;
// tests back it with a fake.
type Host interface {
	// Fork runs a detached model completion. (nil, nil) is a cold snapshot: the host answered null.
	Fork(ctx context.Context, req ForkRequest) (*ForkResult, error)
	// Notify sends one notification; it must not block on the host's reading for long.
	Notify(method string, params any)
}

// ForkChecker is a Host that can tell, before a run starts, that it cannot fork now (the fork command is
// not installed, its configuration does not parse): no run is counted or retried then, and a
// `/saver check` says why at once.
type ForkChecker interface {
	Unavailable(req ForkRequest) error
}

// errNoHostFork: no connected host offers model.fork.
var errNoHostFork = errors.New("the host offers no model.fork")

// ForkRequest is model.fork's params.
type ForkRequest struct {
	SessionID string `json:"sessionId"`
	Purpose   string `json:"purpose"` // judge | process
	Prompt    string `json:"prompt"`

	// What a fork run by the daemon itself needs, for a session the hook bridge feeds; never on the wire.
	Harness string `json:"-"`
	Cwd     string `json:"-"`
	Model   string `json:"-"`
}

// ForkResult is model.fork's result when the host ran the fork: the reply and what it was billed, in
// the API's own names.
type ForkResult struct {
	Text  string          `json:"text"`
	Usage judge.ForkUsage `json:"usage"`
}

// The daemon → host notifications.
const (
	NotifyToast      = "ui.toast"
	NotifyLog        = "ui.log"
	NotifyInvalidate = "ui.invalidate"
	NotifyOpen       = "ui.open"
	NotifyClose      = "ui.close"
)

// Toast is ui.toast's and ui.log's params.
type Toast struct {
	SessionID string `json:"sessionId"`
	Text      string `json:"text"`
}

// SessionRef is ui.invalidate's params.
type SessionRef struct {
	SessionID string `json:"sessionId"`
}

// PaneOpen is ui.open's params.
type PaneOpen struct {
	SessionID string `json:"sessionId"`
	ID        string `json:"id"`
	Title     string `json:"title"`
	Rows      int    `json:"rows"`
	Focus     *bool  `json:"focus,omitempty"`
}

// PaneClose is ui.close's params.
type PaneClose struct {
	SessionID string `json:"sessionId"`
	ID        string `json:"id"`
}

// note is one notification queued during an event, sent once the session's lock is released.
type note struct {
	method string
	params any
}
