package state_test

import (
	"slices"
	"testing"

	"github.com/saverd/saverd/state"
	"github.com/saverd/saverd/state/internal/statetest"
	"github.com/saverd/saverd/state/view"
)

// TestRelapseAfterSettling: a fix that settled is not credited for good. The signature's key in a later
// main-loop turn brings the card back as `relapsed · …`, counts ignored once and takes back exactly what
// that instruction had been credited; anything else leaves the credit alone.
func TestRelapseAfterSettling(t *testing.T) {
	cases := []struct {
		name    string
		settle  func(s *state.State)
		relapse state.Row
		ignored int
		saved   state.Saved
		queued  bool
	}{
		{
			name: "a narrower run credited, then the whole suite again",
			settle: func(s *state.State) {
				state.Reduce(s, state.TurnStart{Now: 2})
				state.Reduce(s, state.AddRow{Row: statetest.Call("r3", "test:npm test -- auth", state.ClassTest, 2, 10_000, 1_000)})
			},
			relapse: statetest.Call("r4", statetest.SuiteKey, state.ClassTest, 4, 55_000, 6_000), ignored: 1, queued: true,
		},
		{
			name: "held two turns, then the whole suite again",
			settle: func(s *state.State) {
				for turn := 1; turn <= 3; turn++ {
					if turn > 1 {
						state.Reduce(s, state.TurnStart{Now: int64(turn * 10)})
					}
					state.Reduce(s, state.TurnComplete{Stat: state.TurnStat{At: int64(turn*10 + 5)}})
				}
			},
			relapse: statetest.Call("r4", statetest.SuiteKey, state.ClassTest, 4, 55_000, 6_000), ignored: 1, queued: true,
		},
		{
			name: "a subagent's suite run is no relapse of the main loop",
			settle: func(s *state.State) {
				state.Reduce(s, state.TurnStart{Now: 2})
				state.Reduce(s, state.AddRow{Row: statetest.Call("r3", "test:npm test -- auth", state.ClassTest, 2, 10_000, 1_000)})
			},
			relapse: func() state.Row {
				r := statetest.Call("r4", statetest.SuiteKey, state.ClassTest, 4, 55_000, 6_000)
				r.Agent = "agent-1"
				return r
			}(),
			saved: state.Saved{Ms: 40_000, Chars: 5_000},
		},
		{
			name: "another narrow run keeps the credit",
			settle: func(s *state.State) {
				state.Reduce(s, state.TurnStart{Now: 2})
				state.Reduce(s, state.AddRow{Row: statetest.Call("r3", "test:npm test -- auth", state.ClassTest, 2, 10_000, 1_000)})
			},
			relapse: statetest.Call("r4", "test:npm test -- auth", state.ClassTest, 4, 10_000, 1_000),
			saved:   state.Saved{Ms: 40_000, Chars: 5_000},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := steered(t)
			c.settle(s)
			p := s.PatternByID("execution:full-suite")
			if p.OpenedAtTurn != nil || s.Saved == (state.Saved{}) || p.Credit == nil || (state.Saved{Ms: p.Credit.Ms, Chars: p.Credit.Chars}) != s.Saved {
				t.Fatalf("not settled: opened %v, saved %+v, credit %+v", p.OpenedAtTurn, s.Saved, p.Credit)
			}
			for s.Turn < c.relapse.Turn {
				state.Reduce(s, state.TurnStart{Now: int64(100 + s.Turn)})
			}
			state.Reduce(s, state.AddRow{Row: c.relapse})
			p = s.PatternByID("execution:full-suite")
			if p.Ignored != c.ignored || s.Saved != c.saved || slices.Contains(s.Cards, p.ID) != c.queued {
				t.Fatalf("after the row: ignored %d, saved %+v, cards %v; want ignored %d, saved %+v, queued %v",
					p.Ignored, s.Saved, s.Cards, c.ignored, c.saved, c.queued)
			}
			if !c.queued {
				return
			}
			if card := view.BuildPane(s, nil).Wasters[0]; card.Kind != "relapsed · "+p.Kind {
				t.Fatalf("card kind = %q", card.Kind)
			}
			// The card waits for the person: the same call again counts nothing more.
			state.Reduce(s, state.AddRow{Row: statetest.Call("r5", statetest.SuiteKey, state.ClassTest, 4, 55_000, 6_000)})
			if p := s.PatternByID("execution:full-suite"); p.Ignored != c.ignored || s.Saved != c.saved {
				t.Fatalf("counted twice: ignored %d, saved %+v", p.Ignored, s.Saved)
			}
		})
	}
}

// TestBehaviourStopsAccruingWhenBack: a behavioural fix accrues its estimate each turn only while its
// card is not back in the queue.
func TestBehaviourStopsAccruingWhenBack(t *testing.T) {
	habit := state.FromStored(state.StoredPattern{ID: "behavior:narrates", Category: "behavior", Kind: "Claude narrates every step",
		Why: "w", Alternative: "say less", Confidence: 0.8, EstTokensPerTurn: new(100.0)})
	s := statetest.Judged(t, habit)
	state.Reduce(s, state.Decide{PatternID: habit.ID, Choice: state.Fix})
	state.Reduce(s, state.TurnComplete{Stat: state.TurnStat{}})
	if s.Saved.Chars != 400 {
		t.Fatalf("saved %+v, want 400 chars", s.Saved)
	}
	s.Cards = append(s.Cards, habit.ID) // back in the queue, as a judge run reporting it again leaves it
	state.Reduce(s, state.TurnStart{Now: 9})
	state.Reduce(s, state.TurnComplete{Stat: state.TurnStat{}})
	if s.Saved.Chars != 400 {
		t.Fatalf("saved %+v: a behaviour whose card is back accrued", s.Saved)
	}
}
