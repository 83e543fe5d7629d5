package handlers

import (
	"math"

	"github.com/saverd/saverd/agentlog"
	"github.com/saverd/saverd/state"
	"github.com/saverd/saverd/state/view"
)

// saverOf is what the session's record in the sessions log says saverd did: each habit the judge named,
// its decision and the credit its fix still holds, and the session's net as the pane's Net row reckons it
// (view.MoneyOf). Nil when the judge named no habit and nothing was spent or saved.
func saverOf(s *state.State) *agentlog.Saver {
	money := view.MoneyOf(s)
	if len(s.Patterns) == 0 && money == nil {
		return nil
	}
	out := &agentlog.Saver{Habits: make([]agentlog.Habit, 0, len(s.Patterns))}
	priced := s.Money.Priced && s.Money.JudgeUnpriced == 0
	for i := range s.Patterns {
		p := &s.Patterns[i]
		h := agentlog.Habit{ID: p.ID, Category: string(p.Category), Why: p.Why, Decision: decisionName(p.Decision), Hits: len(p.Hits)}
		if c := p.Credit; c != nil {
			h.SavedMs, h.SavedChars, h.SavedTokens = c.Ms, c.Chars, c.Reads
		}
		if priced {
			usd := math.Round(max(0, h.SavedTokens)*s.Money.CacheRead/1e6*1e6) / 1e6
			h.SavedUSD = &usd
		}
		out.Habits = append(out.Habits, h)
	}
	if money == nil {
		out.Priced = priced
		if priced {
			zero := 0.0
			out.SavedUSD, out.JudgeUSD, out.NetUSD = &zero, &zero, &zero
		}
		return out
	}
	out.Priced = money.Priced
	if money.Priced {
		out.SavedUSD, out.JudgeUSD, out.NetUSD = &money.SavedUSD, &money.JudgeUSD, &money.NetUSD
		out.SavedTokens = int64(math.Round(max(0, s.Money.SavedReads)))
		out.JudgeTokens = s.Judge.Spent + s.Process.Spent
		return out
	}
	out.SavedTokens, out.JudgeTokens = money.SavedTokens, money.JudgeTokens
	return out
}

// decisionName is a decision as the record names it.
func decisionName(c *state.Choice) string {
	if c == nil {
		return "open"
	}
	switch *c {
	case state.Fix:
		return "fix"
	case state.FixWithNote:
		return "fix-with-note"
	case state.Ignore:
		return "ignore"
	}
	return string(*c)
}
