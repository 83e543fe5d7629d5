package state_test

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/saverd/saverd/state"
	"github.com/saverd/saverd/state/internal/statetest"
	"github.com/saverd/saverd/state/rules"
	"github.com/saverd/saverd/state/view"
)

// benchRows is a ring of unique rows longer than the ledger, so no id is ever held twice.
func benchRows(agent func(i int) string) []state.Row {
	rows := make([]state.Row, 2*state.RowCap+96)
	for i := range rows {
		rows[i] = statetest.SessionRow(1_000_000+i, 50)
		rows[i].Agent = agent(i)
	}
	return rows
}

// applyRows applies the ring of rows to a clone of base, one per iteration, and starts again from a
// fresh clone (timer stopped) after each lap: every row lands on a session as full as base, rather than
// on one whose patterns have gathered a hit per matching row for hundreds of thousands of rows.
func applyRows(b *testing.B, base *state.State, rows []state.Row) {
	s := base.Clone()
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if i == len(rows) {
			b.StopTimer()
			s, i = base.Clone(), 0
			b.StartTimer()
		}
		state.Reduce(s, state.AddRow{Row: rows[i]})
		i++
	}
}

func BenchmarkApplyRow(b *testing.B) {
	applyRows(b, statetest.FullSession(b), benchRows(func(i int) string { return statetest.LoopID(i % state.LoopCap) }))
}

// BenchmarkApplyRowMain applies main-loop rows while instructions are open: every row settles against
// the open patterns (the cited class, through the row index).
func BenchmarkApplyRowMain(b *testing.B) {
	s := statetest.FullSession(b)
	state.Reduce(s, state.TurnStart{Now: 1})
	for i := range s.Patterns {
		if state.IsSent(s.Patterns[i].Decision) {
			s.Patterns[i].OpenedAtTurn = new(s.Turn - 1)
		}
	}
	rows := benchRows(func(int) string { return state.MainAgent })
	for i := range rows {
		rows[i].Cls = state.ClassLint // never the cited class: nothing settles, every open pattern is checked
		rows[i].Key = "lint:" + rows[i].Key
		rows[i].Turn = s.Turn
	}
	applyRows(b, s, rows)
}

func BenchmarkClone(b *testing.B) {
	s := statetest.FullSession(b)
	b.ReportAllocs()
	for b.Loop() {
		_ = s.Clone()
	}
}

