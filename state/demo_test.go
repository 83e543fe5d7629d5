package state

import (
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"
)

// demoSession is `/saver demo` as the plugin builds it: a usage sample, four turns filling the window,
// the sample rows and the sample wasters in one judge run.
func demoSession() *State {
	s := New("/repo", 1_000_000)
	Reduce(s, UsageSample{Usage: DemoUsage(), Now: 0})
	turns := DemoTurns()
	for at, context := range []int64{120_000, 190_000, 250_000, 320_000} {
		stat := turns[at%len(turns)]
		stat.Context = Ptr(context)
		Reduce(s, TurnComplete{Stat: stat})
	}
	for _, r := range DemoRows(s.Turn) {
		Reduce(s, AddRow{Row: r})
	}
	patterns := DemoPatterns(s.Turn)
	var fresh []string
	for _, p := range patterns {
		if p.Decision == nil {
			fresh = append(fresh, p.ID)
		}
	}
	u := DemoForkUsage()
	Reduce(s, JudgeDone{Patterns: patterns, Fresh: fresh, Recurred: []string{}, Spent: u.Input + u.Output + u.CacheCreate,
		Returned: len(patterns), Kept: len(patterns), Dropped: []string{}, Usage: &u})
	return s
}

func TestDemoData(t *testing.T) {
	turnsOf := func(turn int) []int {
		var out []int
		for _, r := range DemoRows(turn) {
			out = append(out, r.Turn)
		}
		return out
	}
	// A session younger than the sample is dated from turn 8; an older one from its own turn, never before 1.
	if got := turnsOf(0); !slices.Equal(got, []int{5, 5, 6, 6, 7, 7, 8}) {
		t.Fatalf("turns %v", got)
	}
	if got := turnsOf(20); !slices.Equal(got, []int{17, 17, 18, 18, 19, 19, 20}) {
		t.Fatalf("turns %v", got)
	}
	if p := DemoPatterns(20)[0]; *p.DecidedAtTurn != 19 || *p.OpenedAtTurn != 19 {
		t.Fatalf("steered at %v", p.DecidedAtTurn)
	}
	if got := DemoRows(0)[4]; got.Agent != "sub-explore-1" || got.ID != "demo-log-2" {
		t.Fatalf("the explore loop's read: %+v", got)
	}
	if got := DemoTurns()[1]; got.AnswerChars != 72 || got.CacheRead != 180_000 || got.Ended != EndAnswer {
		t.Fatalf("turn %+v", got)
	}
}

// TestDemoMatchesSeed compares the demo session with the seed's answers for it.
func TestDemoMatchesSeed(t *testing.T) {
	data, err := os.ReadFile("testdata/oracle_demo.json")
	if err != nil {
		t.Fatal(err)
	}
	var want struct {
		State, Pane, Band, Storable any
		Dump                        string
	}
	if err := json.Unmarshal(data, &want); err != nil {
		t.Fatal(err)
	}
	s := demoSession()
	sameJSON(t, "state", s, want.State)
	pane := BuildPane(s, nil)
	pane.Header.Time.Sinks, pane.Header.Context.Sinks = []Sink{}, []Sink{}
	sameJSON(t, "pane", pane, want.Pane)
	sameJSON(t, "band", BuildBand(s), want.Band)
	sameJSON(t, "storable", StorableOf(s), want.Storable)
	got, lines := strings.Split(DebugDump(s, true), "\n"), strings.Split(want.Dump, "\n")
	if len(got) != len(lines) {
		t.Fatalf("%d lines, want %d", len(got), len(lines))
	}
	for i := range got {
		if got[i] != lines[i] && !strings.Contains(lines[i], " sinks: ") {
			t.Errorf("line %d:\n got %s\nwant %s", i, got[i], lines[i])
		}
	}
}
