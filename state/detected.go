package state

import "slices"

// Detected: findings that need no model (package state/detect) merged into the registry (judge.Merge
// makes Patterns), Fresh the ids that belong in front of the person. No judge ran: nothing is spent,
// no run is counted, the judge's cadence and budget are untouched.
type Detected struct {
	Patterns []Pattern
	Fresh    []string
}

func (Detected) action() {}

// detected puts the registry in place and the fresh undecided ids in front of the cards already queued,
// each once; a card whose pattern the registry no longer holds goes.
func detected(s *State, a Detected, e *Effects) {
	patterns := ownPatterns(a.Patterns, 0)
	cards := make([]string, 0, len(a.Fresh)+len(s.Cards))
	for i, id := range a.Fresh {
		if undecidedIn(patterns, id) && !slices.Contains(a.Fresh[:i], id) && !slices.Contains(s.Cards, id) {
			cards = append(cards, id)
		}
	}
	for _, id := range s.Cards {
		if patternIn(patterns, id) != nil {
			cards = append(cards, id)
		}
	}
	e.Queued = queuedOf(a.Fresh, cards)
	s.Patterns = patterns
	s.Cards = cards
}
