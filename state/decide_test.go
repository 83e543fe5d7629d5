package state_test

import (
	"slices"
	"testing"

	"github.com/saverd/saverd/state"
	"github.com/saverd/saverd/state/internal/statetest"
	"github.com/saverd/saverd/state/view"
)

func processPattern() state.Pattern {
	p := state.FromStored(state.StoredPattern{ID: "process:review-rounds", Category: "process", Kind: "Three review rounds on one diff",
		Why: "they overlap", Alternative: "  run one review over the whole batch ", Confidence: 0.8, Lean: new("one review, then fix")})
	p.Hits = []string{"turn:1"}
	return p
}

func TestDecide(t *testing.T) {
	habit := "execution:full-suite"
	proc := "process:review-rounds"
	kill := state.InstructionOf("Stop this behaviour for the rest of the session: Claude keeps running the whole suite. From now on: run only the tests you touched")
	for _, tc := range []struct {
		name        string
		id          string
		choice      state.Choice
		text        *string
		decided     bool
		instruction *string
		notes       []string
		standing    []string
	}{
		{"ignore sends nothing", habit, state.Ignore, nil, true, nil, []string{}, []string{}},
		{"steer sends the text, standing", habit, state.FixWithNote, new("only the auth tests"), true, new("only the auth tests"),
			[]string{state.InstructionOf("only the auth tests")}, []string{state.InstructionOf("only the auth tests")}},
		{"a blank steer decides nothing", habit, state.FixWithNote, new(" \n "), false, nil, []string{}, []string{}},
		{"a steer with no text decides nothing", habit, state.FixWithNote, nil, false, nil, []string{}, []string{}},
		{"kill sends the kill prompt", habit, state.Fix, nil, true,
			new("Stop this behaviour for the rest of the session: Claude keeps running the whole suite. From now on: run only the tests you touched"),
			[]string{kill}, []string{kill}},
		{"a process kill re-plans once, never standing", proc, state.Fix, nil, true, new("  run one review over the whole batch "),
			[]string{state.InstructionOf("Change the remaining work: run one review over the whole batch")}, []string{}},
		{"a re-plan already said is not said twice", proc, state.FixWithNote, new("  change the remaining work: batch it "), true,
			new("  change the remaining work: batch it "), []string{state.InstructionOf("change the remaining work: batch it")}, []string{}},
		{"an unknown pattern decides nothing", "other:none", state.Fix, nil, false, nil, []string{}, []string{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := statetest.Judged(t, statetest.SuitePattern(), processPattern())
			state.Reduce(s, state.Expand{PatternID: new(tc.id)})
			state.Reduce(s, state.SteerBegin{PatternID: tc.id})
			state.Reduce(s, state.SteerDraft{Text: "typed"})
			state.Reduce(s, state.Decide{PatternID: tc.id, Choice: tc.choice, Text: tc.text})
			if !slices.Equal(s.Notes, tc.notes) || !slices.Equal(s.Standing, tc.standing) {
				t.Fatalf("notes %q standing %q, want %q %q", s.Notes, s.Standing, tc.notes, tc.standing)
			}
			p := s.PatternByID(tc.id)
			if !tc.decided {
				if p != nil && p.Decision != nil || len(s.Cards) != 2 || s.SteerDraft == nil {
					t.Fatalf("decided anyway: %+v cards %v", p, s.Cards)
				}
				return
			}
			if !p.Decided(tc.choice) || *p.LastDecision != tc.choice || *p.DecidedAtTurn != 1 {
				t.Fatalf("decision %v last %v at %v", p.Decision, p.LastDecision, p.DecidedAtTurn)
			}
			if state.Str(p.Instruction) != state.Str(tc.instruction) || (p.Instruction == nil) != (tc.instruction == nil) {
				t.Fatalf("instruction %v, want %v", p.Instruction, tc.instruction)
			}
			if sent := tc.choice != state.Ignore; (p.OpenedAtTurn != nil) != sent {
				t.Fatalf("opened %v for %s", p.OpenedAtTurn, tc.choice)
			}
			if slices.Contains(s.Cards, tc.id) || s.Expanded != nil || s.Steering != nil || s.SteerDraft != nil {
				t.Fatalf("card %v expanded %v steering %v draft %v: a decision takes the card off and closes its fields",
					s.Cards, s.Expanded, s.Steering, s.SteerDraft)
			}
		})
	}
}

