package textview

import (
	"github.com/saverd/saverd/state"
	"github.com/saverd/saverd/state/rules"
	"github.com/saverd/saverd/state/view"
)

// The models below are struct literals shaped like what the reducer's views build for ContextSaver's demo
// session (three wasters on a million-token window), so the goldens read like a real pane.

func errEnd(e state.TurnEnd) *state.TurnEnd { return &e }

func bandCases() []struct {
	name string
	m    view.BandModel
} {
	review := "review"
	return []struct {
		name string
		m    view.BandModel
	}{
		{"died-error", view.BandModel{State: view.BandDied, Died: errEnd(state.EndError), Calls: 41}},
		{"died-refusal", view.BandModel{State: view.BandDied, Died: errEnd(state.EndRefusal), Calls: 41, PaneOpen: true}},
		{"checking", view.BandModel{State: view.BandChecking, Fresh: 2, Calls: 212}},
		{"found", view.BandModel{State: view.BandFound, Fresh: 3, CostPct: 7.2, CostMs: 190_000, Calls: 212}},
		{"found-one-unmeasured", view.BandModel{State: view.BandFound, Fresh: 1, Calls: 1}},
		{"found-running", view.BandModel{State: view.BandFound, Fresh: 2, CostPct: 4.1, CostMs: 65_000, Calls: 96,
			Running: &view.BandRunning{Name: "audit-deps", Loops: 3, Calls: 41, Label: &review}}},
		{"saved", view.BandModel{State: view.BandSaved, SavedPct: 2.4, SavedMs: 65_400, Calls: 300, PaneOpen: true}},
		{"watching", view.BandModel{State: view.BandWatching, Calls: 17}},
		{"saved-net", view.BandModel{State: view.BandSaved, SavedPct: 2.4, SavedMs: 65_400, Calls: 300, Money: &view.MoneyView{
			Priced: true, SavedUSD: 0.42, JudgeUSD: 0.11, NetUSD: 0.31, Text: "saved $0.42 · judge $0.11 · net +$0.31",
			Parts: view.MoneyParts{Saved: "saved $0.42", Judge: "judge $0.11", Net: "net +$0.31"}}}},
		{"found-net-losing-tokens", view.BandModel{State: view.BandFound, Fresh: 1, CostPct: 1.2, CostMs: 8_000, Calls: 40, Money: &view.MoneyView{
			JudgeTokens: 24_000, NetTokens: -24_000, Losing: true, Text: "saved ~0 tokens · judge 24k tokens · net −24k tokens",
			Parts: view.MoneyParts{Saved: "saved ~0 tokens", Judge: "judge 24k tokens", Net: "net −24k tokens"},
			Basis: "tokens: no price for local-llm"}}},
		{"watching-running-unlabelled", view.BandModel{State: view.BandWatching, Calls: 9,
			Running: &view.BandRunning{Name: "移行-ワークフロー", Loops: 1, Calls: 1}}},
	}
}

func sinks(total int64, pairs ...any) *state.Sinks {
	s := &state.Sinks{Total: total}
	for i := 0; i+2 < len(pairs)+1; i += 3 {
		s.Sinks = append(s.Sinks, state.Sink{Label: pairs[i].(string), Amount: int64(pairs[i+1].(int)), Count: pairs[i+2].(int)})
	}
	return s
}

