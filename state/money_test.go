package state_test

import (
	"testing"

	"github.com/saverd/saverd/state"
	"github.com/saverd/saverd/state/internal/statetest"
	"github.com/saverd/saverd/state/view"
)

// TestMoneyOf: the net is in dollars when the model's price is known and every run was priced, in
// tokens (and marked so) otherwise; a judge that spent more than the savings are worth is losing.
func TestMoneyOf(t *testing.T) {
	cases := []struct {
		name  string
		set   func(s *state.State)
		text  string
		basis string
		lose  bool
	}{
		{name: "nothing spent or saved", set: func(*state.State) {}},
		{name: "priced, saving more than the judge", set: func(s *state.State) {
			state.Reduce(s, state.SetPrice{Model: "m", CacheRead: 0.30, Known: true})
			s.Money.SavedReads = 1_400_000 // $0.42 of cache reads
			state.SpendRun(s, new(0.11), 4_000)
			s.Judge.Spent = 4_000
		}, text: "saved $0.42 · judge $0.11 · net +$0.31", basis: "dollars at m's prices: savings as cache reads until compaction"},
		{name: "priced, the judge dearer", set: func(s *state.State) {
			state.Reduce(s, state.SetPrice{Model: "m", CacheRead: 0.30, Known: true})
			s.Money.SavedReads = 10_000
			state.SpendRun(s, new(1.13), 318_200)
			s.Judge.Spent = 318_200
		}, text: "saved $0.0030 · judge $1.13 · net −$1.13", basis: "dollars at m's prices: savings as cache reads until compaction", lose: true},
		{name: "no price for the model", set: func(s *state.State) {
			state.Reduce(s, state.SetPrice{Model: "local-llm", Known: false})
			s.Money.SavedReads = 50_000
			state.SpendRun(s, nil, 4_000)
			s.Judge.Spent = 4_000
		}, text: "saved ~50k tokens · judge 4k tokens · net +46k tokens", basis: "tokens: no price for local-llm"},
		{name: "a run that could not be priced makes it tokens", set: func(s *state.State) {
			state.Reduce(s, state.SetPrice{Model: "m", CacheRead: 0.30, Known: true})
			state.SpendRun(s, new(0.01), 1_000)
			state.SpendRun(s, nil, 3_000)
			s.Judge.Spent = 4_000
		}, text: "saved ~0 tokens · judge 4k tokens · net −4k tokens", basis: "tokens: no price for m", lose: true},
		{name: "no model known", set: func(s *state.State) {
			state.SpendRun(s, nil, 2_000)
			s.Process.Spent = 2_000
		}, text: "saved ~0 tokens · judge 2k tokens · net −2k tokens", basis: "tokens: the session's model is not known", lose: true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := state.New("/w", 200_000)
			c.set(s)
			m := view.MoneyOf(s)
			if c.text == "" {
				if m != nil {
					t.Fatalf("= %+v, want nil", m)
				}
				return
			}
			if m == nil || m.Text != c.text || m.Basis != c.basis || m.Losing != c.lose {
				t.Fatalf("= %+v, want %q (%s), losing %v", m, c.text, c.basis, c.lose)
			}
		})
	}
}

// TestSavingsValuedAsCacheReads: a credit is valued as its tokens re-read on every turn left to
// compaction — at the recent pace, else at the average fill per turn, else once — and a relapse takes
// exactly that value back.
func TestSavingsValuedAsCacheReads(t *testing.T) {
	cases := []struct {
		name     string
		contexts []int64 // the window after each turn before the decision
		tokens   *int64  // the window's sample then
		reads    float64
	}{
		// 10k a turn, 100k left to the 170k threshold: 10 turns; 5000 chars are 1250 tokens.
		{name: "at the recent pace", contexts: []int64{40_000, 50_000, 60_000, 70_000}, tokens: new(int64(70_000)), reads: 12_500},
		// Two samples are no pace: 70k over two turns is 35k a turn, 100k left is 3 turns.
		{name: "at the average fill", contexts: []int64{40_000, 70_000}, tokens: new(int64(70_000)), reads: 3_750},
		{name: "once, with nothing measured", reads: 1_250},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := statetest.Judged(t)
			for i, ctx := range c.contexts {
				state.Reduce(s, state.TurnComplete{Stat: state.TurnStat{Context: new(ctx)}})
				state.Reduce(s, state.TurnStart{Now: int64(10 + i)})
			}
			state.Reduce(s, state.UsageSample{Usage: state.Usage{Window: 200_000, CompactAt: new(int64(170_000)), Tokens: c.tokens}})
			state.Reduce(s, state.Decide{PatternID: "execution:full-suite", Choice: state.FixWithNote, Text: new("run only the auth tests")})
			state.Reduce(s, state.TurnStart{Now: 100})
			state.Reduce(s, state.AddRow{Row: statetest.Call("narrow", "test:npm test -- auth", state.ClassTest, s.Turn, 10_000, 1_000)})
			if s.Saved.Chars != 5_000 || s.Money.SavedReads != c.reads {
				t.Fatalf("saved %+v, reads %v; want 5000 chars, %v reads", s.Saved, s.Money.SavedReads, c.reads)
			}
			state.Reduce(s, state.TurnStart{Now: 200})
			state.Reduce(s, state.AddRow{Row: statetest.Call("again", statetest.SuiteKey, state.ClassTest, s.Turn, 55_000, 6_000)})
			if s.Money.SavedReads != 0 || s.Saved != (state.Saved{}) {
				t.Fatalf("after the relapse: reads %v, saved %+v", s.Money.SavedReads, s.Saved)
			}
		})
	}
}
