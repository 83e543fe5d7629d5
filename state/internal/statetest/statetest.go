// Package statetest holds the sessions and checks the tests of state/ and its packages share: a full
// session at every cap, the demo session, a judged session, JSON comparison with ContextSaver's recorded
// answers, and the oracle files in state/testdata. Only tests import it.
package statetest

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/saverd/saverd/state"
	"github.com/saverd/saverd/state/demo"
)

// FullSession is a session at every cap: RowCap rows in the ledger with more folded, LoopCap loops,
// MaxPatterns patterns (decided, open, settled, queued), runs, asks and turns with context samples.
func FullSession(tb testing.TB) *state.State {
	tb.Helper()
	s := state.New("/repo", 200_000)
	for i := 0; i < state.LoopCap; i++ {
		state.Reduce(s, state.AgentStart{AgentID: LoopID(i), Description: "explore " + LoopID(i), Model: new("sonnet")})
	}
	state.Reduce(s, state.RunStart{Run: state.RunInfo{ID: "run-1", Name: "review"}, Now: 1_000})
	state.Reduce(s, state.RunJournal{RunID: "run-1", Entries: []state.JournalEntry{{Kind: "started", AgentID: LoopID(399), Label: new("review")}}, Now: 1_000})
	state.Reduce(s, state.UsageSample{Usage: state.Usage{Window: 200_000, Tokens: new(int64(90_000)), Percent: new(45.0)}, Now: 1_000})
	seq := 0
	for turn := 1; turn <= 44; turn++ {
		state.Reduce(s, state.TurnStart{Now: int64(turn) * 60_000})
		state.Reduce(s, state.AddAsk{Ask: state.Ask{Turn: turn, At: int64(turn) * 60_000, Head: fmt.Sprintf("please fix the failing test number %d in the auth module", turn)}})
		if turn == 44 { // the instruction steered last turn is ignored at once
			sig := s.Patterns[1].Signature
			state.Reduce(s, state.AddRow{Row: state.Row{ID: "toolu_repeat", Tool: sig.Tool, Key: sig.Key, Cls: state.ClassTest, Agent: state.MainAgent, Turn: turn, Ms: 1, Chars: 1}})
		}
		for k := 0; k < 50; k++ {
			seq++
			state.Reduce(s, state.AddRow{Row: SessionRow(seq, turn)})
		}
		if turn == 20 {
			state.Reduce(s, state.JudgeStart{Now: int64(turn) * 60_000, Seq: s.Seq})
			state.Reduce(s, JudgeWith(s, 50))
			for i := 0; i < 50; i += 3 {
				choice := []state.Choice{state.FixWithNote, state.Fix, state.Ignore}[i%3]
				state.Reduce(s, state.Decide{PatternID: s.Patterns[i].ID, Choice: choice, Text: new("do it the cheap way")})
			}
		}
		switch turn {
		case 43:
			state.Reduce(s, state.Decide{PatternID: s.Patterns[1].ID, Choice: state.FixWithNote, Text: new("only the touched tests")})
		case 44:
			state.Reduce(s, state.Decide{PatternID: s.Patterns[2].ID, Choice: state.Fix}) // still open
		}
		ctx := int64(40_000 + turn*1_500)
		state.Reduce(s, state.TurnComplete{Stat: state.TurnStat{Input: 30_000, Output: 2_000, CacheCreate: 4_000, Ms: 90_000, At: int64(turn)*60_000 + 50_000, Ended: state.EndAnswer, Context: &ctx}})
	}
	if len(s.Rows) != state.RowCap || len(s.Loops) != state.LoopCap || len(s.Patterns) != state.MaxPatterns || len(s.Folded) == 0 ||
		s.Patterns[1].Ignored != 1 || s.Patterns[2].OpenedAtTurn == nil {
		tb.Fatalf("not a full session: rows %d loops %d patterns %d folded %d", len(s.Rows), len(s.Loops), len(s.Patterns), len(s.Folded))
	}
	return s
}

func LoopID(i int) string { return fmt.Sprintf("agent-%03d", i) }

var sessionKeys = []struct {
	tool, key string
	cls       state.CommandClass
}{
	{"Bash", "test:npm test", state.ClassTest},
	{"Bash", "read:cat logs/api.log", state.ClassRead},
	{"Read", "/repo/src/auth.ts:1-200", state.ClassRead},
	{"Edit", "/repo/src/auth.ts", state.ClassOther},
	{"Grep", "Grep:TODO:", state.ClassSearch},
	{"Bash", "git:git status", state.ClassGit},
	{"Bash", "build:go build ./...", state.ClassBuild},
}

