package session

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/saverd/saverd/rpc"
	"github.com/saverd/saverd/state"
	"github.com/saverd/saverd/state/rules"
	"github.com/saverd/saverd/state/view"
)

func (h *testHarness) pane() view.PaneModel {
	h.t.Helper()
	var p view.PaneModel
	h.callInto("view.pane", map[string]any{"sessionId": "s"}, &p)
	return p
}

// rule is the artifact the pane offers for a pattern and kind.
func (h *testHarness) rule(patternID string, kind state.ArtifactKind) (rules.Artifact, bool) {
	for _, a := range h.pane().Artifacts {
		if a.PatternID == patternID && a.Kind == kind {
			return a, true
		}
	}
	return rules.Artifact{}, false
}

func (h *testHarness) act(action string, artifact any) (string, error) {
	raw, err := h.callErr("ui.action", map[string]any{"sessionId": "s", "at": 60_000, "action": action, "artifact": artifact})
	if err != nil {
		return "", err
	}
	var res struct{ Text *string }
	_ = json.Unmarshal(raw, &res)
	return state.Str(res.Text), nil
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

const suiteRuleTitle = "Run only the tests covering the files you changed"

// TestWriteClaudeMD: a fixed card's rule lands in <cwd>/CLAUDE.md under `## ContextSaver` and is not
// offered again (index.ts writeArtifact 'append').
func TestWriteClaudeMD(t *testing.T) {
	for _, c := range []struct{ name, existing, want string }{
		{"new file", "", "## ContextSaver\n- " + suiteAlt + "\n"},
		{"a file without the section", "# Project\n\nSome notes.", "# Project\n\nSome notes.\n\n## ContextSaver\n- " + suiteAlt + "\n"},
		{"the section followed by another (KNOWN-ISSUES)", "# P\n\n## ContextSaver\n- older rule\n\n## Other\ntext\n", "# P\n\n## ContextSaver\n- older rule\n- " + suiteAlt + "\n\n## Other\ntext\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t, nil)
			h.cards(threeFindings())
			path := filepath.Join(h.cwd, "CLAUDE.md")
			if c.existing != "" {
				if err := os.WriteFile(path, []byte(c.existing), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if _, ok := h.rule("execution:full-suite", state.ArtifactClaudeMD); ok {
				t.Fatal("a rule offered before any decision")
			}
			h.saver("fix 1")
			a, ok := h.rule("execution:full-suite", state.ArtifactClaudeMD)
			if !ok || a.Title != suiteRuleTitle || a.Path != path {
				t.Fatalf("rule = %+v (offered %v)", a, ok)
			}
			h.host.reset()
			got, err := h.act("write", map[string]any{"patternId": a.PatternID, "kind": a.Kind})
			if err != nil || got != "Wrote "+path {
				t.Fatalf("write = %q, %v", got, err)
			}
			if toasts := h.host.texts(NotifyToast); len(toasts) != 1 || toasts[0] != "Wrote "+path {
				t.Fatalf("toasts = %q", toasts)
			}
			if text := readFile(t, path); text != c.want {
				t.Fatalf("CLAUDE.md =\n%q\nwant\n%q", text, c.want)
			}
			if _, ok := h.rule("execution:full-suite", state.ArtifactClaudeMD); ok {
				t.Fatal("a written rule is offered again")
			}
			if !slices.Contains(h.st().Written, "execution:full-suite:claude-md") {
				t.Fatalf("written = %q", h.st().Written)
			}
			// The pane offers none now: a second write is refused, never written twice.
			_, err = h.act("write", map[string]any{"patternId": a.PatternID, "kind": a.Kind})
			var rerr *rpc.Error
			if !errors.As(err, &rerr) || rerr.Code != CodeRequestFailed {
				t.Fatalf("a second write: %v", err)
			}
		})
	}
}

func settingsFinding() *ForkResult {
	return reply(suiteFinding(map[string]any{"kind": "settings-allow", "title": "Allow the focused test run", "body": "Bash(bun test:*)"}))
}

// TestWriteSettingsAllow: a permission rule is merged into .claude/settings.json, the user's settings kept;
// a settings file that is not JSON is left untouched and the reply says why (KNOWN-ISSUES mergeSettings).
func TestWriteSettingsAllow(t *testing.T) {
	cases := []struct {
		name, existing string
		want           any // the parsed file after; nil = unchanged
		reply          string
	}{
		{"no file", "", map[string]any{"permissions": map[string]any{"allow": []any{"Bash(bun test:*)"}}}, ""},
		{"merged", "\uFEFF{\"model\": \"opus\", \"permissions\": {\"allow\": [\"Read(*)\"], \"deny\": []}}",
			map[string]any{"model": "opus", "permissions": map[string]any{"allow": []any{"Read(*)", "Bash(bun test:*)"}, "deny": []any{}}}, ""},
		{"already allowed", `{"permissions": {"allow": ["Bash(bun test:*)"]}}`, map[string]any{"permissions": map[string]any{"allow": []any{"Bash(bun test:*)"}}}, ""},
		{"corrupt", "{\n  // my settings\n  \"model\": \"opus\"\n}", nil, ".claude/settings.json is not valid JSON ("},
		{"not an object", `["x"]`, nil, ".claude/settings.json is not valid JSON (not a JSON object)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t, nil)
			h.cards(settingsFinding())
			path := filepath.Join(h.cwd, ".claude", "settings.json")
			if c.existing != "" {
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, []byte(c.existing), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			h.saver("fix 1")
			a, ok := h.rule("execution:full-suite", state.ArtifactSettingsAllow)
			if !ok || a.Path != path || a.Mode != rules.ModeMergeSettings {
				t.Fatalf("rule = %+v (offered %v)", a, ok)
			}
			h.host.reset()
			got, err := h.act("write", map[string]any{"patternId": a.PatternID, "kind": a.Kind})
			if err != nil {
				t.Fatal(err)
			}
			toasts := h.host.texts(NotifyToast)
			if len(toasts) != 1 || toasts[0] != got {
				t.Fatalf("toasts = %q, reply %q", toasts, got)
			}
			if c.want == nil {
				if !strings.HasPrefix(got, c.reply) || !strings.Contains(got, "not changed") || !strings.Contains(got, `"Bash(bun test:*)"`) {
					t.Fatalf("reply = %q, want it to say why and name the rule", got)
				}
				if text := readFile(t, path); text != c.existing {
					t.Fatalf("a corrupt settings file was changed: %q", text)
				}
				if _, ok := h.rule("execution:full-suite", state.ArtifactSettingsAllow); !ok {
					t.Fatal("a rule that was not written is no longer offered")
				}
				return
			}
			if got != "Wrote "+path {
				t.Fatalf("reply = %q", got)
			}
			var v any
			text := readFile(t, path)
			if err := json.Unmarshal([]byte(text), &v); err != nil || !reflect.DeepEqual(v, c.want) {
				t.Fatalf("settings.json = %s (%v), want %v", text, err, c.want)
			}
			if c.name == "merged" && strings.Index(text, `"model"`) > strings.Index(text, `"permissions"`) {
				t.Fatalf("the user's key order was lost:\n%s", text)
			}
		})
	}
}

// TestArtifactHostPathIgnored: the daemon writes only the rule it rendered itself, at its own path under the
// cwd; a path or text the host hands over is never used.
func TestArtifactHostPathIgnored(t *testing.T) {
	h := newHarness(t, nil)
	h.cards(threeFindings())
	h.saver("fix 1")
	outside := filepath.Join(t.TempDir(), "CLAUDE.md")
	evil := map[string]any{"patternId": "execution:full-suite", "kind": "claude-md", "path": outside, "content": "evil", "mode": "write", "title": "evil"}
	got, err := h.act("write", evil)
	mine := filepath.Join(h.cwd, "CLAUDE.md")
	if err != nil || got != "Wrote "+mine {
		t.Fatalf("write = %q, %v", got, err)
	}
	if _, err := os.Stat(outside); !os.IsNotExist(err) {
		t.Fatalf("the host's path was written: %v", err)
	}
	if text := readFile(t, mine); strings.Contains(text, "evil") || !strings.Contains(text, suiteAlt) {
		t.Fatalf("CLAUDE.md = %q", text)
	}
	// A pattern with no rule to offer is refused, whatever the host sends.
	_, err = h.act("write", map[string]any{"patternId": "reading:grep-again", "kind": "claude-md", "path": outside})
	var rerr *rpc.Error
	if !errors.As(err, &rerr) || rerr.Code != CodeRequestFailed {
		t.Fatalf("a rule the pane never offered: %v", err)
	}
	if _, err := os.Stat(outside); !os.IsNotExist(err) {
		t.Fatal("the host's path was written")
	}
}

// TestTryOnceAndSkip: `tryOnce` makes the rule a standing instruction for this session, `skip` hides it;
// neither writes a file (index.ts tryArtifact, actions.skip).
func TestTryOnceAndSkip(t *testing.T) {
	h := newHarness(t, nil)
	h.cards(threeFindings())
	h.saver("fix 1")
	h.saver("fix 2") // the grep card: card 1 keeps its number while it is open, and is decided
	h.host.reset()
	got, err := h.act("tryOnce", map[string]any{"patternId": "execution:full-suite", "kind": "claude-md"})
	if err != nil || got != `Trying "`+suiteRuleTitle+`" for this session` {
		t.Fatalf("tryOnce = %q, %v", got, err)
	}
	if toasts := h.host.texts(NotifyToast); len(toasts) != 1 || toasts[0] != got {
		t.Fatalf("toasts = %q", toasts)
	}
	st := h.st()
	want := "Instruction from the user (via ContextSaver): " + suiteAlt
	if len(st.Standing) != 3 || st.Standing[2] != want {
		t.Fatalf("standing = %q, want the rule's own words last", st.Standing)
	}
	if !slices.Contains(st.Written, "execution:full-suite:claude-md") {
		t.Fatalf("written = %q", st.Written)
	}
	// A later prompt carries it.
	if ctx := h.prompt(70_000, "next", "composer"); !slices.Contains(ctx, want) {
		t.Fatalf("prompt context = %q", ctx)
	}

	h.host.reset()
	if got, err := h.act("skip", map[string]any{"patternId": "reading:grep-again", "kind": "claude-md"}); err != nil || got != "" {
		t.Fatalf("skip = %q, %v", got, err)
	}
	if arts := h.pane().Artifacts; len(arts) != 0 {
		t.Fatalf("artifacts after try and skip = %+v", arts)
	}
	if n := h.host.count(NotifyToast); n != 0 {
		t.Fatalf("skip toasted %d times", n)
	}
	if _, err := os.Stat(filepath.Join(h.cwd, "CLAUDE.md")); !os.IsNotExist(err) {
		t.Fatal("tryOnce or skip wrote CLAUDE.md")
	}
}

func TestBodyOf(t *testing.T) {
	for _, c := range []struct{ content, want string }{
		{"\n## ContextSaver\n- run once\n", "run once\n"},
		{"---\nname: x\n---\nThe prose.\n", "The prose.\n"},
		{"no frontmatter", "no frontmatter"},
	} {
		if got := bodyOf(c.content); got != c.want {
			t.Errorf("bodyOf(%q) = %q, want %q", c.content, got, c.want)
		}
	}
}
