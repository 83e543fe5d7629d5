package session

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rs/zerolog"

	"github.com/saverd/saverd/state"
	"github.com/saverd/saverd/store"
)

// TestInvalidRegistryEntriesAreSetAside: a registry holding an entry that fails validation (written by
// hand, or by another version) loses nothing when a session writes: the file as it was is kept beside it
// (<file>.corrupt-<ns>, as a corrupt file is moved aside), and the write keeps the valid entries with the
// session's change. The next write dropped such entries for good.
func TestInvalidRegistryEntriesAreSetAside(t *testing.T) {
	dir := t.TempDir()
	st, err := store.Open(dir, zerolog.Nop())
	if err != nil {
		t.Fatal(err)
	}
	h := newHarnessWith(t, Options{Synchronous: true, Store: st}, true, nil)
	key := state.StoreKey(h.cwd)
	bad := map[string]any{"id": "execution:hand-written", "category": "execution", "kind": "a rule by hand", "why": "x",
		"alternative": "y", "confidence": 0.2} // under the 0.5 floor, and no signature
	if err := st.Update(key, func(any) (any, error) { return []any{bad}, nil }); err != nil {
		t.Fatal(err)
	}
	h.cards(threeFindings())
	h.saver("fix 1")
	v, err := st.Get(key)
	if err != nil {
		t.Fatal(err)
	}
	decided := false
	for _, sp := range state.ParseRegistry(v) {
		decided = decided || (sp.ID == "execution:full-suite" && sp.LastDecision != nil && *sp.LastDecision == state.Fix)
	}
	if !decided {
		t.Fatalf("the decision is not in the registry: %v", v)
	}
	aside, _ := filepath.Glob(st.Path(key) + ".corrupt-*")
	if len(aside) != 1 {
		t.Fatalf("set aside: %v, want the file as it was", aside)
	}
	if b, err := os.ReadFile(aside[0]); err != nil || !strings.Contains(string(b), "execution:hand-written") {
		t.Fatalf("%s = %q, %v: want the entry that failed validation", aside[0], b, err)
	}
}
