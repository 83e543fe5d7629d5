package state

import "testing"

func BenchmarkBandModel(b *testing.B) {
	s := fullSession(b)
	b.ReportAllocs()
	for b.Loop() {
		_ = BuildBand(s)
	}
}

func TestBandState(t *testing.T) {
	for _, tc := range []struct {
		name string
		set  func(s *State)
		want string
	}{
		{"nothing yet", func(*State) {}, BandWatching},
		{"a saving", func(s *State) { s.Saved.Ms = 1 }, BandSaved},
		{"cards waiting outrank a saving", func(s *State) { s.Saved.Ms = 1; s.Cards = []string{"x"} }, BandFound},
		{"a run in flight outranks cards", func(s *State) { s.Cards = []string{"x"}; s.Judge.Running = true }, BandChecking},
		{"a dead turn outranks everything", func(s *State) {
			s.Judge.Running = true
			Reduce(s, TurnComplete{Stat: TurnStat{Ended: EndRefusal}})
		}, BandDied},
		{"a prompt after the dead turn revives it", func(s *State) {
			Reduce(s, TurnComplete{Stat: TurnStat{Ended: EndError}})
			Reduce(s, TurnStart{Now: 1})
		}, BandWatching},
		{"an aborted turn is not dead", func(s *State) { Reduce(s, TurnComplete{Stat: TurnStat{Ended: EndAborted}}) }, BandWatching},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := New("/w", 1_000)
			Reduce(s, TurnStart{Now: 0})
			tc.set(s)
			if got := BuildBand(s); got.State != tc.want || (got.State == BandDied) != (got.Died != nil) {
				t.Fatalf("state %s died %v, want %s", got.State, got.Died, tc.want)
			}
		})
	}
}

func TestBandFigures(t *testing.T) {
	s := judged(t) // one card waiting, citing two suite runs: 100s and 12000 chars
	Reduce(s, SetPane{Open: true})
	s.Saved = Saved{Ms: 7, Chars: 4_000}
	b := BuildBand(s)
	want := BandModel{State: BandFound, Fresh: 1, CostPct: 1.5, CostMs: 100_000, SavedPct: 0.5, SavedMs: 7, Calls: 2, PaneOpen: true}
	if b != want {
		t.Fatalf("band %+v\nwant %+v", b, want)
	}
}

func TestBandRunning(t *testing.T) {
	s := New("/w", 1_000)
	Reduce(s, TurnStart{Now: 0})
	Reduce(s, RunStart{Run: RunInfo{ID: "old", Name: "old run"}, Now: 1_000})
	Reduce(s, RunStart{Run: RunInfo{ID: "new", Name: "review"}, Now: 2_000})
	// A run with no loop yet is going for RunFreshMs after its launch, dated by the state's own clock
	// when the caller has none.
	if r := BuildBand(s).Running; r == nil || r.Name != "review" || r.Loops != 0 || r.Label != nil {
		t.Fatalf("running %+v", r)
	}
	if r := BuildBandAt(s, 2_000+RunFreshMs); r.Running != nil {
		t.Fatalf("a stale loopless run still runs: %+v", r.Running)
	}
	Reduce(s, RunJournal{RunID: "new", Now: 3_000, Entries: []JournalEntry{
		{Kind: "started", AgentID: "w1", Label: Ptr("lint")},
		{Kind: "started", AgentID: "w2", Label: Ptr("tests")},
		{Kind: "started", AgentID: "w3"},
	}})
	Reduce(s, LoopTurn{AgentID: "w3", Ended: EndAnswer})
	for i, agent := range []string{"w1", "w2", "w2", "w3", MainAgent} {
		Reduce(s, AddRow{Row: Row{ID: string(rune('a' + i)), Tool: "Read", Key: "/x", Agent: agent}})
	}
	r := BuildBandAt(s, 1e12)
	if r.Running == nil || *r.Running != (BandRunning{Name: "review", Loops: 3, Calls: 4, Label: r.Running.Label}) || Str(r.Running.Label) != "tests" {
		t.Fatalf("running %+v", r.Running)
	}
}
