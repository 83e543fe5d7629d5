package textview

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	goldenfile "github.com/saverd/saverd/internal/golden"
	"github.com/saverd/saverd/state"
	"github.com/saverd/saverd/state/rules"
	"github.com/saverd/saverd/state/view"
)

// golden compares got with testdata/name (see internal/golden).
func golden(t *testing.T, name, got string) {
	t.Helper()
	goldenfile.Check(t, name, got)
}

// checkLines fails when a line of out is wider than w or out is not valid UTF-8.
func checkLines(t *testing.T, name, out string, w int) {
	t.Helper()
	if !utf8.ValidString(out) {
		t.Errorf("%s: invalid UTF-8", name)
	}
	for i, l := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		if width(l) > w {
			t.Errorf("%s: line %d is %d wide, over %d: %q", name, i+1, width(l), w, l)
		}
		if strings.ContainsFunc(l, func(r rune) bool { return r < 0x20 || r == 0x7F }) {
			t.Errorf("%s: line %d holds a control character: %q", name, i+1, l)
		}
	}
}

func TestBandGolden(t *testing.T) {
	var b strings.Builder
	for _, c := range bandCases() {
		for _, w := range []int{120, 60, 40, 24} {
			line := Band(c.m, w)
			checkLines(t, c.name, line, w)
			if strings.Contains(line, "\n") {
				t.Errorf("%s@%d: more than one line", c.name, w)
			}
			fmt.Fprintf(&b, "%-28s %3d |%s|\n", c.name, w, line)
		}
	}
	golden(t, "band.golden", b.String())
}

func TestBandStates(t *testing.T) {
	cases := []struct {
		name string
		m    view.BandModel
		want string
	}{
		{"died error", view.BandModel{State: view.BandDied, Died: errEnd(state.EndError)},
			"ContextSaver · the last turn died with an error · /saver to open"},
		{"died refusal", view.BandModel{State: view.BandDied, Died: errEnd(state.EndRefusal)},
			"ContextSaver · the last turn was refused · /saver to open"},
		{"checking", view.BandModel{State: view.BandChecking, Calls: 1},
			"ContextSaver · Checking… · 1 call watched · /saver to open"},
		{"found", view.BandModel{State: view.BandFound, Fresh: 3, CostPct: 7.2, CostMs: 190_000},
			"ContextSaver · 3 wasters waiting · ~7.2% of context · 3m 10s · /saver to open"},
		{"found, nothing measured", view.BandModel{State: view.BandFound, Fresh: 1},
			"ContextSaver · 1 waster waiting · /saver to open"},
		{"found, under a second", view.BandModel{State: view.BandFound, Fresh: 1, CostPct: 0.4, CostMs: 300},
			"ContextSaver · 1 waster waiting · ~0.4% of context · /saver to open"},
		{"found, under a second that rounds up", view.BandModel{State: view.BandFound, Fresh: 1, CostPct: 0.4, CostMs: 800},
			"ContextSaver · 1 waster waiting · ~0.4% of context · /saver to open"},
		{"found, a second", view.BandModel{State: view.BandFound, Fresh: 1, CostPct: 0.4, CostMs: 1_000},
			"ContextSaver · 1 waster waiting · ~0.4% of context · 1s · /saver to open"},
		{"saved, pane open", view.BandModel{State: view.BandSaved, SavedPct: 2.4, SavedMs: 65_400, PaneOpen: true},
			"ContextSaver · saved · ~2.4% of context · 1m 5s · /saver to close"},
		{"watching", view.BandModel{State: view.BandWatching, Calls: 212},
			"ContextSaver · watching 212 calls · /saver to open"},
		{"unknown state reads as watching", view.BandModel{State: "bogus", Calls: 0},
			"ContextSaver · watching 0 calls · /saver to open"},
		{"running", view.BandModel{State: view.BandWatching, Calls: 5, Running: &view.BandRunning{Name: "audit", Loops: 2, Calls: 5, Label: new("scan")}},
			"ContextSaver · watching 5 calls · audit · 2 loops · 5 calls · scan · /saver to open"},
	}
	for _, c := range cases {
		if got := Band(c.m, 200); got != c.want {
			t.Errorf("%s:\n got %q\nwant %q", c.name, got, c.want)
		}
	}
}

func TestBandNarrowing(t *testing.T) {
	m := view.BandModel{State: view.BandFound, Fresh: 3, CostPct: 7.2, CostMs: 190_000}
	cases := []struct {
		w    int
		want string
	}{
		{75, "ContextSaver · 3 wasters waiting · ~7.2% of context · 3m 10s"}, // the hint goes first
		{60, "ContextSaver · 3 wasters waiting · ~7.2% of context · 3m 10s"},
		{45, "3 wasters waiting · ~7.2% of context · 3m 10s"}, // then the name
		{40, "3 wasters waiting · ~7.2% of context …"},        // then whole figures from the end
		{30, "3 wasters waiting …"},
		{12, "3 wasters w…"}, // the state's own words cut only when nothing else is left
		{1, "…"},
		{0, ""},
		{-5, ""},
	}
	for _, c := range cases {
		if got := Band(m, c.w); got != c.want {
			t.Errorf("width %d:\n got %q\nwant %q", c.w, got, c.want)
		}
	}
}

