package state_test

import (
	"math"
	"strings"
	"testing"

	"github.com/saverd/saverd/state"
	"github.com/saverd/saverd/state/internal/statetest"
	"github.com/saverd/saverd/state/view"
)

// TestMoneyOf: the net is in dollars when the model's price is known and every figure was priced, in
// tokens (and marked so) otherwise; the instructions saverd sent are spend beside the judge; a net below
// zero is losing; the projection is apart and in no other figure.
func TestMoneyOf(t *testing.T) {
	const basis = "dollars at m's prices: savings are the cache reads the fixes spared on turns that happened; spend is the judges' forks and the instructions saverd sent"
	cases := []struct {
		name   string
		set    func(s *state.State)
		text   string
		basis  string
		lose   bool
		losing string
	}{
		{name: "nothing spent or saved", set: func(*state.State) {}},
		{name: "priced, saving more than the judge", set: func(s *state.State) {
			state.Reduce(s, state.SetPrice{Model: "m", CacheRead: 0.30, CacheWrite: 3.75, Known: true})
			s.Money.Saved = state.Tally{Tokens: 1_400_000, USD: 0.42}
			state.SpendRun(s, new(0.11), 4_000)
			s.Judge.Spent = 4_000
		}, text: "saved $0.42 · judge $0.11 · net +$0.31", basis: basis},
		{name: "priced, the judge dearer", set: func(s *state.State) {
			state.Reduce(s, state.SetPrice{Model: "m", CacheRead: 0.30, Known: true})
			s.Money.Saved = state.Tally{Tokens: 10_000, USD: 0.003}
			state.SpendRun(s, new(1.13), 318_200)
			s.Judge.Spent = 318_200
		}, text: "saved $0.0030 · judge $1.13 · net −$1.13", basis: basis, lose: true, losing: "the judge cost more than it saved"},
		{name: "the instructions are spend", set: func(s *state.State) {
			state.Reduce(s, state.SetPrice{Model: "m", CacheRead: 0.30, CacheWrite: 3.75, Known: true})
			s.Money.Saved = state.Tally{Tokens: 100_000, USD: 0.03}
			s.Money.Injected = state.Tally{Tokens: 8_000, USD: 0.012}
			state.SpendRun(s, new(0.02), 4_000)
			s.Judge.Spent = 4_000
		}, text: "saved $0.03 · judge $0.02 · instructions $0.01 · net −$0.0020", basis: basis, lose: true,
			losing: "the judge and the instructions cost more than they saved"},
		{name: "no price for the model", set: func(s *state.State) {
			state.Reduce(s, state.SetPrice{Model: "local-llm", Known: false})
			s.Money.Saved = state.Tally{Tokens: 50_000, Unpriced: 50_000}
			s.Money.Injected = state.Tally{Tokens: 1_000, Unpriced: 1_000}
			state.SpendRun(s, nil, 4_000)
			s.Judge.Spent = 4_000
		}, text: "saved ~50k tokens · judge 4k tokens · instructions 1k tokens · net +45k tokens", basis: "tokens: no price for local-llm"},
		{name: "a run that could not be priced makes it tokens", set: func(s *state.State) {
			state.Reduce(s, state.SetPrice{Model: "m", CacheRead: 0.30, Known: true})
			state.SpendRun(s, new(0.01), 1_000)
			state.SpendRun(s, nil, 3_000)
			s.Judge.Spent = 4_000
		}, text: "saved ~0 tokens · judge 4k tokens · net −4k tokens", basis: "tokens: no price for m", lose: true, losing: "the judge cost more than it saved"},
		{name: "a turn with no price makes it tokens", set: func(s *state.State) {
			state.Reduce(s, state.SetPrice{Model: "m", CacheRead: 0.30, Known: true})
			s.Money.Saved = state.Tally{Tokens: 3_000, USD: 0.0006, Unpriced: 1_000}
		}, text: "saved ~3k tokens · judge 0 tokens · net +3k tokens", basis: "tokens: no price for m"},
		{name: "no model known", set: func(s *state.State) {
			state.SpendRun(s, nil, 2_000)
			s.Process.Spent = 2_000
		}, text: "saved ~0 tokens · judge 2k tokens · net −2k tokens", basis: "tokens: the session's model is not known", lose: true, losing: "the judge cost more than it saved"},
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
			if m == nil || m.Text != c.text || m.Basis != c.basis || m.Losing != c.lose || m.Projection != "" {
				t.Fatalf("= %+v, want %q (%s), losing %v", m, c.text, c.basis, c.lose)
			}
			if c.lose && view.LosingText(m) != c.losing {
				t.Fatalf("losing text %q, want %q", view.LosingText(m), c.losing)
			}
		})
	}
}

