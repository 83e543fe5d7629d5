package state_test

import (
	"slices"
	"testing"

	"github.com/saverd/saverd/state"
	"github.com/saverd/saverd/state/internal/statetest"
)

// rejoinedSession is a session as a daemon that joins it late holds it before Rejoined: the registry's
// patterns loaded (no session decision, no card) and two rows of turn 1 adopted.
func rejoinedSession() *state.State {
	s := state.New("/w", 200_000)
	s.Patterns = []state.Pattern{statetest.SuitePattern(), processPattern(),
		state.FromStored(state.StoredPattern{ID: "reading:reread", Category: "reading", Kind: "Claude reads a.ts again", Alternative: "keep what it read", Confidence: 0.8})}
	state.Reduce(s, state.Adopt{Rows: []state.Row{statetest.Call("r1", statetest.SuiteKey, state.ClassTest, 1, 60_000, 8_000),
		statetest.Call("r2", statetest.SuiteKey, state.ClassTest, 1, 40_000, 4_000)}})
	return s
}

func TestRejoined(t *testing.T) {
	suite, proc, reread := "execution:full-suite", "process:review-rounds", "reading:reread"
	fix := state.InstructionOf("Stop this behaviour for the rest of the session: Claude keeps running the whole suite. From now on: run only the tests you touched")
	for _, tc := range []struct {
		name     string
		act      state.Rejoined
		decided  map[string]state.Choice
		cards    []string
		standing []string
	}{
		{"a habit's Fix stands again, its note not sent twice", state.Rejoined{Decided: []state.Redecision{{suite, state.Fix}}},
			map[string]state.Choice{suite: state.Fix}, []string{}, []string{fix}},
		{"an ignored card stays ignored", state.Rejoined{Decided: []state.Redecision{{suite, state.Ignore}}},
			map[string]state.Choice{suite: state.Ignore}, []string{}, []string{}},
		{"a Fix with the person's words stands decided, sending nothing", state.Rejoined{Decided: []state.Redecision{{suite, state.FixWithNote}}},
			map[string]state.Choice{suite: state.FixWithNote}, []string{}, []string{}},
		{"a process Fix was a one-time re-plan", state.Rejoined{Decided: []state.Redecision{{proc, state.Fix}}},
			map[string]state.Choice{proc: state.Fix}, []string{}, []string{}},
		{"open cards queue in the order found; a decided one does not", state.Rejoined{Decided: []state.Redecision{{suite, state.Ignore}},
			Open: []string{reread, suite, proc, "other:gone"}},
			map[string]state.Choice{suite: state.Ignore}, []string{reread, proc}, []string{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := rejoinedSession()
			state.Reduce(s, tc.act)
			for i := range s.Patterns {
				p := &s.Patterns[i]
				want, ok := tc.decided[p.ID]
				if ok != (p.Decision != nil) || ok && (*p.Decision != want || *p.DecidedAtTurn != 1) {
					t.Fatalf("%s: decision %v at %v, want %q (%v)", p.ID, p.Decision, p.DecidedAtTurn, want, ok)
				}
			}
			if !slices.Equal(s.Cards, tc.cards) || !slices.Equal(s.Standing, tc.standing) || len(s.Notes) != 0 {
				t.Fatalf("cards %q standing %q notes %q, want %q %q and no note", s.Cards, s.Standing, s.Notes, tc.cards, tc.standing)
			}
			if p := s.PatternByID(suite); tc.decided[suite] == state.Fix && (p.OpenedAtTurn == nil || *p.OpenedAtTurn != 1 || *p.Instruction == "") {
				t.Fatalf("the restored Fix is not open from the join's turn: %+v", p)
			}
		})
	}
}

// TestRejoinedSpend: what the session and its judges spent before the join counts toward the budget and
// the money, and a session judged before counts its new work from the join.
func TestRejoinedSpend(t *testing.T) {
	s := rejoinedSession()
	state.Reduce(s, state.Rejoined{Before: state.Tokens{Input: 1_000, Output: 500, CacheRead: 90_000, CacheCreate: 8_500},
		Judge:   state.PriorRuns{Runs: 2, Spent: 700, USD: 0.03},
		Process: state.PriorRuns{Runs: 1, Spent: 100, Unpriced: 100}})
	if got := state.TotalTokens(s); got != 10_000 {
		t.Fatalf("the session's tokens %d, want 10,000 (cache reads left out)", got)
	}
	b := state.BudgetOf(s)
	if b.Spent != 800 || b.Allowed != 500 || !b.Over {
		t.Fatalf("budget %+v, want 800 spent of 500 allowed: over", b)
	}
	if s.Judge.Runs != 2 || s.Process.Runs != 1 || s.Money.JudgeUSD != 0.03 || s.Money.JudgeUnpriced != 100 {
		t.Fatalf("judge %d runs, process %d, $%v and %d unpriced", s.Judge.Runs, s.Process.Runs, s.Money.JudgeUSD, s.Money.JudgeUnpriced)
	}
	if s.Judge.LastAtTokens != 10_000 || s.Judge.LastAtTurn != 1 {
		t.Fatalf("the cadence counts from %d tokens, turn %d; want the join's", s.Judge.LastAtTokens, s.Judge.LastAtTurn)
	}
	state.Reduce(s, state.Reset{})
	if state.TotalTokens(s) != 0 {
		t.Fatal("a reset kept the spend before the join")
	}
}
