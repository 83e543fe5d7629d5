package state

// The pane's hero row: how full the window is and how soon it compacts, where the time and the context
// went, what the judge cost and what the decisions saved.

const (
	// growthTurns is the turns with a context sample the pace to compaction is read from.
	growthTurns = 5
	// growthSamples is the growth samples below which no pace is stated at all.
	growthSamples = 3
)

// TokensToCompaction is the tokens left before auto-compaction (the threshold is compactAt, else 90% of
// the window); nil while the session's token count is unknown. Never negative: a window already past
// its threshold has 0 left (KNOWN-ISSUES).
func TokensToCompaction(s *State) *int64 {
	if s.Usage.Tokens == nil {
		return nil
	}
	threshold := int64(Round(float64(s.Usage.Window) * 0.9))
	if s.Usage.CompactAt != nil {
		threshold = *s.Usage.CompactAt
	}
	return Ptr(max(0, threshold-*s.Usage.Tokens))
}

// contexts is the context after each turn that reported one, oldest first: how full the window was,
// turn by turn.
func contexts(s *State) []int64 {
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
// window is past the threshold (KNOWN-ISSUES).
func TurnsToCompaction(s *State) *int64 {
	left := TokensToCompaction(s)
	seen := contexts(s)
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
	return Ptr(int64(Round(float64(*left) / perTurn)))
}

// judgeShare is the judge's tokens as a percentage of the session's, one decimal; nil before the first
// turn completes: the session's own tokens are 0 then, and a share of nothing is not a figure (a run
// that cost 24k once printed 2394600% of a denominator not yet measured).
func judgeShare(s *State) *float64 {
	total := TotalTokens(s)
	if total == 0 {
		return nil
	}
	return Ptr(Round(float64(s.Judge.Spent)/float64(total)*1000) / 10)
}

// trendOf is how full the window was after each of the last TrendTurns turns that reported it.
func trendOf(s *State) []float64 {
	seen := contexts(s)
	if len(seen) > TrendTurns {
		seen = seen[len(seen)-TrendTurns:]
	}
	window := float64(max(1, s.Usage.Window))
	out := make([]float64, len(seen))
	for i, tokens := range seen {
		out[i] = Round(float64(tokens)/window*1000) / 10
	}
	return out
}

// sinksOf is where the measure went; nil before the first row: nothing was measured yet, and a total of
// zero would read as a session that cost nothing.
func sinksOf(s *State, m Measure) *Sinks {
	if len(s.Rows) == 0 {
		return nil
	}
	sinks := SinksOf(s.Rows, s.Folded, m)
	return &sinks
}

// HeaderOf is the pane's hero row.
func HeaderOf(s *State) Header {
	var share float64
	if p := judgeShare(s); p != nil {
		share = *p
	}
	var percent *float64
	if s.Usage.Percent != nil {
		percent = Ptr(*s.Usage.Percent)
	}
	return Header{
		Percent:            percent,
		TokensToCompaction: TokensToCompaction(s),
		TurnsToCompaction:  TurnsToCompaction(s),
		Trend:              trendOf(s),
		Time:               sinksOf(s, MeasureMs),
		Context:            sinksOf(s, MeasureChars),
		JudgeTime:          copyStr(s.Judge.Time),
		JudgeContext:       copyStr(s.Judge.Context),
		JudgeRuns:          s.Judge.Runs,
		JudgeTokens:        s.Judge.Spent,
		JudgeShare:         share,
		JudgeRunning:       s.Judge.Running,
		SavedPct:           PctOf(s.Saved.Chars, s.Usage.Window),
		SavedMs:            s.Saved.Ms,
		Budget:             BudgetOf(s),
		Money:              MoneyOf(s),
	}
}