// TestSavingsMeasuredOnTurnsThatHappened: a credit is worth nothing when it settles; each main-loop turn
// that completes after it adds its avoided tokens as cache reads at that turn's price (a subagent's turn
// adds nothing), until a compaction; a relapse takes back exactly what it accrued; what the turns left to
// compaction would add is a projection, never in saved or net.
func TestSavingsMeasuredOnTurnsThatHappened(t *testing.T) {
	s := statetest.Judged(t)
	for i, ctx := range []int64{40_000, 50_000, 60_000, 70_000} {
		state.Reduce(s, state.TurnComplete{Stat: state.TurnStat{Context: new(ctx)}})
		state.Reduce(s, state.TurnStart{Now: int64(10 + i)})
	}
	state.Reduce(s, state.UsageSample{Usage: state.Usage{Window: 200_000, CompactAt: new(int64(170_000)), Tokens: new(int64(70_000))}})
	state.Reduce(s, state.SetPrice{Model: "m", CacheRead: 0.30, CacheWrite: 3.75, Known: true})
	state.Reduce(s, state.Decide{PatternID: "execution:full-suite", Choice: state.FixWithNote, Text: new("run only the auth tests")})
	state.Reduce(s, state.TurnStart{Now: 100})
	// The narrow run settles the fix: 5000 chars spared, 1250 tokens. Nothing is saved yet.
	state.Reduce(s, state.AddRow{Row: statetest.Call("narrow", "test:npm test -- auth", state.ClassTest, s.Turn, 10_000, 1_000)})
	if s.Saved.Chars != 5_000 || s.Money.Saved != (state.Tally{}) {
		t.Fatalf("saved %+v, money %+v; want 5000 chars and nothing measured yet", s.Saved, s.Money.Saved)
	}
	m := view.MoneyOf(s)
	// 10k a turn, 100k left to the 170k threshold: 10 turns of 1250 tokens at $0.30 a million.
	if m == nil || m.SavedUSD != 0 || m.ProjectedTokens != 12_500 || m.ProjectedUSD != 0.00375 || m.Projection != "on pace for ~$0.0037 more by compaction" {
		t.Fatalf("money %+v", m)
	}
	// The turn the credit came in re-read none of it: its requests were already made.
	state.Reduce(s, state.TurnComplete{Stat: state.TurnStat{}})
	if s.Money.Saved != (state.Tally{}) {
		t.Fatalf("the credit's own turn saved %+v", s.Money.Saved)
	}
	// Each later main-loop turn adds 1250 tokens at its own price; a subagent's turn adds none.
	state.Reduce(s, state.TurnStart{Now: 200})
	state.Reduce(s, state.LoopTurn{AgentID: "a1", Turn: s.Turn})
	state.Reduce(s, state.TurnComplete{Stat: state.TurnStat{}})
	state.Reduce(s, state.SetPrice{Model: "m2", CacheRead: 0.50, Known: true})
	state.Reduce(s, state.TurnStart{Now: 300})
	state.Reduce(s, state.TurnComplete{Stat: state.TurnStat{}})
	want := state.Tally{Tokens: 2_500, USD: 1_250*0.30/1e6 + 1_250*0.50/1e6}
	if !close(s.Money.Saved, want) {
		t.Fatalf("after two turns: %+v, want %+v", s.Money.Saved, want)
	}
	if m := view.MoneyOf(s); m.SavedUSD != 0.001 || m.Text != "saved $0.0010 · judge $0 · net +$0.0010" {
		t.Fatalf("money %+v", m)
	}
	// A compaction drops the context the fix kept out: no more re-reads, what accrued stands.
	state.Reduce(s, state.Compact{})
	state.Reduce(s, state.TurnStart{Now: 400})
	state.Reduce(s, state.TurnComplete{Stat: state.TurnStat{}})
	if !close(s.Money.Saved, want) || state.Projected(s) != 0 {
		t.Fatalf("after a compaction: %+v (projected %v), want %+v", s.Money.Saved, state.Projected(s), want)
	}
	// The habit comes back: exactly what it accrued is taken back.
	state.Reduce(s, state.TurnStart{Now: 500})
	state.Reduce(s, state.AddRow{Row: statetest.Call("again", statetest.SuiteKey, state.ClassTest, s.Turn, 55_000, 6_000)})
	if !close(s.Money.Saved, state.Tally{}) || s.Saved != (state.Saved{}) {
		t.Fatalf("after the relapse: money %+v, saved %+v", s.Money.Saved, s.Saved)
	}
}

