package state

import "github.com/saverd/saverd/internal/jstext"

// The judges' budget is a cap, not a pace: past it no automatic run starts (a `/saver check` still
// runs, and says so). What counts on both sides is what a token bill counts — input, output and cache
// creation; cache reads are left out of both, as TotalTokens and judge.SpentOf leave them out.

// Budget is where the judges stand against their cap.
type Budget struct {
	Share   float64 `json:"share"`   // the cap, a share of the session's own tokens (0.05 = 5%)
	Allowed int64   `json:"allowed"` // Share of what the session spent so far
	Spent   int64   `json:"spent"`   // what the habit and process judges spent together
	Left    int64   `json:"left"`    // Allowed less Spent, never below 0
	Over    bool    `json:"over"`    // no automatic run starts
}

// BudgetOf is the judges' budget now. Before the session's first turn completes nothing is measured,
// and a share of nothing is no cap (as the backoff reads it); a budget of 0 is always spent.
func BudgetOf(s *State) Budget {
	spent := s.Judge.Spent + s.Process.Spent
	total := TotalTokens(s)
	allowed := int64(jstext.Round(s.Budget * float64(total)))
	over := s.Budget == 0 || total > 0 && spent >= allowed
	return Budget{Share: s.Budget, Allowed: allowed, Spent: spent, Left: max(0, allowed-spent), Over: over}
}
