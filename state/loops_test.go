package state

import (
	"slices"
	"testing"
)

func TestLoops(t *testing.T) {
	s := New("/w", 1)
	Reduce(s, TurnStart{Now: 1})
	Reduce(s, AddRow{Row: call("m", "x", ClassOther, 1, 1, 1)})
	// A loop's first row names it, dated by that row; its rows are counted on it as they land.
	edit := Row{ID: "e", Tool: "Edit", Key: "/a.go", Agent: "a", Turn: 1, Flags: []string{}, Paths: []string{"/a.go"}}
	Reduce(s, AddRow{Row: edit})
	Reduce(s, AddRow{Row: Row{ID: "t", Tool: "Bash", Key: "test:go test", Cls: ClassTest, Agent: "a", Turn: 1}})
	Reduce(s, AddRow{Row: Row{ID: "g", Tool: "Grep", Key: "x", Cls: ClassSearch, Agent: "a", Turn: 1}})
	l := s.LoopByID("a")
	if l == nil || l.FirstTurn != 1 || l.FirstSeq != 2 || l.Calls != 3 || l.Edits != 1 || l.Checks != 1 || l.Reads != 1 {
		t.Fatalf("loop %+v", l)
	}
	Reduce(s, AgentStart{AgentID: "a", Description: "explore auth", Model: Ptr("sonnet")})
	Reduce(s, AgentStart{AgentID: "a", Description: "", Model: nil}) // nothing said: nothing forgotten
	Reduce(s, LoopTurn{AgentID: "a", Ms: 100, Tokens: Tokens{Input: 1, Output: 2, CacheRead: 3, CacheCreate: 4}, Ended: EndAnswer, Turn: 1})
	Reduce(s, LoopTurn{AgentID: "a", Model: Ptr("opus"), Ms: 50, Tokens: Tokens{Input: 1}, Ended: EndError, Turn: 1})
	l = s.LoopByID("a")
	if Str(l.Label) != "explore auth" || Str(l.Model) != "opus" || l.Turns != 2 || l.Ms != 150 || l.Tokens != (Tokens{2, 2, 3, 4}) || *l.Ended != EndError {
		t.Fatalf("loop %+v", l)
	}
	// A loop turn for a loop never seen creates it, dated by the turn it names and the ledger's seq.
	Reduce(s, LoopTurn{AgentID: "b", Ms: 1, Ended: EndAnswer, Turn: 7})
	if b := s.LoopByID("b"); b.FirstTurn != 7 || b.FirstSeq != 4 || b.Turns != 1 {
		t.Fatalf("loop %+v", b)
	}
}

func TestLoopCapDropsOldest(t *testing.T) {
	s := New("/w", 1)
	for i := 0; i <= LoopCap; i++ {
		Reduce(s, AgentStart{AgentID: loopID(i), Description: "d"})
	}
	if len(s.Loops) != LoopCap || s.Loops[0].ID != loopID(1) || s.Loops[LoopCap-1].ID != loopID(LoopCap) {
		t.Fatalf("%d loops from %s to %s", len(s.Loops), s.Loops[0].ID, s.Loops[len(s.Loops)-1].ID)
	}
	// The dropped loop's next row brings it back bare, dropping the next oldest.
	Reduce(s, AddRow{Row: Row{ID: "r", Tool: "Read", Key: "/x", Agent: loopID(0), Turn: 3}})
	last := s.Loops[LoopCap-1]
	if len(s.Loops) != LoopCap || s.Loops[0].ID != loopID(2) || last.ID != loopID(0) || last.Label != nil || last.Calls != 1 || last.FirstTurn != 3 {
		t.Fatalf("loops from %s, last %+v", s.Loops[0].ID, last)
	}
	// Every loop still known is found where it is.
	Reduce(s, LoopTurn{AgentID: loopID(200), Ms: 9, Ended: EndAnswer})
	if l := s.LoopByID(loopID(200)); l.Ms != 9 || len(s.Loops) != LoopCap {
		t.Fatalf("loop %+v", l)
	}
}

func TestRuns(t *testing.T) {
	s := New("/w", 1)
	Reduce(s, TurnStart{Now: 1})
	run := RunInfo{ID: "run-1", Name: "review", Dir: Ptr("/tmp/run-1")}
	Reduce(s, RunStart{Run: run, Now: 100})
	Reduce(s, RunStart{Run: RunInfo{ID: "run-1", Name: "resumed"}, Now: 900}) // a resume: dated at its first launch
	if len(s.Runs) != 1 || s.Runs[0].Name != "review" || s.Runs[0].At != 100 || s.Runs[0].Turn != 1 || s.Runs[0].Phases == nil {
		t.Fatalf("runs %+v", s.Runs)
	}
	Reduce(s, RunJournal{RunID: "run-1", Now: 500, Entries: []JournalEntry{
		{Kind: "started", AgentID: "w1", Label: Ptr("lint"), Phase: Ptr("check")},
		{Kind: "started", AgentID: "w1"}, // no label or phase said: none forgotten
		{Kind: "result", AgentID: "w1", Outcome: &Outcome{Kind: OutcomeReport, Chars: 12}},
		{Kind: "result", AgentID: "w2", Outcome: &Outcome{Kind: OutcomeFindings, High: 1}},
	}})
	w1, w2 := s.LoopByID("w1"), s.LoopByID("w2")
	if Str(w1.Run) != "run-1" || Str(w1.Label) != "lint" || Str(w1.Phase) != "check" || w1.Outcome.Chars != 12 {
		t.Fatalf("w1 %+v", w1)
	}
	if w2.Run != nil || w2.Outcome.High != 1 || s.Runs[0].RefreshedAt != 500 {
		t.Fatalf("w2 %+v run %+v", w2, s.Runs[0])
	}
	phases := []string{"plan", "build"}
	Reduce(s, RunPhases{RunID: "run-1", Phases: phases})
	phases[0] = "changed by the caller"
	if !slices.Equal(s.Runs[0].Phases, []string{"plan", "build"}) {
		t.Fatalf("phases %v", s.Runs[0].Phases)
	}
}
