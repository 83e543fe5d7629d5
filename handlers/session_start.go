package handlers

import (
	"context"
	"encoding/json"
	"strconv"

	"github.com/saverd/saverd/rpc"
	"github.com/saverd/saverd/state"
)

// sessionStart is the plugin's session.start hook: the registry loaded, the window sampled, the
// overhead measured, and a transcript this daemon joined late adopted — with a check armed and fired
// over it when it passes the row floor.
func (s *Server) sessionStart(_ context.Context, raw json.RawMessage) (any, error) {
	p, err := decode[SessionStartParams](raw)
	if err != nil {
		return nil, err
	}
	if p.SessionID == "" {
		return nil, rpc.InvalidParams("params.sessionId: required")
	}
	if p.Cwd == "" {
		return nil, rpc.InvalidParams("params.cwd: required")
	}
	if err := checkBudget(p.JudgeBudget); err != nil {
		return nil, err
	}
	now := s.now(p.At)
	var window int64
	if p.Usage != nil {
		window = p.Usage.Window
	}
	st := state.New(p.Cwd, window)
	for _, sp := range s.loadRegistry(p.Cwd) {
		st.Patterns = append(st.Patterns, state.FromStored(sp))
	}
	sess := newSession(s, p.SessionID, st, p.Debug)
	s.mu.Lock()
	s.sessions[p.SessionID] = sess
	s.mu.Unlock()

	res := SessionStartResult{Command: state.SaverCommand}
	budget := s.budgetFor(p.Cwd, p.JudgeBudget)
	sess.event(func() {
		if budget != state.JudgeBudgetDefault {
			sess.dispatch(state.SetBudget{Share: budget})
		}
		if u := p.Usage; u != nil {
			sess.dispatch(state.UsageSample{Usage: u.Usage, Now: now})
			sess.dispatch(state.SetOverhead{Overhead: overheadOf(u.Breakdown)})
		}
		res.Adopted, res.Armed = sess.adopt(p.Messages, now)
	})
	return res, nil
}

func overheadOf(b *Breakdown) state.Overhead {
	if b == nil {
		return state.Overhead{}
	}
	n := func(t *tokenCount) int64 {
		if t == nil {
			return 0
		}
		return int64(*t)
	}
	return state.Overhead{Memory: n(b.MemoryFiles), MCP: n(b.MCPTools), Agents: n(b.Agents)}
}

// adopt rebuilds the ledger from a late-joined transcript; past the row floor it arms a check and fires
// it at once (a cold answer leaves it armed for the next warm opportunity).
func (sess *Session) adopt(messages []state.SessionMessage, now int64) (adopted int, armed bool) {
	rows := state.AdoptRows(messages)
	if len(rows) == 0 {
		return 0, false
	}
	sess.dispatch(state.Adopt{Rows: rows})
	enough := len(sess.st.Rows) >= state.JudgeMinRows
	tail := "checking them now"
	if !enough {
		tail = "under the " + strconv.Itoa(state.JudgeMinRows) + "-row floor, nothing to check"
	}
	sess.log("ContextSaver adopted " + strconv.Itoa(len(rows)) + " rows from the transcript · " + tail)
	if !enough {
		return len(rows), false
	}
	sess.dispatch(state.CheckArm{})
	sess.log("ContextSaver fired a check over " + strconv.Itoa(len(sess.st.Rows)) + " adopted rows · armed, so a cold answer retries")
	sess.armedCheck(now)
	return len(rows), true
}

// loadRegistry reads the project's stored patterns; a store that cannot be read costs the session its
// memory, never its start.
func (s *Server) loadRegistry(cwd string) []state.StoredPattern {
	s.mu.Lock()
	store := s.store
	s.mu.Unlock()
	if store == nil {
		return nil
	}
	v, err := store.Get(state.StoreKey(cwd))
	if err != nil {
		s.log.Warn().Err(err).Str("cwd", cwd).Msg("registry unreadable; the session starts empty")
		return nil
	}
	return state.ParseRegistry(v)
}

// persist merges this session's storable patterns into the project's registry, in the background: the
// plugin's store write was fire-and-forget too. Called under the session's lock.
func (sess *Session) persist() {
	if write := sess.registryWrite(); write != nil {
		sess.writes.Add(1)
		sess.spawn(func() {
			defer sess.writes.Done()
			write()
		})
	}
}

// registryWrite is the store write for the session as it is now (nil with no store); it runs without the
// lock. Called under the session's lock.
func (sess *Session) registryWrite() func() {
	sess.srv.mu.Lock()
	store := sess.srv.store
	sess.srv.mu.Unlock()
	if store == nil || sess.demoLoaded {
		return nil
	}
	key := state.StoreKey(sess.st.Cwd)
	mine := state.StorableOf(sess.st)
	log := sess.srv.log
	sess.writeSeq++
	seq := sess.writeSeq
	return func() {
		sess.writeMu.Lock()
		defer sess.writeMu.Unlock()
		if seq <= sess.wroteSeq {
			return // a newer snapshot of this session is already on disk
		}
		sess.wroteSeq = seq
		err := store.Update(key, func(old any) (any, error) {
			return state.MergeStored(state.ParseRegistry(old), mine), nil
		})
		if err != nil {
			log.Error().Err(err).Str("key", key).Msg("registry write failed")
		}
	}
}

// flush writes the session's registry now and waits for the writes its earlier decisions started: the
// host may exit right after the reply.
func (sess *Session) flush() {
	var write func()
	sess.event(func() { write = sess.registryWrite() })
	if write != nil {
		write()
	}
	sess.writes.Wait()
}

// sessionEnd flushes the session's registry and forgets it.
func (s *Server) sessionEnd(_ context.Context, raw json.RawMessage) (any, error) {
	p, sess, err := sessionFor[SessionParams](s, raw)
	if err != nil {
		return nil, err
	}
	sess.flush()
	sess.event(func() { sess.ended = true })
	s.mu.Lock()
	if s.sessions[p.SessionID] == sess {
		delete(s.sessions, p.SessionID)
	}
	s.mu.Unlock()
	return nil, nil
}
