package state_test

import (
	"slices"
	"testing"

	"github.com/saverd/saverd/state"
	"github.com/saverd/saverd/state/internal/statetest"
)

// TestDetected: a detector's findings become patterns and cards as a judge's do — fresh undecided ids
// in front of the queue, each once, a decided one never carded again — and no judge run is counted or
// spent; a clone taken before never sees the change.
func TestDetected(t *testing.T) {
	s := statetest.Judged(t, statetest.SuitePattern())
	before := s.Clone()
	judge := s.Judge
	rerun := state.FromStored(state.StoredPattern{ID: "execution:rerun-npm-run-build", Category: "execution",
		Kind: "Claude keeps re-running `npm run build`", Why: "twice", Alternative: "run it once", Confidence: 0.8,
		Signature: &state.Signature{Tool: "Bash", Key: "build:npm run build"}})
	kept := state.FromStored(state.StoredPattern{ID: "reading:reread-a-ts-1", Category: "reading", Kind: "Claude keeps re-reading a.ts",
		Why: "twice", Alternative: "use it", Confidence: 0.85})
	kept.Decision = new(state.Ignore)
	patterns := append(slices.Clone(s.Patterns), rerun, kept)
	e := state.Reduce(s, state.Detected{Patterns: patterns, Fresh: []string{rerun.ID, rerun.ID, kept.ID}})
	if want := append([]string{rerun.ID}, before.Cards...); !slices.Equal(s.Cards, want) {
		t.Errorf("cards %q, want %q", s.Cards, want)
	}
	if !slices.Equal(e.Queued, []string{rerun.ID, rerun.ID}) {
		t.Errorf("queued %q", e.Queued)
	}
	if len(s.Patterns) != 3 || s.PatternByID(rerun.ID) == nil {
		t.Errorf("patterns %d", len(s.Patterns))
	}
	if s.Judge.Runs != judge.Runs || s.Judge.Spent != judge.Spent || s.Money != before.Money {
		t.Errorf("a detection counted a judge run: %+v, money %+v", s.Judge, s.Money)
	}
	if len(before.Patterns) != 1 || slices.Contains(before.Cards, rerun.ID) {
		t.Errorf("the clone taken before changed: %d patterns, cards %q", len(before.Patterns), before.Cards)
	}
	patterns[len(patterns)-2].Why = "changed by the caller"
	if s.PatternByID(rerun.ID).Why != "twice" {
		t.Error("the reducer kept the caller's slice")
	}
}