func TestDecideSameNoteOnce(t *testing.T) {
	s := statetest.Judged(t)
	for range 2 {
		state.Reduce(s, state.Decide{PatternID: "execution:full-suite", Choice: state.FixWithNote, Text: new("x")})
	}
	if len(s.Notes) != 1 || len(s.Standing) != 1 {
		t.Fatalf("notes %q standing %q", s.Notes, s.Standing)
	}
}

// recurredRun is a judge run that reports id as recurred, over the registry as it stands (as the
// judge's merge builds it from the current state).
func recurredRun(s *state.State, id string) state.JudgeDone {
	return state.JudgeDone{Patterns: append([]state.Pattern(nil), s.Patterns...), Fresh: []string{}, Recurred: []string{id}, Dropped: []string{}}
}

// A difference from ContextSaver (protocol.md): one recurrence is counted as ignored once, whichever of its row and the next judge run
// reports it first. ContextSaver counted the row-first order twice (ignored 2).
func TestOneRecurrenceCountedOnce(t *testing.T) {
	const id = "execution:full-suite"
	ignored := func(s *state.State) int { return s.PatternByID(id).Ignored }
	t.Run("row first, then the judge", func(t *testing.T) {
		s := steered(t)
		state.Reduce(s, state.TurnStart{Now: 2})
		state.Reduce(s, state.AddRow{Row: statetest.Call("r3", statetest.SuiteKey, state.ClassTest, 2, 1, 1)})
		state.Reduce(s, recurredRun(s, id))
		if ignored(s) != 1 || !slices.Equal(s.Cards, []string{id}) {
			t.Fatalf("ignored %d cards %v, want 1 and the card queued once", ignored(s), s.Cards)
		}
		state.Reduce(s, recurredRun(s, id)) // the next run cites the same calls again
		if ignored(s) != 1 {
			t.Fatalf("ignored %d after a second report of the same recurrence", ignored(s))
		}
	})
	t.Run("judge first, then the row", func(t *testing.T) {
		s := steered(t)
		state.Reduce(s, state.TurnStart{Now: 2})
		state.Reduce(s, recurredRun(s, id))
		if p := s.PatternByID(id); p.Ignored != 1 || p.OpenedAtTurn != nil || !slices.Equal(s.Cards, []string{id}) {
			t.Fatalf("%+v cards %v, want ignored 1, closed, queued", p, s.Cards)
		}
		state.Reduce(s, state.AddRow{Row: statetest.Call("r3", statetest.SuiteKey, state.ClassTest, 2, 1, 1)})
		if ignored(s) != 1 {
			t.Fatalf("ignored %d, want 1", ignored(s))
		}
	})
	t.Run("a new decision counts again", func(t *testing.T) {
		s := steered(t)
		state.Reduce(s, state.TurnStart{Now: 2})
		state.Reduce(s, state.AddRow{Row: statetest.Call("r3", statetest.SuiteKey, state.ClassTest, 2, 1, 1)})
		state.Reduce(s, state.Decide{PatternID: id, Choice: state.FixWithNote, Text: new("really, only the auth tests")})
		state.Reduce(s, state.TurnStart{Now: 3})
		state.Reduce(s, recurredRun(s, id))
		if ignored(s) != 2 || !slices.Equal(s.Cards, []string{id}) {
			t.Fatalf("ignored %d cards %v, want 2 and queued", ignored(s), s.Cards)
		}
	})
	t.Run("a recurrence after a credit counts", func(t *testing.T) {
		s := steered(t)
		for turn := 2; turn <= 3; turn++ {
			state.Reduce(s, state.TurnComplete{Stat: state.TurnStat{}})
			state.Reduce(s, state.TurnStart{Now: int64(turn)})
		}
		state.Reduce(s, state.TurnComplete{Stat: state.TurnStat{}})
		if s.Saved.Ms == 0 {
			t.Fatal("not credited")
		}
		state.Reduce(s, recurredRun(s, id))
		if ignored(s) != 1 {
			t.Fatalf("ignored %d, want 1", ignored(s))
		}
	})
}

