package judge

import "github.com/saverd/saverd/state"

// turnGate: the ordinary session, where the judge runs between turns — enough new tokens (scaled by the
// backoff) and enough turns since the last run. The tokens the rows a detector finding cites put into
// the context are not new work for the judge: a rule already named that waste (state.Explained).
func turnGate(s *state.State) bool {
	_, explained := state.Explained(s)
	return state.TotalTokens(s)-s.Judge.LastAtTokens-explained >= state.JudgeMinNewTokens*s.Judge.Backoff &&
		s.Turn-s.Judge.LastAtTurn >= state.JudgeMinTurns
}

// rowGate: rows and wall time, because one agentic turn can run for hours and its end is no cadence.
// The rows a detector finding cites are not counted.
func rowGate(s *state.State, now int64) bool {
	explained, _ := state.Explained(s)
	return int64(s.Seq-s.Judge.LastAtSeq-explained) >= state.JudgeMinNewRows*s.Judge.Backoff &&
		now-s.Judge.LastAtMs >= state.JudgeMinGapMs
}

// ShouldRun reports whether the cadence allows another automatic judge run: none in flight, at least
// JudgeMinRows rows, the judges' budget not spent (state.BudgetOf), and either gate open. now is the
// clock, for the gap the mid-turn gate keeps between runs.
func ShouldRun(s *state.State, now int64) bool {
	return !s.Judge.Running && len(s.Rows) >= state.JudgeMinRows && !state.BudgetOf(s).Over && (turnGate(s) || rowGate(s, now))
}

// ForkUsage is the usage a model fork reports, under the API's names.
type ForkUsage struct {
	InputTokens              int64 `json:"input_tokens"`
	OutputTokens             int64 `json:"output_tokens"`
	CacheReadInputTokens     int64 `json:"cache_read_input_tokens"`
	CacheCreationInputTokens int64 `json:"cache_creation_input_tokens"`
}

// UsageOf is the fork's four counts under saverd's names: what `/saver debug` and the debug log print.
func UsageOf(u ForkUsage) state.JudgeUsage {
	return state.JudgeUsage{
		Input: u.InputTokens, Output: u.OutputTokens, CacheRead: u.CacheReadInputTokens, CacheCreate: u.CacheCreationInputTokens,
	}
}

// SpentOf is what a run's counts cost: input, output and cache creation (cache reads are free).
func SpentOf(u state.JudgeUsage) int64 { return u.Input + u.Output + u.CacheCreate }

// CostOf is what one judge fork cost, straight from the usage it reported.
func CostOf(u ForkUsage) int64 { return SpentOf(UsageOf(u)) }
