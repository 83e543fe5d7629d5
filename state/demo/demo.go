package demo

import (
	"github.com/saverd/saverd/internal/jstext"
	"github.com/saverd/saverd/state"
)

// `/saver demo`: a sample session three turns wide, what the demo's rows and patterns are dated against.
// A session younger than the sample is dated from turn 8, so the cards read 'turns 5–8' rather than 'turn 1'.

const demoTurn = 8

// demoAt is the turn `back` turns before the session's turn (or the sample's), never before turn 1.
func demoAt(turn, back int) int { return max(1, max(turn, demoTurn)-back) }

const (
	demoSuiteKey = "test:bun test"
	demoLogKey   = "read:cat logs/api.log"
	demoAgentKey = "agent:explore"
	// demoExploreAgent: one sample read ran inside the explore loop, so the alias column draws.
	demoExploreAgent = "sub-explore-1"
)

func demoSample(id, tool, key string, cls state.CommandClass, turn int, ms, chars int64, head string, launch *state.Launch) state.Row {
	return state.Row{ID: id, Tool: tool, Key: key, Cls: cls, Agent: state.MainAgent, Turn: turn, Ms: ms, Chars: chars, Head: head,
		Flags: []string{}, Paths: []string{}, Launch: launch}
}

func demoTurnSample(input, output, ms int64, answer string) state.TurnStat {
	return state.TurnStat{Input: input, Output: output, CacheRead: 180_000, CacheCreate: 7_000, Ms: ms,
		AnswerChars: jstext.Len16(answer), AnswerHead: answer, Ended: state.EndAnswer}
}

// Usage is the usage the demo's header draws from: a third of a million-token window spent, with a
// compaction threshold.
func Usage() state.Usage {
	return state.Usage{Window: 1_000_000, CompactAt: new(int64(900_000)), Tokens: new(int64(320_000)), Percent: new(float64(32))}
}

// ForkUsage is what ContextSaver's demo said its one judge run cost: a cold fork, whose cache creation
// is most of the bill. The recordings of ContextSaver's demo replay it.
func ForkUsage() state.JudgeUsage {
	return state.JudgeUsage{Input: 96_000, Output: 1_200, CacheRead: 0, CacheCreate: 221_000}
}

// Model is the model `/saver demo`'s sample session runs on, so its judge run is priced.
const Model = "claude-sonnet-4-6"

// WarmForkUsage is what `/saver demo`'s judge run costs as a fork is billed: the parent's 320k of
// context read from its cache, the judge's own prompt as fresh input, and its short answer.
func WarmForkUsage() state.JudgeUsage {
	return state.JudgeUsage{Input: 8_000, Output: 1_200, CacheRead: 320_000, CacheCreate: 0}
}

// Turns is three sample turns (Turn and Calls left for the reducer), so the header's run to
// compaction has a pace to state it in turns.
func Turns() []state.TurnStat {
	return []state.TurnStat{
		demoTurnSample(42_000, 3_000, 96_000, "Ran the suite: 212 pass. Reading the api log for the 500 next."),
		demoTurnSample(41_000, 4_000, 132_000, "The refresh flow lives in src/auth/refresh.ts; the token TTL is the bug."),
		demoTurnSample(43_000, 2_000, 88_000, "Suite is green again after the token fix."),
	}
}

func demoLaunch(promptChars int) *state.Launch {
	return &state.Launch{Type: "explore", Resolved: new("claude-sonnet-4-6"), Status: new("completed"), Tokens: new(float64(9_000)),
		Edits: new(float64(0)), PromptChars: promptChars}
}

