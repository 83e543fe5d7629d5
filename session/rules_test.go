package session

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/saverd/saverd/state"
	"github.com/saverd/saverd/state/rules"
)

// TestRuleAlreadyInTheFile: a CLAUDE.md rule the file held before the session (written by an earlier
// one, or by hand) is not offered to write and is not appended again; the pane says where it already is.
func TestRuleAlreadyInTheFile(t *testing.T) {
	cases := []struct {
		name     string
		before   string // CLAUDE.md before the session; "" none
		already  bool
		appended bool
	}{
		{name: "no file: offered and written", appended: true},
		{name: "another rule there: offered and written", before: "## ContextSaver\n- Read each file once\n", appended: true},
		{name: "the same rule there", before: "# Project\n\n## ContextSaver\n- Run only the tests covering the files you changed.\n", already: true},
		{name: "the same rule, written by hand", before: "* run only the tests covering the files you changed\n", already: true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t, nil)
			path := filepath.Join(h.cwd, "CLAUDE.md")
			if c.before != "" {
				if err := os.WriteFile(path, []byte(c.before), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			h.cards(threeFindings())
			h.saver("fix 1")
			a, ok := h.rule("execution:full-suite", state.ArtifactClaudeMD)
			if !ok || (a.Already != "") != c.already || a.Basis != rules.SavingBasis {
				t.Fatalf("rule = %+v (offered %v), want already %v", a, ok, c.already)
			}
			var text struct{ Text string }
			h.callInto("view.text", map[string]any{"sessionId": "s", "view": "pane", "width": 120}, &text)
			if got := strings.Contains(text.Text, "  already in CLAUDE.md\n"); got != c.already {
				t.Fatalf("pane says already in CLAUDE.md: %v, want %v\n%s", got, c.already, text.Text)
			}
			if offered := strings.Contains(text.Text, "RULES TO WRITE (1)\n"); offered == c.already {
				t.Fatalf("pane offers the rule to write: %v, want %v\n%s", offered, !c.already, text.Text)
			}
			h.host.reset()
			got, err := h.act("write", map[string]any{"patternId": a.PatternID, "kind": a.Kind})
			if err != nil {
				t.Fatal(err)
			}
			want := "Wrote " + path
			if c.already {
				want = "ContextSaver: already in CLAUDE.md — not written again"
			}
			if toasts := h.host.texts(NotifyToast); got != want || len(toasts) != 1 || toasts[0] != want {
				t.Fatalf("reply %q, toasts %q; want %q", got, toasts, want)
			}
			after := readFile(t, path)
			if appended := after != c.before; appended != c.appended {
				t.Fatalf("CLAUDE.md appended %v, want %v:\n%s", appended, c.appended, after)
			}
			if n := strings.Count(strings.ToLower(after), "run only the tests covering the files you changed"); n != 1 {
				t.Fatalf("the rule is in CLAUDE.md %d times:\n%s", n, after)
			}
			if _, ok := h.rule("execution:full-suite", state.ArtifactClaudeMD); ok {
				t.Fatal("the rule is still offered after it was settled")
			}
		})
	}
}
