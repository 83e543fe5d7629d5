package view

import (
	"encoding/json"
	"testing"

	"github.com/saverd/saverd/state"
	"github.com/saverd/saverd/state/internal/statetest"
)

func BenchmarkPaneModel(b *testing.B) {
	s := statetest.FullSession(b)
	b.ReportAllocs()
	for b.Loop() {
		_ = BuildPane(s, nil)
	}
}

func TestPaneGolden(t *testing.T) {
	for name, s := range map[string]*state.State{"full_session_pane.json": statetest.FullSession(t), "demo_pane.json": statetest.DemoSession()} {
		data, err := json.MarshalIndent(BuildPane(s, nil), "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		golden(t, name, append(data, '\n'))
		// A clone draws the same pane without the reducer's index.
		again, _ := json.MarshalIndent(BuildPane(s.Clone(), nil), "", "  ")
		if string(again) != string(data) {
			t.Fatalf("%s: a clone draws another pane", name)
		}
	}
}

func TestPaneDecided(t *testing.T) {
	kept, steeredOwn, steeredFix, killed := statetest.SuitePattern(), statetest.SuitePattern(), statetest.SuitePattern(), statetest.SuitePattern()
	kept.ID, steeredOwn.ID, steeredFix.ID, killed.ID = "e:kept", "e:own", "e:fix", "e:killed"
	s := statetest.Judged(t, kept, steeredOwn, steeredFix, killed)
	state.Reduce(s, state.Decide{PatternID: "e:killed", Choice: state.Fix})
	state.Reduce(s, state.TurnStart{Now: 1})
	state.Reduce(s, state.Decide{PatternID: "e:own", Choice: state.FixWithNote, Text: new("my own words")})
	state.Reduce(s, state.Decide{PatternID: "e:fix", Choice: state.FixWithNote, Text: new(" run only the tests\nyou touched ")})
	state.Reduce(s, state.TurnStart{Now: 2})
	state.Reduce(s, state.Decide{PatternID: "e:kept", Choice: state.Ignore})
	pane := BuildPane(s, nil)
	var order []string
	for _, d := range pane.Decided {
		order = append(order, d.PatternID)
	}
	// Newest decision first, registry order within a turn.
	if want := []string{"e:kept", "e:own", "e:fix", "e:killed"}; !equalStrings(order, want) {
		t.Fatalf("decided %v, want %v", order, want)
	}
	d := pane.Decided
	if d[0].SavedPct != nil || d[0].Settled || d[0].Instruction != nil {
		t.Fatalf("a keep saves nothing and says nothing: %+v", d[0])
	}
	// Only a note of the person's own is news; the card's own fix (whitespace aside) and a kill are not.
	if state.Str(d[1].Instruction) != "my own words" || d[2].Instruction != nil || d[3].Instruction != nil {
		t.Fatalf("instructions %v %v %v", d[1].Instruction, d[2].Instruction, d[3].Instruction)
	}
	// Sent and still open: a projection of one avoided repeat, not yet settled.
	if *d[3].SavedPct != 0.8 || d[3].Settled {
		t.Fatalf("%+v", d[3])
	}
	if pane.Artifacts == nil || len(pane.Wasters) != 0 || pane.Header.Time == nil {
		t.Fatalf("pane %+v", pane)
	}
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestWastersNumberedAsDrawn(t *testing.T) {
	s := statetest.Judged(t)
	s.Cards = []string{"ghost:gone", "execution:full-suite"}
	pane := BuildPane(s, nil)
	if len(pane.Wasters) != 1 || pane.Wasters[0].N != 1 || pane.Wasters[0].PatternID != "execution:full-suite" {
		t.Fatalf("wasters %+v: a queued id with no pattern takes no seat", pane.Wasters)
	}
}
