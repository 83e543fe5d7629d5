package handlers

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rs/zerolog"

	"github.com/saverd/saverd/prices"
	"github.com/saverd/saverd/rpc"
	"github.com/saverd/saverd/store"
)

// ProtocolVersion is the version of the method set protocol.md documents.
const ProtocolVersion = "1"

// Registry is where the per-project pattern registry lives: the store package on disk, or a fake.
type Registry interface {
	Get(key string) (any, error)
	Update(key string, merge func(old any) (any, error)) error
}

// Options configure a Server.
type Options struct {
	Version     string
	Store       Registry
	Log         zerolog.Logger
	Clock       func() int64  // ms since the epoch; nil = the wall clock
	ForkTimeout time.Duration // 0 = 10 minutes
	// OpenStore opens the registry named by initialize's storeDir; nil keeps Store.
	OpenStore func(dir string) (Registry, error)
	// Synchronous runs background work inline, right after the event that started it, instead of in
	// a goroutine: replay uses it so a recording plays back the same way every time.
	Synchronous bool
	// TestHooks enables debug.panic, a method that panics mid-event so the end-to-end tests can prove
	// the rollback and the -32603 answer.
	TestHooks bool
	// WriteRoot, when set, is the directory the rules a session writes land under (at root/<their own
	// path>) instead of at their paths: a replay changes no file of the recorded project (see
	// writeArtifact).
	WriteRoot string
	// IdleEvict is how long a session may go unnamed by any hook before it is flushed and evicted
	// (see evict.go); 0 means DefaultIdleEvict, a negative value never.
	IdleEvict time.Duration
	// ForkAlways: the host can always fork (the socket daemon's hub forks through a connected host that
	// offers model.fork, else through a command), whatever one connection's initialize says.
	ForkAlways bool
	// SessionsLog, when set, is the file one record per ended bridged session is appended to (read from
	// the harness's transcript): `saverd impact` and `saverd sessions` read it.
	SessionsLog string
	// HistoryLogs are the daemon logs impact reads when a query names no sessions file: the sessions
	// log (read even by a daemon that writes none) and the forks log. "" reads none.
	HistoryLogs HistoryLogs
	// CheckWait bounds how long a `/saver check` typed in a harness waits for its run before answering;
	// 0 = DefaultCheckWait.
	CheckWait time.Duration
	// OffLoop, when not nil, is called as each background run starts, and the func it returns once it
	// has ended (see rpc.Options.OffLoop); with Synchronous, around the run made inline.
	OffLoop func() (done func())
	// Prices prices judge runs and savings (money.go); nil is the embedded table (prices.Default).
	Prices PriceTable
	// Journal keeps each rule write's bytes before and after, per project, so `/saver undo` can take
	// the last one back (rulewrite.go, undo.go); nil keeps none, and a write cannot be undone.
	Journal *store.Journal
}

// Server answers every method of the protocol. It is safe for the rpc read loop and the background
// runs to call concurrently.
type Server struct {
	opt Options
	log zerolog.Logger

	mu          sync.Mutex
	host        Host
	canFork     bool
	budget      *float64    // initialize's judgeBudget: the host's cap for sessions that set none of their own
	detectors   bool        // initialize's detectors: the host's sessions run the detectors at each turn's end
	invalidates atomic.Bool // ui.invalidate wanted; read from every session's events
	store       Registry
	sessions    map[string]*Session
	joining     map[string]*joining // sessions a hook is starting (hook.go)
	shutdown    atomic.Bool         // after `shutdown`, every request but `exit` is refused; read on every request

	ctx    context.Context
	cancel context.CancelFunc
	// bg is every background run; guard already turns their panics into logs, so a plain WaitGroup
	// is all Shutdown needs.
	bg sync.WaitGroup
	// busy counts background runs in flight, so replay and tests can wait for quiet.
	busyMu sync.Mutex
	busy   int
	idle   *sync.Cond

	evict evictor // idle sessions (evict.go)

	table    map[string]method
	exitC    chan struct{}
	exitOnce sync.Once
}

// New is a Server with no host yet: SetHost attaches the connection the daemon serves.
func New(opt Options) *Server {
	if opt.ForkTimeout == 0 {
		opt.ForkTimeout = 10 * time.Minute
	}
	if opt.Prices == nil {
		opt.Prices = TablePrices{prices.Default()}
	}
	ctx, cancel := context.WithCancel(context.Background())
	s := &Server{opt: opt, log: opt.Log, store: opt.Store, sessions: map[string]*Session{}, joining: map[string]*joining{}, ctx: ctx, cancel: cancel}
	s.idle = sync.NewCond(&s.busyMu)
	s.invalidates.Store(true)
	s.canFork = opt.ForkAlways
	s.table = s.methods()
	s.exitC = make(chan struct{})
	return s
}

// SetHost attaches the host the daemon forks through and notifies.
func (s *Server) SetHost(h Host) {
	s.mu.Lock()
	s.host = h
	s.mu.Unlock()
}

