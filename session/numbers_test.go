package session

import (
	"strings"
	"testing"
)

// TestCardNumbersHoldWhileOpen: a number a reply printed keeps meaning that card while it is open. The
// suite's card is 1; a later check finds the grep habit, which takes 2 (the seed put it first and
// renumbered the suite's 2); `/saver fix 1` fixes the suite's card, and 1 is then no card at all, while
// the grep card stays 2.
func TestCardNumbersHoldWhileOpen(t *testing.T) {
	h := newHarness(t, nil)
	h.cards(reply(suiteFinding(nil)))
	h.host.queue(reply(suiteFinding(nil), finding("reading:grep-again", grepKind, grepAlt, []string{"r8", "r9"}, nil, nil)))
	if got := h.saver("check"); got != checkingText {
		t.Fatalf("/saver check = %q", got)
	}
	h.srv.Quiesce()
	for _, c := range []struct{ args, want string }{
		{"fix 1", `ContextSaver: card 1 — "` + suiteKind + `" · fixed`},
		{"fix 1", "ContextSaver: no card 1 (2)"},
		{"ignore 3", "ContextSaver: no card 3 (2)"},
		{"ignore 2", `ContextSaver: card 2 — "` + grepKind + `" · ignored`},
		{"fix 2", "ContextSaver: nothing to decide on"},
	} {
		if got := h.saver(c.args); !strings.HasPrefix(got, c.want) {
			t.Fatalf("/saver %s = %q, want %q", c.args, got, c.want)
		}
	}
}
