package state

import (
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// fullSession is a session at every cap: RowCap rows in the ledger with more folded, LoopCap loops,
// MaxPatterns patterns (decided, open, settled, queued), runs, asks and turns with context samples.
func fullSession(tb testing.TB) *State {
	tb.Helper()
	s := New("/repo", 200_000)
	for i := 0; i < LoopCap; i++ {
		Reduce(s, AgentStart{AgentID: loopID(i), Description: "explore " + loopID(i), Model: Ptr("sonnet")})
	}
	Reduce(s, RunStart{Run: RunInfo{ID: "run-1", Name: "review"}, Now: 1_000})
	Reduce(s, RunJournal{RunID: "run-1", Entries: []JournalEntry{{Kind: "started", AgentID: loopID(399), Label: Ptr("review")}}, Now: 1_000})
	Reduce(s, UsageSample{Usage: Usage{Window: 200_000, Tokens: Ptr[int64](90_000), Percent: Ptr(45.0)}, Now: 1_000})
	seq := 0
	for turn := 1; turn <= 44; turn++ {
		Reduce(s, TurnStart{Now: int64(turn) * 60_000})
		Reduce(s, AddAsk{Ask: Ask{Turn: turn, At: int64(turn) * 60_000, Head: fmt.Sprintf("please fix the failing test number %d in the auth module", turn)}})
		if turn == 44 { // the instruction steered last turn is ignored at once
			sig := s.Patterns[1].Signature
			Reduce(s, AddRow{Row: Row{ID: "toolu_repeat", Tool: sig.Tool, Key: sig.Key, Cls: ClassTest, Agent: MainAgent, Turn: turn, Ms: 1, Chars: 1}})
		}
		for k := 0; k < 50; k++ {
			seq++
			Reduce(s, AddRow{Row: sessionRow(seq, turn)})
		}
		if turn == 20 {
			Reduce(s, JudgeStart{Now: int64(turn) * 60_000, Seq: s.Seq})
			Reduce(s, judgeWith(s, 50))
			for i := 0; i < 50; i += 3 {
				choice := []Choice{Steer, Kill, Keep}[i%3]
				Reduce(s, Decide{PatternID: s.Patterns[i].ID, Choice: choice, Text: Ptr("do it the cheap way")})
			}
		}
		switch turn {
		case 43:
			Reduce(s, Decide{PatternID: s.Patterns[1].ID, Choice: Steer, Text: Ptr("only the touched tests")})
		case 44:
			Reduce(s, Decide{PatternID: s.Patterns[2].ID, Choice: Kill}) // still open
		}
		ctx := int64(40_000 + turn*1_500)
		Reduce(s, TurnComplete{Stat: TurnStat{Input: 30_000, Output: 2_000, CacheCreate: 4_000, Ms: 90_000, At: int64(turn)*60_000 + 50_000, Ended: EndAnswer, Context: &ctx}})
	}
	if len(s.Rows) != RowCap || len(s.Loops) != LoopCap || len(s.Patterns) != MaxPatterns || len(s.Folded) == 0 ||
		s.Patterns[1].Ignored != 1 || s.Patterns[2].OpenedAtTurn == nil {
		tb.Fatalf("not a full session: rows %d loops %d patterns %d folded %d", len(s.Rows), len(s.Loops), len(s.Patterns), len(s.Folded))
	}
	return s
}

func loopID(i int) string { return fmt.Sprintf("agent-%03d", i) }

var sessionKeys = []struct {
	tool, key string
	cls       CommandClass
}{
	{"Bash", "test:npm test", ClassTest},
	{"Bash", "read:cat logs/api.log", ClassRead},
	{"Read", "/repo/src/auth.ts:1-200", ClassRead},
	{"Edit", "/repo/src/auth.ts", ClassOther},
	{"Grep", "Grep:TODO:", ClassSearch},
	{"Bash", "git:git status", ClassGit},
	{"Bash", "build:go build ./...", ClassBuild},
}

// sessionRow is the n-th call of a full session: a main-loop call, or one of a loop's every third call.
func sessionRow(n, turn int) Row {
	k := sessionKeys[n%len(sessionKeys)]
	agent := MainAgent
	if n%3 == 0 {
		agent = loopID(n % LoopCap)
	}
	return Row{ID: fmt.Sprintf("toolu_%06d", n), Tool: k.tool, Key: fmt.Sprintf("%s-%d", k.key, n%23), Cls: k.cls, Agent: agent,
		Turn: turn, Ms: int64(100 + n%5_000), Chars: int64(200 + n%9_000), Head: "ok", Flags: []string{}, Paths: []string{}}
}

// judgeWith is a judge run naming n patterns over the session's keys, each citing two rows.
func judgeWith(s *State, n int) JudgeDone {
	var patterns []Pattern
	var fresh []string
	for i := 0; i < n; i++ {
		r := s.Rows[len(s.Rows)-1-(i*7)%len(s.Rows)]
		p := FromStored(StoredPattern{ID: fmt.Sprintf("execution:pattern-%d", i), Category: "execution",
			Kind: fmt.Sprintf("Claude keeps doing thing %d", i), Why: "it costs", Alternative: "do the cheap thing",
			Confidence: 0.8, Signature: &Signature{Tool: r.Tool, Key: r.Key}})
		if i%5 == 4 {
			p.Signature = nil
			p.EstTokensPerTurn = Ptr(400.0)
		}
		p.Hits = []string{r.ID, s.Rows[len(s.Rows)-2-(i*7)%len(s.Rows)].ID}
		patterns = append(patterns, p)
		fresh = append(fresh, p.ID)
	}
	return JudgeDone{Patterns: patterns, Fresh: fresh, Recurred: []string{}, Dropped: []string{}, Spent: 20_000}
}

// benchRows is a ring of unique rows longer than the ledger, so no id is ever held twice.
func benchRows(agent func(i int) string) []Row {
	rows := make([]Row, 2*RowCap+96)
	for i := range rows {
		rows[i] = sessionRow(1_000_000+i, 50)
		rows[i].Agent = agent(i)
	}
	return rows
}

// applyRows applies the ring of rows to a clone of base, one per iteration, and starts again from a
// fresh clone (timer stopped) after each lap: every row lands on a session as full as base, rather than
// on one whose patterns have gathered a hit per matching row for hundreds of thousands of rows.
func applyRows(b *testing.B, base *State, rows []Row) {
	s := base.Clone()
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if i == len(rows) {
			b.StopTimer()
			s, i = base.Clone(), 0
			b.StartTimer()
		}
		Reduce(s, AddRow{Row: rows[i]})
		i++
	}
}