// Rows is the ledger rows the demo's wasters cite (Seq left for the reducer), so their cost and their
// evidence quotes are real rows.
func Rows(turn int) []state.Row {
	inExplore := func(r state.Row) state.Row { r.Agent = demoExploreAgent; return r }
	return []state.Row{
		demoSample("demo-suite-1", "Bash", demoSuiteKey, state.ClassTest, demoAt(turn, 3), 62_000, 24_000, "212 pass · 0 fail · ran 1284 expect() calls in 61.98s", nil),
		demoSample("demo-log-1", "Bash", demoLogKey, state.ClassRead, demoAt(turn, 3), 4_000, 80_000, "GET /health 200 12ms · GET /v1/users 200 41ms · POST /v1/tokens 500 88ms", nil),
		demoSample("demo-agent-1", "Agent", demoAgentKey, state.ClassOther, demoAt(turn, 2), 90_000, 36_000, "Explored src/auth: 6 files read, the refresh flow lives in src/auth/refresh.ts", demoLaunch(420)),
		demoSample("demo-suite-2", "Bash", demoSuiteKey, state.ClassTest, demoAt(turn, 2), 59_000, 24_000, "212 pass · 0 fail · ran 1284 expect() calls in 58.71s", nil),
		inExplore(demoSample("demo-log-2", "Bash", demoLogKey, state.ClassRead, demoAt(turn, 1), 11_000, 80_000, "GET /health 200 11ms · GET /v1/users 200 39ms · POST /v1/tokens 500 91ms", nil)),
		demoSample("demo-agent-2", "Agent", demoAgentKey, state.ClassOther, demoAt(turn, 1), 90_000, 36_000, "Explored src/auth: 6 files read, the refresh flow lives in src/auth/refresh.ts", demoLaunch(430)),
		demoSample("demo-suite-3", "Bash", demoSuiteKey, state.ClassTest, demoAt(turn, 0), 71_000, 24_000, "212 pass · 0 fail · ran 1284 expect() calls in 70.44s", nil),
	}
}

// IsSample reports whether sp is one of the demo's sample patterns, which never reach the registry:
// its id and kind are a sample's (a real finding that shares a sample's id has its own kind).
func IsSample(sp state.StoredPattern) bool {
	for _, p := range Patterns(demoTurn) {
		if p.ID == sp.ID && p.Kind == sp.Kind {
			return true
		}
	}
	return false
}

// Patterns is three sample wasters for `/saver demo`: two awaiting a decision — the agent one
// carrying the judge's own rule — and one already steered, whose rule the pane derives from the
// instruction that was sent.
func Patterns(turn int) []state.Pattern {
	steered := demoAt(turn, 1)
	return []state.Pattern{
		{
			StoredPattern: state.StoredPattern{
				ID:          "execution:full-suite",
				Category:    "execution",
				Kind:        "Claude keeps running the whole bun test suite after every single-file edit",
				Signature:   &state.Signature{Tool: "Bash", Key: demoSuiteKey},
				Why:         "the suite ran in full three times while only src/auth.ts changed between runs; the user asked for a fix, not full verification",
				Alternative: "run only the tests covering the files you changed; run the full suite once when the phase is done",
				Confidence:  0.9,
			},
			Hits:          []string{"demo-suite-1", "demo-suite-2", "demo-suite-3"},
			Decision:      new(state.FixWithNote),
			DecidedAtTurn: new(steered),
			Instruction:   new("run only the tests for the file you just edited; the full suite once at the end of the phase"),
			OpenedAtTurn:  new(steered),
		},
		{
			StoredPattern: state.StoredPattern{
				ID:          "reading:api-logs",
				Category:    "reading",
				Kind:        "Claude keeps reading 2000 lines of api logs instead of grepping for the error",
				Signature:   &state.Signature{Tool: "Bash", Key: demoLogKey},
				Why:         "the whole log was read twice when one grep would have shown the traceback",
				Alternative: "grep -nE 'ERROR|Traceback' and read only the 50 lines around the match",
				Confidence:  0.8,
			},
			Hits: []string{"demo-log-1", "demo-log-2"},
		},
		{
			StoredPattern: state.StoredPattern{
				ID:          "multi-agent:re-explores",
				Category:    "multi-agent",
				Kind:        "Claude keeps spawning a fresh explore agent that re-reads what the last one already reported",
				Signature:   &state.Signature{Tool: "Agent", Key: demoAgentKey},
				Why:         "two explore agents read the same six files in src/auth, and the second brief carried none of the first report",
				Alternative: "pass the previous explore agent's findings into the next brief instead of asking a new agent to read the same files",
				Confidence:  0.8,
				Proposal: &state.Proposal{
					Kind:  state.ArtifactClaudeMD,
					Title: "Reuse an explore agent's findings",
					Body:  "Give a new explore agent the previous agent's findings; never ask it to re-read files another agent has already reported on.",
				},
			},
			Hits: []string{"demo-agent-1", "demo-agent-2"},
		},
	}
}