// tsAction is one action as ContextSaver's JSON writes it ({"type": …}), decoded into the Go action.
func tsAction(t *testing.T, raw json.RawMessage) state.Action {
	t.Helper()
	var a struct {
		Type        string               `json:"type"`
		Now         int64                `json:"now"`
		AgentID     string               `json:"agentId"`
		Model       *string              `json:"model"`
		Ms          int64                `json:"ms"`
		Tokens      state.Tokens         `json:"tokens"`
		Ended       state.TurnEnd        `json:"ended"`
		Turn        int                  `json:"turn"`
		Description string               `json:"description"`
		Run         state.RunInfo        `json:"run"`
		RunID       string               `json:"runId"`
		Entries     []state.JournalEntry `json:"entries"`
		Row         state.Row            `json:"row"`
		Rows        []state.Row          `json:"rows"`
		Stat        state.TurnStat       `json:"stat"`
		Usage       json.RawMessage      `json:"usage"`
		Overhead    state.Overhead       `json:"overhead"`
		PatternID   *string              `json:"patternId"`
		Choice      state.Choice         `json:"choice"`
		Text        *string              `json:"text"`
		Seq         int                  `json:"seq"`
		Patterns    []state.Pattern      `json:"patterns"`
		Fresh       []string             `json:"fresh"`
		Recurred    []string             `json:"recurred"`
		Focus       *string              `json:"focus"`
		Time        *string              `json:"time"`
		Context     *string              `json:"context"`
		Spent       int64                `json:"spent"`
		Error       *string              `json:"error"`
		Returned    int                  `json:"returned"`
		Kept        int                  `json:"kept"`
		Dropped     []string             `json:"dropped"`
		Ask         state.Ask            `json:"ask"`
		Phases      []string             `json:"phases"`
		Trigger     state.ProcessTrigger `json:"trigger"`
		Was         state.JudgeMark      `json:"was"`
		Delta       int                  `json:"delta"`
		Kind        state.ArtifactKind   `json:"kind"`
		Written     bool                 `json:"written"`
		Open        bool                 `json:"open"`
		Auto        bool                 `json:"auto"`
		Columns     int                  `json:"columns"`
	}
	if err := json.Unmarshal(raw, &a); err != nil {
		t.Fatalf("action %s: %v", raw, err)
	}
	judgeUsage := func() *state.JudgeUsage {
		var u *state.JudgeUsage
		if len(a.Usage) > 0 {
			if err := json.Unmarshal(a.Usage, &u); err != nil {
				t.Fatalf("usage %s: %v", a.Usage, err)
			}
		}
		return u
	}
	switch a.Type {
	case "turn.start":
		return state.TurnStart{Now: a.Now}
	case "loop.turn":
		return state.LoopTurn{AgentID: a.AgentID, Model: a.Model, Ms: a.Ms, Tokens: a.Tokens, Ended: a.Ended, Turn: a.Turn}
	case "agent.start":
		return state.AgentStart{AgentID: a.AgentID, Description: a.Description, Model: a.Model}
	case "run.start":
		return state.RunStart{Run: a.Run, Now: a.Now}
	case "run.journal":
		return state.RunJournal{RunID: a.RunID, Entries: a.Entries, Now: a.Now}
	case "row":
		return state.AddRow{Row: a.Row}
	case "adopt":
		return state.Adopt{Rows: a.Rows}
	case "turn.complete":
		return state.TurnComplete{Stat: a.Stat}
	case "usage":
		var u state.Usage
		if err := json.Unmarshal(a.Usage, &u); err != nil {
			t.Fatalf("usage %s: %v", a.Usage, err)
		}
		return state.UsageSample{Usage: u, Now: a.Now}
	case "overhead":
		return state.SetOverhead{Overhead: a.Overhead}
	case "compact":
		return state.Compact{}
	case "expand":
		return state.Expand{PatternID: a.PatternID}
	case "steer.begin":
		return state.SteerBegin{PatternID: state.Str(a.PatternID)}
	case "steer.draft":
		return state.SteerDraft{Text: state.Str(a.Text)}
	case "decide":
		return state.Decide{PatternID: state.Str(a.PatternID), Choice: a.Choice, Text: a.Text}
	case "judge.start":
		return state.JudgeStart{Now: a.Now, Seq: a.Seq}
	case "judge.done":
		return state.JudgeDone{Patterns: a.Patterns, Fresh: a.Fresh, Recurred: a.Recurred, Focus: a.Focus, Time: a.Time, Context: a.Context,
			Spent: a.Spent, Error: a.Error, Returned: a.Returned, Kept: a.Kept, Dropped: a.Dropped, Usage: judgeUsage()}
	case "ask":
		return state.AddAsk{Ask: a.Ask}
	case "run.phases":
		return state.RunPhases{RunID: a.RunID, Phases: a.Phases}
	case "process.start":
		return state.JudgeStart{Kind: state.ProcessJudge, Now: a.Now, Seq: a.Seq, Trigger: a.Trigger}
	case "process.cold":
		return state.JudgeCold{Kind: state.ProcessJudge, Was: a.Was}
	case "process.done":
		return state.JudgeDone{Kind: state.ProcessJudge, Patterns: a.Patterns, Fresh: a.Fresh, Recurred: a.Recurred, Spent: a.Spent, Error: a.Error,
			Returned: a.Returned, Kept: a.Kept, Dropped: a.Dropped, Usage: judgeUsage()}
	case "delivery.pending":
		return state.DeliveryPending{Delta: a.Delta}
	case "delivery.sent":
		return state.DeliverySent{AgentID: a.AgentID, Now: a.Now}
	case "delivery.toasted":
		return state.DeliveryToasted{Now: a.Now}
	case "check.arm":
		return state.CheckArm{}
	case "notes.drained":
		return state.NotesDrained{}
	case "standing.add":
		return state.StandingAdd{Text: state.Str(a.Text)}
	case "artifact.done":
		return state.ArtifactDone{PatternID: state.Str(a.PatternID), Kind: a.Kind, Written: a.Written}
	case "pane":
		return state.SetPane{Open: a.Open, Auto: a.Auto}
	case "columns":
		return state.SetColumns{Columns: a.Columns}
	case "reset":
		return state.Reset{}
	}
	t.Fatalf("unknown action type %q", a.Type)
	return nil
}