// TestInstructionsAreSpend: a text saverd sends into the main loop is written once at the cache-write
// price and re-read on each later main-loop turn, until a compaction, which also lets it go out again; a
// subagent's copy is written once; without a price they are tokens.
func TestInstructionsAreSpend(t *testing.T) {
	s := state.New("/w", 200_000)
	state.Reduce(s, state.SetPrice{Model: "m", CacheRead: 0.30, CacheWrite: 3.75, Known: true})
	text := strings.Repeat("x", 400) // 100 tokens
	state.Reduce(s, state.TurnStart{Now: 1})
	state.Reduce(s, state.Injected{Texts: []string{text}, Main: true})
	if !close(s.Money.Injected, state.Tally{Tokens: 100, USD: 100 * 3.75 / 1e6}) || len(s.Delivered) != 1 {
		t.Fatalf("written: %+v, delivered %q", s.Money.Injected, s.Delivered)
	}
	state.Reduce(s, state.TurnComplete{Stat: state.TurnStat{}}) // its own turn: written, not re-read
	state.Reduce(s, state.TurnStart{Now: 2})
	state.Reduce(s, state.TurnComplete{Stat: state.TurnStat{}})
	state.Reduce(s, state.Injected{Texts: []string{text}}) // a subagent's copy: written once
	want := state.Tally{Tokens: 300, USD: 200*3.75/1e6 + 100*0.30/1e6}
	if !close(s.Money.Injected, want) {
		t.Fatalf("after a turn and a subagent: %+v, want %+v", s.Money.Injected, want)
	}
	m := view.MoneyOf(s)
	if m == nil || m.InstructionsUSD != 0.00078 || m.InstructionsTokens != 0 || m.Text != "saved $0 · judge $0 · instructions $0.0008 · net −$0.0008" {
		t.Fatalf("money %+v", m)
	}
	state.Reduce(s, state.Compact{})
	state.Reduce(s, state.TurnStart{Now: 3})
	state.Reduce(s, state.TurnComplete{Stat: state.TurnStat{}})
	if !close(s.Money.Injected, want) || len(s.Delivered) != 0 {
		t.Fatalf("after a compaction: %+v, delivered %q", s.Money.Injected, s.Delivered)
	}
	// Sent ahead of a turn (a SessionStart's answer, before the prompt): that turn's first request writes
	// it, so the re-reads start with the turn after.
	a := state.New("/w", 200_000)
	state.Reduce(a, state.SetPrice{Model: "m", CacheRead: 0.30, CacheWrite: 3.75, Known: true})
	state.Reduce(a, state.Injected{Texts: []string{text}, Main: true, Ahead: true})
	for turn := int64(1); turn <= 2; turn++ {
		state.Reduce(a, state.TurnStart{Now: turn})
		state.Reduce(a, state.TurnComplete{Stat: state.TurnStat{}})
	}
	if !close(a.Money.Injected, state.Tally{Tokens: 200, USD: 100*3.75/1e6 + 100*0.30/1e6}) {
		t.Fatalf("sent ahead, two turns: %+v, want the write and the second turn's re-read", a.Money.Injected)
	}
	u := state.New("/w", 200_000)
	state.Reduce(u, state.Injected{Texts: []string{text}, Main: true})
	if !close(u.Money.Injected, state.Tally{Tokens: 100, Unpriced: 100}) {
		t.Fatalf("no price: %+v", u.Money.Injected)
	}
}

// close: two tallies equal to a billionth of a dollar or token (sums of products are not exact).
func close(a, b state.Tally) bool {
	return math.Abs(a.Tokens-b.Tokens) < 1e-9 && math.Abs(a.USD-b.USD) < 1e-9 && math.Abs(a.Unpriced-b.Unpriced) < 1e-9
}