func BenchmarkApplyRow(b *testing.B) {
	applyRows(b, fullSession(b), benchRows(func(i int) string { return loopID(i % LoopCap) }))
}

// BenchmarkApplyRowMain applies main-loop rows while instructions are open: every row settles against
// the open patterns (the cited class, through the row index).
func BenchmarkApplyRowMain(b *testing.B) {
	s := fullSession(b)
	Reduce(s, TurnStart{Now: 1})
	for i := range s.Patterns {
		if isSent(s.Patterns[i].Decision) {
			s.Patterns[i].OpenedAtTurn = Ptr(s.Turn - 1)
		}
	}
	rows := benchRows(func(int) string { return MainAgent })
	for i := range rows {
		rows[i].Cls = ClassLint // never the cited class: nothing settles, every open pattern is checked
		rows[i].Key = "lint:" + rows[i].Key
		rows[i].Turn = s.Turn
	}
	applyRows(b, s, rows)
}

func BenchmarkClone(b *testing.B) {
	s := fullSession(b)
	b.ReportAllocs()
	for b.Loop() {
		_ = s.Clone()
	}
}

// tsAction is one action as the seed's JSON writes it ({"type": …}), decoded into the Go action.
func tsAction(t *testing.T, raw json.RawMessage) Action {
	t.Helper()
	var a struct {
		Type        string          `json:"type"`
		Now         int64           `json:"now"`
		AgentID     string          `json:"agentId"`
		Model       *string         `json:"model"`
		Ms          int64           `json:"ms"`
		Tokens      Tokens          `json:"tokens"`
		Ended       TurnEnd         `json:"ended"`
		Turn        int             `json:"turn"`
		Description string          `json:"description"`
		Run         RunInfo         `json:"run"`
		RunID       string          `json:"runId"`
		Entries     []JournalEntry  `json:"entries"`
		Row         Row             `json:"row"`
		Rows        []Row           `json:"rows"`
		Stat        TurnStat        `json:"stat"`
		Usage       json.RawMessage `json:"usage"`
		Overhead    Overhead        `json:"overhead"`
		PatternID   *string         `json:"patternId"`
		Choice      Choice          `json:"choice"`
		Text        *string         `json:"text"`
		Seq         int             `json:"seq"`
		Patterns    []Pattern       `json:"patterns"`
		Fresh       []string        `json:"fresh"`
		Recurred    []string        `json:"recurred"`
		Focus       *string         `json:"focus"`
		Time        *string         `json:"time"`
		Context     *string         `json:"context"`
		Spent       int64           `json:"spent"`
		Error       *string         `json:"error"`
		Returned    int             `json:"returned"`
		Kept        int             `json:"kept"`
		Dropped     []string        `json:"dropped"`
		Ask         Ask             `json:"ask"`
		Phases      []string        `json:"phases"`
		Trigger     ProcessTrigger  `json:"trigger"`
		Was         JudgeMark       `json:"was"`
		Delta       int             `json:"delta"`
		Kind        ArtifactKind    `json:"kind"`
		Written     bool            `json:"written"`
		Open        bool            `json:"open"`
		Auto        bool            `json:"auto"`
		Columns     int             `json:"columns"`
	}
	if err := json.Unmarshal(raw, &a); err != nil {
		t.Fatalf("action %s: %v", raw, err)
	}
	judgeUsage := func() *JudgeUsage {
		var u *JudgeUsage
		if len(a.Usage) > 0 {
			if err := json.Unmarshal(a.Usage, &u); err != nil {
				t.Fatalf("usage %s: %v", a.Usage, err)
			}
		}
		return u
	}
	switch a.Type {
	case "turn.start":
		return TurnStart{Now: a.Now}
	case "loop.turn":
		return LoopTurn{AgentID: a.AgentID, Model: a.Model, Ms: a.Ms, Tokens: a.Tokens, Ended: a.Ended, Turn: a.Turn}
	case "agent.start":
		return AgentStart{AgentID: a.AgentID, Description: a.Description, Model: a.Model}
	case "run.start":
		return RunStart{Run: a.Run, Now: a.Now}
	case "run.journal":
		return RunJournal{RunID: a.RunID, Entries: a.Entries, Now: a.Now}
	case "row":
		return AddRow{Row: a.Row}
	case "adopt":
		return Adopt{Rows: a.Rows}
	case "turn.complete":
		return TurnComplete{Stat: a.Stat}
	case "usage":
		var u Usage
		if err := json.Unmarshal(a.Usage, &u); err != nil {
			t.Fatalf("usage %s: %v", a.Usage, err)
		}
		return UsageSample{Usage: u, Now: a.Now}
	case "overhead":
		return SetOverhead{Overhead: a.Overhead}
	case "compact":
		return Compact{}
	case "expand":
		return Expand{PatternID: a.PatternID}
	case "steer.begin":
		return SteerBegin{PatternID: Str(a.PatternID)}
	case "steer.draft":
		return SteerDraft{Text: Str(a.Text)}
	case "decide":
		return Decide{PatternID: Str(a.PatternID), Choice: a.Choice, Text: a.Text}
	case "judge.start":
		return JudgeStart{Now: a.Now, Seq: a.Seq}
	case "judge.done":
		return JudgeDone{Patterns: a.Patterns, Fresh: a.Fresh, Recurred: a.Recurred, Focus: a.Focus, Time: a.Time, Context: a.Context,
			Spent: a.Spent, Error: a.Error, Returned: a.Returned, Kept: a.Kept, Dropped: a.Dropped, Usage: judgeUsage()}
	case "ask":
		return AddAsk{Ask: a.Ask}
	case "run.phases":
		return RunPhases{RunID: a.RunID, Phases: a.Phases}
	case "process.start":
		return JudgeStart{Kind: ProcessJudge, Now: a.Now, Seq: a.Seq, Trigger: a.Trigger}
	case "process.cold":
		return JudgeCold{Kind: ProcessJudge, Was: a.Was}
	case "process.done":
		return JudgeDone{Kind: ProcessJudge, Patterns: a.Patterns, Fresh: a.Fresh, Recurred: a.Recurred, Spent: a.Spent, Error: a.Error,
			Returned: a.Returned, Kept: a.Kept, Dropped: a.Dropped, Usage: judgeUsage()}
	case "delivery.pending":
		return DeliveryPending{Delta: a.Delta}
	case "delivery.sent":
		return DeliverySent{AgentID: a.AgentID, Now: a.Now}
	case "delivery.toasted":
		return DeliveryToasted{Now: a.Now}
	case "check.arm":
		return CheckArm{}
	case "notes.drained":
		return NotesDrained{}
	case "standing.add":
		return StandingAdd{Text: Str(a.Text)}
	case "artifact.done":
		return ArtifactDone{PatternID: Str(a.PatternID), Kind: a.Kind, Written: a.Written}
	case "pane":
		return SetPane{Open: a.Open, Auto: a.Auto}
	case "columns":
		return SetColumns{Columns: a.Columns}
	case "reset":
		return Reset{}
	}
	t.Fatalf("unknown action type %q", a.Type)
	return nil
}

