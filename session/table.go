package session

import (
	"context"
	"fmt"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rs/zerolog"

	"github.com/saverd/saverd/prices"
	"github.com/saverd/saverd/store"
)

// Registry is where the per-project pattern registry lives: the store package on disk, or a fake.
type Registry interface {
	Get(key string) (any, error)
	Update(key string, merge func(old any) (any, error)) error
}

// Options configure a Table.
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

// Table is the daemon's sessions and what they share: the host they fork through and notify, the
// registry, the background runs, the idle evictions. Its methods are the session API the adapters (the
// JSON-RPC methods in handlers) call; it is safe for the rpc read loop and the background runs to call
// concurrently.
type Table struct {
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
}

// New is a Table with no host yet: SetHost attaches the connection the daemon serves.
func New(opt Options) *Table {
	if opt.ForkTimeout == 0 {
		opt.ForkTimeout = 10 * time.Minute
	}
	if opt.Prices == nil {
		opt.Prices = TablePrices{prices.Default()}
	}
	ctx, cancel := context.WithCancel(context.Background())
	s := &Table{opt: opt, log: opt.Log, store: opt.Store, sessions: map[string]*Session{}, joining: map[string]*joining{}, ctx: ctx, cancel: cancel}
	s.idle = sync.NewCond(&s.busyMu)
	s.invalidates.Store(true)
	s.canFork = opt.ForkAlways
	return s
}

// SetHost attaches the host the daemon forks through and notifies.
func (s *Table) SetHost(h Host) {
	s.mu.Lock()
	s.host = h
	s.mu.Unlock()
}

// Now is the time of an event at the host's clock at, else the daemon's (Options.Clock, else the wall
// clock), in ms since the epoch.
func (s *Table) Now(at *int64) int64 {
	if at != nil {
		return *at
	}
	if s.opt.Clock != nil {
		return s.opt.Clock()
	}
	return time.Now().UnixMilli()
}

func (s *Table) notify(method string, params any) {
	s.mu.Lock()
	h := s.host
	s.mu.Unlock()
	if h != nil {
		h.Notify(method, params)
	}
}

func (s *Table) forker() (Host, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.host, s.host != nil && s.canFork
}

// background runs fn off the read loop, counted so Quiesce can wait for it.
func (s *Table) background(fn func()) {
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
func (s *Table) guard(fn func()) {
	defer func() {
		if r := recover(); r != nil {
			s.log.Error().Interface("panic", r).Str("stack", string(debug.Stack())).Msg("background run panicked")
		}
	}()
	fn()
}

// Quiesce waits until no background run is in flight: replay calls it between frames so a recording
// plays back the same way every time.
func (s *Table) Quiesce() {
	s.busyMu.Lock()
	for s.busy > 0 {
		s.idle.Wait()
	}
	s.busyMu.Unlock()
}

// Shutdown cancels the forks in flight and waits up to the deadline for the background work (the runs
// they end and the store writes after them) to finish.
func (s *Table) Shutdown(ctx context.Context) error {
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

// Session finds a started session (or rejoins one evicted) and marks it seen, or answers the
// UnknownSession error that tells the host to start it.
func (s *Table) Session(id string) (*Session, error) {
	if id == "" {
		return nil, invalid("params.sessionId: required")
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
