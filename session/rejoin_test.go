package session

import (
	"slices"
	"testing"

	"github.com/saverd/saverd/state"
)

// TestDecidedSince: the registry tells a session's decisions and open cards from an earlier session's by
// when they were decided and changed, against the transcript's start.
func TestDecidedSince(t *testing.T) {
	const since = 1_000
	copyOf := func(id string, last *state.Choice, at, decidedAt int64) storedCopy {
		return storedCopy{sp: state.StoredPattern{ID: id, Kind: id, Alternative: "do less", LastDecision: last}, at: at, decidedAt: decidedAt}
	}
	stored := map[string]storedCopy{
		"execution:fixed-here":   copyOf("execution:fixed-here", new(state.Fix), 1_500, 1_500),
		"execution:ignored-here": copyOf("execution:ignored-here", new(state.Ignore), 1_200, 1_200),
		// Decided in an earlier session, found again by this one's judge: a card of this session.
		"execution:refound": copyOf("execution:refound", new(state.Fix), 1_100, 500),
		// An entry a daemon wrote before it stamped decisions: its change dates it.
		"execution:unstamped": copyOf("execution:unstamped", new(state.Ignore), 1_300, 0),
		"execution:open-here": copyOf("execution:open-here", nil, 1_050, 0),
		"execution:earlier":   copyOf("execution:earlier", new(state.Fix), 900, 900),
	}
	r := decidedSince(stored, since)
	wantDecided := []state.Redecision{{PatternID: "execution:ignored-here", Choice: state.Ignore}, {PatternID: "execution:unstamped", Choice: state.Ignore},
		{PatternID: "execution:fixed-here", Choice: state.Fix}}
	if !slices.Equal(r.act.Decided, wantDecided) {
		t.Fatalf("decided %v, want %v", r.act.Decided, wantDecided)
	}
	if want := []string{"execution:open-here", "execution:refound"}; !slices.Equal(r.act.Open, want) {
		t.Fatalf("open %v, want %v (in the order found)", r.act.Open, want)
	}
	fixed := stored["execution:fixed-here"].sp
	if want := []string{state.InstructionOf(state.FixPrompt(&fixed))}; !slices.Equal(r.fixes, want) {
		t.Fatalf("fixes %q, want %q", r.fixes, want)
	}
}
