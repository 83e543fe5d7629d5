package session

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/saverd/saverd/state"
)

// TestNoWriteEscapesThroughSymlinks: with `.claude` a symlink, rules were written wherever it pointed
// while the reply said `Wrote <cwd>/…`; a CLAUDE.md linked elsewhere was replaced by a copy of its
// target, secret and all. A path that resolves outside the session's directory is refused, saying why;
// a link that stays inside is followed, and the link kept.
func TestNoWriteEscapesThroughSymlinks(t *testing.T) {
	skill := reply(suiteFinding(map[string]any{"kind": "skill", "title": "Focused tests", "body": "Run only the tests for the files you changed."}))
	tests := []struct {
		name    string
		finding *ForkResult
		kind    state.ArtifactKind
		link    string // relative to cwd
		target  func(cwd, outside string) string
		refused bool
	}{
		{"skill through a .claude linked outside", skill, state.ArtifactSkill, ".claude",
			func(_, outside string) string { return outside }, true},
		{"settings through a .claude linked outside", settingsFinding(), state.ArtifactSettingsAllow, ".claude",
			func(_, outside string) string { return outside }, true},
		{"CLAUDE.md linked to a secret outside", threeFindings(), state.ArtifactClaudeMD, "CLAUDE.md",
			func(_, outside string) string { return filepath.Join(outside, "secret.txt") }, true},
		{"CLAUDE.md linked nowhere", threeFindings(), state.ArtifactClaudeMD, "CLAUDE.md",
			func(_, outside string) string { return filepath.Join(outside, "missing", "x.md") }, true},
		{"CLAUDE.md linked inside the project", threeFindings(), state.ArtifactClaudeMD, "CLAUDE.md",
			func(cwd, _ string) string { return filepath.Join(cwd, "docs", "CLAUDE.md") }, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, nil)
			outside := t.TempDir()
			const secret = "API_KEY=hunter2\n"
			if err := os.WriteFile(filepath.Join(outside, "secret.txt"), []byte(secret), 0o600); err != nil {
				t.Fatal(err)
			}
			target := tt.target(h.cwd, outside)
			if !tt.refused {
				if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			link := filepath.Join(h.cwd, tt.link)
			if err := os.Symlink(target, link); err != nil {
				t.Fatal(err)
			}
			h.cards(tt.finding)
			h.saver("fix 1")
			a, ok := h.rule("execution:full-suite", tt.kind)
			if !ok {
				t.Fatalf("no %s rule offered", tt.kind)
			}
			got, err := h.act("write", map[string]any{"patternId": a.PatternID, "kind": a.Kind})
			if err != nil {
				t.Fatal(err)
			}
			if tt.refused {
				if !strings.HasPrefix(got, "ContextSaver: refused to write "+a.Path+": ") || !strings.Contains(got, "outside the session's directory") && !strings.Contains(got, "points nowhere") {
					t.Fatalf("reply %q, want a refusal saying why", got)
				}
				entries, _ := os.ReadDir(outside)
				if len(entries) != 1 || readFile(t, filepath.Join(outside, "secret.txt")) != secret {
					t.Fatalf("written outside: %v", entries)
				}
				if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
					t.Fatalf("the link was replaced: %v %v", fi, err)
				}
				return
			}
			if got != "Wrote "+target {
				t.Fatalf("reply %q, want Wrote %s", got, target)
			}
			if !strings.Contains(readFile(t, target), suiteAlt) {
				t.Fatalf("target = %q", readFile(t, target))
			}
			if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
				t.Fatalf("the link was replaced by a file: %v %v", fi, err)
			}
		})
	}
}

// TestSkillNamesAreUnique: two rules whose titles slug alike wrote one SKILL.md, the second over the
// first. A file that holds another rule is never written over: the new one takes the next free name.
func TestSkillNamesAreUnique(t *testing.T) {
	h := newHarness(t, nil)
	path := filepath.Join(h.cwd, ".claude", "skills", "focused-tests", "SKILL.md")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	const earlier = "---\nname: focused-tests\n---\n\nAn earlier rule.\n"
	if err := os.WriteFile(path, []byte(earlier), 0o644); err != nil {
		t.Fatal(err)
	}
	h.cards(reply(suiteFinding(map[string]any{"kind": "skill", "title": "Focused tests!", "body": "Run only the tests for the files you changed."})))
	h.saver("fix 1")
	a, ok := h.rule("execution:full-suite", state.ArtifactSkill)
	if !ok || a.Path != path {
		t.Fatalf("rule %+v", a)
	}
	got, err := h.act("write", map[string]any{"patternId": a.PatternID, "kind": a.Kind})
	second := filepath.Join(h.cwd, ".claude", "skills", "focused-tests-2", "SKILL.md")
	if err != nil || got != "Wrote "+second {
		t.Fatalf("reply %q, %v; want Wrote %s", got, err, second)
	}
	if readFile(t, path) != earlier || !strings.Contains(readFile(t, second), "name: \"focused-tests-2\"") {
		t.Fatalf("earlier %q, second %q", readFile(t, path), readFile(t, second))
	}
}
