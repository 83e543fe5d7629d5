package session

import (
	"math"

	"github.com/saverd/saverd/agentlog"
	"github.com/saverd/saverd/state"
	"github.com/saverd/saverd/state/view"
)

// saverOf is what the session's record in the sessions log says saverd did: each habit the judge named,
// its decision and the credit its fix still holds (the cache reads it spared on the turns that happened),
// and the session's net as the pane's Net row reckons it (view.MoneyOf). Nil when the judge named no habit and nothing was spent or saved.
func saverOf(s *state.State) *agentlog.Saver {
	money := view.MoneyOf(s)
	if len(s.Patterns) == 0 && money == nil {
		return nil
	}
	out := &agentlog.Saver{Habits: make([]agentlog.Habit, 0, len(s.Patterns))}
	m := &s.Money
	priced := m.Priced && m.JudgeUnpriced == 0 && m.Saved.Unpriced == 0 && m.Injected.Unpriced == 0
	for i := range s.Patterns {
		p := &s.Patterns[i]
		h := agentlog.Habit{ID: p.ID, Category: string(p.Category), Why: p.Why, Decision: decisionName(p.Decision), Hits: len(p.Hits)}
		var accrued state.Tally
		if c := p.Credit; c != nil {
			h.SavedMs, h.SavedChars, h.SavedTokens = c.Ms, c.Chars, c.Accrued.Tokens
			accrued = c.Accrued
		}
		if m.Priced && accrued.Unpriced == 0 {
			usd := math.Round(max(0, accrued.USD)*1e6) / 1e6
			h.SavedUSD = &usd
		}
		out.Habits = append(out.Habits, h)
	}
	if money == nil {
		out.Priced = priced
		if priced {
			zero := 0.0
			out.SavedUSD, out.JudgeUSD, out.InstructionsUSD, out.NetUSD = &zero, &zero, &zero, &zero
		}
		return out
	}
	out.Priced = money.Priced
	if money.Priced {
		out.SavedUSD, out.JudgeUSD, out.InstructionsUSD, out.NetUSD = &money.SavedUSD, &money.JudgeUSD, &money.InstructionsUSD, &money.NetUSD
		out.SavedTokens = int64(math.Round(max(0, m.Saved.Tokens)))
		out.JudgeTokens = s.Judge.Spent + s.Process.Spent
		out.InstructionsTokens = int64(math.Round(m.Injected.Tokens))
		return out
	}
	out.SavedTokens, out.JudgeTokens, out.InstructionsTokens = money.SavedTokens, money.JudgeTokens, money.InstructionsTokens
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