// SessionRow is the n-th call of a full session: a main-loop call, or one of a loop's every third call.
func SessionRow(n, turn int) state.Row {
	k := sessionKeys[n%len(sessionKeys)]
	agent := state.MainAgent
	if n%3 == 0 {
		agent = LoopID(n % state.LoopCap)
	}
	return state.Row{ID: fmt.Sprintf("toolu_%06d", n), Tool: k.tool, Key: fmt.Sprintf("%s-%d", k.key, n%23), Cls: k.cls, Agent: agent,
		Turn: turn, Ms: int64(100 + n%5_000), Chars: int64(200 + n%9_000), Head: "ok", Flags: []string{}, Paths: []string{}}
}

// JudgeWith is a judge run naming n patterns over the session's keys, each citing two rows.
func JudgeWith(s *state.State, n int) state.JudgeDone {
	var patterns []state.Pattern
	var fresh []string
	for i := 0; i < n; i++ {
		r := s.Rows[len(s.Rows)-1-(i*7)%len(s.Rows)]
		p := state.FromStored(state.StoredPattern{ID: fmt.Sprintf("execution:pattern-%d", i), Category: "execution",
			Kind: fmt.Sprintf("Claude keeps doing thing %d", i), Why: "it costs", Alternative: "do the cheap thing",
			Confidence: 0.8, Signature: &state.Signature{Tool: r.Tool, Key: r.Key}})
		if i%5 == 4 {
			p.Signature = nil
			p.EstTokensPerTurn = new(400.0)
		}
		p.Hits = []string{r.ID, s.Rows[len(s.Rows)-2-(i*7)%len(s.Rows)].ID}
		patterns = append(patterns, p)
		fresh = append(fresh, p.ID)
	}
	return state.JudgeDone{Patterns: patterns, Fresh: fresh, Recurred: []string{}, Dropped: []string{}, Spent: 20_000}
}

// JSONValue is v as generic JSON, for comparing with ContextSaver's answers.
func JSONValue(t *testing.T, v any) any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// SameJSON fails with the first differing paths between a Go value and ContextSaver's answer.
func SameJSON(t *testing.T, what string, got, want any) {
	t.Helper()
	var diffs []string
	JSONDiff(what, JSONValue(t, got), want, &diffs)
	for _, d := range diffs {
		t.Error(d)
	}
}

// beyondPluginFields are the view fields saverd adds to ContextSaver's (protocol.md, "Differences from
// ContextSaver"): a recording of ContextSaver has none of them, so their absence there is no difference.
var beyondPluginFields = []string{".header.budget", ".header.money", "band.money", "bandNow.money", ".header.savedChars", "band.savedChars", "bandNow.savedChars"}

func beyondPlugin(path string) bool {
	for _, f := range beyondPluginFields {
		if strings.HasSuffix(path, f) {
			return true
		}
	}
	return false
}

func JSONDiff(path string, a, b any, out *[]string) {
	if len(*out) >= 10 {
		return
	}
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok {
			*out = append(*out, fmt.Sprintf("%s: got %v, want %v", path, a, b))
			return
		}
		for k := range x {
			if _, recorded := y[k]; !recorded && beyondPlugin(path+"."+k) {
				continue
			}
			JSONDiff(path+"."+k, x[k], y[k], out)
		}
		for k := range y {
			if _, ok := x[k]; !ok {
				JSONDiff(path+"."+k, nil, y[k], out)
			}
		}
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			*out = append(*out, fmt.Sprintf("%s: got %v, want %v", path, a, b))
			return
		}
		for i := range x {
			JSONDiff(fmt.Sprintf("%s[%d]", path, i), x[i], y[i], out)
		}
	default:
		if !reflect.DeepEqual(a, b) {
			*out = append(*out, fmt.Sprintf("%s: got %v, want %v", path, a, b))
		}
	}
}

const SuiteKey = "test:npm test"

// Call is a main-loop Bash Call in the given turn.
func Call(id, key string, cls state.CommandClass, turn int, ms, chars int64) state.Row {
	return state.Row{ID: id, Tool: "Bash", Key: key, Cls: cls, Agent: state.MainAgent, Turn: turn, Ms: ms, Chars: chars, Flags: []string{}, Paths: []string{}}
}

