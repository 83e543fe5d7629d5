package state

import "testing"

// TestRelapseAfterSettling: a fix that settled is not credited for good. The signature's key in a later
// main-loop turn brings the card back as `ignored · …`, counts ignored once and takes back exactly what
// that instruction had been credited; anything else leaves the credit alone.
func TestRelapseAfterSettling(t *testing.T) {
	cases := []struct {
		name    string
		settle  func(s *State)
		relapse Row
		ignored int
		saved   Saved
		queued  bool
	}{
		{
			name: "a narrower run credited, then the whole suite again",
			settle: func(s *State) {
				Reduce(s, TurnStart{Now: 2})
				Reduce(s, AddRow{Row: call("r3", "test:npm test -- auth", ClassTest, 2, 10_000, 1_000)})
			},
			relapse: call("r4", suiteKey, ClassTest, 4, 55_000, 6_000), ignored: 1, queued: true,
		},
		{
			name: "held two turns, then the whole suite again",
			settle: func(s *State) {
				for turn := 1; turn <= 3; turn++ {
					if turn > 1 {
						Reduce(s, TurnStart{Now: int64(turn * 10)})
					}
					Reduce(s, TurnComplete{Stat: TurnStat{At: int64(turn*10 + 5)}})
				}
			},
			relapse: call("r4", suiteKey, ClassTest, 4, 55_000, 6_000), ignored: 1, queued: true,
		},
		{
			name: "a subagent's suite run is no relapse of the main loop",
			settle: func(s *State) {
				Reduce(s, TurnStart{Now: 2})
				Reduce(s, AddRow{Row: call("r3", "test:npm test -- auth", ClassTest, 2, 10_000, 1_000)})
			},
			relapse: func() Row { r := call("r4", suiteKey, ClassTest, 4, 55_000, 6_000); r.Agent = "agent-1"; return r }(),
			saved:   Saved{Ms: 40_000, Chars: 5_000},
		},
		{
			name: "another narrow run keeps the credit",
			settle: func(s *State) {
				Reduce(s, TurnStart{Now: 2})
				Reduce(s, AddRow{Row: call("r3", "test:npm test -- auth", ClassTest, 2, 10_000, 1_000)})
			},
			relapse: call("r4", "test:npm test -- auth", ClassTest, 4, 10_000, 1_000),
			saved:   Saved{Ms: 40_000, Chars: 5_000},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := steered(t)
			c.settle(s)
			p := s.PatternByID("execution:full-suite")
			if p.OpenedAtTurn != nil || s.Saved == (Saved{}) || p.Credit == nil || (Saved{Ms: p.Credit.Ms, Chars: p.Credit.Chars}) != s.Saved {
				t.Fatalf("not settled: opened %v, saved %+v, credit %+v", p.OpenedAtTurn, s.Saved, p.Credit)
			}
			for s.Turn < c.relapse.Turn {
				Reduce(s, TurnStart{Now: int64(100 + s.Turn)})
			}
			Reduce(s, AddRow{Row: c.relapse})
			p = s.PatternByID("execution:full-suite")
			if p.Ignored != c.ignored || s.Saved != c.saved || Contains(s.Cards, p.ID) != c.queued {
				t.Fatalf("after the row: ignored %d, saved %+v, cards %v; want ignored %d, saved %+v, queued %v",
					p.Ignored, s.Saved, s.Cards, c.ignored, c.saved, c.queued)
			}
			if !c.queued {
				return
			}
			if card := BuildPane(s, nil).Wasters[0]; card.Kind != "ignored · "+p.Kind {
				t.Fatalf("card kind = %q", card.Kind)
			}
			// The card waits for the person: the same call again counts nothing more.
			Reduce(s, AddRow{Row: call("r5", suiteKey, ClassTest, 4, 55_000, 6_000)})
			if p := s.PatternByID("execution:full-suite"); p.Ignored != c.ignored || s.Saved != c.saved {
				t.Fatalf("counted twice: ignored %d, saved %+v", p.Ignored, s.Saved)
			}
		})
	}
}

// TestBehaviourStopsAccruingWhenBack: a behavioural fix accrues its estimate each turn only while its
// card is not back in the queue.
func TestBehaviourStopsAccruingWhenBack(t *testing.T) {
	habit := FromStored(StoredPattern{ID: "behavior:narrates", Category: "behavior", Kind: "Claude narrates every step",
		Why: "w", Alternative: "say less", Confidence: 0.8, EstTokensPerTurn: Ptr(100.0)})
	s := judged(t, habit)
	Reduce(s, Decide{PatternID: habit.ID, Choice: Kill})
	Reduce(s, TurnComplete{Stat: TurnStat{}})
	if s.Saved.Chars != 400 {
		t.Fatalf("saved %+v, want 400 chars", s.Saved)
	}
	s.Cards = append(s.Cards, habit.ID) // back in the queue, as a judge run reporting it again leaves it
	Reduce(s, TurnStart{Now: 9})
	Reduce(s, TurnComplete{Stat: TurnStat{}})
	if s.Saved.Chars != 400 {
		t.Fatalf("saved %+v: a behaviour whose card is back accrued", s.Saved)
	}
}
