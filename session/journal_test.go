package session

import (
	"fmt"
	"testing"

	"github.com/saverd/saverd/state"
)

// TestRollbackKeepsTheRowsJournaled: a row added by addRow is journaled apart from the other actions
// (journalRows); a panic after rows and other actions in one event puts the session back as it was, and
// the rows journaled before it still replay in their places at the next rollback, across a snapshot.
func TestRollbackKeepsTheRowsJournaled(t *testing.T) {
	h := newHarness(t, nil)
	sess, err := h.srv.Session("s")
	if err != nil {
		t.Fatal(err)
	}
	row := func(i int) state.Row {
		return state.Row{ID: fmt.Sprintf("toolu_j%d", i), Tool: "Read", Key: fmt.Sprintf("%s/j%d.ts", h.cwd, i%7),
			Cls: state.ClassRead, Agent: state.MainAgent, Ms: int64(i), Chars: int64(10 * i)}
	}
	failing := func(i int) {
		t.Helper()
		before := h.stateJSON()
		func() {
			defer func() { _ = recover() }()
			sess.event(func() {
				sess.addRow(row(1000 + i))
				sess.dispatch(state.TurnStart{Now: int64(5000 + i)})
				sess.addRow(row(2000 + i))
				panic("mid-event")
			})
		}()
		if after := h.stateJSON(); after != before {
			t.Fatalf("event %d: the state changed across a panic:\nbefore %s\nafter  %s", i, before, after)
		}
		rows := 0
		for _, a := range sess.journal {
			if a == nil {
				rows++
			}
		}
		if rows != len(sess.journalRows) {
			t.Fatalf("event %d: %d rows journaled, %d held", i, rows, len(sess.journalRows))
		}
	}
	for i := 1; i <= snapshotEvery+40; i++ {
		sess.event(func() {
			sess.addRow(row(i))
			if i%5 == 0 {
				sess.dispatch(state.TurnStart{Now: int64(i)})
			}
		})
		if i%17 == 0 || i == snapshotEvery-1 || i == snapshotEvery {
			failing(i)
		}
	}
	want := h.stateJSON()
	failing(-1)
	if got := h.stateJSON(); got != want {
		t.Fatalf("the rows before the panic were not replayed as they were")
	}
}
