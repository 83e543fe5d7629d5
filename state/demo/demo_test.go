package demo_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/saverd/saverd/state"
	"github.com/saverd/saverd/state/demo"
	"github.com/saverd/saverd/state/internal/statetest"
	"github.com/saverd/saverd/state/view"
)

func TestDemoData(t *testing.T) {
	turnsOf := func(turn int) []int {
		var out []int
		for _, r := range demo.Rows(turn) {
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
	if p := demo.Patterns(20)[0]; *p.DecidedAtTurn != 19 || *p.OpenedAtTurn != 19 {
		t.Fatalf("steered at %v", p.DecidedAtTurn)
	}
	if got := demo.Rows(0)[4]; got.Agent != "sub-explore-1" || got.ID != "demo-log-2" {
		t.Fatalf("the explore loop's read: %+v", got)
	}
	if got := demo.Turns()[1]; got.AnswerChars != 72 || got.CacheRead != 180_000 || got.Ended != state.EndAnswer {
		t.Fatalf("turn %+v", got)
	}
}

// TestDemoMatchesPlugin compares the demo session with ContextSaver's answers for it.
func TestDemoMatchesPlugin(t *testing.T) {
	data := statetest.OracleFile(t, "oracle_demo.json")
	var want struct {
		State, Pane, Band, Storable any
		Dump                        string
	}
	if err := json.Unmarshal(data, &want); err != nil {
		t.Fatal(err)
	}
	s := statetest.DemoSession()
	statetest.SameJSON(t, "state", s, want.State)
	pane := view.BuildPane(s, nil)
	pane.Header.Time.Sinks, pane.Header.Context.Sinks = []state.Sink{}, []state.Sink{}
	statetest.SameJSON(t, "pane", pane, want.Pane)
	statetest.SameJSON(t, "band", view.BuildBand(s), want.Band)
	statetest.SameJSON(t, "storable", state.StorableOf(s), want.Storable)
	got, lines := strings.Split(view.DebugDump(s, true), "\n"), strings.Split(want.Dump, "\n")
	if len(got) != len(lines) {
		t.Fatalf("%d lines, want %d", len(got), len(lines))
	}
	for i := range got {
		if got[i] != lines[i] && !strings.Contains(lines[i], " sinks: ") {
			t.Errorf("line %d:\n got %s\nwant %s", i, got[i], lines[i])
		}
	}
}
