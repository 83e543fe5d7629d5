package view

import (
	"encoding/json"
	"testing"

	"github.com/saverd/saverd/state"
	"github.com/saverd/saverd/state/internal/statetest"
)

// cardSession is a small session whose patterns cite calls, loops and turns, in both loops.
func cardSession() *state.State {
	s := state.New("/w", 200_000)
	row := func(id, tool, key string, cls state.CommandClass, agent string, turn int, ms, chars int64, head string) state.Row {
		return state.Row{ID: id, Tool: tool, Key: key, Cls: cls, Agent: agent, Turn: turn, Ms: ms, Chars: chars, Head: head, Flags: []string{}, Paths: []string{}}
	}
	s.Turn, s.Seq = 4, 5
	s.Rows = []state.Row{
		row("r1", "Bash", "test:npm test", state.ClassTest, state.MainAgent, 2, 61_000, 8_000, "212 pass"),
		row("r2", "Read", "/src/a.ts:10-50", state.ClassOther, "ag-x", 3, 0, 1_200, "import"),
		row("r3", "Bash", "git status", state.ClassGit, state.MainAgent, 3, 20, 100, "clean"),
		row("r4", "Grep", "TODO", state.ClassSearch, state.MainAgent, 3, 20, 300, "3 matches"),
		row("r5", "MultiEdit", "/src/b.ts", state.ClassOther, state.MainAgent, 4, 5, 50, ""),
	}
	for i := range s.Rows {
		s.Rows[i].Seq = i + 1
	}
	s.Loops = []state.Loop{
		{ID: "ag-x", Label: new("explore"), Model: new("sonnet"), Tokens: state.Tokens{Input: 9_000, CacheCreate: 2_500, Output: 600, CacheRead: 50_000}, Edits: 2, FirstTurn: 1, Ms: 45_000},
		{ID: "ag-y", FirstTurn: 2, Ms: 5_000},
	}
	s.Turns = []state.TurnStat{
		{Turn: 1, Input: 1_000, Output: 100, CacheCreate: 10, Ms: 9_000, AnswerChars: 40, AnswerHead: "Done."},
		{Turn: 3, Input: 2_000, Output: 200, CacheCreate: 20, Ms: 7_000, AnswerChars: 12, AnswerHead: "Checked."},
	}
	habit := func(id string, hits ...string) state.Pattern {
		p := state.FromStored(state.StoredPattern{ID: id, Category: "execution", Kind: "kind of " + id, Why: "why", Alternative: "fix", Confidence: 0.8, EstTokensPerTurn: new(300.0)})
		p.Hits = hits
		return p
	}
	withCost := habit("process:with-cost", "agent:ag-x")
	withCost.Lean, withCost.Cost = new("lean"), &state.Cost{Tokens: 41_000, Ms: 230_000}
	measured := habit("process:measured", "agent:ag-x", "turn:3")
	measured.Lean = new("lean")
	ignored := habit("execution:ignored", "r1")
	ignored.Ignored = 2
	s.Patterns = []state.Pattern{
		habit("execution:mixed", "r1", "r2", "r4", "turn:1", "agent:ag-x"),
		habit("behavior:turns", "turn:3", "turn:9"),
		habit("multi-agent:loops", "agent:ag-x", "agent:ag-y", "agent:nobody"),
		withCost, measured, ignored,
		habit("production:multi-edit", "r5"),
		habit("reading:same-turn", "r3", "r4"),
	}
	return s
}