func TestJudgeDone(t *testing.T) {
	t.Run("a decision survives a run that omits it; what it omits undecided is gone", func(t *testing.T) {
		q := statetest.SuitePattern()
		q.ID = "reading:logs"
		s := statetest.Judged(t, statetest.SuitePattern(), q)
		state.Reduce(s, state.Decide{PatternID: "execution:full-suite", Choice: state.Fix})
		fresh := statetest.SuitePattern()
		fresh.ID = "reading:new"
		state.Reduce(s, state.JudgeDone{Patterns: []state.Pattern{fresh}, Fresh: []string{"reading:new", "reading:new", "reading:gone"}, Recurred: []string{}, Dropped: []string{}})
		var ids []string
		for _, p := range s.Patterns {
			ids = append(ids, p.ID)
		}
		if !slices.Equal(ids, []string{"reading:new", "execution:full-suite"}) || !slices.Equal(s.Cards, []string{"reading:new"}) {
			t.Fatalf("patterns %v cards %v", ids, s.Cards)
		}
	})
	t.Run("backoff doubles past the budget share, up to the cap", func(t *testing.T) {
		s := statetest.Judged(t)
		state.Reduce(s, state.TurnComplete{Stat: state.TurnStat{Input: 90_000, Output: 6_000, CacheCreate: 4_000, CacheRead: 1_000_000}})
		// The session spent 100000 new tokens (cache reads aside): 3000 is exactly the 3% share, not over it.
		for _, run := range []struct{ spent, backoff int64 }{{3_000, 1}, {1, 2}, {1, 4}, {1, 4}} {
			state.Reduce(s, state.JudgeDone{Patterns: s.Patterns, Spent: run.spent, Fresh: []string{}, Recurred: []string{}, Dropped: []string{}})
			if s.Judge.Backoff != run.backoff {
				t.Fatalf("backoff %d at %d spent, want %d", s.Judge.Backoff, s.Judge.Spent, run.backoff)
			}
		}
		if s.Judge.LastAtTokens != 100_000 || s.Judge.LastAtTurn != 1 || s.Judge.Runs != 5 || s.Judge.Spent != 3_003 {
			t.Fatalf("judge %+v", s.Judge)
		}
	})
	t.Run("no completed turn is no budget to be over", func(t *testing.T) {
		s := statetest.Judged(t)
		state.Reduce(s, state.JudgeDone{Patterns: s.Patterns, Spent: 1_000_000, Fresh: []string{}, Recurred: []string{}, Dropped: []string{}})
		if s.Judge.Backoff != 1 {
			t.Fatalf("backoff %d", s.Judge.Backoff)
		}
	})
	t.Run("a cold run keeps the armed check; an answer spends it", func(t *testing.T) {
		s := statetest.Judged(t)
		state.Reduce(s, state.CheckArm{})
		state.Reduce(s, state.JudgeStart{Now: 5, Seq: 2})
		state.Reduce(s, state.JudgeDone{Patterns: s.Patterns, Error: new("cold snapshot"), Fresh: []string{}, Recurred: []string{}, Dropped: []string{}})
		if !s.PendingCheck || s.Judge.Running || *s.Judge.Error != "cold snapshot" || s.Judge.LastAtMs != 5 || s.Judge.LastAtSeq != 2 {
			t.Fatalf("judge %+v pending %v", s.Judge, s.PendingCheck)
		}
		state.Reduce(s, state.JudgeDone{Patterns: s.Patterns, Fresh: []string{}, Recurred: []string{}, Dropped: []string{"x: dropped"},
			Usage: &state.JudgeUsage{Input: 1}, Returned: 2, Kept: 1})
		if s.PendingCheck || s.Judge.Error != nil || s.Judge.Last.Returned != 2 || s.Judge.Last.Usage.Input != 1 ||
			!slices.Equal(s.Judge.Last.Dropped, []string{"x: dropped"}) {
			t.Fatalf("judge %+v pending %v", s.Judge, s.PendingCheck)
		}
	})
}

