package state

import "github.com/saverd/saverd/internal/jstext"

// How soon the window compacts, at the recent pace: the header shows it, and a credited saving is
// valued by the turns left before it (money.go).

const (
	// growthTurns is the turns with a context sample the pace to compaction is read from.
	growthTurns = 5
	// growthSamples is the growth samples below which no pace is stated at all.
	growthSamples = 3
)

// TokensToCompaction is the tokens left before auto-compaction (the threshold is compactAt, else 90% of
// the window); nil while the session's token count is unknown. Never negative: a window already past
// its threshold has 0 left (protocol.md, "Differences from ContextSaver").
func TokensToCompaction(s *State) *int64 {
	if s.Usage.Tokens == nil {
		return nil
	}
	threshold := int64(jstext.Round(float64(s.Usage.Window) * 0.9))
	if s.Usage.CompactAt != nil {
		threshold = *s.Usage.CompactAt
	}
	return new(max(0, threshold-*s.Usage.Tokens))
}

// ContextsOf is the context after each turn that reported one, oldest first: how full the window was,
// turn by turn.
func ContextsOf(s *State) []int64 {
	out := make([]int64, 0, len(s.Turns))
	for i := range s.Turns {
		if c := s.Turns[i].Context; c != nil {
			out = append(out, *c)
		}
	}
	return out
}

// TurnsToCompaction is the turns left before compaction at the recent pace; nil under growthSamples
// growth samples among the last growthTurns context samples. The pace is how fast the window fills, not
// what a turn is billed: a turn can spend 60k tokens and grow the window by 8k. A turn that shrank the
// window (a compaction, a /clear) is no pace at all, so drops are skipped. Never negative: 0 once the
// window is past the threshold (protocol.md, "Differences from ContextSaver").
func TurnsToCompaction(s *State) *int64 {
	left := TokensToCompaction(s)
	seen := ContextsOf(s)
	if len(seen) > growthTurns {
		seen = seen[len(seen)-growthTurns:]
	}
	var growth []float64
	for i := 1; i < len(seen); i++ {
		if step := seen[i] - seen[i-1]; step > 0 {
			growth = append(growth, float64(step))
		}
	}
	if left == nil || len(growth) < growthSamples {
		return nil
	}
	perTurn := Median(growth)
	if perTurn == 0 {
		return nil
	}
	return new(int64(jstext.Round(float64(*left) / perTurn)))
}