// relapseIn names the settled instruction action a brings back, "" when none: the one place saverd's
// reducer and ContextSaver's part ways on purpose.
func relapseIn(s *state.State, a state.Action) string {
	if v, ok := a.(state.AddRow); ok {
		for i := range s.Patterns {
			if state.Relapsed(s, &s.Patterns[i], &v.Row) {
				return s.Patterns[i].ID + " relapsed at " + v.Row.Key
			}
		}
	}
	return ""
}

// oracleDiffs is every way s and its views differ from ContextSaver's recorded answers.
func oracleDiffs(t *testing.T, s *state.State, o oracleSession) []string {
	var diffs []string
	same := func(what string, got, want any) {
		var d []string
		statetest.JSONDiff(what, statetest.JSONValue(t, got), want, &d)
		diffs = append(diffs, d...)
	}
	same("state", s, o.State)
	pane := view.BuildPane(s, []rules.Artifact{})
	for _, sinks := range []*state.Sinks{pane.Header.Time, pane.Header.Context} {
		if sinks != nil {
			sinks.Sinks = []state.Sink{}
		}
	}
	same("pane", pane, stableNumbers(relapsedWording(o.Pane), s))
	same("band", view.BuildBand(s), o.Band)
	same("bandNow", view.BuildBandAt(s, o.BandNow.Now), o.BandNow.Model)
	same("storable", state.StorableOf(s), o.Storable)
	same("turnsToCompaction", state.TurnsToCompaction(s), o.TurnsToCompaction)
	same("tokensToCompaction", state.TokensToCompaction(s), o.TokensToCompaction)
	same("processLine", view.ProcessLine(s), o.ProcessLine)
	got, want := strings.Split(view.DebugDump(s, o.Dump.Spoke), "\n"), strings.Split(o.Dump.Text, "\n")
	if len(got) != len(want) {
		return append(diffs, fmt.Sprintf("debug dump: %d lines, want %d", len(got), len(want)))
	}
	for i := range got {
		if got[i] != want[i] && !strings.Contains(want[i], " sinks: ") {
			diffs = append(diffs, fmt.Sprintf("debug line %d:\n got %s\nwant %s", i, got[i], want[i]))
		}
	}
	return diffs
}

// relapsedWording is a recorded pane in saverd's words: a card the agent went back to after a fix reads
// `relapsed · <kind>` where ContextSaver said `ignored · <kind>`, which is also what the person's own Ignore
// is called (protocol.md, "Differences from ContextSaver").
func relapsedWording(pane any) any {
	for _, card := range wastersIn(pane) {
		if kind, ok := card["kind"].(string); ok {
			if rest, cut := strings.CutPrefix(kind, "ignored · "); cut {
				card["kind"] = "relapsed · " + rest
			}
		}
	}
	return pane
}

// wastersIn is the cards of a recorded pane, each as its JSON object.
func wastersIn(pane any) []map[string]any {
	p, _ := pane.(map[string]any)
	cards, _ := p["wasters"].([]any)
	out := make([]map[string]any, 0, len(cards))
	for _, c := range cards {
		if card, ok := c.(map[string]any); ok {
			out = append(out, card)
		}
	}
	return out
}

// stableNumbers is a recorded pane in saverd's numbering: each card wears the number it was given when
// it was queued and keeps while it is open, and the cards are listed by it, where ContextSaver numbered
// them by their place in the queue, newest first (protocol.md, "Differences from ContextSaver").
func stableNumbers(pane any, s *state.State) any {
	for _, card := range wastersIn(pane) {
		id, _ := card["patternId"].(string)
		card["n"] = float64(state.CardNumber(s, id))
	}
	p, _ := pane.(map[string]any)
	cards, _ := p["wasters"].([]any)
	slices.SortStableFunc(cards, func(a, b any) int {
		na, _ := a.(map[string]any)["n"].(float64)
		nb, _ := b.(map[string]any)["n"].(float64)
		return int(na - nb)
	})
	return pane
}

type oracleSession struct {
	Seed    int64             `json:"seed"`
	Actions []json.RawMessage `json:"actions"`
	State   any               `json:"state"`
	Pane    any               `json:"pane"`
	Band    any               `json:"band"`
	BandNow struct {
		Now   int64 `json:"now"`
		Model any   `json:"model"`
	} `json:"bandNow"`
	Dump struct {
		Spoke bool   `json:"spoke"`
		Text  string `json:"text"`
	} `json:"dump"`
	Storable           any `json:"storable"`
	TurnsToCompaction  any `json:"turnsToCompaction"`
	TokensToCompaction any `json:"tokensToCompaction"`
	ProcessLine        any `json:"processLine"`
}

