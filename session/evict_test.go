package session

import (
	"sync/atomic"
	"testing"
	"time"

	"github.com/saverd/saverd/state"
)

// TestIdleSessionsAreEvictedAndRejoin: sessions never ended were never evicted (100,000 held 378 MB). A
// session no hook named for IdleEvict is flushed and forgotten; a later event for it rejoins it with
// the project's patterns, instead of failing with unknown sessionId.
func TestIdleSessionsAreEvictedAndRejoin(t *testing.T) {
	var clock atomic.Int64
	clock.Store(1_000_000)
	h := newHarnessWith(t, Options{Synchronous: true, IdleEvict: time.Hour, Clock: clock.Load}, true, nil)
	h.cards(threeFindings())
	h.saver("ignore 2")
	h.call("session.start", map[string]any{"sessionId": "other", "cwd": t.TempDir(), "at": 1_000})

	clock.Add(int64(2 * time.Hour / time.Millisecond))
	h.call("turn.start", map[string]any{"sessionId": "other"}) // a hook of another session sweeps
	h.srv.mu.Lock()
	_, kept := h.srv.sessions["s"]
	_, otherKept := h.srv.sessions["other"]
	h.srv.mu.Unlock()
	if kept || !otherKept {
		t.Fatalf("after two idle hours: s kept %v, other kept %v; want s evicted, other kept", kept, otherKept)
	}
	stored := state.ParseRegistry(h.reg.Values[state.StoreKey(h.cwd)])
	if len(stored) != 3 {
		t.Fatalf("registry after eviction = %+v, want the three patterns", stored)
	}

	h.call("turn.start", map[string]any{"sessionId": "s"})
	st := h.st()
	if st.Cwd != h.cwd || len(st.Patterns) != 3 {
		t.Fatalf("rejoined: cwd %s, %d patterns", st.Cwd, len(st.Patterns))
	}
	decided := 0
	for _, p := range st.Patterns {
		if p.LastDecision != nil {
			decided++
		}
	}
	if decided != 1 {
		t.Fatalf("rejoined with %d decided patterns, want the one ignored", decided)
	}
}

// TestNegativeIdleEvictNeverEvicts: eviction can be turned off.
func TestNegativeIdleEvictNeverEvicts(t *testing.T) {
	var clock atomic.Int64
	clock.Store(1_000_000)
	h := newHarnessWith(t, Options{Synchronous: true, IdleEvict: -1, Clock: clock.Load}, true, nil)
	clock.Add(int64(1000 * time.Hour / time.Millisecond))
	h.call("session.start", map[string]any{"sessionId": "other", "cwd": t.TempDir(), "at": 1_000})
	h.call("turn.start", map[string]any{"sessionId": "other"})
	h.srv.mu.Lock()
	defer h.srv.mu.Unlock()
	if _, ok := h.srv.sessions["s"]; !ok {
		t.Fatal("evicted with eviction off")
	}
}
