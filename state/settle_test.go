package state_test

import (
	"reflect"
	"slices"
	"testing"

	"github.com/saverd/saverd/state"
	"github.com/saverd/saverd/state/internal/statetest"
	"github.com/saverd/saverd/state/view"
)

// steered is judged, with the habit steered in turn 1.
func steered(t *testing.T) *state.State {
	t.Helper()
	s := statetest.Judged(t)
	state.Reduce(s, state.Decide{PatternID: "execution:full-suite", Choice: state.FixWithNote, Text: new("run only the auth tests")})
	p := s.PatternByID("execution:full-suite")
	if !p.Decided(state.FixWithNote) || p.OpenedAtTurn == nil || *p.OpenedAtTurn != 1 || len(s.Cards) != 0 {
		t.Fatalf("steer did not open the instruction: %+v cards %v", p, s.Cards)
	}
	return s
}

func TestSettleIgnoredRequeues(t *testing.T) {
	s := steered(t)
	state.Reduce(s, state.AddRow{Row: statetest.Call("other", "git:git status", state.ClassGit, 1, 5, 5)})
	state.Reduce(s, state.TurnStart{Now: 2})
	state.Reduce(s, state.AddRow{Row: statetest.Call("r3", statetest.SuiteKey, state.ClassTest, 2, 55_000, 6_000)})
	p := s.PatternByID("execution:full-suite")
	if p.Ignored != 1 || p.OpenedAtTurn != nil {
		t.Fatalf("ignored %d opened %v, want 1 and closed", p.Ignored, p.OpenedAtTurn)
	}
	if len(s.Cards) != 1 || s.Cards[0] != p.ID {
		t.Fatalf("cards %v, want the card back in front", s.Cards)
	}
	if !slices.Contains(p.Hits, "r3") || s.Saved != (state.Saved{}) {
		t.Fatalf("hits %v saved %+v: the repeat is a hit and saves nothing", p.Hits, s.Saved)
	}
	if card := view.CardOf(p, s, 1, nil); card.Kind != "relapsed · Claude keeps running the whole suite" {
		t.Fatalf("card kind %q", card.Kind)
	}
}

func TestSettleRowInDecisionTurnSettlesNothing(t *testing.T) {
	s := steered(t)
	state.Reduce(s, state.AddRow{Row: statetest.Call("r3", statetest.SuiteKey, state.ClassTest, 1, 55_000, 6_000)})
	p := s.PatternByID("execution:full-suite")
	if p.Ignored != 0 || p.OpenedAtTurn == nil || len(s.Cards) != 0 || s.Saved != (state.Saved{}) {
		t.Fatalf("a call in flight before the instruction settled something: %+v cards %v saved %+v", p, s.Cards, s.Saved)
	}
	if !slices.Contains(p.Hits, "r3") {
		t.Fatalf("hits %v: the call still carries the signature", p.Hits)
	}
}

func TestSettleHeldTwoTurnsCreditsBaseline(t *testing.T) {
	s := steered(t)
	state.Reduce(s, state.TurnComplete{Stat: state.TurnStat{At: 10}}) // turn 1: 0 turns since the decision
	state.Reduce(s, state.TurnStart{Now: 20})
	state.Reduce(s, state.TurnComplete{Stat: state.TurnStat{At: 30}}) // turn 2: 1
	if p := s.PatternByID("execution:full-suite"); p.OpenedAtTurn == nil || s.Saved != (state.Saved{}) {
		t.Fatalf("credited before SettleTurns: %+v", s.Saved)
	}
	state.Reduce(s, state.TurnStart{Now: 40})
	state.Reduce(s, state.TurnComplete{Stat: state.TurnStat{At: 50}}) // turn 3: 2
	// The baseline is the median of the cited calls: ms (60000+40000)/2, chars (8000+4000)/2.
	if s.Saved != (state.Saved{Ms: 50_000, Chars: 6_000}) {
		t.Fatalf("saved %+v, want the baseline", s.Saved)
	}
	p := s.PatternByID("execution:full-suite")
	if p.OpenedAtTurn != nil {
		t.Fatal("a credited instruction stays open")
	}
	pane := view.BuildPane(s, nil)
	if len(pane.Decided) != 1 || !pane.Decided[0].Settled || *pane.Decided[0].SavedPct != 0.8 {
		t.Fatalf("decided %+v, want settled at 0.8%% (6000 chars of a 200k window)", pane.Decided)
	}
	state.Reduce(s, state.TurnStart{Now: 60})
	state.Reduce(s, state.TurnComplete{Stat: state.TurnStat{At: 70}})
	if s.Saved != (state.Saved{Ms: 50_000, Chars: 6_000}) {
		t.Fatalf("credited twice: %+v", s.Saved)
	}
}