func oracleSessions(t *testing.T) []oracleSession {
	t.Helper()
	data, err := os.ReadFile("testdata/oracle_sessions.json")
	if err != nil {
		t.Fatal(err)
	}
	var file struct {
		Sessions []oracleSession `json:"sessions"`
	}
	if err := json.Unmarshal(data, &file); err != nil {
		t.Fatal(err)
	}
	if len(file.Sessions) == 0 {
		t.Fatal("no oracle sessions")
	}
	return file.Sessions
}

// TestOracleSessions replays random sessions ContextSaver reduced and compares the state and every view
// with ContextSaver's answers. ContextSaver's evidence module was a stub when they were recorded: its sinks
// named nothing, so the Go header's named sinks and the debug dump's sinks lines are left out.
func TestOracleSessions(t *testing.T) {
	for _, o := range oracleSessions(t) {
		t.Run(fmt.Sprint(o.Seed), func(t *testing.T) {
			s := state.New("/w", 200_000)
			relapse := ""
			for i, raw := range o.Actions {
				a := tsAction(t, raw)
				if why := relapseIn(s, a); why != "" && relapse == "" {
					relapse = fmt.Sprintf("action %d: %s", i, why)
				}
				state.Reduce(s, a)
			}
			diffs := oracleDiffs(t, s, o)
			if relapse != "" {
				// A relapse after settling takes the credit back and requeues the card at once, where
				// ContextSaver did not (protocol.md, Differences from ContextSaver; TestRelapseAfterSettling), and the
				// recorded judge runs after it carry ContextSaver's patterns: what a relapse moves (the
				// patterns' counts, the cards, the saved figure and every view drawn from them) may part.
				// Everything else — the ledger, the turns, the usage, the loops — must still agree.
				t.Logf("a relapse after settling at %s: comparing what it does not move", relapse)
				diffs = slices.DeleteFunc(diffs, movedByRelapse)
			}
			for _, d := range diffs {
				t.Error(d)
			}
		})
	}
}

func TestUsageSample(t *testing.T) {
	for _, tc := range []struct {
		name   string
		steps  []state.UsageSample
		want   state.Usage
		lastAt int64
	}{
		{"present values win, window and compactAt stick",
			[]state.UsageSample{
				{Usage: state.Usage{Window: 1_000, CompactAt: new(int64(900)), Tokens: new(int64(100)), Percent: new(10.0)}, Now: 5},
				{Usage: state.Usage{Tokens: new(int64(200))}, Now: 9},
			},
			state.Usage{Window: 1_000, CompactAt: new(int64(900)), Tokens: new(int64(200)), Percent: new(10.0)}, 5},
		{"the first sample dates the cadence; a Now of 0 seeds nothing",
			[]state.UsageSample{{Usage: state.Usage{Percent: new(1.5)}, Now: 0}, {Usage: state.Usage{}, Now: 7}},
			state.Usage{Window: 500, Percent: new(1.5)}, 7},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := state.New("/w", 500)
			for _, a := range tc.steps {
				state.Reduce(s, a)
			}
			statetest.SameJSON(t, "usage", s.Usage, statetest.JSONValue(t, tc.want))
			if s.Judge.LastAtMs != tc.lastAt {
				t.Fatalf("lastAtMs %d, want %d", s.Judge.LastAtMs, tc.lastAt)
			}
		})
	}
}

func TestCompactForgetsTheFill(t *testing.T) {
	s := state.New("/w", 500)
	state.Reduce(s, state.UsageSample{Usage: state.Usage{CompactAt: new(int64(400)), Tokens: new(int64(300)), Percent: new(60.0)}})
	state.Reduce(s, state.TurnStart{Now: 1})
	state.Reduce(s, state.Compact{})
	if s.Usage.Tokens != nil || s.Usage.Percent != nil || *s.Usage.CompactAt != 400 || s.Usage.Window != 500 || !slices.Equal(s.Compactions, []int{1}) {
		t.Fatalf("usage %+v compactions %v", s.Usage, s.Compactions)
	}
}

