package view

import (
	"github.com/saverd/saverd/internal/jstext"
	"github.com/saverd/saverd/state"
)

// The pane's hero row: how full the window is and how soon it compacts, where the time and the context
// went, what the judge cost and what the decisions saved.

// judgeShare is the judge's tokens as a percentage of the session's, one decimal; nil before the first
// turn completes: the session's own tokens are 0 then, and a share of nothing is not a figure (a run
// that cost 24k once printed 2394600% of a denominator not yet measured).
func judgeShare(s *state.State) *float64 {
	total := state.TotalTokens(s)
	if total == 0 {
		return nil
	}
	return new(jstext.Round(float64(s.Judge.Spent)/float64(total)*1000) / 10)
}

// trendOf is how full the window was after each of the last TrendTurns turns that reported it.
func trendOf(s *state.State) []float64 {
	seen := state.ContextsOf(s)
	if len(seen) > state.TrendTurns {
		seen = seen[len(seen)-state.TrendTurns:]
	}
	window := float64(max(1, s.Usage.Window))
	out := make([]float64, len(seen))
	for i, tokens := range seen {
		out[i] = jstext.Round(float64(tokens)/window*1000) / 10
	}
	return out
}

// sinksOf is where the measure went; nil before the first row: nothing was measured yet, and a total of
// zero would read as a session that cost nothing.
func sinksOf(s *state.State, m state.Measure) *state.Sinks {
	if len(s.Rows) == 0 {
		return nil
	}
	sinks := state.SinksOf(s.Rows, s.Folded, m)
	return &sinks
}

// HeaderOf is the pane's hero row.
func HeaderOf(s *state.State) Header {
	var share float64
	if p := judgeShare(s); p != nil {
		share = *p
	}
	var percent *float64
	if s.Usage.Percent != nil {
		percent = new(*s.Usage.Percent)
	}
	return Header{
		Percent:            percent,
		TokensToCompaction: state.TokensToCompaction(s),
		TurnsToCompaction:  state.TurnsToCompaction(s),
		Trend:              trendOf(s),
		Time:               sinksOf(s, state.MeasureMs),
		Context:            sinksOf(s, state.MeasureChars),
		JudgeTime:          state.CopyStr(s.Judge.Time),
		JudgeContext:       state.CopyStr(s.Judge.Context),
		JudgeRuns:          s.Judge.Runs,
		JudgeTokens:        s.Judge.Spent,
		JudgeShare:         share,
		JudgeRunning:       s.Judge.Running,
		SavedPct:           state.PctOf(s.Saved.Chars, s.Usage.Window),
		SavedMs:            s.Saved.Ms,
		SavedChars:         s.Saved.Chars,
		Budget:             state.BudgetOf(s),
		Money:              MoneyOf(s),
	}
}