func TestSettleSameClassCreditsDifference(t *testing.T) {
	s := steered(t)
	state.Reduce(s, state.TurnStart{Now: 2})
	state.Reduce(s, state.AddRow{Row: statetest.Call("lint", "lint:eslint", state.ClassLint, 2, 1, 1)}) // another class: nothing
	if s.Saved != (state.Saved{}) {
		t.Fatalf("a call of another class settled: %+v", s.Saved)
	}
	state.Reduce(s, state.AddRow{Row: statetest.Call("r3", "test:npm test -- auth", state.ClassTest, 2, 10_000, 1_000)})
	if s.Saved != (state.Saved{Ms: 40_000, Chars: 5_000}) {
		t.Fatalf("saved %+v, want the baseline less the narrower run", s.Saved)
	}
	if p := s.PatternByID("execution:full-suite"); p.OpenedAtTurn != nil || p.Ignored != 0 || slices.Contains(p.Hits, "r3") {
		t.Fatalf("%+v: a narrower run closes the instruction, is no repeat and no hit", p)
	}
	// A run dearer than the baseline saves nothing rather than a negative amount.
	s = steered(t)
	state.Reduce(s, state.TurnStart{Now: 2})
	state.Reduce(s, state.AddRow{Row: statetest.Call("r3", "test:npm test -- auth", state.ClassTest, 2, 90_000, 9_000)})
	if s.Saved != (state.Saved{}) {
		t.Fatalf("saved %+v, want 0", s.Saved)
	}
}

func TestSettleAgentRowsNeverSettle(t *testing.T) {
	s := steered(t)
	state.Reduce(s, state.TurnStart{Now: 2})
	r := statetest.Call("a1", statetest.SuiteKey, state.ClassTest, 2, 5, 5)
	r.Agent = "agent-1"
	state.Reduce(s, state.AddRow{Row: r})
	p := s.PatternByID("execution:full-suite")
	if p.Ignored != 0 || p.OpenedAtTurn == nil || !slices.Contains(p.Hits, "a1") {
		t.Fatalf("%+v: a subagent's repeat is a hit, not an ignored instruction", p)
	}
}

func TestSettleBehaviouralAccrues(t *testing.T) {
	habit := state.FromStored(state.StoredPattern{ID: "behavior:narrates", Category: "behavior", Kind: "Claude narrates every step",
		Why: "w", Alternative: "say less", Confidence: 0.8, EstTokensPerTurn: new(250.5)})
	s := statetest.Judged(t, habit)
	state.Reduce(s, state.Decide{PatternID: habit.ID, Choice: state.Fix})
	for turn := 1; turn <= 3; turn++ {
		if turn > 1 {
			state.Reduce(s, state.TurnStart{Now: int64(turn)})
		}
		state.Reduce(s, state.TurnComplete{Stat: state.TurnStat{}})
	}
	// 250.5 tokens a turn is 1002 chars, for each of three turns; its baseline is 0 (it cites no call).
	if s.Saved != (state.Saved{Chars: 3 * 1_002}) {
		t.Fatalf("saved %+v, want 3006 chars", s.Saved)
	}
	// Ignored, it accrues nothing more.
	state.Reduce(s, state.JudgeDone{Patterns: append([]state.Pattern(nil), s.Patterns...), Recurred: []string{habit.ID}, Fresh: []string{}, Dropped: []string{}})
	state.Reduce(s, state.TurnStart{Now: 9})
	state.Reduce(s, state.TurnComplete{Stat: state.TurnStat{}})
	if s.Saved != (state.Saved{Chars: 3 * 1_002}) {
		t.Fatalf("saved %+v after the instruction was ignored", s.Saved)
	}
}