// jsonValue is v as generic JSON, for comparing with the seed's answers.
func jsonValue(t *testing.T, v any) any {
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

// sameJSON fails with the first differing paths between a Go value and the seed's answer.
func sameJSON(t *testing.T, what string, got, want any) {
	t.Helper()
	var diffs []string
	jsonDiff(what, jsonValue(t, got), want, &diffs)
	for _, d := range diffs {
		t.Error(d)
	}
}

// beyondPluginFields are the view fields saverd adds to the plugin's (protocol.md, "Differences from the
// plugin"): a recording of the plugin has none of them, so their absence there is no difference.
var beyondPluginFields = []string{".header.budget", ".header.money", "band.money", "bandNow.money"}

func beyondPlugin(path string) bool {
	for _, f := range beyondPluginFields {
		if strings.HasSuffix(path, f) {
			return true
		}
	}
	return false
}

func jsonDiff(path string, a, b any, out *[]string) {
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
			jsonDiff(path+"."+k, x[k], y[k], out)
		}
		for k := range y {
			if _, ok := x[k]; !ok {
				jsonDiff(path+"."+k, nil, y[k], out)
			}
		}
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			*out = append(*out, fmt.Sprintf("%s: got %v, want %v", path, a, b))
			return
		}
		for i := range x {
			jsonDiff(fmt.Sprintf("%s[%d]", path, i), x[i], y[i], out)
		}
	default:
		if !reflect.DeepEqual(a, b) {
			*out = append(*out, fmt.Sprintf("%s: got %v, want %v", path, a, b))
		}
	}
}