func TestPaneGolden(t *testing.T) {
	for _, c := range paneCases() {
		t.Run(c.name, func(t *testing.T) {
			out := Pane(c.m, c.width)
			checkLines(t, c.name, out, c.width)
			golden(t, "pane-"+c.name+".golden", out)
		})
	}
}

func TestPaneContents(t *testing.T) {
	out := Pane(fullPane(), 100)
	for _, want := range []string{
		"Window   32% ███░░░░░░░ · 580k tokens (~12 turns) to compaction",
		"Trend    ▁▂▃▆█ 12% → 32%",
		"Time     41m 10s · tests 38% · agents 30% · reads 12%",
		"Context  ~370k tokens · reads 40% · agents 30% · tests <1%",
		"Judge    2 runs · 318k tokens · Checking…",
		"Saved    ~2.4% of context · 1m 5s",
		"WASTERS (3)",
		"1. [execution] Claude keeps running the whole bun test suite after every single-file edit",
		"   lean: one explore agent",
		"   Fix… run only the auth tests then stop",
		"   - turn 7 · a1 · 1m 30s · explore · claude-sonnet-4-6",
		`     "9k tokens · 0 edits"`,
		"   - turn 3 · no tool calls\n",
		"DECIDED (4)",
		"  ~2% saved · sent ×2",
		"  ~0.8% per repeat · relapsed ×1",
		"  ~3.6% per repeat\n",
		"- ignored · npm install runs on every session start\n\nRULES", // a keep row has no figures line
		"  your note: run only the tests",
		"RULES TO WRITE (3)",
		"  claude-md · append · saves ~10.8% of context",
		"  settings-allow · merge-settings\n",
	} {
		if !strings.Contains(out+"- ", want) {
			t.Errorf("pane lacks %q", want)
		}
	}
	// The Fix… field shows only on the card being steered.
	if n := strings.Count(out, "Fix… "); n != 1 {
		t.Errorf("%d Fix… fields, want 1", n)
	}
	// The judge's share is for /saver debug only.
	if strings.Contains(out, "4.1") {
		t.Error("the pane shows the judge's share")
	}
}

func TestPaneEmptySections(t *testing.T) {
	empty := Pane(view.PaneModel{}, 80)
	for _, want := range []string{"Window   not measured yet", "Judge    not run yet", "No wasters found yet"} {
		if !strings.Contains(empty, want) {
			t.Errorf("empty pane lacks %q:\n%s", want, empty)
		}
	}
	for _, absent := range []string{"Trend", "Time", "Saved", "WASTERS", "DECIDED", "RULES"} {
		if strings.Contains(empty, absent) {
			t.Errorf("empty pane draws %q:\n%s", absent, empty)
		}
	}
	onlyDecided := Pane(view.PaneModel{Decided: []view.DecidedRow{{Choice: state.Ignore, Kind: "k"}}}, 80)
	if !strings.Contains(onlyDecided, "No wasters waiting") || !strings.Contains(onlyDecided, "- ignored · k") {
		t.Errorf("decided-only pane:\n%s", onlyDecided)
	}
	due := Pane(view.PaneModel{Header: view.Header{TokensToCompaction: new(int64(-5)), TurnsToCompaction: new(int64(0))}}, 80)
	if !strings.Contains(due, "Window   compaction due") {
		t.Errorf("past the threshold:\n%s", due)
	}
}

func TestPaneNarrowWidthIsForty(t *testing.T) {
	m := fullPane()
	want := Pane(m, MinWidth)
	for _, w := range []int{-1, 0, 10, 39} {
		if got := Pane(m, w); got != want {
			t.Errorf("width %d draws differently from %d", w, MinWidth)
		}
	}
}

func TestPaneDeterministic(t *testing.T) {
	m := fullPane()
	first := Pane(m, 77)
	for range 20 {
		if Pane(m, 77) != first {
			t.Fatal("two draws of one model differ")
		}
	}
}

func BenchmarkPane(b *testing.B) {
	m := fullPane()
	b.ReportAllocs()
	for b.Loop() {
		_ = Pane(m, 100)
	}
}

func BenchmarkBand(b *testing.B) {
	m := bandCases()[5].m
	b.ReportAllocs()
	for b.Loop() {
		_ = Band(m, 60)
	}
}