// SuitePattern is the habit of running the whole suite, citing r1 and r2.
func SuitePattern() state.Pattern {
	p := state.FromStored(state.StoredPattern{ID: "execution:full-suite", Category: "execution", Kind: "Claude keeps running the whole suite",
		Why: "it ran three times", Alternative: "run only the tests you touched", Confidence: 0.9,
		Signature: &state.Signature{Tool: "Bash", Key: SuiteKey}})
	p.Hits = []string{"r1", "r2"}
	return p
}

// Judged is turn 1 with two suite runs (60s/8000 chars and 40s/4000 chars) and a judge run that found the habit.
func Judged(t *testing.T, patterns ...state.Pattern) *state.State {
	t.Helper()
	s := state.New("/w", 200_000)
	state.Reduce(s, state.TurnStart{Now: 1})
	state.Reduce(s, state.AddRow{Row: Call("r1", SuiteKey, state.ClassTest, 1, 60_000, 8_000)})
	state.Reduce(s, state.AddRow{Row: Call("r2", SuiteKey, state.ClassTest, 1, 40_000, 4_000)})
	if len(patterns) == 0 {
		patterns = []state.Pattern{SuitePattern()}
	}
	var fresh []string
	for _, p := range patterns {
		fresh = append(fresh, p.ID)
	}
	state.Reduce(s, state.JudgeDone{Patterns: patterns, Fresh: fresh, Recurred: []string{}, Dropped: []string{}})
	return s
}

// DemoSession is `/saver demo` as ContextSaver builds it: a usage sample, four turns filling the window,
// the sample rows and the sample wasters in one judge run.
func DemoSession() *state.State {
	s := state.New("/repo", 1_000_000)
	state.Reduce(s, state.UsageSample{Usage: demo.Usage(), Now: 0})
	turns := demo.Turns()
	for at, context := range []int64{120_000, 190_000, 250_000, 320_000} {
		stat := turns[at%len(turns)]
		stat.Context = new(context)
		state.Reduce(s, state.TurnComplete{Stat: stat})
	}
	for _, r := range demo.Rows(s.Turn) {
		state.Reduce(s, state.AddRow{Row: r})
	}
	patterns := demo.Patterns(s.Turn)
	var fresh []string
	for _, p := range patterns {
		if p.Decision == nil {
			fresh = append(fresh, p.ID)
		}
	}
	u := demo.ForkUsage()
	state.Reduce(s, state.JudgeDone{Patterns: patterns, Fresh: fresh, Recurred: []string{}, Spent: u.Input + u.Output + u.CacheCreate,
		Returned: len(patterns), Kept: len(patterns), Dropped: []string{}, Usage: &u})
	return s
}

// ReadOracle loads a file of cases checked against the TypeScript plugin run under Node, from
// state/testdata (where every package's oracle files live, so one file may serve two packages). Each case
// holds the answer saverd must give; where that differs from ContextSaver's, the case says why in `fix`
// and keeps ContextSaver's in `seed`. These are facts about ContextSaver, not outputs of this code: there is
// no -update for them.
func ReadOracle(t *testing.T, name string, v any) {
	t.Helper()
	raw := OracleFile(t, name)
	if err := json.Unmarshal(raw, v); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
}

// OracleFile is the contents of the oracle file name in state/testdata.
func OracleFile(t *testing.T, name string) []byte {
	t.Helper()
	_, here, _, ok := runtime.Caller(0)
	if !ok {
		t.Fatal("no caller to locate state/testdata from")
	}
	raw, err := os.ReadFile(filepath.Join(filepath.Dir(here), "..", "..", "testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

type RulesOracleCase struct {
	Fn   string            `json:"fn"`
	Args []json.RawMessage `json:"args"`
	Want any               `json:"want"`
	Fix  string            `json:"fix"`
}

func RulesOracle(t *testing.T, fn string) []RulesOracleCase {
	return OracleCases(t, "oracle_rules.json", fn, func(c RulesOracleCase) string { return c.Fn })
}

// OracleCases are the cases of the oracle file name whose function (fnOf) is fn; none is a failure.
func OracleCases[C any](t *testing.T, name, fn string, fnOf func(C) string) []C {
	t.Helper()
	var all, out []C
	ReadOracle(t, name, &all)
	for _, c := range all {
		if fnOf(c) == fn {
			out = append(out, c)
		}
	}
	if len(out) == 0 {
		t.Fatalf("%s: no %s cases", name, fn)
	}
	return out
}
