package session

import (
	"sync"
	"sync/atomic"
	"time"

	"github.com/saverd/saverd/state"
)

// A session the host never ends (it crashed, or its terminal was closed) used to stay in memory for
// the daemon's life: 100,000 of them held 378 MB. A session no hook has named for Options.IdleEvict is
// evicted: its registry flushed first, then forgotten. A later event for it rejoins it — a fresh
// session on the same project, its patterns loaded from the registry — instead of failing with
// `unknown sessionId`. A session a harness's hooks feed rejoins through its next hook, which reads its
// transcript again, as for a session the daemon never held.

// DefaultIdleEvict is how long a session may go unnamed by any hook before it is evicted.
const DefaultIdleEvict = 6 * time.Hour

// sweepEvery is how often, at most, the sessions are looked over for idle ones.
const sweepEvery = time.Minute

// maxEvicted bounds the evicted sessions remembered for a rejoin; past it the oldest are forgotten,
// and an event for one of those is answered `unknown sessionId`.
const maxEvicted = 10_000

// evictor is the Table's idle-session bookkeeping.
type evictor struct {
	lastSweep atomic.Int64 // ms, the daemon's clock

	mu    sync.Mutex
	gone  map[string]evictedSession // by session id
	order []string                  // gone's ids, oldest first
}

// evictedSession is what a rejoin needs of an evicted session.
type evictedSession struct {
	cwd    string
	window int64
	debug  bool
}

func (s *Table) idleEvict() time.Duration {
	if s.opt.IdleEvict == 0 {
		return DefaultIdleEvict
	}
	return s.opt.IdleEvict
}

// seen notes that a hook named sess now, and looks the sessions over for idle ones when it is time.
func (s *Table) seen(sess *Session) {
	now := s.Now(nil)
	sess.lastSeen.Store(now)
	idle := s.idleEvict()
	if idle < 0 {
		return
	}
	last := s.evict.lastSweep.Load()
	if now-last < sweepEvery.Milliseconds() && now >= last || !s.evict.lastSweep.CompareAndSwap(last, now) {
		return
	}
	s.sweep(now, idle)
}

// sweep evicts every session idle for longer than idle, each in the background: flushed, then
// forgotten unless a hook named it meanwhile.
func (s *Table) sweep(now int64, idle time.Duration) {
	cutoff := now - idle.Milliseconds()
	var stale []*Session
	s.mu.Lock()
	for _, sess := range s.sessions {
		if sess.lastSeen.Load() < cutoff {
			stale = append(stale, sess)
		}
	}
	s.mu.Unlock()
	for _, sess := range stale {
		s.background(func() { s.evictSession(sess, cutoff) })
	}
}

// evictSession flushes sess and forgets it, unless it was named again since cutoff.
func (s *Table) evictSession(sess *Session, cutoff int64) {
	sess.flush()
	var info evictedSession
	bridged := false
	sess.event(func() {
		info = evictedSession{cwd: sess.st.Cwd, window: sess.st.Usage.Window, debug: sess.debug}
		bridged = sess.bridge != nil
	})
	s.mu.Lock()
	if s.sessions[sess.id] != sess || sess.lastSeen.Load() >= cutoff {
		s.mu.Unlock()
		return
	}
	delete(s.sessions, sess.id)
	s.mu.Unlock()
	sess.event(func() { sess.ended = true })
	if !bridged {
		// A hook's session rejoins through its next hook instead, from its transcript (hookSession).
		s.evict.remember(sess.id, info)
	}
	s.log.Info().Str("sessionId", sess.id).Msg("idle session evicted; a later event rejoins it")
}

func (e *evictor) remember(id string, info evictedSession) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.gone == nil {
		e.gone = map[string]evictedSession{}
	}
	if _, ok := e.gone[id]; !ok {
		e.order = append(e.order, id)
	}
	e.gone[id] = info
	for len(e.order) > maxEvicted {
		delete(e.gone, e.order[0])
		e.order = e.order[1:]
	}
}

func (e *evictor) take(id string) (evictedSession, bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	info, ok := e.gone[id]
	delete(e.gone, id) // its place in order is dropped lazily, when it comes up
	return info, ok
}

// rejoin brings back an evicted session for a later event: a fresh session on the same project with
// its registry loaded. nil when id was never evicted (or was forgotten).
func (s *Table) rejoin(id string) *Session {
	info, ok := s.evict.take(id)
	if !ok {
		return nil
	}
	st := state.New(info.cwd, info.window)
	stored := s.loadPatterns(st)
	sess := newSession(s, id, st, info.debug)
	sess.stored = stored
	s.mu.Lock()
	defer s.mu.Unlock()
	if other := s.sessions[id]; other != nil {
		return other // a session.start won the race
	}
	s.sessions[id] = sess
	s.log.Info().Str("sessionId", id).Msg("evicted session rejoined")
	return sess
}