func TestProcessRuns(t *testing.T) {
	s := statetest.Judged(t)
	state.Reduce(s, state.TurnComplete{Stat: state.TurnStat{Input: 100_000}})
	state.Reduce(s, state.TurnStart{Now: 7})
	state.Reduce(s, state.JudgeStart{Kind: state.ProcessJudge, Now: 1_000, Seq: 2, Trigger: state.TriggerClock})
	if !s.Process.Running || s.Process.LastAtTurn != 2 || s.Process.LastAtMs != 1_000 || s.Process.LastAtSeq != 2 {
		t.Fatalf("process %+v", s.Process)
	}
	state.Reduce(s, state.JudgeCold{Kind: state.ProcessJudge, Was: state.JudgeMark{LastAtMs: 10, LastAtSeq: 1, LastAtTurn: 0}})
	if s.Process.Running || s.Process.LastAtMs != 10 || s.Process.LastAtSeq != 1 || s.Process.LastAtTurn != 0 || s.Process.Runs != 0 {
		t.Fatalf("a cold run hands the cadence back: %+v", s.Process)
	}
	proc := processPattern()
	again := statetest.SuitePattern() // a habit the process run also reports: its version wins, in front
	again.Why = "newer"
	for i, want := range []int64{2, 4, 8} { // over 3% of 100000 each time, and uncapped
		state.Reduce(s, state.JudgeDone{Kind: state.ProcessJudge, Patterns: []state.Pattern{proc, again}, Fresh: []string{proc.ID, again.ID}, Spent: 3_001, Dropped: []string{}})
		if s.Process.Backoff != want || s.Process.Runs != i+1 || s.Process.Spent != int64(3_001*(i+1)) {
			t.Fatalf("process %+v, want backoff %d", s.Process, want)
		}
	}
	if s.Patterns[0].ID != proc.ID || s.Patterns[1].Why != "newer" || len(s.Patterns) != 2 {
		t.Fatalf("patterns %+v", s.Patterns)
	}
	if !slices.Equal(s.Cards, []string{proc.ID, "execution:full-suite"}) {
		t.Fatalf("cards %v: fresh undecided first, once", s.Cards)
	}
	if line := view.ProcessLine(s); line == nil || *line != "process 3 runs · 9k tokens" {
		t.Fatalf("process line %v", line)
	}
}

func TestDeliverySentCountsOncePerAgent(t *testing.T) {
	other := statetest.SuitePattern()
	other.ID = "reading:logs"
	s := statetest.Judged(t, statetest.SuitePattern(), processPattern(), other)
	state.Reduce(s, state.Decide{PatternID: "execution:full-suite", Choice: state.FixWithNote, Text: new("only auth")})
	state.Reduce(s, state.Decide{PatternID: "process:review-rounds", Choice: state.Fix})
	state.Reduce(s, state.Decide{PatternID: "reading:logs", Choice: state.Ignore})
	for _, agent := range []string{"a1", "a1", "a2"} {
		state.Reduce(s, state.DeliveryPending{Delta: 1})
		state.Reduce(s, state.DeliverySent{AgentID: agent, Now: 5})
		state.Reduce(s, state.DeliveryPending{Delta: -1})
	}
	state.Reduce(s, state.DeliveryPending{Delta: -1})
	state.Reduce(s, state.DeliveryToasted{Now: 9})
	sent := func(id string) int { return s.PatternByID(id).Sent }
	if sent("execution:full-suite") != 2 || sent("process:review-rounds") != 0 || sent("reading:logs") != 0 {
		t.Fatalf("sent %d %d %d, want 2 0 0", sent("execution:full-suite"), sent("process:review-rounds"), sent("reading:logs"))
	}
	if !slices.Equal(s.Delivery.Agents, []string{"a1", "a2"}) || s.Delivery.Pending != 0 || s.Delivery.LastToastAt != 9 {
		t.Fatalf("delivery %+v", s.Delivery)
	}
}