// TestPaneShowsEachRuleInFull: every rule to write is numbered as `/saver write <n>` takes it, and its
// exact text is drawn in full, every character in order, at any width.
func TestPaneShowsEachRuleInFull(t *testing.T) {
	m := fullPane()
	for _, w := range []int{40, 63, 80, 120} {
		out := Pane(m, w)
		out = out[strings.Index(out, "RULES TO WRITE"):]
		for n, a := range rules.Pending(m.Artifacts) {
			text, where := rules.Shown(a)
			at := strings.Index(out, "\n"+strconv.Itoa(n+1)+". ")
			if at < 0 {
				t.Fatalf("width %d: rule %d is not numbered:\n%s", w, n+1, out)
			}
			var shown []string
			started := false
			for _, line := range strings.Split(out[at+1:], "\n")[1:] {
				body, isText := strings.CutPrefix(line, textBar)
				if !isText {
					body, isText = strings.CutPrefix(line, textCont)
				}
				if !isText && strings.TrimRight(line, " ") == strings.TrimRight(textBar, " ") {
					body, isText = "", true
				}
				if !isText && started {
					break
				}
				if isText {
					started = true
					shown = append(shown, body)
				}
			}
			if got, want := strings.Join(strings.Fields(strings.Join(shown, " ")), ""), strings.Join(strings.Fields(text), ""); got != want {
				t.Errorf("width %d, rule %d: the pane shows %q, the rule writes %q", w, n+1, got, want)
			}
			if !strings.Contains(out, ruleIndent+where+":") {
				t.Errorf("width %d, rule %d: the pane does not say where it goes (%s)", w, n+1, where)
			}
		}
		if !strings.Contains(out, "/saver write <n> (1–3) writes it") || !strings.Contains(out, "/saver undo takes the last write back") {
			t.Errorf("width %d: the pane does not say how to write or undo a rule:\n%s", w, out)
		}
	}
	one := Pane(view.PaneModel{Artifacts: m.Artifacts[:1]}, 80)
	if !strings.Contains(one, "/saver write 1 writes it") {
		t.Errorf("a lone rule's hint:\n%s", one)
	}
}

// TestBandKeepsTheLosingNet: a band too narrow for the whole money line tells it shorter, step by step —
// the explanation, then the instructions' share, then the hint — and gives up the net last, so a session
// losing money never reads as a plain "watching".
func TestBandKeepsTheLosingNet(t *testing.T) {
	m := view.BandModel{State: view.BandWatching, Calls: 10, Money: &view.MoneyView{
		Priced: true, JudgeUSD: 0.01, InstructionsUSD: 0.0012, NetUSD: -0.0112, Losing: true,
		Text:  "saved $0 · judge $0.01 · instructions $0.0012 · net −$0.01",
		Parts: view.MoneyParts{Saved: "saved $0", Judge: "judge $0.01", Instructions: "instructions $0.0012", Net: "net −$0.01"}}}
	cases := []struct {
		w    int
		want string
	}{
		{200, "ContextSaver · watching 10 calls · saved $0 · judge $0.01 · instructions $0.0012 · net −$0.01 (the judge and the instructions cost more than they saved) · /saver to open"},
		{140, "ContextSaver · watching 10 calls · saved $0 · judge $0.01 · instructions $0.0012 · net −$0.01 · /saver to open"},
		{90, "ContextSaver · watching 10 calls · saved $0 · judge $0.01 · net −$0.01 · /saver to open"},
		{70, "ContextSaver · watching 10 calls · net −$0.01 · /saver to open"},
		{50, "ContextSaver · watching 10 calls · net −$0.01"},
		{35, "watching 10 calls · net −$0.01"},
		{25, "watching 10 calls"},
		{10, "watching…"},
	}
	for _, c := range cases {
		got := Band(m, c.w)
		if got != c.want {
			t.Errorf("width %d:\n got %q\nwant %q", c.w, got, c.want)
		}
		if width(got) > c.w {
			t.Errorf("width %d: %q is %d wide", c.w, got, width(got))
		}
	}
}

// TestJudgeRowNamesTheCap: the Judge row never puts the configured share after "budget spent", where it
// reads as what the judges spent; a budget of 0 says automatic checks are off.
func TestJudgeRowNamesTheCap(t *testing.T) {
	cases := []struct {
		name string
		h    view.Header
		want string
	}{
		{"budget 0, not run", view.Header{Budget: state.Budget{Share: 0, Over: true}},
			"not run yet · automatic checks off (judgeBudget 0) · checks only when asked"},
		{"budget 0, run when asked", view.Header{JudgeRuns: 1, JudgeTokens: 320, Budget: state.Budget{Share: 0, Spent: 320, Over: true}},
			"1 run · 320 tokens · automatic checks off (judgeBudget 0) · checks only when asked"},
		{"cap reached", view.Header{JudgeRuns: 2, JudgeTokens: 3_400, Budget: state.Budget{Share: 0.005, Allowed: 1_100, Spent: 3_400, Over: true}},
			"2 runs · 3.4k tokens · budget spent (cap 0.5% of the session) · checks only when asked"},
		{"room left", view.Header{JudgeRuns: 3, JudgeTokens: 5_100, Budget: state.Budget{Share: 0.05, Allowed: 11_000, Spent: 5_100, Left: 5_900}},
			"3 runs · 5.1k tokens · budget 5.9k tokens left of 5%"},
		{"nothing measured yet", view.Header{Budget: state.Budget{Share: 0.05}}, "not run yet"},
	}
	for _, c := range cases {
		if got := strings.Join(judgeOf(c.h), " · "); got != c.want {
			t.Errorf("%s:\n got %q\nwant %q", c.name, got, c.want)
		}
	}
}