func TestPaneFields(t *testing.T) {
	s := state.New("/w", 1)
	steps := []struct {
		a                  state.Action
		expanded, steering string // "" for nil
	}{
		{state.Expand{PatternID: new("a")}, "a", ""},
		{state.Expand{PatternID: new("b")}, "b", ""},
		{state.Expand{PatternID: new("b")}, "", ""},
		{state.Expand{PatternID: new("a")}, "a", ""},
		{state.Expand{PatternID: nil}, "", ""},
		{state.SteerBegin{PatternID: "a"}, "", "a"},
		{state.SteerDraft{Text: "half"}, "", "a"},
		{state.SteerBegin{PatternID: "a"}, "", ""},
	}
	for i, st := range steps {
		state.Reduce(s, st.a)
		if state.Str(s.Expanded) != st.expanded || state.Str(s.Steering) != st.steering {
			t.Fatalf("step %d: expanded %v steering %v", i, s.Expanded, s.Steering)
		}
	}
	if s.SteerDraft != nil {
		t.Fatal("toggling the field keeps no draft")
	}
	state.Reduce(s, state.SetPane{Open: true, Auto: true})
	state.Reduce(s, state.SetPane{Open: false})
	state.Reduce(s, state.SetColumns{Columns: 150})
	state.Reduce(s, state.CheckArm{})
	if s.PaneOpen || !s.AutoOpened || *s.Columns != 150 || !s.PendingCheck {
		t.Fatalf("pane %v auto %v columns %v pending %v", s.PaneOpen, s.AutoOpened, s.Columns, s.PendingCheck)
	}
}

func TestArtifactDone(t *testing.T) {
	p := statetest.SuitePattern()
	p.Proposal = &state.Proposal{Kind: state.ArtifactSkill, Title: "t", Body: "b"}
	s := statetest.Judged(t, p)
	state.Reduce(s, state.ArtifactDone{PatternID: p.ID, Kind: state.ArtifactSkill, Written: false})
	if s.PatternByID(p.ID).Proposal != nil || len(s.Written) != 0 {
		t.Fatalf("proposal %v written %v", s.PatternByID(p.ID).Proposal, s.Written)
	}
	state.Reduce(s, state.ArtifactDone{PatternID: p.ID, Kind: state.ArtifactSkill, Written: true})
	state.Reduce(s, state.ArtifactDone{PatternID: p.ID, Kind: state.ArtifactSkill, Written: true})
	if !slices.Equal(s.Written, []string{"execution:full-suite:skill"}) {
		t.Fatalf("written %v", s.Written)
	}
}

func TestResetKeepsStoredPatterns(t *testing.T) {
	s := steered(t)
	s.Patterns[0].Cost = &state.Cost{Tokens: 1}
	state.Reduce(s, state.SetOverhead{Overhead: state.Overhead{Memory: 1, MCP: 2, Agents: 3}})
	state.Reduce(s, state.SetColumns{Columns: 160})
	state.Reduce(s, state.SetPane{Open: true, Auto: true})
	state.Reduce(s, state.UsageSample{Usage: state.Usage{Tokens: new(int64(5))}, Now: 10})
	state.Reduce(s, state.Reset{})
	want := state.New("/w", 200_000)
	want.Overhead = &state.Overhead{Memory: 1, MCP: 2, Agents: 3}
	want.Columns = new(160)
	want.PaneOpen = true
	stored := statetest.SuitePattern().StoredPattern
	stored.LastDecision = new(state.FixWithNote)
	want.Patterns = []state.Pattern{state.FromStored(stored)}
	statetest.SameJSON(t, "reset", s, statetest.JSONValue(t, want))
	// The reset session reduces like a fresh one.
	state.Reduce(s, state.TurnStart{Now: 1})
	state.Reduce(s, state.AddRow{Row: statetest.Call("r1", statetest.SuiteKey, state.ClassTest, 1, 1, 1)})
	if s.Seq != 1 || !slices.Equal(s.Patterns[0].Hits, []string{"r1"}) {
		t.Fatalf("seq %d hits %v", s.Seq, s.Patterns[0].Hits)
	}
}

// movedByRelapse: a difference in what a relapse after settling changes.
func movedByRelapse(diff string) bool {
	for _, p := range []string{"state.patterns", "state.cards", "state.saved", "state.notes", "state.standing",
		"state.delivery", "pane.", "band.", "bandNow.", "debug ", "storable", "turnsToCompaction", "tokensToCompaction", "processLine"} {
		if strings.HasPrefix(diff, p) {
			return true
		}
	}
	return false
}