// fullPane is a pane with everything in it: three cards (the second a process card, the third citing
// turns), the Fix… field open on card 1, four decisions and three rules.
func fullPane() view.PaneModel {
	a1 := "a1"
	lean := "one explore agent with the whole brief, then the edit; no second pass over src/auth"
	draft := "run only   the auth tests\nthen stop"
	steering := "execution:full-suite"
	note := "run only the tests for the file you just edited; the full suite once at the end of the phase"
	return view.PaneModel{
		Header: view.Header{
			Percent:            new(32.0),
			TokensToCompaction: new(int64(580_000)),
			TurnsToCompaction:  new(int64(12)),
			Trend:              []float64{12, 14.5, 19, 25, 32},
			Time:               sinks(2_470_000, "tests", 950_000, 9, "agents", 740_000, 2, "reads", 300_000, 4),
			Context:            sinks(1_480_000, "reads", 590_000, 4, "agents", 450_000, 2, "tests", 5_000, 9),
			JudgeTime:          new("Most of the time went to the full bun test suite, run three times while only src/auth.ts changed."),
			JudgeContext:       new("The api log was read whole twice; a grep would have shown the 500."),
			JudgeRuns:          2,
			JudgeTokens:        318_200,
			Budget:             state.Budget{Share: 0.05, Allowed: 29_000, Spent: 18_200, Left: 10_800},
			Money: &view.MoneyView{Priced: true, SavedUSD: 0.42, JudgeUSD: 0.11, NetUSD: 0.31, Text: "saved $0.42 · judge $0.11 · net +$0.31",
				Basis: "dollars at claude-sonnet-4-6's prices: savings as cache reads until compaction"},
			JudgeShare:   4.1,
			JudgeRunning: true,
			SavedPct:     2.4,
			SavedMs:      65_400,
		},
		Wasters: []view.Card{
			{
				PatternID: "execution:full-suite", N: 1, Category: "execution",
				Kind:  "Claude keeps running the whole bun test suite after every single-file edit",
				Stats: "3× · ~7.2% of context · 3m 12s · turns 5–8",
				Why:   "the suite ran in full three times while only src/auth.ts changed between runs; the user asked for a fix, not full verification",
				Fix:   "run only the tests covering the files you changed; run the full suite once when the phase is done",
				Total: view.CardTotal{Unit: "calls", Calls: 3, Ms: 192_000, Chars: 72_000},
				Evidence: []view.Evidence{
					{Turn: 8, What: "bun test", Ms: 71_000, Chars: 24_000, Head: "212 pass · 0 fail · ran 1284 expect() calls in 70.44s"},
					{Turn: 6, What: "bun test", Ms: 59_000, Chars: 24_000, Head: "212 pass · 0 fail · ran 1284 expect() calls in 58.71s"},
					{Turn: 5, What: "bun test", Ms: 62_000, Chars: 24_000, Head: "212 pass · 0 fail · ran 1284 expect() calls in 61.98s"},
				},
			},
			{
				PatternID: "process:explore-twice", N: 2, Category: "process",
				Kind:  "ignored · the plan explored src/auth twice before the one-line fix",
				Stats: "3m · 18k tokens",
				Why:   "two explore agents read the same six files; the second brief carried none of the first report",
				Fix:   "pass the previous explore agent's findings into the next brief",
				Lean:  &lean,
				Total: view.CardTotal{Unit: "agents", Calls: 2, Ms: 180_000},
				Evidence: []view.Evidence{
					{Turn: 7, What: "explore · claude-sonnet-4-6", Agent: &a1, Ms: 90_000, Head: "9k tokens · 0 edits"},
					{Turn: 6, What: "cat logs/api.log", Agent: &a1, Ms: 11_000, Chars: 80_000, Head: "GET /health 200 11ms · GET /v1/users 200 39ms · POST /v1/tokens 500 91ms"},
				},
			},
			{
				PatternID: "communication:restates", N: 3, Category: "communication",
				Kind:  "Claude restates the whole plan at the end of every turn",
				Stats: "2× · ~0.4% of context · turns 3–4",
				Why:   "two answers repeated the four-step plan verbatim",
				Fix:   "end a turn on what changed and what is next, in one sentence",
				Total: view.CardTotal{Unit: "turns", Calls: 2, Chars: 1600},
				Evidence: []view.Evidence{
					{Turn: 4, What: "no tool calls", Chars: 2100, Head: "Here is the plan again: 1. read the log 2. find the 500 3. fix the TTL 4. run the suite"},
					{Turn: 3, What: "no tool calls", Chars: 1900},
				},
			},
		},
		Steering:   &steering,
		SteerDraft: &draft,
		Decided: []view.DecidedRow{
			{PatternID: "reading:api-logs", Choice: state.Fix, Kind: "Claude keeps reading 2000 lines of api logs instead of grepping for the error", SavedPct: new(2.0), Settled: true, Sent: 2},
			{PatternID: "execution:lint-twice", Choice: state.FixWithNote, Kind: "Claude runs eslint twice per edit", SavedPct: new(0.8), Instruction: &note, Ignored: 1},
			{PatternID: "multi-agent:re-explores", Choice: state.Fix, Kind: "Claude keeps spawning a fresh explore agent", SavedPct: new(3.6)},
			{PatternID: "environment:slow-install", Choice: state.Ignore, Kind: "npm install runs on every session start"},
		},
		Artifacts: []rules.Artifact{
			{PatternID: "multi-agent:re-explores", Kind: state.ArtifactClaudeMD, Title: "Reuse an explore agent's findings",
				Path: "/home/dev/projects/contextsaver-demo/CLAUDE.md", SavingPct: 10.8, Mode: rules.ModeAppend, Basis: rules.SavingBasis,
				Content: "\n## ContextSaver\n- Reuse the explore agent's findings from earlier in the session instead of spawning a fresh one for the same question\n"},
			{PatternID: "reading:api-logs", Kind: state.ArtifactSkill, Title: "Grep logs before reading them",
				Path: "/home/dev/projects/contextsaver-demo/.claude/skills/grep-logs-before-reading-them/SKILL.md", SavingPct: 6, Mode: rules.ModeWrite,
				Basis:   rules.SavingBasis,
				Content: "---\nname: \"grep-logs-before-reading-them\"\ndescription: \"Grep logs before reading them\"\n---\n\n1. grep the log for the error first:\n\tgrep -n 'ERROR' logs/api.log\n2. read only the lines around the match.\n"},
			{PatternID: "execution:bun-allow", Kind: state.ArtifactSettingsAllow, Title: "Allow bun test without asking",
				Path: "/home/dev/projects/contextsaver-demo/.claude/settings.json", Mode: rules.ModeMergeSettings, Content: "Bash(bun test:*)"},
			{PatternID: "execution:lint-twice", Kind: state.ArtifactClaudeMD, Title: "Run eslint once per edit",
				Path: "/home/dev/projects/contextsaver-demo/CLAUDE.md", SavingPct: 1.2, Mode: rules.ModeAppend, Basis: rules.SavingBasis,
				Already: "CLAUDE.md"},
		},
	}
}

func paneCases() []struct {
	name  string
	m     view.PaneModel
	width int
} {
	full := fullPane()
	decidedOnly := view.PaneModel{
		Header: view.Header{Percent: new(61.5), TokensToCompaction: new(int64(0)), TurnsToCompaction: new(int64(0)),
			Trend: []float64{58}, JudgeRuns: 1, JudgeTokens: 24_000, SavedPct: 0, SavedMs: 12_000,
			Budget: state.Budget{Share: 0.05, Allowed: 9_000, Spent: 24_000, Over: true},
			Money: &view.MoneyView{JudgeTokens: 24_000, NetTokens: -24_000, Losing: true,
				Text: "saved ~0 tokens · judge 24k tokens · net −24k tokens", Basis: "tokens: no price for local-llm"}},
		Decided: full.Decided[3:],
	}
	return []struct {
		name  string
		m     view.PaneModel
		width int
	}{
		{"empty-40", view.PaneModel{}, 40},
		{"full-40", full, 40},
		{"full-80", full, 80},
		{"full-120", full, 120},
		{"decided-only-60", decidedOnly, 60},
	}
}
