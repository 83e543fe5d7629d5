package textview

import (
	"strings"
	"testing"

	"github.com/saverd/saverd/state/view"
)

// TestCardSaysWhatItLeavesOut: a card counts every cited call and shows the newest three; one that cites
// more says so, one that shows all says nothing more.
func TestCardSaysWhatItLeavesOut(t *testing.T) {
	ev := view.Evidence{Turn: 1, What: "npm run build", Ms: 300, Chars: 4_000, Head: "built"}
	for _, c := range []struct {
		calls int
		want  string
	}{{4, "(the newest 3 of 4 shown)"}, {3, ""}} {
		card := view.Card{PatternID: "execution:rerun", N: 1, Category: "execution", Kind: "Claude keeps re-running the build",
			Stats: "4×", Total: view.CardTotal{Unit: "calls", Calls: c.calls}, Evidence: []view.Evidence{ev, ev, ev}}
		text := strings.Join(wasters(view.PaneModel{Wasters: []view.Card{card}}, 100, "/saver"), "\n")
		if got := strings.Contains(text, " shown)"); got != (c.want != "") || !strings.Contains(text, c.want) {
			t.Errorf("%d cited, 3 shown:\n%s\nwant %q", c.calls, text, c.want)
		}
	}
}
