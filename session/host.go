package session

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"

	"github.com/saverd/saverd/state/judge"
)

// Host is what the daemon asks of the process that spawned it: a fork of the model over the session's
// transcript, and fire-and-forget notifications for its UI. The daemon package backs it with the rpc
// connection (on the socket, with its hub of connections); tests back it with a fake.
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

// ForkResult is model.fork's result when the host ran the fork: the reply and what its own requests
// used, in the API's own names. CostUSD is what the host says the fork alone was billed (`costUsd`),
// nil when it did not say: then the price table prices Usage. A client's cumulative figure (claude -p's
// total_cost_usd after --resume, which includes the resumed transcript's spend) is never one.
type ForkResult struct {
	Text    string          `json:"text"`
	Usage   judge.ForkUsage `json:"usage"`
	CostUSD *float64        `json:"costUsd,omitempty"`
	// Model is the model the fork ran on when the fork command knows it; "" prices Usage at the
	// session's model. Never on the wire.
	Model string `json:"-"`
}

// SpentError is a fork that failed after it spent (a client's result that says it failed, a Codex turn
// that failed): the run fails with Err's words, and Spent is billed all the same.
type SpentError struct {
	Err   error
	Spent ForkResult // Text is empty
}

func (e *SpentError) Error() string { return e.Err.Error() }
func (e *SpentError) Unwrap() error { return e.Err }

// DecodeForkResult reads model.fork's result as a host sent it: null is a cold snapshot (nil, nil);
// anything else must be an object whose `text` is a string and whose `usage`, when present, is the
// four counts. The error says which part was wrong, in the words the failure toast shows.
func DecodeForkResult(raw json.RawMessage) (*ForkResult, error) {
	if len(bytes.TrimSpace(raw)) == 0 || string(bytes.TrimSpace(raw)) == "null" {
		return nil, nil
	}
	var shape map[string]json.RawMessage
	if err := json.Unmarshal(raw, &shape); err != nil {
		return nil, errors.New("the host answered model.fork with something that is not {text, usage}")
	}
	var res ForkResult
	if err := json.Unmarshal(shape["text"], &res.Text); err != nil || shape["text"] == nil || string(shape["text"]) == "null" {
		return nil, errors.New("the host answered model.fork without a text")
	}
	if u, ok := shape["usage"]; ok && string(u) != "null" {
		if err := json.Unmarshal(u, &res.Usage); err != nil {
			return nil, errors.New("the host answered model.fork with a usage that is not token counts")
		}
	}
	if c, ok := shape["costUsd"]; ok && string(c) != "null" {
		var cost float64
		if err := json.Unmarshal(c, &cost); err != nil || cost < 0 {
			return nil, errors.New("the host answered model.fork with a costUsd that is not a dollar amount")
		}
		res.CostUSD = &cost
	}
	return &res, nil
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