func (s *Server) now(at *int64) int64 {
	if at != nil {
		return *at
	}
	if s.opt.Clock != nil {
		return s.opt.Clock()
	}
	return time.Now().UnixMilli()
}

func (s *Server) notify(method string, params any) {
	s.mu.Lock()
	h := s.host
	s.mu.Unlock()
	if h != nil {
		h.Notify(method, params)
	}
}

func (s *Server) forker() (Host, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.host, s.host != nil && s.canFork
}

// background runs fn off the read loop, counted so Quiesce can wait for it.
func (s *Server) background(fn func()) {
	if s.opt.Synchronous {
		if s.opt.OffLoop != nil {
			defer s.opt.OffLoop()()
		}
		s.guard(fn)
		return
	}
	s.busyMu.Lock()
	s.busy++
	s.busyMu.Unlock()
	s.bg.Go(func() {
		defer func() {
			s.busyMu.Lock()
			s.busy--
			if s.busy == 0 {
				s.idle.Broadcast()
			}
			s.busyMu.Unlock()
		}()
		if s.opt.OffLoop != nil {
			defer s.opt.OffLoop()()
		}
		s.guard(fn)
	})
}

// guard runs fn, logging a panic instead of letting it end the daemon.
func (s *Server) guard(fn func()) {
	defer func() {
		if r := recover(); r != nil {
			s.log.Error().Interface("panic", r).Str("stack", string(debug.Stack())).Msg("background run panicked")
		}
	}()
	fn()
}

// Quiesce waits until no background run is in flight: replay calls it between frames so a recording
// plays back the same way every time.
func (s *Server) Quiesce() {
	s.busyMu.Lock()
	for s.busy > 0 {
		s.idle.Wait()
	}
	s.busyMu.Unlock()
}

// Shutdown cancels the forks in flight and waits up to the deadline for the background work (the runs
// they end and the store writes after them) to finish.
func (s *Server) Shutdown(ctx context.Context) error {
	s.cancel()
	done := make(chan struct{})
	go func() {
		s.bg.Wait()
		close(done)
	}()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("shutdown: background work still running: %w", ctx.Err())
	}
}

type method func(ctx context.Context, raw json.RawMessage) (any, error)

// Handle answers one request, its work done when it returns: a call HandleConn would answer before its
// recording is recorded first. For callers that are not an rpc.Conn (a replay, the tests).
func (s *Server) Handle(ctx context.Context, req rpc.Request) (any, error) {
	result, err := s.HandleConn(ctx, req)
	return rpc.SettleThen(result), err
}

// HandleConn answers one request for an rpc.Conn, which calls it in wire order: it may return an
// *rpc.Then, whose rest the connection runs after writing the reply and before reading the next request.
func (s *Server) HandleConn(ctx context.Context, req rpc.Request) (any, error) {
	m, ok := s.table[req.Method]
	if !ok {
		return nil, &rpc.Error{Code: rpc.CodeMethodNotFound, Message: "method not found: " + req.Method}
	}
	if req.Method != "exit" && s.shutdown.Load() {
		return nil, serverShuttingDown()
	}
	if r, ok := req.Read.(*toolCallRead); ok && req.Method == "tool.call" {
		return s.runToolCall(r) // read with the frame (ParamsReaders)
	}
	if r, ok := req.Read.(*hookRead); ok && req.Method == "hook" {
		return s.runHook(ctx, r) // read with the frame: the payload's tool output measured there
	}
	return m(ctx, req.Params)
}

func (s *Server) methods() map[string]method {
	table := map[string]method{
		"initialize":      s.initialize,
		"shutdown":        s.shutdownMethod,
		"exit":            s.exit,
		"session.start":   s.sessionStart,
		"session.end":     s.sessionEnd,
		"session.compact": s.sessionCompact,
		"turn.start":      s.turnStart,
		"turn.complete":   s.turnComplete,
		"tool.call":       s.toolCall,
		"agent.spawn":     s.agentSpawn,
		"agent.spawned":   s.agentSpawned,
		"prompt.submit":   s.promptSubmit,
		"command.run":     s.commandRun,
		"ui.action":       s.uiAction,
		"ui.closed":       s.uiClosed,
		"ui.columns":      s.uiColumns,
		"view.band":       s.viewBand,
		"view.pane":       s.viewPane,
		"view.text":       s.viewText,
		"debug.state":     s.debugState,
		"impact.query":    s.impactQuery,
		"impact.pending":  s.impactPending,
		"hook":            s.hook,
		"statusline":      s.statusline,
	}
	if s.opt.TestHooks {
		table["debug.panic"] = s.debugPanic
	}
	return table
}

// session finds a started session or answers the saverd code that tells the host to start it.
func (s *Server) session(id string) (*Session, error) {
	if id == "" {
		return nil, rpc.InvalidParams("params.sessionId: required")
	}
	s.mu.Lock()
	sess := s.sessions[id]
	s.mu.Unlock()
	if sess == nil {
		sess = s.rejoin(id)
	}
	if sess == nil {
		return nil, unknownSession(id)
	}
	s.seen(sess)
	return sess, nil
}
