package state

import "testing"

// TestMoneyOf: the net is in dollars when the model's price is known and every run was priced, in
// tokens (and marked so) otherwise; a judge that spent more than the savings are worth is losing.
func TestMoneyOf(t *testing.T) {
	cases := []struct {
		name  string
		set   func(s *State)
		text  string
		basis string
		lose  bool
	}{
		{name: "nothing spent or saved", set: func(*State) {}},
		{name: "priced, saving more than the judge", set: func(s *State) {
			Reduce(s, SetPrice{Model: "m", CacheRead: 0.30, Known: true})
			s.Money.SavedReads = 1_400_000 // $0.42 of cache reads
			spendRun(s, Ptr(0.11), 4_000)
			s.Judge.Spent = 4_000
		}, text: "saved $0.42 · judge $0.11 · net +$0.31", basis: "dollars at m's prices: savings as cache reads until compaction"},
		{name: "priced, the judge dearer", set: func(s *State) {
			Reduce(s, SetPrice{Model: "m", CacheRead: 0.30, Known: true})
			s.Money.SavedReads = 10_000
			spendRun(s, Ptr(1.13), 318_200)
			s.Judge.Spent = 318_200
		}, text: "saved $0.0030 · judge $1.13 · net −$1.13", basis: "dollars at m's prices: savings as cache reads until compaction", lose: true},
		{name: "no price for the model", set: func(s *State) {
			Reduce(s, SetPrice{Model: "local-llm", Known: false})
			s.Money.SavedReads = 50_000
			spendRun(s, nil, 4_000)
			s.Judge.Spent = 4_000
		}, text: "saved ~50k tokens · judge 4k tokens · net +46k tokens", basis: "tokens: no price for local-llm"},
		{name: "a run that could not be priced makes it tokens", set: func(s *State) {
			Reduce(s, SetPrice{Model: "m", CacheRead: 0.30, Known: true})
			spendRun(s, Ptr(0.01), 1_000)
			spendRun(s, nil, 3_000)
			s.Judge.Spent = 4_000
		}, text: "saved ~0 tokens · judge 4k tokens · net −4k tokens", basis: "tokens: no price for m", lose: true},
		{name: "no model known", set: func(s *State) {
			spendRun(s, nil, 2_000)
			s.Process.Spent = 2_000
		}, text: "saved ~0 tokens · judge 2k tokens · net −2k tokens", basis: "tokens: the session's model is not known", lose: true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := New("/w", 200_000)
			c.set(s)
			m := MoneyOf(s)
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
// compaction, and a relapse takes exactly that value back.
func TestSavingsValuedAsCacheReads(t *testing.T) {
	s := steered(t)
	// Four growing context samples: 10k a turn with 100k left is 10 turns to compaction.
	for i, ctx := range []int64{40_000, 50_000, 60_000, 70_000} {
		Reduce(s, TurnComplete{Stat: TurnStat{Context: Ptr(ctx)}})
		Reduce(s, TurnStart{Now: int64(10 + i)})
	}
	Reduce(s, UsageSample{Usage: Usage{Window: 200_000, CompactAt: Ptr[int64](170_000), Tokens: Ptr[int64](70_000)}})
	if n := TurnsToCompaction(s); n == nil || *n != 10 {
		t.Fatalf("turns to compaction = %v, want 10", n)
	}
	if s.Saved != (Saved{Ms: 50_000, Chars: 6_000}) {
		t.Fatalf("saved %+v: the instruction should have settled on its baseline", s.Saved)
	}
	// It settled at the third turn's end, when the pace was not yet known: one read.
	if s.Money.SavedReads != 1_500 {
		t.Fatalf("saved reads = %v, want 1500 (6000 chars, read once)", s.Money.SavedReads)
	}
	// A narrower run settled now is worth its 5000 chars read 10 more times.
	s2 := steered(t)
	for i, ctx := range []int64{40_000, 50_000, 60_000} {
		if i > 0 {
			Reduce(s2, TurnStart{Now: int64(10 + i)})
		}
		Reduce(s2, TurnComplete{Stat: TurnStat{Context: Ptr(ctx)}})
	}
	Reduce(s2, UsageSample{Usage: Usage{Window: 200_000, CompactAt: Ptr[int64](170_000), Tokens: Ptr[int64](70_000)}})
	Reduce(s2, TurnStart{Now: 20})
	Reduce(s2, TurnComplete{Stat: TurnStat{Context: Ptr[int64](70_000)}})
	if s2.Money.SavedReads <= 0 {
		t.Fatalf("saved reads = %v", s2.Money.SavedReads)
	}
	Reduce(s2, TurnStart{Now: 30})
	Reduce(s2, AddRow{Row: call("again", suiteKey, ClassTest, s2.Turn, 55_000, 6_000)})
	if s2.Money.SavedReads != 0 || s2.Saved != (Saved{}) {
		t.Fatalf("after the relapse: reads %v, saved %+v", s2.Money.SavedReads, s2.Saved)
	}
}
