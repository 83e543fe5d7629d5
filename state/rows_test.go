package state_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/saverd/saverd/state"
	"github.com/saverd/saverd/state/internal/statetest"
)

func TestFoldKeepsTotals(t *testing.T) {
	s := state.New("/w", 200_000)
	var count int
	var ms, chars int64
	var asks, errs int
	for i := 1; i <= state.RowCap+100; i++ {
		r := statetest.Call(fmt.Sprintf("r%d", i), fmt.Sprintf("test:k%d", i%13), state.ClassTest, 1+i/100, int64(i), int64(3*i))
		if i%7 == 0 {
			r.Flags = []string{"ask", "err"}
		}
		if i%7 == 0 {
			asks++
			errs++
		}
		state.Reduce(s, state.AddRow{Row: r})
		count++
		ms += r.Ms
		chars += r.Chars
	}
	if len(s.Rows) != state.RowCap || s.Rows[0].Seq != 101 || s.Rows[state.RowCap-1].Seq != state.RowCap+100 || s.Seq != state.RowCap+100 {
		t.Fatalf("rows %d from seq %d to %d", len(s.Rows), s.Rows[0].Seq, s.Rows[len(s.Rows)-1].Seq)
	}
	var folded state.Folded
	for _, f := range s.Folded {
		folded.Count += f.Count
		folded.Ms += f.Ms
		folded.Chars += f.Chars
		folded.Flags.Ask += f.Flags.Ask
		folded.Flags.Err += f.Flags.Err
		if f.FirstTurn < 1 || f.LastTurn > 2 || f.FirstTurn > f.LastTurn {
			t.Fatalf("fold %+v spans the wrong turns", f)
		}
	}
	sum := state.SumOf(s.Rows)
	if folded.Count != 100 || folded.Count+len(s.Rows) != count || folded.Ms+sum.Ms != ms || folded.Chars+sum.Chars != chars {
		t.Fatalf("folded %+v + rows %+v, want %d calls %d ms %d chars", folded, sum, count, ms, chars)
	}
	var rowAsks int
	for i := range s.Rows {
		if s.Rows[i].HasFlag("ask") {
			rowAsks++
		}
	}
	if folded.Flags.Ask+rowAsks != asks || folded.Flags.Err+rowAsks != errs {
		t.Fatalf("flags %+v + %d, want %d", folded.Flags, rowAsks, asks)
	}
	if time := state.SinksOf(s.Rows, s.Folded, state.MeasureMs); time.Total != ms {
		t.Fatalf("time total %d, want %d", time.Total, ms)
	}
}

func TestAdopt(t *testing.T) {
	s := statetest.Judged(t)
	state.Reduce(s, state.Decide{PatternID: "execution:full-suite", Choice: state.FixWithNote, Text: new("x")})
	state.Reduce(s, state.Adopt{Rows: []state.Row{
		statetest.Call("h1", statetest.SuiteKey, state.ClassTest, 3, 0, 10),
		statetest.Call("h2", "git:git log", state.ClassGit, 5, 0, 10),
		statetest.Call("h1", statetest.SuiteKey, state.ClassTest, 1, 0, 10),
	}})
	if s.Seq != 5 || s.Turn != 5 || s.Judge.LastAtSeq != 5 {
		t.Fatalf("seq %d turn %d lastAtSeq %d, want 5 5 5", s.Seq, s.Turn, s.Judge.LastAtSeq)
	}
	var seqs []int
	for _, r := range s.Rows[2:] {
		seqs = append(seqs, r.Seq)
	}
	p := s.PatternByID("execution:full-suite")
	if !slices.Equal(seqs, []int{3, 4, 5}) || !slices.Equal(p.Hits, []string{"r1", "r2", "h1"}) {
		t.Fatalf("seqs %v hits %v", seqs, p.Hits)
	}
	// History settles nothing, even a repeat after the decision's turn.
	if p.Ignored != 0 || p.OpenedAtTurn == nil || s.Saved != (state.Saved{}) || len(s.Cards) != 0 {
		t.Fatalf("adopted rows settled %+v", p)
	}
	state.Reduce(s, state.Adopt{Rows: nil})
	if s.Seq != 5 || s.Turn != 5 {
		t.Fatalf("an empty adoption moved seq %d turn %d", s.Seq, s.Turn)
	}
}

