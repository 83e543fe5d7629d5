package session

import (
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/saverd/saverd/internal/testfake"
	"github.com/saverd/saverd/state"
)

// flakyRegistry refuses the first fails writes, as a lock another process keeps for a moment does, then
// stores as testfake.Registry does.
type flakyRegistry struct {
	testfake.Registry
	mu     sync.Mutex
	fails  int
	writes int
}

func (f *flakyRegistry) Update(key string, merge func(any) (any, error)) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.writes++
	if f.writes <= f.fails {
		return errors.New("lock store /st/registry.lock: held by another process for over 2s")
	}
	return f.Registry.Update(key, merge)
}

// TestDecisionWriteIsRetried: a decision whose registry write fails at first is tried again before it is
// answered: it lands, and the person is told nothing went wrong. A write that keeps failing is told
// (TestDecisionNotSavedSaysSo).
func TestDecisionWriteIsRetried(t *testing.T) {
	reg := &flakyRegistry{Registry: *testfake.NewRegistry(), fails: 2}
	h := newHarnessWith(t, Options{Synchronous: true, Store: reg}, true, nil)
	h.cards(threeFindings())
	h.host.reset()
	reg.mu.Lock()
	reg.writes, reg.fails = 0, 2
	reg.mu.Unlock()
	h.saver("fix 1")
	if toasts := strings.Join(h.host.texts(NotifyToast), "\n"); strings.Contains(toasts, "not saved") {
		t.Fatalf("a write that landed on a later try was said not saved:\n%s", toasts)
	}
	stored := state.ParseRegistry(reg.Values[state.StoreKey(h.cwd)])
	for _, sp := range stored {
		if sp.ID == "execution:full-suite" && sp.LastDecision != nil && *sp.LastDecision == state.Fix {
			return
		}
	}
	t.Fatalf("the decision is not on disk after %d tries: %+v", reg.writes, stored)
}