// TestCardOf compares every card of cardSession with ContextSaver's (its oracle answers), but for one
// A difference from ContextSaver (protocol.md): MultiEdit is a file tool, so its evidence names the path, not "MultiEdit <path>".
// They cover: the stats line (hits counted whatever they name, zero segments dropped, one turn is not a
// range, loops dated by their first turn), the three total units, evidence newest first (two calls of
// one turn newest first too) and at most CardEvidence, aliases only for subagents' calls, process cards'
// cost so far (claimed, else measured), and the ignored prefix.
func TestCardOf(t *testing.T) {
	s := cardSession()
	want := []string{
		`{"patternId":"execution:mixed","n":1,"category":"execution","kind":"kind of execution:mixed","stats":"5× · ~1.2% of context · 1m 1s · turns 1–3","why":"why","fix":"fix","lean":null,"total":{"unit":"calls","calls":3,"ms":61020,"chars":9500},"evidence":[{"turn":3,"what":"Grep TODO","agent":null,"ms":20,"chars":300,"head":"3 matches"},{"turn":3,"what":"/src/a.ts","agent":"a1","ms":0,"chars":1200,"head":"import"},{"turn":2,"what":"npm test","agent":null,"ms":61000,"chars":8000,"head":"212 pass"}]}`,
		`{"patternId":"behavior:turns","n":2,"category":"execution","kind":"kind of behavior:turns","stats":"2× · turns 3–9","why":"why","fix":"fix","lean":null,"total":{"unit":"turns","calls":1,"ms":0,"chars":1200},"evidence":[{"turn":3,"what":"no tool calls","agent":null,"ms":0,"chars":12,"head":"Checked."}]}`,
		`{"patternId":"multi-agent:loops","n":3,"category":"execution","kind":"kind of multi-agent:loops","stats":"3× · turns 1–2","why":"why","fix":"fix","lean":null,"total":{"unit":"agents","calls":2,"ms":50000,"chars":1200},"evidence":[{"turn":2,"what":"agent · ?","agent":"a2","ms":5000,"chars":0,"head":"0k tokens · 0 edits"},{"turn":1,"what":"explore · sonnet","agent":"a1","ms":45000,"chars":0,"head":"12k tokens · 2 edits"}]}`,
		`{"patternId":"process:with-cost","n":4,"category":"execution","kind":"kind of process:with-cost","stats":"3m 50s · 41k tokens","why":"why","fix":"fix","lean":"lean","total":{"unit":"agents","calls":1,"ms":45000,"chars":1200},"evidence":[{"turn":1,"what":"explore · sonnet","agent":"a1","ms":45000,"chars":0,"head":"12k tokens · 2 edits"}]}`,
		`{"patternId":"process:measured","n":5,"category":"execution","kind":"kind of process:measured","stats":"52s · 14k tokens","why":"why","fix":"fix","lean":"lean","total":{"unit":"agents","calls":1,"ms":45000,"chars":1200},"evidence":[{"turn":3,"what":"no tool calls","agent":null,"ms":0,"chars":12,"head":"Checked."},{"turn":1,"what":"explore · sonnet","agent":"a1","ms":45000,"chars":0,"head":"12k tokens · 2 edits"}]}`,
		`{"patternId":"execution:ignored","n":6,"category":"execution","kind":"relapsed · kind of execution:ignored","stats":"1× · ~1% of context · 1m 1s · turn 2","why":"why","fix":"fix","lean":null,"total":{"unit":"calls","calls":1,"ms":61000,"chars":8000},"evidence":[{"turn":2,"what":"npm test","agent":null,"ms":61000,"chars":8000,"head":"212 pass"}]}`,
		`{"patternId":"production:multi-edit","n":7,"category":"execution","kind":"kind of production:multi-edit","stats":"1× · 0s · turn 4","why":"why","fix":"fix","lean":null,"total":{"unit":"calls","calls":1,"ms":5,"chars":50},"evidence":[{"turn":4,"what":"/src/b.ts","agent":null,"ms":5,"chars":50,"head":""}]}`,
		`{"patternId":"reading:same-turn","n":8,"category":"execution","kind":"kind of reading:same-turn","stats":"2× · ~0.1% of context · 0s · turn 3","why":"why","fix":"fix","lean":null,"total":{"unit":"calls","calls":2,"ms":40,"chars":400},"evidence":[{"turn":3,"what":"Grep TODO","agent":null,"ms":20,"chars":300,"head":"3 matches"},{"turn":3,"what":"git status","agent":null,"ms":20,"chars":100,"head":"clean"}]}`,
	}
	aliases := state.AgentAliases(s.Rows, s.Loops)
	for i := range s.Patterns {
		var w any
		if err := json.Unmarshal([]byte(want[i]), &w); err != nil {
			t.Fatal(err)
		}
		statetest.SameJSON(t, s.Patterns[i].ID, CardOf(&s.Patterns[i], s, i+1, aliases), w)
	}
}

func TestWhatRan(t *testing.T) {
	for _, tc := range []struct {
		tool, key string
		cls       state.CommandClass
		want      string
	}{
		{"Bash", "test:npm test", state.ClassTest, "npm test"},
		{"Bash", "git status", state.ClassGit, "git status"},
		{"Bash", "other:make", state.ClassOther, "make"},
		{"Read", "/a.ts:10-50", state.ClassOther, "/a.ts"},
		{"Read", "/a.ts:-", state.ClassOther, "/a.ts"},
		{"Read", "/a.ts:12", state.ClassOther, "/a.ts:12"},
		{"Read", "/a:1-2:3-4", state.ClassOther, "/a:1-2"},
		{"Read", "/a.ts:1-2x", state.ClassOther, "/a.ts:1-2x"},
		{"Edit", "/a.ts", state.ClassOther, "/a.ts"},
		{"MultiEdit", "/b.ts:1-2", state.ClassOther, "/b.ts"},
		{"Grep", "TODO", state.ClassSearch, "Grep TODO"},
	} {
		if got := whatRan(&state.Row{Tool: tc.tool, Key: tc.key, Cls: tc.cls}); got != tc.want {
			t.Errorf("whatRan(%s %s) = %q, want %q", tc.tool, tc.key, got, tc.want)
		}
	}
}

func TestAgentHandle(t *testing.T) {
	for h, want := range map[string]string{"agent:ag-1": "ag-1", "agent:": "", "agent:a\nb": "", "turn:3": "", "agent:a b": "a b"} {
		got, ok := agentOfHandle(h)
		if got != want || ok != (want != "") {
			t.Errorf("agentOfHandle(%q) = %q %v", h, got, ok)
		}
	}
}
