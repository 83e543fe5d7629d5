package view

import (
	"slices"
	"testing"

	"github.com/saverd/saverd/state"
	"github.com/saverd/saverd/state/internal/statetest"
)

// withContexts is a session whose completed turns reported these window fills (-1: none reported).
func withContexts(window int64, tokens *int64, compactAt *int64, contexts ...int64) *state.State {
	s := state.New("/w", window)
	s.Usage.Tokens, s.Usage.CompactAt = tokens, compactAt
	for i, c := range contexts {
		t := state.TurnStat{Turn: i + 1}
		if c >= 0 {
			t.Context = new(c)
		}
		s.Turns = append(s.Turns, t)
	}
	return s
}

func TestCompactionFigures(t *testing.T) {
	n := func(v int64) *int64 { return new(v) }
	for _, tc := range []struct {
		name      string
		s         *state.State
		tokens    *int64
		turnsLeft *int64
	}{
		{"unknown tokens state nothing", withContexts(1_000, nil, nil, 100, 200, 300, 400), nil, nil},
		{"under three growth samples, no pace", withContexts(1_000, n(500), nil, 10, 20), n(400), nil},
		{"90% of the window, the median of the last five samples' growth, drops skipped",
			withContexts(1_000, n(500), nil, 100, 200, 150, 300, 450, 500), n(400), n(3)},
		{"compactAt is the threshold", withContexts(1_000, n(500), n(600), 100, 200, 150, 300, 450, 500), n(100), n(1)},
		{"the threshold rounds", withContexts(999, n(500), nil, 100, 200, 300, 400), n(399), n(4)},
		{"turns with no sample are skipped", withContexts(1_000, n(500), nil, 100, -1, 200, 300, 400), n(400), n(4)},
		{"a shrinking window is no pace", withContexts(1_000, n(100), nil, 400, 300, 200, 100, 50), n(800), nil},
		{"a little left rounds to 0 turns", withContexts(1_000, n(880), nil, 100, 200, 300, 400, 500, 600, 700), n(20), n(0)},
		// A difference from ContextSaver (protocol.md): past the threshold both are 0, never negative (ContextSaver said -100 and -1).
		{"past the threshold", withContexts(1_000, n(1_000), nil, 100, 200, 150, 300, 450, 500), n(0), n(0)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			statetest.SameJSON(t, "tokensToCompaction", state.TokensToCompaction(tc.s), statetest.JSONValue(t, tc.tokens))
			statetest.SameJSON(t, "turnsToCompaction", state.TurnsToCompaction(tc.s), statetest.JSONValue(t, tc.turnsLeft))
		})
	}
}

func TestHeader(t *testing.T) {
	s := withContexts(1_000, new(int64(700)), nil, 100, 200, 300, 400, 500, 600, 700, 701, 702, 703, 755)
	h := HeaderOf(s)
	if !slices.Equal(h.Trend, []float64{20, 30, 40, 50, 60, 70, 70.1, 70.2, 70.3, 75.5}) {
		t.Fatalf("trend %v: the last ten samples as a share of the window", h.Trend)
	}
	// Before the first row nothing was measured: no sinks, rather than a session that cost nothing. Before
	// the first new token the judge's share is no figure: 0 here, `-` in the debug dump.
	if h.Time != nil || h.Context != nil || h.JudgeShare != 0 || h.Percent != nil || h.Trend == nil {
		t.Fatalf("header %+v", h)
	}
	s = statetest.Judged(t)
	state.Reduce(s, state.TurnComplete{Stat: state.TurnStat{Input: 7_000, Output: 1_000}})
	s.Judge.Spent = 1_234
	s.Saved = state.Saved{Ms: 5, Chars: 4_000}
	state.Reduce(s, state.UsageSample{Usage: state.Usage{Percent: new(12.5)}})
	h = HeaderOf(s)
	if h.JudgeShare != 15.4 || h.JudgeTokens != 1_234 || h.JudgeRuns != 1 || h.SavedPct != 0.5 || h.SavedMs != 5 || *h.Percent != 12.5 {
		t.Fatalf("header %+v", h)
	}
	if h.Time == nil || h.Time.Total != 100_000 || h.Context.Total != 12_000 || len(h.Time.Sinks) != 1 || h.Time.Sinks[0] != (state.Sink{Label: "tests", Amount: 100_000, Count: 2}) {
		t.Fatalf("sinks %+v %+v", h.Time, h.Context)
	}
	if h.Trend == nil || len(h.Trend) != 0 {
		t.Fatalf("trend %v, want empty", h.Trend)
	}
}
