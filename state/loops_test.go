package state_test

import (
	"slices"
	"testing"

	"github.com/saverd/saverd/state"
	"github.com/saverd/saverd/state/internal/statetest"
)

func TestLoops(t *testing.T) {
	s := state.New("/w", 1)
	state.Reduce(s, state.TurnStart{Now: 1})
	state.Reduce(s, state.AddRow{Row: statetest.Call("m", "x", state.ClassOther, 1, 1, 1)})
	// A loop's first row names it, dated by that row; its rows are counted on it as they land.
	edit := state.Row{ID: "e", Tool: "Edit", Key: "/a.go", Agent: "a", Turn: 1, Flags: []string{}, Paths: []string{"/a.go"}}
	state.Reduce(s, state.AddRow{Row: edit})
	state.Reduce(s, state.AddRow{Row: state.Row{ID: "t", Tool: "Bash", Key: "test:go test", Cls: state.ClassTest, Agent: "a", Turn: 1}})
	state.Reduce(s, state.AddRow{Row: state.Row{ID: "g", Tool: "Grep", Key: "x", Cls: state.ClassSearch, Agent: "a", Turn: 1}})
	l := s.LoopByID("a")
	if l == nil || l.FirstTurn != 1 || l.FirstSeq != 2 || l.Calls != 3 || l.Edits != 1 || l.Checks != 1 || l.Reads != 1 {
		t.Fatalf("loop %+v", l)
	}
	state.Reduce(s, state.AgentStart{AgentID: "a", Description: "explore auth", Model: new("sonnet")})
	state.Reduce(s, state.AgentStart{AgentID: "a", Description: "", Model: nil}) // nothing said: nothing forgotten
	state.Reduce(s, state.LoopTurn{AgentID: "a", Ms: 100, Tokens: state.Tokens{Input: 1, Output: 2, CacheRead: 3, CacheCreate: 4}, Ended: state.EndAnswer, Turn: 1})
	state.Reduce(s, state.LoopTurn{AgentID: "a", Model: new("opus"), Ms: 50, Tokens: state.Tokens{Input: 1}, Ended: state.EndError, Turn: 1})
	l = s.LoopByID("a")
	if state.Str(l.Label) != "explore auth" || state.Str(l.Model) != "opus" || l.Turns != 2 || l.Ms != 150 || l.Tokens != (state.Tokens{2, 2, 3, 4}) || *l.Ended != state.EndError {
		t.Fatalf("loop %+v", l)
	}
	// A loop turn for a loop never seen creates it, dated by the turn it names and the ledger's seq.
	state.Reduce(s, state.LoopTurn{AgentID: "b", Ms: 1, Ended: state.EndAnswer, Turn: 7})
	if b := s.LoopByID("b"); b.FirstTurn != 7 || b.FirstSeq != 4 || b.Turns != 1 {
		t.Fatalf("loop %+v", b)
	}
}

func TestLoopCapDropsOldest(t *testing.T) {
	s := state.New("/w", 1)
	for i := 0; i <= state.LoopCap; i++ {
		state.Reduce(s, state.AgentStart{AgentID: statetest.LoopID(i), Description: "d"})
	}
	if len(s.Loops) != state.LoopCap || s.Loops[0].ID != statetest.LoopID(1) || s.Loops[state.LoopCap-1].ID != statetest.LoopID(state.LoopCap) {
		t.Fatalf("%d loops from %s to %s", len(s.Loops), s.Loops[0].ID, s.Loops[len(s.Loops)-1].ID)
	}
	// The dropped loop's next row brings it back bare, dropping the next oldest.
	state.Reduce(s, state.AddRow{Row: state.Row{ID: "r", Tool: "Read", Key: "/x", Agent: statetest.LoopID(0), Turn: 3}})
	last := s.Loops[state.LoopCap-1]
	if len(s.Loops) != state.LoopCap || s.Loops[0].ID != statetest.LoopID(2) || last.ID != statetest.LoopID(0) || last.Label != nil || last.Calls != 1 || last.FirstTurn != 3 {
		t.Fatalf("loops from %s, last %+v", s.Loops[0].ID, last)
	}
	// Every loop still known is found where it is.
	state.Reduce(s, state.LoopTurn{AgentID: statetest.LoopID(200), Ms: 9, Ended: state.EndAnswer})
	if l := s.LoopByID(statetest.LoopID(200)); l.Ms != 9 || len(s.Loops) != state.LoopCap {
		t.Fatalf("loop %+v", l)
	}
}

func TestRuns(t *testing.T) {
	s := state.New("/w", 1)
	state.Reduce(s, state.TurnStart{Now: 1})
	run := state.RunInfo{ID: "run-1", Name: "review", Dir: new("/tmp/run-1")}
	state.Reduce(s, state.RunStart{Run: run, Now: 100})
	state.Reduce(s, state.RunStart{Run: state.RunInfo{ID: "run-1", Name: "resumed"}, Now: 900}) // a resume: dated at its first launch
	if len(s.Runs) != 1 || s.Runs[0].Name != "review" || s.Runs[0].At != 100 || s.Runs[0].Turn != 1 || s.Runs[0].Phases == nil {
		t.Fatalf("runs %+v", s.Runs)
	}
	state.Reduce(s, state.RunJournal{RunID: "run-1", Now: 500, Entries: []state.JournalEntry{
		{Kind: "started", AgentID: "w1", Label: new("lint"), Phase: new("check")},
		{Kind: "started", AgentID: "w1"}, // no label or phase said: none forgotten
		{Kind: "result", AgentID: "w1", Outcome: &state.Outcome{Kind: state.OutcomeReport, Chars: 12}},
		{Kind: "result", AgentID: "w2", Outcome: &state.Outcome{Kind: state.OutcomeFindings, High: 1}},
	}})
	w1, w2 := s.LoopByID("w1"), s.LoopByID("w2")
	if state.Str(w1.Run) != "run-1" || state.Str(w1.Label) != "lint" || state.Str(w1.Phase) != "check" || w1.Outcome.Chars != 12 {
		t.Fatalf("w1 %+v", w1)
	}
	if w2.Run != nil || w2.Outcome.High != 1 || s.Runs[0].RefreshedAt != 500 {
		t.Fatalf("w2 %+v run %+v", w2, s.Runs[0])
	}
	phases := []string{"plan", "build"}
	state.Reduce(s, state.RunPhases{RunID: "run-1", Phases: phases})
	phases[0] = "changed by the caller"
	if !slices.Equal(s.Runs[0].Phases, []string{"plan", "build"}) {
		t.Fatalf("phases %v", s.Runs[0].Phases)
	}
}