// relapseIn names the settled instruction action a brings back, "" when none: the one place saverd's
// reducer and the plugin's part ways on purpose.
func relapseIn(s *State, a Action) string {
	if v, ok := a.(AddRow); ok {
		for i := range s.Patterns {
			if relapsed(s, &s.Patterns[i], &v.Row) {
				return s.Patterns[i].ID + " relapsed at " + v.Row.Key
			}
		}
	}
	return ""
}

// oracleDiffs is every way s and its views differ from the seed's recorded answers.
func oracleDiffs(t *testing.T, s *State, o oracleSession) []string {
	var diffs []string
	same := func(what string, got, want any) {
		var d []string
		jsonDiff(what, jsonValue(t, got), want, &d)
		diffs = append(diffs, d...)
	}
	same("state", s, o.State)
	pane := BuildPane(s, []Artifact{})
	for _, sinks := range []*Sinks{pane.Header.Time, pane.Header.Context} {
		if sinks != nil {
			sinks.Sinks = []Sink{}
		}
	}
	same("pane", pane, o.Pane)
	same("band", BuildBand(s), o.Band)
	same("bandNow", BuildBandAt(s, o.BandNow.Now), o.BandNow.Model)
	same("storable", StorableOf(s), o.Storable)
	same("turnsToCompaction", TurnsToCompaction(s), o.TurnsToCompaction)
	same("tokensToCompaction", TokensToCompaction(s), o.TokensToCompaction)
	same("processLine", ProcessLine(s), o.ProcessLine)
	got, want := strings.Split(DebugDump(s, o.Dump.Spoke), "\n"), strings.Split(o.Dump.Text, "\n")
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

// TestOracleSessions replays random sessions the seed reduced and compares the state and every view
// with the seed's answers. The seed's evidence module was a stub when they were recorded: its sinks
// named nothing, so the Go header's named sinks and the debug dump's sinks lines are left out.
func TestOracleSessions(t *testing.T) {
	for _, o := range oracleSessions(t) {
		t.Run(fmt.Sprint(o.Seed), func(t *testing.T) {
			s := New("/w", 200_000)
			relapse := ""
			for i, raw := range o.Actions {
				a := tsAction(t, raw)
				if why := relapseIn(s, a); why != "" && relapse == "" {
					relapse = fmt.Sprintf("action %d: %s", i, why)
				}
				Reduce(s, a)
			}
			diffs := oracleDiffs(t, s, o)
			if relapse != "" {
				// A relapse after settling takes the credit back and requeues the card at once, where the
				// plugin did not (protocol.md, Differences from the plugin; TestRelapseAfterSettling), and the
				// recorded judge runs after it carry the plugin's patterns: what a relapse moves (the
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
		steps  []UsageSample
		want   Usage
		lastAt int64
	}{
		{"present values win, window and compactAt stick",
			[]UsageSample{
				{Usage: Usage{Window: 1_000, CompactAt: Ptr[int64](900), Tokens: Ptr[int64](100), Percent: Ptr(10.0)}, Now: 5},
				{Usage: Usage{Tokens: Ptr[int64](200)}, Now: 9},
			},
			Usage{Window: 1_000, CompactAt: Ptr[int64](900), Tokens: Ptr[int64](200), Percent: Ptr(10.0)}, 5},
		{"the first sample dates the cadence; a Now of 0 seeds nothing",
			[]UsageSample{{Usage: Usage{Percent: Ptr(1.5)}, Now: 0}, {Usage: Usage{}, Now: 7}},
			Usage{Window: 500, Percent: Ptr(1.5)}, 7},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := New("/w", 500)
			for _, a := range tc.steps {
				Reduce(s, a)
			}
			sameJSON(t, "usage", s.Usage, jsonValue(t, tc.want))
			if s.Judge.LastAtMs != tc.lastAt {
				t.Fatalf("lastAtMs %d, want %d", s.Judge.LastAtMs, tc.lastAt)
			}
		})
	}
}

func TestCompactForgetsTheFill(t *testing.T) {
	s := New("/w", 500)
	Reduce(s, UsageSample{Usage: Usage{CompactAt: Ptr[int64](400), Tokens: Ptr[int64](300), Percent: Ptr(60.0)}})
	Reduce(s, TurnStart{Now: 1})
	Reduce(s, Compact{})
	if s.Usage.Tokens != nil || s.Usage.Percent != nil || *s.Usage.CompactAt != 400 || s.Usage.Window != 500 || !slices.Equal(s.Compactions, []int{1}) {
		t.Fatalf("usage %+v compactions %v", s.Usage, s.Compactions)
	}
}

func TestPaneFields(t *testing.T) {
	s := New("/w", 1)
	steps := []struct {
		a                  Action
		expanded, steering string // "" for nil
	}{
		{Expand{PatternID: Ptr("a")}, "a", ""},
		{Expand{PatternID: Ptr("b")}, "b", ""},
		{Expand{PatternID: Ptr("b")}, "", ""},
		{Expand{PatternID: Ptr("a")}, "a", ""},
		{Expand{PatternID: nil}, "", ""},
		{SteerBegin{PatternID: "a"}, "", "a"},
		{SteerDraft{Text: "half"}, "", "a"},
		{SteerBegin{PatternID: "a"}, "", ""},
	}
	for i, st := range steps {
		Reduce(s, st.a)
		if Str(s.Expanded) != st.expanded || Str(s.Steering) != st.steering {
			t.Fatalf("step %d: expanded %v steering %v", i, s.Expanded, s.Steering)
		}
	}
	if s.SteerDraft != nil {
		t.Fatal("toggling the field keeps no draft")
	}
	Reduce(s, SetPane{Open: true, Auto: true})
	Reduce(s, SetPane{Open: false})
	Reduce(s, SetColumns{Columns: 150})
	Reduce(s, CheckArm{})
	if s.PaneOpen || !s.AutoOpened || *s.Columns != 150 || !s.PendingCheck {
		t.Fatalf("pane %v auto %v columns %v pending %v", s.PaneOpen, s.AutoOpened, s.Columns, s.PendingCheck)
	}
}

func TestArtifactDone(t *testing.T) {
	p := suitePattern()
	p.Proposal = &Proposal{Kind: ArtifactSkill, Title: "t", Body: "b"}
	s := judged(t, p)
	Reduce(s, ArtifactDone{PatternID: p.ID, Kind: ArtifactSkill, Written: false})
	if s.PatternByID(p.ID).Proposal != nil || len(s.Written) != 0 {
		t.Fatalf("proposal %v written %v", s.PatternByID(p.ID).Proposal, s.Written)
	}
	Reduce(s, ArtifactDone{PatternID: p.ID, Kind: ArtifactSkill, Written: true})
	Reduce(s, ArtifactDone{PatternID: p.ID, Kind: ArtifactSkill, Written: true})
	if !slices.Equal(s.Written, []string{"execution:full-suite:skill"}) {
		t.Fatalf("written %v", s.Written)
	}
}

func TestResetKeepsStoredPatterns(t *testing.T) {
	s := steered(t)
	s.Patterns[0].Cost = &Cost{Tokens: 1}
	Reduce(s, SetOverhead{Overhead: Overhead{Memory: 1, MCP: 2, Agents: 3}})
	Reduce(s, SetColumns{Columns: 160})
	Reduce(s, SetPane{Open: true, Auto: true})
	Reduce(s, UsageSample{Usage: Usage{Tokens: Ptr[int64](5)}, Now: 10})
	Reduce(s, Reset{})
	want := New("/w", 200_000)
	want.Overhead = &Overhead{Memory: 1, MCP: 2, Agents: 3}
	want.Columns = Ptr(160)
	want.PaneOpen = true
	stored := suitePattern().StoredPattern
	stored.LastDecision = Ptr(Steer)
	want.Patterns = []Pattern{FromStored(stored)}
	sameJSON(t, "reset", s, jsonValue(t, want))
	// The reset session reduces like a fresh one.
	Reduce(s, TurnStart{Now: 1})
	Reduce(s, AddRow{Row: call("r1", suiteKey, ClassTest, 1, 1, 1)})
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
