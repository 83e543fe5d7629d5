package state

import "slices"

// Effects is what one Reduce call did that its caller answers out loud (a toast, a registry write, a
// card opened), so no caller compares the state before and after an action to learn it. Each list is
// nil when the action did none of it, so an action that settles nothing allocates nothing here.
type Effects struct {
	// Settled is the patterns whose open instruction this action settled, credited or found ignored,
	// by a row (AddRow) or at a turn's end (TurnComplete), in pattern order.
	Settled []string
	// Saved is what the action added to State.Saved (negative when a relapse took a credit back).
	Saved Saved
	// Requeued is the settled instructions whose cards this action brought back to the queue (a relapse
	// in a row, a judge run reporting the habit again), in pattern order, each with what it had been
	// credited before the action.
	Requeued []Requeue
	// Queued is the ids a judge run reported (fresh, then recurred, as JudgeDone lists them) that are
	// cards after it, whether or not they were cards before.
	Queued []string
	// Decided is the pattern a Decide named when it carries that choice after the action: the decision
	// took, or a blank instruction (which decides nothing) left the same earlier decision standing.
	Decided string
}

// Requeue is one settled instruction whose card came back, with the credit it held before.
type Requeue struct {
	ID     string
	Credit Saved
}

// settledCredit reports whether p is a settled instruction in s (sent, closed, its card not queued) and
// what it was credited; a card that comes back from that state is a relapse the person is told about.
func settledCredit(s *State, p *Pattern) (Saved, bool) {
	if p == nil || p.OpenedAtTurn != nil || !IsSent(p.Decision) || slices.Contains(s.Cards, p.ID) {
		return Saved{}, false
	}
	if p.Credit == nil {
		return Saved{}, true
	}
	return Saved{Ms: p.Credit.Ms, Chars: p.Credit.Chars}, true
}

// requeuedBy is the settled instructions of s that a judge run's answer brings back: each pattern of the
// answer, in its order, that is settled in s now and a card in the answer's queue. Called before the
// answer replaces s.Patterns and s.Cards.
func requeuedBy(s *State, patterns []Pattern, cards []string) []Requeue {
	var out []Requeue
	for i := range patterns {
		id := patterns[i].ID
		if credit, ok := settledCredit(s, s.PatternByID(id)); ok && slices.Contains(cards, id) {
			out = append(out, Requeue{ID: id, Credit: credit})
		}
	}
	return out
}

// queuedOf keeps the ids that are in cards, in order.
func queuedOf(ids, cards []string) []string {
	var out []string
	for _, id := range ids {
		if slices.Contains(cards, id) {
			out = append(out, id)
		}
	}
	return out
}
