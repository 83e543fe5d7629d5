package state_test

import (
	"slices"
	"testing"

	"github.com/saverd/saverd/state"
	"github.com/saverd/saverd/state/internal/statetest"
)

// TestNumbered: a card keeps the number it was queued with while it is open; new cards take the next
// numbers, in queue order (the seed's queue is newest first); a number past the highest open card is
// given again.
func TestNumbered(t *testing.T) {
	for _, tc := range []struct {
		name         string
		cards, seats []string
		want         []string
	}{
		{"nothing open", nil, nil, nil},
		{"the first cards, in queue order", []string{"a", "b"}, nil, []string{"a", "b"}},
		{"a new card queued first takes the next number", []string{"c", "a", "b"}, []string{"a", "b"}, []string{"a", "b", "c"}},
		{"a decided card leaves its number empty", []string{"b"}, []string{"a", "b"}, []string{"", "b"}},
		{"the highest decided: its number is free", []string{"a"}, []string{"a", "b"}, []string{"a"}},
		{"a card back after a decision is a new one", []string{"a", "b"}, []string{"", "b"}, []string{"", "b", "a"}},
		{"all decided", nil, []string{"", "b"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := state.New("/w", 200_000)
			s.Cards, s.Seats = tc.cards, tc.seats
			if got := state.Numbered(s); !slices.Equal(got, tc.want) {
				t.Fatalf("Numbered = %q, want %q", got, tc.want)
			}
		})
	}
}

// TestCardNumbersThroughTheReducer: the numbers the reducer keeps follow the cards through a judge
// run, a decision and a second run that finds more.
func TestCardNumbersThroughTheReducer(t *testing.T) {
	s := statetest.Judged(t, statetest.SuitePattern(), processPattern())
	if got := state.Numbered(s); !slices.Equal(got, []string{"execution:full-suite", "process:review-rounds"}) {
		t.Fatalf("after the first run %q", got)
	}
	state.Reduce(s, state.Decide{PatternID: "execution:full-suite", Choice: state.Ignore})
	reread := state.FromStored(state.StoredPattern{ID: "reading:reread", Category: "reading", Kind: "Claude reads a.ts again", Alternative: "keep it", Confidence: 0.8})
	state.Reduce(s, state.JudgeDone{Patterns: append(slices.Clone(s.Patterns), reread), Fresh: []string{"reading:reread"}, Recurred: []string{}, Dropped: []string{}})
	if got := state.Numbered(s); !slices.Equal(got, []string{"", "process:review-rounds", "reading:reread"}) {
		t.Fatalf("after a decision and a second run %q", got)
	}
	if n := state.CardNumber(s, "reading:reread"); n != 3 {
		t.Fatalf("the new card is %d, want 3", n)
	}
	state.Reduce(s, state.Reset{})
	if s.Seats != nil || state.CardNumber(s, "reading:reread") != 0 {
		t.Fatalf("after a reset seats %q", s.Seats)
	}
}
