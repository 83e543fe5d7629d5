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

// TestExplained: a detection counts the rows its findings cite past the habit judge's last run, and
// their context in tokens; a run that starts since makes the counts stale, and a reset forgets them.
func TestExplained(t *testing.T) {
	ledger := func() *state.State {
		s := state.New("/w", 200_000)
		state.Reduce(s, state.TurnStart{Now: 1})
		for i, chars := range []int64{4_000, 8_000, 8_001, 400} {
			state.Reduce(s, state.AddRow{Row: statetest.Call("r"+string(rune('1'+i)), "build:npm run build", state.ClassBuild, 1, 100, chars)})
		}
		return s
	}
	cases := []struct {
		name       string
		lastAtSeq  int
		cited      []string
		rows       int
		tokens     int64
		afterStart bool
	}{
		{"nothing cited", 0, nil, 0, 0, false},
		{"every cited row, chars / 4 each", 0, []string{"r2", "r3", "r1"}, 3, 1_000 + 2_000 + 2_000, false},
		{"rows the judge weighed are not counted", 2, []string{"r1", "r2", "r3", "r4"}, 2, 2_000 + 100, false},
		{"an id the ledger lacks", 0, []string{"r9"}, 0, 0, false},
		{"a run started since: stale", 0, []string{"r1", "r2"}, 0, 0, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := ledger()
			s.Judge.LastAtSeq = c.lastAtSeq
			state.Reduce(s, state.Detected{Patterns: s.Patterns, Cited: c.cited, Through: s.Seq})
			if c.afterStart {
				state.Reduce(s, state.JudgeStart{Kind: state.HabitJudge, Now: 5, Seq: s.Seq})
			}
			if rows, tokens := state.Explained(s); rows != c.rows || tokens != c.tokens {
				t.Errorf("explained %d rows, %d tokens; want %d, %d", rows, tokens, c.rows, c.tokens)
			}
			if s.Detections.Through != 4 {
				t.Errorf("through r%d, want r4", s.Detections.Through)
			}
		})
	}
	t.Run("through never goes back", func(t *testing.T) {
		s := ledger()
		state.Reduce(s, state.Detected{Patterns: s.Patterns, Through: 4})
		state.Reduce(s, state.Detected{Patterns: s.Patterns, Through: 2})
		if s.Detections.Through != 4 {
			t.Errorf("through r%d, want r4", s.Detections.Through)
		}
	})
	t.Run("a reset forgets them", func(t *testing.T) {
		s := ledger()
		state.Reduce(s, state.Detected{Patterns: s.Patterns, Cited: []string{"r1"}, Through: 4})
		state.Reduce(s, state.Reset{})
		if rows, _ := state.Explained(s); rows != 0 || s.Detections.Through != 0 {
			t.Errorf("after a reset: %+v", s.Detections)
		}
	})
}
