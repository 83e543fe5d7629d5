package intake

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/saverd/saverd/internal/jstext"
	"github.com/saverd/saverd/state"
	"github.com/saverd/saverd/state/internal/statetest"
)

type spawnsOracleCase struct {
	Fn   string          `json:"fn"`
	Arg  json.RawMessage `json:"arg"`
	Want any             `json:"want"`
	Fix  string          `json:"fix"`
}

func lgSpawnsOracle(t *testing.T, fn string) []spawnsOracleCase {
	return statetest.OracleCases(t, "oracle_spawns.json", fn, func(c spawnsOracleCase) string { return c.Fn })
}

// lgWire decodes a JSON value as the daemon does (numbers as json.Number).
func lgWire(t *testing.T, raw json.RawMessage) any {
	t.Helper()
	v, err := jstext.DecodeJSON(raw)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestSpawnsParseJournalOracle(t *testing.T) {
	for _, c := range lgSpawnsOracle(t, "parseJournal") {
		var text string
		if err := json.Unmarshal(c.Arg, &text); err != nil {
			t.Fatal(err)
		}
		got := lgGeneric(t, ParseJournal(text))
		if !reflect.DeepEqual(got, c.Want) {
			t.Errorf("ParseJournal(%q)\n got  %v\n want %v (%s)", text, got, c.Want, c.Fix)
		}
	}
}

func TestSpawnsRunAndAgentOracle(t *testing.T) {
	for _, c := range lgSpawnsOracle(t, "runOf") {
		var got any
		if r := RunOf(lgWire(t, c.Arg)); r != nil {
			got = lgGeneric(t, r)
		}
		if !reflect.DeepEqual(got, c.Want) {
			t.Errorf("RunOf(%s) = %v; want %v", c.Arg, got, c.Want)
		}
	}
	for _, c := range lgSpawnsOracle(t, "agentOf") {
		var got any
		if a, ok := AgentOf(lgWire(t, c.Arg)); ok {
			got = lgGeneric(t, map[string]any{"agentId": a.AgentID, "description": a.Description, "model": a.Model})
		}
		if !reflect.DeepEqual(got, c.Want) {
			t.Errorf("AgentOf(%s) = %v; want %v", c.Arg, got, c.Want)
		}
	}
}

func lgResultLine(result string) string {
	return `{"type":"result","agentId":"a","result":` + result + `}`
}

func lgOutcome(t *testing.T, line string) state.Outcome {
	t.Helper()
	entries := ParseJournal(line)
	if len(entries) != 1 || entries[0].Outcome == nil {
		t.Fatalf("%s: entries %+v", line, entries)
	}
	return *entries[0].Outcome
}

// Each rule ContextSaver states for a Workflow or Agent result, as a case.
func TestSpawnsOutcomeRules(t *testing.T) {
	findings := func(c, h, m, l int) state.Outcome {
		return state.Outcome{Kind: state.OutcomeFindings, Critical: c, High: h, Medium: m, Low: l}
	}
	report := func(n int) state.Outcome { return state.Outcome{Kind: state.OutcomeReport, Chars: n} }
	cases := []struct {
		rule, result string
		want         state.Outcome
	}{
		{"findings counted by severity", `{"findings":[{"severity":"critical"},{"severity":"low"},{"severity":"low"}]}`, findings(1, 0, 0, 2)},
		{"a finding with none of the four names is not counted", `{"findings":[{"severity":"HIGH"},{"severity":"urgent"},"x",null,{"severity":"high"}]}`, findings(0, 1, 0, 0)},
		{"an empty findings list is findings", `{"findings":[]}`, findings(0, 0, 0, 0)},
		{"label (Important)", `"(Important) leaks"`, findings(0, 1, 0, 0)},
		{"label [Minor]", `"[Minor] spacing"`, findings(0, 0, 0, 1)},
		{"label **Critical**", `"**Critical** broken"`, findings(1, 0, 0, 0)},
		{"label Severity: high (any case)", `"SEVERITY: High in the parser"`, findings(0, 1, 0, 0)},
		{"label Minor: opening a line", `"Minor: x"`, findings(0, 0, 0, 1)},
		{"label Minor: opening a bullet", `"intro\n- Nit: a\n  * Major: b\n1. Blocker: c\n> Moderate: d"`, findings(1, 1, 1, 1)},
		{"a word in a sentence is no label", `"This is important: read it"`, report(26)},
		{"Critical: none found nothing", `"Critical: none\nHigh: x"`, findings(0, 1, 0, 0)},
		{"**Minor:** 0 found nothing", `"**Minor:** 0\nLow: y"`, findings(0, 0, 0, 1)},
		{"High: - found nothing", `"High: -\nHigh: —\nHigh: n/a\nHigh: No findings.\nLow: z"`, findings(0, 0, 0, 1)},
		{"none is the whole rest of the line", `"High: none, really\nHigh: nothing"`, findings(0, 1, 0, 0)},
		{"no labels: a report sized by its text", `"all good 😀"`, report(11)},
		{"only the listed labels count (a difference from ContextSaver)", `"Constructor: builds the pool\n__proto__: x"`, report(41)},
		{"a JS line break opens a line too", `"a\rMinor: x\u2028Major: y"`, findings(0, 1, 0, 1)},
		{"anything else: the JSON it would print as", `{"x":1.0,"s":"é<&>"}`, report(len(`{"x":1,"s":"é<&>"}`) - 1)},
		{"numbers print as JavaScript prints them", `[1e21,1E2,-0,0.1,1e400]`, report(len(`[1e+21,100,0,0.1,null]`))},
		{"null prints as null", `null`, report(4)},
	}
	for _, c := range cases {
		if got := lgOutcome(t, lgResultLine(c.result)); got != c.want {
			t.Errorf("%s: %s → %+v; want %+v", c.rule, c.result, got, c.want)
		}
	}
	if got := lgOutcome(t, `{"type":"result","agentId":"a"}`); got != report(0) {
		t.Errorf("absent result: %+v; want a report of 0", got)
	}
}

func TestSpawnsParseJournalLines(t *testing.T) {
	text := strings.Join([]string{
		`{"type":"started","agentId":"a1","label":"review","phase":"Review"}`,
		`not json`,
		``,
		`{"type":"started","agentId":5}`,
		`{"type":"other","agentId":"x"}`,
		`["started"]`,
		`{"type":"result","agentId":"a1","result":"done"}` + "\r",
		`{"type":"started","agentId":"a2"} trailing`,
	}, "\n")
	got := ParseJournal(text)
	want := []state.JournalEntry{
		{Kind: JournalStarted, AgentID: "a1", Label: new("review"), Phase: new("Review")},
		{Kind: JournalResult, AgentID: "a1", Outcome: &state.Outcome{Kind: state.OutcomeReport, Chars: 4}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("ParseJournal = %+v; want %+v", got, want)
	}
	if got := ParseJournal(""); got == nil || len(got) != 0 {
		t.Errorf("empty journal: %#v", got)
	}
}

func TestSpawnsRunOfAgentOf(t *testing.T) {
	run := RunOf(map[string]any{"taskType": "local_workflow", "runId": "r1", "workflowName": "review", "transcriptDir": "/t"})
	if run == nil || run.ID != "r1" || run.Name != "review" || state.Str(run.Dir) != "/t" {
		t.Errorf("RunOf = %+v", run)
	}
	if RunOf(map[string]any{"taskType": "remote_workflow", "runId": "r1", "workflowName": "w"}) != nil {
		t.Error("a remote run is not a local launch")
	}
	if run := RunOf(map[string]any{"taskType": "local_workflow", "runId": "r1", "workflowName": "w"}); run == nil || run.Dir != nil {
		t.Errorf("no transcript dir: %+v", run)
	}
	a, ok := AgentOf(map[string]any{"agentId": "ag", "description": "d", "resolvedModel": "m"})
	if !ok || a.AgentID != "ag" || a.Description != "d" || state.Str(a.Model) != "m" {
		t.Errorf("AgentOf = %+v, %v", a, ok)
	}
	if a, ok := AgentOf(map[string]any{"agentId": "ag"}); !ok || a.Description != "" || a.Model != nil {
		t.Errorf("bare AgentOf = %+v, %v", a, ok)
	}
	if _, ok := AgentOf(map[string]any{"agentId": 5}); ok {
		t.Error("a numeric agentId names an agent")
	}
	if _, ok := AgentOf("x"); ok {
		t.Error("a string names an agent")
	}
}

func FuzzParseJournal(f *testing.F) {
	for _, s := range []string{
		`{"type":"started","agentId":"a","label":"l","phase":"p"}`,
		`{"type":"result","agentId":"a","result":"Critical: none\n(Important) x"}`,
		`{"type":"result","agentId":"a","result":{"findings":[{"severity":"high"}]}}`,
		`{"type":"result","agentId":"a","result":[1e400,{"k":"\ud800"}]}`,
		"not json\n\n{",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		for _, e := range ParseJournal(text) {
			if e.Kind == JournalResult && (e.Outcome == nil || e.Outcome.Chars < 0) {
				t.Fatalf("entry %+v", e)
			}
		}
	})
}