func TestSettleRequeueOrder(t *testing.T) {
	// Two instructions ignored by one call come back in pattern order, the last one in front.
	a, b := statetest.SuitePattern(), statetest.SuitePattern()
	b.ID = "execution:suite-again"
	s := statetest.Judged(t, a, b)
	state.Reduce(s, state.Decide{PatternID: a.ID, Choice: state.FixWithNote, Text: new("x")})
	state.Reduce(s, state.Decide{PatternID: b.ID, Choice: state.Fix})
	state.Reduce(s, state.AddRow{Row: statetest.Call("keep-queued", "x", state.ClassOther, 1, 1, 1)})
	state.Reduce(s, state.TurnStart{Now: 2})
	state.Reduce(s, state.AddRow{Row: statetest.Call("r3", statetest.SuiteKey, state.ClassTest, 2, 1, 1)})
	if want := []string{b.ID, a.ID}; len(s.Cards) != 2 || s.Cards[0] != want[0] || s.Cards[1] != want[1] {
		t.Fatalf("cards %v, want %v", s.Cards, want)
	}
}

// TestSignatureIndexFollowsPatterns: a row gains as a hit exactly the patterns whose signature it
// carries, whichever way Patterns was last made: stored, replaced by a judge's answer (as many patterns
// as before), appended to directly, cloned, or two patterns on one key (each in order).
func TestSignatureIndexFollowsPatterns(t *testing.T) {
	sig := func(key string) *state.Signature { return &state.Signature{Tool: "Bash", Key: key} }
	pattern := func(id, key string) state.Pattern {
		return state.FromStored(state.StoredPattern{ID: id, Category: "execution", Kind: id, Signature: sig(key)})
	}
	row := func(id, key, agent string) state.Row {
		r := statetest.Call(id, key, state.ClassTest, 1, 5, 5)
		r.Agent = agent
		return r
	}
	hitsOf := func(s *state.State) map[string][]string {
		out := map[string][]string{}
		for i := range s.Patterns {
			out[s.Patterns[i].ID] = s.Patterns[i].Hits
		}
		return out
	}
	for _, agent := range []string{state.MainAgent, "agent-1"} {
		t.Run(agent, func(t *testing.T) {
			s := state.New("/p", 1000)
			s.Patterns = []state.Pattern{pattern("execution:a", "test:a"), pattern("execution:x", "test:x")}
			state.Reduce(s, state.AddRow{Row: row("r1", "test:a", agent)})
			state.Reduce(s, state.JudgeDone{Patterns: []state.Pattern{pattern("execution:b", "test:b"), pattern("execution:c", "test:b")},
				Fresh: []string{}, Recurred: []string{}, Dropped: []string{}})
			state.Reduce(s, state.AddRow{Row: row("r2", "test:a", agent)})
			state.Reduce(s, state.AddRow{Row: row("r3", "test:b", agent)})
			s.Patterns = append(s.Patterns, pattern("execution:d", "test:d"))
			state.Reduce(s, state.AddRow{Row: row("r4", "test:d", agent)})
			c := s.Clone()
			c.Patterns[0].Signature = sig("test:e") // a clone's patterns are its own, indexed afresh
			state.Reduce(c, state.AddRow{Row: row("r5", "test:e", agent)})
			want := map[string][]string{"execution:b": {"r3"}, "execution:c": {"r3"}, "execution:d": {"r4"}}
			if got := hitsOf(s); !reflect.DeepEqual(got, want) {
				t.Fatalf("hits %v, want %v", got, want)
			}
			want["execution:b"] = []string{"r3", "r5"}
			if got := hitsOf(c); !reflect.DeepEqual(got, want) {
				t.Fatalf("the clone's hits %v, want %v", got, want)
			}
		})
	}
}
