package session

import (
	"strings"
	"testing"

	"github.com/saverd/saverd/state"
	"github.com/saverd/saverd/state/view"
)

// TestRelapseWithdrawsTheCredit is the whole story through the daemon: a steer, a narrower run that
// settles it (credited, with its toast), then the whole suite again two turns later: the card is back as
// `relapsed · …`, the saved figure goes back down, and a toast says why.
func TestRelapseWithdrawsTheCredit(t *testing.T) {
	h := newHarness(t, nil)
	h.cards(threeFindings())
	h.saver("fix 1 run only the auth tests")
	h.turnComplete(map[string]any{"at": 16_000})
	h.turnStart(17_000)
	h.host.reset()
	h.tool(18_000, ev("Bash", "command", "bun test auth"), map[string]any{"text": "3 pass"})
	if got := h.host.texts(NotifyToast); len(got) != 1 || !strings.HasSuffix(got[0], "context saved") {
		t.Fatalf("settling toasts = %q", got)
	}
	saved := h.st().Saved
	if saved.Chars <= 0 {
		t.Fatalf("saved %+v after the narrower run", saved)
	}
	h.turnComplete(map[string]any{"at": 19_000})
	h.turnStart(20_000)
	h.turnComplete(map[string]any{"at": 21_000})
	h.turnStart(22_000)
	h.host.reset()
	h.tool(23_000, ev("Bash", "command", "bun test"), map[string]any{"text": strings.Repeat("212 pass\n", 500)})
	want := `ContextSaver: back after it was fixed — "` + suiteKind + `"; its credit is withdrawn (−~0.6% context)`
	if got := h.host.texts(NotifyToast); len(got) != 1 || got[0] != want {
		t.Fatalf("relapse toasts = %q, want %q", got, want)
	}
	st := h.st()
	p := st.PatternByID("execution:full-suite")
	if st.Saved != (state.Saved{}) || p.Ignored != 1 || len(st.Cards) == 0 || st.Cards[0] != p.ID {
		t.Fatalf("after the relapse: saved %+v, ignored %d, cards %v", st.Saved, p.Ignored, st.Cards)
	}
	var pane view.PaneModel
	h.callInto("view.pane", map[string]any{"sessionId": "s"}, &pane)
	// Back in the queue it takes the next number: the two cards still open keep theirs.
	last := pane.Wasters[len(pane.Wasters)-1]
	if last.Kind != "relapsed · "+suiteKind || last.N != 4 || pane.Wasters[0].N != 2 || pane.Header.SavedPct != 0 {
		t.Fatalf("pane: last card %d %q, first numbered %d, saved %v%%", last.N, last.Kind, pane.Wasters[0].N, pane.Header.SavedPct)
	}
}
