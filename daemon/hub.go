package daemon

import (
	"context"
	"encoding/json"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rs/zerolog"

	"github.com/saverd/saverd/forkcmd"
	"github.com/saverd/saverd/handlers"
	"github.com/saverd/saverd/harness"
	"github.com/saverd/saverd/harness/all"
	"github.com/saverd/saverd/rpc"
	"github.com/saverd/saverd/session"
)

// hub is the session.Host for the socket daemon, which many connections share: short-lived hook
// connections, and hosts (an editor, a plugin) that said initialize. Notifications go to the hosts;
// a fork goes to a host that offers model.fork, else through the fork command (claude -p, codex exec).
type hub struct {
	log zerolog.Logger

	mu    sync.Mutex
	hosts map[*rpc.Conn]bool // initialized connections → offers model.fork
	open  int                // connections open now

	// last is when a connection last did anything (unix ns): the idle exit reads it.
	last atomic.Int64
}

func newHub(log zerolog.Logger) *hub {
	h := &hub{log: log, hosts: map[*rpc.Conn]bool{}}
	h.touch()
	return h
}

func (h *hub) touch() { h.last.Store(time.Now().UnixNano()) }

// handler wraps the server's handler for one connection: an initialize makes the connection a host
// (its capabilities.fork recorded); every request counts as activity.
//
// A client's shutdown and exit end its own connection, never the daemon every other client (each hook,
// another editor) still uses: shutdown flushes every session's registry (flush) and refuses that
// connection's later requests but exit, as on stdio; exit closes the connection. The daemon itself ends
// on a signal or --idle-exit.
func (h *hub) handler(c *rpc.Conn, next rpc.HandlerFunc, flush func()) rpc.HandlerFunc {
	down := false // this connection sent shutdown; its handlers run one at a time, on its read loop
	return func(ctx context.Context, req rpc.Request) (any, error) {
		h.touch()
		defer h.touch()
		switch {
		case req.Method == "exit":
			_ = c.Close() // the handler's own reply, if any, still goes out
			return nil, nil
		case down:
			return nil, rpc.NewError(handlers.CodeServerShuttingDown, "server shutting down")
		case req.Method == "shutdown":
			down = true
			flush()
			return nil, nil
		}
		if req.Method == "initialize" {
			var p struct {
				Capabilities *struct {
					Fork bool `json:"fork"`
				} `json:"capabilities"`
			}
			_ = json.Unmarshal(req.Params, &p)
			h.mu.Lock()
			h.hosts[c] = p.Capabilities != nil && p.Capabilities.Fork
			h.mu.Unlock()
		}
		return next(ctx, req)
	}
}

func (h *hub) opened() {
	h.mu.Lock()
	h.open++
	h.mu.Unlock()
	h.touch()
}

func (h *hub) closed(c *rpc.Conn) {
	h.mu.Lock()
	h.open--
	delete(h.hosts, c)
	h.mu.Unlock()
	h.touch()
}

// idleFor is how long nothing happened, and whether a connection is open now.
func (h *hub) idleFor() (time.Duration, bool) {
	h.mu.Lock()
	open := h.open > 0
	h.mu.Unlock()
	return time.Since(time.Unix(0, h.last.Load())), open
}

func (h *hub) Notify(method string, params any) {
	h.mu.Lock()
	conns := make([]*rpc.Conn, 0, len(h.hosts))
	for c := range h.hosts {
		conns = append(conns, c)
	}
	h.mu.Unlock()
	for _, c := range conns {
		_ = c.Notify(context.Background(), method, params)
	}
}

// Unavailable says why req cannot fork now: no connected host forks, and the fork command cannot run.
func (h *hub) Unavailable(req session.ForkRequest) error {
	h.mu.Lock()
	for _, forks := range h.hosts {
		if forks {
			h.mu.Unlock()
			return nil
		}
	}
	h.mu.Unlock()
	cfg, err := forkcmd.Load()
	if err != nil {
		return err
	}
	return forkcmd.Available(cfg, all.Fork(harness.ID(req.Harness)), forkcmd.Request{Harness: req.Harness, SessionID: req.SessionID, Cwd: req.Cwd, Model: req.Model})
}

func (h *hub) Fork(ctx context.Context, req session.ForkRequest) (*session.ForkResult, error) {
	h.mu.Lock()
	var host *rpc.Conn
	for c, forks := range h.hosts {
		if forks {
			host = c
			break
		}
	}
	h.mu.Unlock()
	if host != nil {
		return connHost{host}.Fork(ctx, req)
	}
	cfg, err := forkcmd.Load()
	if err != nil {
		return nil, err
	}
	res, err := forkcmd.Run(ctx, cfg, all.Fork(harness.ID(req.Harness)), forkcmd.Request{Harness: req.Harness, SessionID: req.SessionID, Cwd: req.Cwd,
		Model: req.Model, Purpose: req.Purpose, Prompt: req.Prompt})
	if res.Spent() {
		id := req.Harness
		if id == "" {
			id = string(harness.Hooked) // a host's session forks as a hook's that names none
		}
		if err := forkcmd.Record(req.SessionID, id, req.Purpose, res); err != nil {
			h.log.Warn().Err(err).Str("session", req.SessionID).Msg("fork not in the forks log")
		}
	}
	out := session.ForkResult{Text: res.Text, Usage: res.Usage, Model: res.Model}
	if err != nil {
		h.log.Warn().Err(err).Str("session", req.SessionID).Str("purpose", req.Purpose).Msg("fork failed")
		if res.Spent() {
			return nil, &session.SpentError{Err: err, Spent: out}
		}
		return nil, err
	}
	return &out, nil
}
