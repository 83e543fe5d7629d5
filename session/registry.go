package session

import (
	"fmt"
	"reflect"
	"time"

	"github.com/saverd/saverd/state"
	"github.com/saverd/saverd/state/demo"
	saverdstore "github.com/saverd/saverd/store"
)

// The per-project registry is shared by every session on the project, in this daemon and in others.
// A session writes only the patterns it changed, each stamped with when it changed them, and the store
// keeps per pattern the copy changed last (state.MergeStored): a session that merely ends, or decides
// one pattern, never puts back its stale copy of another session's decision.

// storedCopy is a pattern as this session last wrote or loaded it, when that copy was made and when
// the pattern was last decided (both out of sp, which compares a session's copy with the registry's);
// mine marks a copy this session changed.
type storedCopy struct {
	sp        state.StoredPattern
	at        int64
	decidedAt int64
	mine      bool
}

// storedAsLoaded is the registry as the session found it.
func storedAsLoaded(loaded []state.StoredPattern) map[string]storedCopy {
	out := make(map[string]storedCopy, len(loaded))
	for _, sp := range loaded {
		at, decidedAt := sp.ChangedAt, sp.DecidedAt
		sp.ChangedAt, sp.DecidedAt = 0, 0
		out[sp.ID] = storedCopy{sp: sp, at: at, decidedAt: decidedAt}
	}
	return out
}

// changedStored is every pattern this session changed since it started, each with the time of its last
// change: a pattern that differs from the copy last seen, or that the person decided since, is stamped
// now, and carries when it was decided. The demo's sample patterns are never among them. Called under
// the session's lock.
func (sess *Session) changedStored(now int64) []state.StoredPattern {
	if sess.stored == nil {
		sess.stored = map[string]storedCopy{}
	}
	var out []state.StoredPattern
	for _, sp := range state.StorableOf(sess.st) {
		if demo.IsSample(sp) {
			continue
		}
		c, seen := sess.stored[sp.ID]
		decidedAt := max(c.decidedAt, sess.decidedAt[sp.ID])
		if !seen || !reflect.DeepEqual(c.sp, sp) || decidedAt != c.decidedAt {
			c = storedCopy{sp: sp, at: now, decidedAt: decidedAt, mine: true}
			sess.stored[sp.ID] = c
		}
		if c.mine {
			sp.ChangedAt, sp.DecidedAt = c.at, c.decidedAt
			out = append(out, sp)
		}
	}
	return out
}

// loadPatterns puts the project's stored patterns in st and returns them as the session found them, for
// Session.stored: every session start goes through it, so a session writes only what it changed.
func (s *Table) loadPatterns(st *state.State) map[string]storedCopy {
	loaded := s.loadRegistry(st.Cwd)
	for _, sp := range loaded {
		sp.ChangedAt, sp.DecidedAt = 0, 0 // the stamps stay with the registry (see Session.stored)
		st.Patterns = append(st.Patterns, state.FromStored(sp))
	}
	return storedAsLoaded(loaded)
}

// loadRegistry reads the project's stored patterns; a store that cannot be read costs the session its
// memory, never its start.
func (s *Table) loadRegistry(cwd string) []state.StoredPattern {
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

// persist merges what this session changed into the project's registry, in the background: a judge's
// findings need not hold up the hook that brought them. Called under the session's lock.
func (sess *Session) persist() {
	if write := sess.registryWrite(); write != nil {
		sess.pendingWrites++ // counted in writes once the event commits: a rolled-back one never starts it
		sess.afterEvent(func() {
			defer sess.writes.Done()
			_ = write() // logged; a finding's write has nobody waiting on it to tell
		})
	}
}

// decisionRetries are the pauses before each new try of a decision's registry write: one that failed for a
// moment (another process kept the lock, a disk was full for a while) lands on a later try, and only one
// that keeps failing is told to the person.
var decisionRetries = []time.Duration{200 * time.Millisecond, time.Second}

// persistNow writes the registry before it returns, trying again (decisionRetries) before it gives up: a
// decision is acknowledged only once it is on disk (a person is waiting for the reply anyway, and
// decisions are rare). Called under the session's lock.
func (sess *Session) persistNow() error {
	write := sess.registryWrite()
	if write == nil {
		return nil
	}
	err := write()
	for _, pause := range decisionRetries {
		if err == nil {
			break
		}
		time.Sleep(pause)
		err = write()
	}
	return err
}

// registryWrite is the store write for the session as it is now (nil with no store, or nothing changed);
// it runs without the session's lock. Called under the session's lock.
func (sess *Session) registryWrite() func() error {
	sess.srv.mu.Lock()
	store := sess.srv.store
	sess.srv.mu.Unlock()
	if store == nil {
		return nil
	}
	mine := sess.changedStored(sess.srv.Now(nil))
	if len(mine) == 0 {
		return nil
	}
	key := state.StoreKey(sess.st.Cwd)
	log := sess.srv.log
	sess.writeSeq++
	seq := sess.writeSeq
	return func() error {
		sess.writeMu.Lock()
		defer sess.writeMu.Unlock()
		if seq <= sess.wroteSeq {
			return nil // a newer snapshot of this session's changes is already on disk
		}
		sess.wroteSeq = seq
		err := store.Update(key, func(old any) (any, error) {
			merged := state.MergeStored(state.ParseRegistry(old), mine)
			if n := state.InvalidStored(old); n > 0 {
				// Entries that fail validation are not carried over: the file as it was is kept aside.
				return saverdstore.SetAside{Value: merged, Why: fmt.Errorf("%d entries fail validation", n)}, nil
			}
			return merged, nil
		})
		if err != nil {
			log.Error().Err(err).Str("key", key).Msg("registry write failed")
			sess.wroteSeq = seq - 1 // not on disk: the next write tries again
		}
		return err
	}
}

// flush writes the session's registry now and waits for the writes its earlier decisions started: the
// host may exit right after the reply.
func (sess *Session) flush() {
	var write func() error
	sess.event(func() { write = sess.registryWrite() })
	if write != nil {
		_ = write() // logged; a flush at the end has nobody left to tell
	}
	sess.writes.Wait()
}
