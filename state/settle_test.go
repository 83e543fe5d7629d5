package state

import "testing"

const suiteKey = "test:npm test"

// call is a main-loop Bash call in the given turn.
func call(id, key string, cls CommandClass, turn int, ms, chars int64) Row {
	return Row{ID: id, Tool: "Bash", Key: key, Cls: cls, Agent: MainAgent, Turn: turn, Ms: ms, Chars: chars, Flags: []string{}, Paths: []string{}}
}

// suitePattern is the habit of running the whole suite, citing r1 and r2.
func suitePattern() Pattern {
	p := FromStored(StoredPattern{ID: "execution:full-suite", Category: "execution", Kind: "Claude keeps running the whole suite",
		Why: "it ran three times", Alternative: "run only the tests you touched", Confidence: 0.9,
		Signature: &Signature{Tool: "Bash", Key: suiteKey}})
	p.Hits = []string{"r1", "r2"}
	return p
}

// judged is turn 1 with two suite runs (60s/8000 chars and 40s/4000 chars) and a judge run that found the habit.
func judged(t *testing.T, patterns ...Pattern) *State {
	t.Helper()
	s := New("/w", 200_000)
	Reduce(s, TurnStart{Now: 1})
	Reduce(s, AddRow{Row: call("r1", suiteKey, ClassTest, 1, 60_000, 8_000)})
	Reduce(s, AddRow{Row: call("r2", suiteKey, ClassTest, 1, 40_000, 4_000)})
	if len(patterns) == 0 {
		patterns = []Pattern{suitePattern()}
	}
	var fresh []string
	for _, p := range patterns {
		fresh = append(fresh, p.ID)
	}
	Reduce(s, JudgeDone{Patterns: patterns, Fresh: fresh, Recurred: []string{}, Dropped: []string{}})
	return s
}

// steered is judged, with the habit steered in turn 1.
func steered(t *testing.T) *State {
	t.Helper()
	s := judged(t)
	Reduce(s, Decide{PatternID: "execution:full-suite", Choice: Steer, Text: Ptr("run only the auth tests")})
	p := s.PatternByID("execution:full-suite")
	if !p.Decided(Steer) || p.OpenedAtTurn == nil || *p.OpenedAtTurn != 1 || len(s.Cards) != 0 {
		t.Fatalf("steer did not open the instruction: %+v cards %v", p, s.Cards)
	}
	return s
}

func TestSettleIgnoredRequeues(t *testing.T) {
	s := steered(t)
	Reduce(s, AddRow{Row: call("other", "git:git status", ClassGit, 1, 5, 5)})
	Reduce(s, TurnStart{Now: 2})
	Reduce(s, AddRow{Row: call("r3", suiteKey, ClassTest, 2, 55_000, 6_000)})
	p := s.PatternByID("execution:full-suite")
	if p.Ignored != 1 || p.OpenedAtTurn != nil {
		t.Fatalf("ignored %d opened %v, want 1 and closed", p.Ignored, p.OpenedAtTurn)
	}
	if len(s.Cards) != 1 || s.Cards[0] != p.ID {
		t.Fatalf("cards %v, want the card back in front", s.Cards)
	}
	if !Contains(p.Hits, "r3") || s.Saved != (Saved{}) {
		t.Fatalf("hits %v saved %+v: the repeat is a hit and saves nothing", p.Hits, s.Saved)
	}
	if card := CardOf(p, s, 1, nil); card.Kind != "ignored · Claude keeps running the whole suite" {
		t.Fatalf("card kind %q", card.Kind)
	}
}

func TestSettleRowInDecisionTurnSettlesNothing(t *testing.T) {
	s := steered(t)
	Reduce(s, AddRow{Row: call("r3", suiteKey, ClassTest, 1, 55_000, 6_000)})
	p := s.PatternByID("execution:full-suite")
	if p.Ignored != 0 || p.OpenedAtTurn == nil || len(s.Cards) != 0 || s.Saved != (Saved{}) {
		t.Fatalf("a call in flight before the instruction settled something: %+v cards %v saved %+v", p, s.Cards, s.Saved)
	}
	if !Contains(p.Hits, "r3") {
		t.Fatalf("hits %v: the call still carries the signature", p.Hits)
	}
}

func TestSettleHeldTwoTurnsCreditsBaseline(t *testing.T) {
	s := steered(t)
	Reduce(s, TurnComplete{Stat: TurnStat{At: 10}}) // turn 1: 0 turns since the decision
	Reduce(s, TurnStart{Now: 20})
	Reduce(s, TurnComplete{Stat: TurnStat{At: 30}}) // turn 2: 1
	if p := s.PatternByID("execution:full-suite"); p.OpenedAtTurn == nil || s.Saved != (Saved{}) {
		t.Fatalf("credited before SettleTurns: %+v", s.Saved)
	}
	Reduce(s, TurnStart{Now: 40})
	Reduce(s, TurnComplete{Stat: TurnStat{At: 50}}) // turn 3: 2
	// The baseline is the median of the cited calls: ms (60000+40000)/2, chars (8000+4000)/2.
	if s.Saved != (Saved{Ms: 50_000, Chars: 6_000}) {
		t.Fatalf("saved %+v, want the baseline", s.Saved)
	}
	p := s.PatternByID("execution:full-suite")
	if p.OpenedAtTurn != nil {
		t.Fatal("a credited instruction stays open")
	}
	pane := BuildPane(s, nil)
	if len(pane.Decided) != 1 || !pane.Decided[0].Settled || *pane.Decided[0].SavedPct != 0.8 {
		t.Fatalf("decided %+v, want settled at 0.8%% (6000 chars of a 200k window)", pane.Decided)
	}
	Reduce(s, TurnStart{Now: 60})
	Reduce(s, TurnComplete{Stat: TurnStat{At: 70}})
	if s.Saved != (Saved{Ms: 50_000, Chars: 6_000}) {
		t.Fatalf("credited twice: %+v", s.Saved)
	}
}

