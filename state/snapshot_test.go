package state_test

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/saverd/saverd/state"
	"github.com/saverd/saverd/state/internal/statetest"
)

// snapshotAction is action i of a session that grows loops past LoopCap, folds distinct keys past
// FoldedCap, completes turns and decides patterns: every kind of in-place edit a snapshot must follow.
func snapshotAction(s *state.State, i int) state.Action {
	switch {
	case i%97 == 0:
		return state.TurnStart{Now: int64(i) * 1_000}
	case i%97 == 50:
		ctx := int64(40_000 + i)
		return state.TurnComplete{Stat: state.TurnStat{Input: 100, Output: 10, Ms: 900, At: int64(i)*1_000 + 500, Ended: state.EndAnswer, Context: &ctx}}
	case i%211 == 7:
		return state.Decide{PatternID: s.Patterns[i%len(s.Patterns)].ID, Choice: state.Fix}
	case i%13 == 0:
		return state.LoopTurn{AgentID: statetest.LoopID(i % (state.LoopCap + 40)), Turn: s.Turn, Ms: 5, Tokens: state.Tokens{Input: 3}, Ended: state.EndAnswer}
	case i%53 == 0:
		return state.AgentStart{AgentID: fmt.Sprintf("late-%d", i), Description: "explore"}
	}
	r := statetest.SessionRow(500_000+i, s.Turn)
	if i%8 != 0 {
		r.Key = fmt.Sprintf("grep:distinct-%d", i) // past FoldedCap once enough fold, so it trims
	}
	return state.AddRow{Row: r}
}

// TestSnapshotIsClone: what a snapshot brought up to date in place resumes to equals a Clone taken at
// the same moment, at every interval, across the caps; and later actions on the state do not change it.
func TestSnapshotIsClone(t *testing.T) {
	for _, every := range []int{1, 7, 256, 1000} {
		t.Run(fmt.Sprint(every), func(t *testing.T) {
			s := statetest.FullSession(t)
			frozen, snap := s.Clone(), s.Snapshot() // the first is a Clone; the rest bring it up to date
			for i := 1; i <= 6_000; i++ {
				state.Reduce(s, snapshotAction(s, i))
				if i%every != 0 {
					continue
				}
				if every == 1 && i%17 != 0 { // a snapshot per action, compared now and then (a compare is slow)
					frozen, snap = nil, s.Snapshot()
					continue
				}
				// The actions since the last snapshot must not have reached it: resumed, it is as it was.
				if got := state.ResumeFrom(snap, s).Clone(); frozen != nil && !reflect.DeepEqual(got, frozen) {
					statetest.SameJSON(t, fmt.Sprintf("the snapshot before action %d, resumed after it", i), got, frozen)
					t.Fatalf("actions up to %d changed the snapshot before them", i)
				}
				frozen, snap = s.Clone(), s.Snapshot()
				if got := state.ResumeFrom(snap, s).Clone(); !reflect.DeepEqual(got, frozen) {
					statetest.SameJSON(t, fmt.Sprintf("snapshot after %d actions", i), got, frozen)
					t.Fatalf("snapshot after %d actions differs from a clone", i)
				}
			}
			if len(s.Folded) < state.FoldedCap/2 || s.Loops[0].ID == statetest.LoopID(0) {
				t.Fatalf("the session never reached the caps: folded %d, first loop %s", len(s.Folded), s.Loops[0].ID)
			}
		})
	}
}

// TestResumeFrom: a state resumed from a snapshot and reduced as the original was equals it, and its
// snapshot is the same snapshot brought up to date.
func TestResumeFrom(t *testing.T) {
	s := statetest.FullSession(t)
	snap := s.Snapshot()
	for i := 1; i <= 300; i++ {
		state.Reduce(s, snapshotAction(s, i))
	}
	r := state.ResumeFrom(snap, s)
	for i := 1; i <= 300; i++ {
		state.Reduce(r, snapshotAction(r, i))
	}
	if !reflect.DeepEqual(r.Clone(), s.Clone()) {
		t.Fatal("the resumed state replayed differs from the original")
	}
	frozen := r.Clone()
	got := r.Snapshot()
	if got != snap || !reflect.DeepEqual(state.ResumeFrom(got, r).Clone(), frozen) {
		t.Fatalf("the resumed state's snapshot is not its snapshot brought up to date (same value: %v)", got == snap)
	}
}

// TestSnapshotAcrossReset: a reset (every field started over, the folded map replaced) between a
// snapshot and the rollback to it still resumes to the state the snapshot was taken of.
func TestSnapshotAcrossReset(t *testing.T) {
	s := statetest.FullSession(t)
	_ = s.Snapshot()
	for i := 1; i <= 40; i++ {
		state.Reduce(s, snapshotAction(s, i))
	}
	frozen := s.Clone()
	snap := s.Snapshot()
	for i := 41; i <= 60; i++ {
		state.Reduce(s, snapshotAction(s, i))
	}
	state.Reduce(s, state.Reset{})
	for i := 1; i <= 2_300; i++ { // past RowCap again, so the new folded map is written too
		state.Reduce(s, state.AddRow{Row: statetest.SessionRow(900_000+i, s.Turn)})
	}
	if len(s.Folded) == 0 {
		t.Fatal("nothing folded after the reset")
	}
	if got := state.ResumeFrom(snap, s).Clone(); !reflect.DeepEqual(got, frozen) {
		statetest.SameJSON(t, "resumed across a reset", got, frozen)
		t.Fatal("resumed across a reset differs from the state the snapshot was taken of")
	}
	after := s.Clone()
	if got := state.ResumeFrom(s.Snapshot(), s).Clone(); !reflect.DeepEqual(got, after) {
		t.Fatal("the snapshot after a reset differs from a clone")
	}
}

func BenchmarkSnapshot(b *testing.B) {
	s := statetest.FullSession(b)
	_ = s.Snapshot()
	rows := benchRows(func(i int) string { return statetest.LoopID(i % state.LoopCap) })
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		b.StopTimer()
		for range 256 { // the actions between two of the daemon's snapshots
			state.Reduce(s, state.AddRow{Row: rows[i%len(rows)]})
			i++
		}
		b.StartTimer()
		_ = s.Snapshot()
	}
}