func TestTurnCompleteCountsCalls(t *testing.T) {
	s := state.New("/w", 1_000)
	state.Reduce(s, state.TurnStart{Now: 1_000})
	state.Reduce(s, state.AddRow{Row: statetest.Call("a", "x", state.ClassOther, 1, 1, 1)})
	state.Reduce(s, state.AddRow{Row: statetest.Call("b", "x", state.ClassOther, 0, 1, 1)}) // a call from an earlier turn is not this turn's
	state.Reduce(s, state.TurnComplete{Stat: state.TurnStat{Turn: 9, Calls: 9, At: 5_000, Ended: state.EndAnswer}})
	state.Reduce(s, state.TurnStart{Now: 4_000}) // before the completion: the wait is never negative
	state.Reduce(s, state.TurnComplete{Stat: state.TurnStat{At: 0}})
	state.Reduce(s, state.TurnStart{Now: 9_000}) // an undated turn gets no wait
	if got := s.Turns; len(got) != 2 || got[0].Turn != 1 || got[0].Calls != 1 || got[0].IdleMs != 0 || got[1].Turn != 2 || got[1].IdleMs != 0 {
		t.Fatalf("turns %+v", got)
	}
	state.Reduce(s, state.TurnComplete{Stat: state.TurnStat{At: 10_000}})
	state.Reduce(s, state.TurnStart{Now: 12_500})
	if idle := s.Turns[2].IdleMs; idle != 2_500 {
		t.Fatalf("idle %d, want 2500", idle)
	}
}

// The mutation rule: a clone never sees a later Reduce on the original, nor the original one on the clone.
func TestCloneIsolation(t *testing.T) {
	s := steered(t)
	s.Rows = append(make([]state.Row, 0, 64), s.Rows...) // spare capacity both would append into
	s.Patterns[0].Hits = append(make([]string, 0, 64), s.Patterns[0].Hits...)
	c := s.Clone()
	state.Reduce(s, state.AddRow{Row: statetest.Call("mine", statetest.SuiteKey, state.ClassTest, 1, 1, 1)})
	state.Reduce(c, state.AddRow{Row: statetest.Call("theirs", statetest.SuiteKey, state.ClassTest, 1, 1, 1)})
	state.Reduce(s, state.StandingAdd{Text: "s"})
	state.Reduce(c, state.StandingAdd{Text: "c"})
	state.Reduce(s, state.NotesDrained{})
	if s.Rows[2].ID != "mine" || c.Rows[2].ID != "theirs" {
		t.Fatalf("rows %s / %s", s.Rows[2].ID, c.Rows[2].ID)
	}
	if h := s.Patterns[0].Hits; h[len(h)-1] != "mine" {
		t.Fatalf("original hits %v", h)
	}
	if h := c.Patterns[0].Hits; h[len(h)-1] != "theirs" {
		t.Fatalf("clone hits %v", h)
	}
	if s.Standing[len(s.Standing)-1] != "s" || c.Standing[len(c.Standing)-1] != "c" || len(c.Notes) != 1 {
		t.Fatalf("standing %v / %v notes %v", s.Standing, c.Standing, c.Notes)
	}
	// A full ledger moving forward never disturbs a clone's view of it.
	full := statetest.FullSession(t)
	snap := full.Clone()
	first, last := snap.Rows[0].ID, snap.Rows[state.RowCap-1].ID
	for i := range 3 * state.RowCap {
		state.Reduce(full, state.AddRow{Row: statetest.SessionRow(5_000_000+i, 60)})
	}
	if snap.Rows[0].ID != first || snap.Rows[state.RowCap-1].ID != last || len(snap.Rows) != state.RowCap {
		t.Fatal("the clone's ledger changed")
	}
}

func TestReducerIndexSurvivesOutsideChanges(t *testing.T) {
	s := steered(t)
	state.Reduce(s, state.TurnStart{Now: 2})
	state.Reduce(s, state.AddRow{Row: statetest.Call("lint", "lint:x", state.ClassLint, 2, 1, 1)}) // builds the row index
	// A ledger replaced behind the reducer's back (as a JSON decode or a test would) is re-indexed.
	s.Rows = append([]state.Row(nil), s.Rows...)
	s.Rows[0].Cls = state.ClassBuild // the first cited call now reads as a build
	state.Reduce(s, state.AddRow{Row: statetest.Call("b", "build:make", state.ClassBuild, 2, 1, 1)})
	if s.PatternByID("execution:full-suite").OpenedAtTurn != nil {
		t.Fatal("the stale index read the old class")
	}
	// Two loops with one id (never made by the reducer) both grow, as ContextSaver's map over the loops.
	s.Loops = []state.Loop{{ID: "x"}, {ID: "x"}}
	state.Reduce(s, state.LoopTurn{AgentID: "x", Ms: 5, Ended: state.EndAnswer})
	if s.Loops[0].Ms != 5 || s.Loops[1].Ms != 5 {
		t.Fatalf("loops %+v", s.Loops)
	}
}

func TestPointerActions(t *testing.T) {
	s := state.New("/w", 1)
	state.Reduce(s, &state.AddRow{Row: statetest.Call("a", "x", state.ClassOther, 0, 1, 1)})
	state.Reduce(s, (*state.AddRow)(nil))
	state.Reduce(s, nil)
	state.Reduce(nil, state.AddRow{})
	if len(s.Rows) != 1 {
		t.Fatalf("rows %d", len(s.Rows))
	}
}
