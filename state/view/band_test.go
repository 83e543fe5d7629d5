package view

import (
	"testing"

	"github.com/saverd/saverd/state"
	"github.com/saverd/saverd/state/internal/statetest"
)

func BenchmarkBandModel(b *testing.B) {
	s := statetest.FullSession(b)
	b.ReportAllocs()
	for b.Loop() {
		_ = BuildBand(s)
	}
}

func TestBandState(t *testing.T) {
	for _, tc := range []struct {
		name string
		set  func(s *state.State)
		want string
	}{
		{"nothing yet", func(*state.State) {}, BandWatching},
		{"a saving", func(s *state.State) { s.Saved.Ms = 1 }, BandSaved},
		{"cards waiting outrank a saving", func(s *state.State) { s.Saved.Ms = 1; s.Cards = []string{"x"} }, BandFound},
		{"a run in flight outranks cards", func(s *state.State) { s.Cards = []string{"x"}; s.Judge.Running = true }, BandChecking},
		{"a dead turn outranks everything", func(s *state.State) {
			s.Judge.Running = true
			state.Reduce(s, state.TurnComplete{Stat: state.TurnStat{Ended: state.EndRefusal}})
		}, BandDied},
		{"a prompt after the dead turn revives it", func(s *state.State) {
			state.Reduce(s, state.TurnComplete{Stat: state.TurnStat{Ended: state.EndError}})
			state.Reduce(s, state.TurnStart{Now: 1})
		}, BandWatching},
		{"an aborted turn is not dead", func(s *state.State) {
			state.Reduce(s, state.TurnComplete{Stat: state.TurnStat{Ended: state.EndAborted}})
		}, BandWatching},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := state.New("/w", 1_000)
			state.Reduce(s, state.TurnStart{Now: 0})
			tc.set(s)
			if got := BuildBand(s); got.State != tc.want || (got.State == BandDied) != (got.Died != nil) {
				t.Fatalf("state %s died %v, want %s", got.State, got.Died, tc.want)
			}
		})
	}
}

func TestBandFigures(t *testing.T) {
	s := statetest.Judged(t) // one card waiting, citing two suite runs: 100s and 12000 chars
	state.Reduce(s, state.SetPane{Open: true})
	s.Saved = state.Saved{Ms: 7, Chars: 4_000}
	b := BuildBand(s)
	want := BandModel{State: BandFound, Fresh: 1, CostPct: 1.5, CostMs: 100_000, SavedPct: 0.5, SavedMs: 7, SavedChars: 4_000, Calls: 2, PaneOpen: true}
	if b != want {
		t.Fatalf("band %+v\nwant %+v", b, want)
	}
}

func TestBandRunning(t *testing.T) {
	s := state.New("/w", 1_000)
	state.Reduce(s, state.TurnStart{Now: 0})
	state.Reduce(s, state.RunStart{Run: state.RunInfo{ID: "old", Name: "old run"}, Now: 1_000})
	state.Reduce(s, state.RunStart{Run: state.RunInfo{ID: "new", Name: "review"}, Now: 2_000})
	// A run with no loop yet is going for RunFreshMs after its launch, dated by the state's own clock
	// when the caller has none.
	if r := BuildBand(s).Running; r == nil || r.Name != "review" || r.Loops != 0 || r.Label != nil {
		t.Fatalf("running %+v", r)
	}
	if r := BuildBandAt(s, 2_000+state.RunFreshMs); r.Running != nil {
		t.Fatalf("a stale loopless run still runs: %+v", r.Running)
	}
	state.Reduce(s, state.RunJournal{RunID: "new", Now: 3_000, Entries: []state.JournalEntry{
		{Kind: "started", AgentID: "w1", Label: new("lint")},
		{Kind: "started", AgentID: "w2", Label: new("tests")},
		{Kind: "started", AgentID: "w3"},
	}})
	state.Reduce(s, state.LoopTurn{AgentID: "w3", Ended: state.EndAnswer})
	for i, agent := range []string{"w1", "w2", "w2", "w3", state.MainAgent} {
		state.Reduce(s, state.AddRow{Row: state.Row{ID: string(rune('a' + i)), Tool: "Read", Key: "/x", Agent: agent}})
	}
	r := BuildBandAt(s, 1e12)
	if r.Running == nil || *r.Running != (BandRunning{Name: "review", Loops: 3, Calls: 4, Label: r.Running.Label}) || state.Str(r.Running.Label) != "tests" {
		t.Fatalf("running %+v", r.Running)
	}
}