func TestSettleSameClassCreditsDifference(t *testing.T) {
	s := steered(t)
	Reduce(s, TurnStart{Now: 2})
	Reduce(s, AddRow{Row: call("lint", "lint:eslint", ClassLint, 2, 1, 1)}) // another class: nothing
	if s.Saved != (Saved{}) {
		t.Fatalf("a call of another class settled: %+v", s.Saved)
	}
	Reduce(s, AddRow{Row: call("r3", "test:npm test -- auth", ClassTest, 2, 10_000, 1_000)})
	if s.Saved != (Saved{Ms: 40_000, Chars: 5_000}) {
		t.Fatalf("saved %+v, want the baseline less the narrower run", s.Saved)
	}
	if p := s.PatternByID("execution:full-suite"); p.OpenedAtTurn != nil || p.Ignored != 0 || Contains(p.Hits, "r3") {
		t.Fatalf("%+v: a narrower run closes the instruction, is no repeat and no hit", p)
	}
	// A run dearer than the baseline saves nothing rather than a negative amount.
	s = steered(t)
	Reduce(s, TurnStart{Now: 2})
	Reduce(s, AddRow{Row: call("r3", "test:npm test -- auth", ClassTest, 2, 90_000, 9_000)})
	if s.Saved != (Saved{}) {
		t.Fatalf("saved %+v, want 0", s.Saved)
	}
}

func TestSettleAgentRowsNeverSettle(t *testing.T) {
	s := steered(t)
	Reduce(s, TurnStart{Now: 2})
	r := call("a1", suiteKey, ClassTest, 2, 5, 5)
	r.Agent = "agent-1"
	Reduce(s, AddRow{Row: r})
	p := s.PatternByID("execution:full-suite")
	if p.Ignored != 0 || p.OpenedAtTurn == nil || !Contains(p.Hits, "a1") {
		t.Fatalf("%+v: a subagent's repeat is a hit, not an ignored instruction", p)
	}
}

func TestSettleBehaviouralAccrues(t *testing.T) {
	habit := FromStored(StoredPattern{ID: "behavior:narrates", Category: "behavior", Kind: "Claude narrates every step",
		Why: "w", Alternative: "say less", Confidence: 0.8, EstTokensPerTurn: Ptr(250.5)})
	s := judged(t, habit)
	Reduce(s, Decide{PatternID: habit.ID, Choice: Kill})
	for turn := 1; turn <= 3; turn++ {
		if turn > 1 {
			Reduce(s, TurnStart{Now: int64(turn)})
		}
		Reduce(s, TurnComplete{Stat: TurnStat{}})
	}
	// 250.5 tokens a turn is 1002 chars, for each of three turns; its baseline is 0 (it cites no call).
	if s.Saved != (Saved{Chars: 3 * 1_002}) {
		t.Fatalf("saved %+v, want 3006 chars", s.Saved)
	}
	// Ignored, it accrues nothing more.
	Reduce(s, JudgeDone{Patterns: append([]Pattern(nil), s.Patterns...), Recurred: []string{habit.ID}, Fresh: []string{}, Dropped: []string{}})
	Reduce(s, TurnStart{Now: 9})
	Reduce(s, TurnComplete{Stat: TurnStat{}})
	if s.Saved != (Saved{Chars: 3 * 1_002}) {
		t.Fatalf("saved %+v after the instruction was ignored", s.Saved)
	}
}

func TestSettleRequeueOrder(t *testing.T) {
	// Two instructions ignored by one call come back in pattern order, the last one in front.
	a, b := suitePattern(), suitePattern()
	b.ID = "execution:suite-again"
	s := judged(t, a, b)
	Reduce(s, Decide{PatternID: a.ID, Choice: Steer, Text: Ptr("x")})
	Reduce(s, Decide{PatternID: b.ID, Choice: Kill})
	Reduce(s, AddRow{Row: call("keep-queued", "x", ClassOther, 1, 1, 1)})
	Reduce(s, TurnStart{Now: 2})
	Reduce(s, AddRow{Row: call("r3", suiteKey, ClassTest, 2, 1, 1)})
	if want := []string{b.ID, a.ID}; len(s.Cards) != 2 || s.Cards[0] != want[0] || s.Cards[1] != want[1] {
		t.Fatalf("cards %v, want %v", s.Cards, want)
	}
}
