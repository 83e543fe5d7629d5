package rules

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/saverd/saverd/state"
	"github.com/saverd/saverd/state/internal/statetest"
)

func lgRawString(t *testing.T, raw json.RawMessage) *string {
	t.Helper()
	var s *string
	if err := json.Unmarshal(raw, &s); err != nil {
		t.Fatal(err)
	}
	return s
}

func TestRulesOracle(t *testing.T) {
	for _, fn := range []string{"bulletOf", "bulletOnly", "appendedTo", "render", "mergeSettings"} {
		for _, c := range statetest.RulesOracle(t, fn) {
			var got any
			switch fn {
			case "bulletOf":
				got = BulletOf(*lgRawString(t, c.Args[0]))
			case "bulletOnly":
				got = BulletOnly(*lgRawString(t, c.Args[0]))
			case "appendedTo":
				got = AppendedTo(lgRawString(t, c.Args[0]), *lgRawString(t, c.Args[1]))
			case "render":
				var p state.Proposal
				if err := json.Unmarshal(c.Args[1], &p); err != nil {
					t.Fatal(err)
				}
				path, content, mode := Render(state.ArtifactKind(*lgRawString(t, c.Args[0])), p, *lgRawString(t, c.Args[2]), "habit:pat-id")
				got = map[string]any{"path": path, "content": content, "mode": mode}
			case "mergeSettings":
				out, err := MergeSettings(lgRawString(t, c.Args[0]), *lgRawString(t, c.Args[1]))
				if err != nil {
					t.Errorf("MergeSettings(%s): %v", c.Args[0], err)
					continue
				}
				got = out
			}
			if !reflect.DeepEqual(got, c.Want) {
				t.Errorf("%s(%s)\n got  %q\n want %q (%s)", fn, c.Args, got, c.Want, c.Fix)
			}
		}
	}
}

func TestRulesBullets(t *testing.T) {
	cases := map[string]string{
		"Run tests once":        "- Run tests once\n",
		"- already a bullet":    "- already a bullet\n",
		"* star":                "- star\n",
		"  multi\n line\tbody ": "- multi line body\n",
	}
	for body, want := range cases {
		if got := BulletOf(body); got != want {
			t.Errorf("BulletOf(%q) = %q; want %q", body, got, want)
		}
	}
	if got := BulletOnly("\n## ContextSaver\n- rule\n"); got != "- rule\n" {
		t.Errorf("BulletOnly = %q", got)
	}
	if got := BulletOnly("no bullet"); got != "no bullet" {
		t.Errorf("BulletOnly without a bullet = %q", got)
	}
}

func TestRulesAppendedTo(t *testing.T) {
	content := "\n## ContextSaver\n- New rule\n"
	cases := []struct {
		rule     string
		existing *string
		want     string
	}{
		{"a brand-new file opens on the heading", nil, "## ContextSaver\n- New rule\n"},
		{"an empty file too", new(""), "## ContextSaver\n- New rule\n"},
		{"an existing file keeps the blank line before it", new("# Project\n"), "# Project\n\n## ContextSaver\n- New rule\n"},
		{"never glued to a line", new("# Project"), "# Project\n\n## ContextSaver\n- New rule\n"},
		{"under the heading at the end", new("# P\n## ContextSaver\n- old"), "# P\n## ContextSaver\n- old\n- New rule\n"},
		// A difference from ContextSaver (protocol.md): the end of the ContextSaver section, not of the file.
		{"before the next section", new("# P\n\n## ContextSaver\n- old\n\n## Other\n- theirs\n"), "# P\n\n## ContextSaver\n- old\n- New rule\n\n## Other\n- theirs\n"},
		{"before a level-1 heading", new("## ContextSaver\n- old\n# Next\n"), "## ContextSaver\n- old\n- New rule\n# Next\n"},
		{"a level-3 heading stays inside", new("## ContextSaver\n- old\n### Sub\n- s\n\n## Other\n"), "## ContextSaver\n- old\n### Sub\n- s\n- New rule\n\n## Other\n"},
		{"an empty section", new("## ContextSaver\n\n## Other\n"), "## ContextSaver\n- New rule\n\n## Other\n"},
		{"a # in a code fence is no heading", new("## ContextSaver\n- old\n```sh\n# comment\n```\n## Other\n"), "## ContextSaver\n- old\n```sh\n# comment\n```\n- New rule\n## Other\n"},
		{"trailing whitespace on the heading", new("## ContextSaver  \r\n- old\r\n## Other\r\n"), "## ContextSaver  \r\n- old\r\n- New rule\r\n## Other\r\n"},
		{"the heading in prose is no section", new("see ## ContextSaver\n"), "see ## ContextSaver\n\n## ContextSaver\n- New rule\n"},
	}
	for _, c := range cases {
		if got := AppendedTo(c.existing, content); got != c.want {
			t.Errorf("%s:\n got  %q\n want %q", c.rule, got, c.want)
		}
	}
}

func TestRulesRender(t *testing.T) {
	path, content, mode := Render(state.ArtifactClaudeMD, state.Proposal{Kind: state.ArtifactClaudeMD, Title: "T", Body: "- Run  it\nonce"}, "/w", "p:x")
	if path != "/w/CLAUDE.md" || content != "\n## ContextSaver\n- Run it once\n" || mode != ModeAppend {
		t.Errorf("claude-md: %q %q %q", path, content, mode)
	}
	path, content, mode = Render(state.ArtifactSkill, state.Proposal{Title: "Run the Tests!", Body: "\n Do x. \n"}, "/w", "p:x")
	if path != "/w/.claude/skills/run-the-tests/SKILL.md" || mode != ModeWrite ||
		content != "---\nname: \"run-the-tests\"\ndescription: \"Run the Tests!\"\n---\n\nDo x.\n" {
		t.Errorf("skill: %q %q %q", path, content, mode)
	}
	// The frontmatter is saverd's own: the judge's model: and tools: lines are dropped; values as JSON
	// strings, no HTML escaping.
	_, content, _ = Render(state.ArtifactAgentBrief, state.Proposal{Title: `Tester <"a"> & b`, Body: "model: haiku\nTOOLS:  Read,  Bash \nYou test.\n\nmodel: stays"}, "/w", "p:x")
	want := "---\nname: \"tester-a-b\"\ndescription: \"Tester <\\\"a\\\"> & b\"\ntools: \"Read, Grep, Glob\"\n---\n\nYou test.\n\nmodel: stays\n"
	if content != want {
		t.Errorf("brief:\n got  %q\n want %q", content, want)
	}
	_, content, _ = Render(state.ArtifactAgentBrief, state.Proposal{Title: "B", Body: "model: \nDo."}, "/w", "p:x")
	if !strings.Contains(content, `tools: "Read, Grep, Glob"`) || strings.Contains(content, "model: \"") {
		t.Errorf("brief defaults: %q", content)
	}
	path, content, mode = Render(state.ArtifactSettingsAllow, state.Proposal{Title: "Allow", Body: "Bash(npm test:*)"}, "/w", "p:x")
	if path != "/w/.claude/settings.json" || content != "Bash(npm test:*)" || mode != ModeMergeSettings {
		t.Errorf("settings: %q %q %q", path, content, mode)
	}
	// A difference from ContextSaver (protocol.md): an empty slug falls back to the pattern id's, then to the kind.
	path, content, _ = Render(state.ArtifactSkill, state.Proposal{Title: "!!!", Body: "b"}, "/w", "execution:re-runs")
	if path != "/w/.claude/skills/execution-re-runs/SKILL.md" || !strings.Contains(content, `name: "execution-re-runs"`) {
		t.Errorf("slug fallback: %q %q", path, content)
	}
	if path, _, _ = Render(state.ArtifactAgentBrief, state.Proposal{Title: "!!!", Body: "b"}, "/w", "!!!"); path != "/w/.claude/agents/agent-brief.md" {
		t.Errorf("last-resort slug: %q", path)
	}
	if path, _, _ = Render(state.ArtifactSkill, state.Proposal{Title: strings.Repeat("ab ", 30), Body: "b"}, "/w", ""); strings.Contains(path, "-/") {
		t.Errorf("slug ends in a hyphen: %q", path)
	}
}

func TestRulesMergeSettings(t *testing.T) {
	rule := "Bash(npm test:*)"
	cases := []struct {
		name     string
		existing *string
		want     string
	}{
		{"no file", nil, "{\n  \"permissions\": {\n    \"allow\": [\n      \"Bash(npm test:*)\"\n    ]\n  }\n}\n"},
		{"empty file", new(" \n"), "{\n  \"permissions\": {\n    \"allow\": [\n      \"Bash(npm test:*)\"\n    ]\n  }\n}\n"},
		{"keeps every other setting in its place", new(`{"z":1.0,"permissions":{"deny":["a"],"allow":["Bash(ls)"]},"env":{"A":"<&>\u2028"},"a":[]}`),
			"{\n  \"z\": 1,\n  \"permissions\": {\n    \"deny\": [\n      \"a\"\n    ],\n    \"allow\": [\n      \"Bash(ls)\",\n      \"Bash(npm test:*)\"\n    ]\n  },\n  \"env\": {\n    \"A\": \"<&>\u2028\"\n  },\n  \"a\": []\n}\n"},
		{"idempotent", new(`{"permissions":{"allow":["Bash(npm test:*)"]}}`), "{\n  \"permissions\": {\n    \"allow\": [\n      \"Bash(npm test:*)\"\n    ]\n  }\n}\n"},
		{"a BOM is dropped (a difference from ContextSaver)", new("\uFEFF{\"model\":\"opus\"}"), "{\n  \"model\": \"opus\",\n  \"permissions\": {\n    \"allow\": [\n      \"Bash(npm test:*)\"\n    ]\n  }\n}\n"},
		{"a duplicate key keeps its first place and last value", new(`{"a":1,"b":2,"a":3}`), "{\n  \"a\": 3,\n  \"b\": 2,\n  \"permissions\": {\n    \"allow\": [\n      \"Bash(npm test:*)\"\n    ]\n  }\n}\n"},
		{"a non-object permissions is replaced, as ContextSaver did", new(`{"permissions":"x"}`), "{\n  \"permissions\": {\n    \"allow\": [\n      \"Bash(npm test:*)\"\n    ]\n  }\n}\n"},
	}
	for _, c := range cases {
		got, err := MergeSettings(c.existing, rule)
		if err != nil || got != c.want {
			t.Errorf("%s:\n got  %q (%v)\n want %q", c.name, got, err, c.want)
			continue
		}
		again, err := MergeSettings(&got, rule)
		if err != nil || again != got {
			t.Errorf("%s: a second merge changed the file:\n%q", c.name, again)
		}
	}
	// A difference from ContextSaver (protocol.md): a file that does not parse is never overwritten.
	for _, bad := range []string{"{\n  // my settings\n  \"model\": \"opus\"\n}", "\uFEFF{\"a\":", `{"a":1} x`, `[1,2]`, `"str"`, `null`,
		`{"a":` + strings.Repeat("[", 100_000) + strings.Repeat("]", 100_000) + `}`} {
		got, err := MergeSettings(&bad, rule)
		if err == nil || got != "" {
			t.Errorf("MergeSettings(%q) = %q, %v; want a refusal", bad, got, err)
			continue
		}
		msg := err.Error()
		if !strings.Contains(msg, ".claude/settings.json") || !strings.Contains(msg, "not changed") || !strings.Contains(msg, `"Bash(npm test:*)"`) {
			t.Errorf("refusal says %q", msg)
		}
	}
}

// lgProposeState is a session with rows r1…r7 of 1000·i chars each and the given patterns.
func lgProposeState(window int64, patterns ...state.Pattern) *state.State {
	s := state.New("/w", window)
	for i := 1; i <= 7; i++ {
		s.Rows = append(s.Rows, state.Row{Seq: i, ID: fmt.Sprintf("r%d", i), Tool: "Bash", Key: "test:npm test", Cls: state.ClassTest, Agent: state.MainAgent, Turn: 1, Ms: 100, Chars: int64(1000 * i), Flags: []string{}, Paths: []string{}})
	}
	s.Patterns = patterns
	return s
}

func lgDecided(id string, c *state.Choice, hits ...string) state.Pattern {
	p := state.Pattern{StoredPattern: state.StoredPattern{ID: id, Category: "execution", Kind: "reruns the suite", Alternative: "Run only the failing test, then the suite once."}, Hits: hits, Decision: c}
	return p
}

func TestRulesPropose(t *testing.T) {
	kill, steer, keep := new(state.Fix), new(state.FixWithNote), new(state.Ignore)
	withInstruction := lgDecided("execution:b", steer, "r5", "r6", "r7")
	withInstruction.Instruction = new("Only run x; then y.")
	s := lgProposeState(200_000, lgDecided("execution:a", kill, "r1", "r2"), withInstruction, lgDecided("execution:c", keep, "r7"), lgDecided("execution:d", nil, "r7"))
	got := Propose(s)
	want := []Artifact{
		{PatternID: "execution:b", Kind: state.ArtifactClaudeMD, Title: "Only run x", Path: "/w/CLAUDE.md", Content: "\n## ContextSaver\n- Only run x; then y.\n", SavingPct: 2.3, Mode: ModeAppend, Basis: SavingBasis},
		{PatternID: "execution:a", Kind: state.ArtifactClaudeMD, Title: "Run only the failing test", Path: "/w/CLAUDE.md", Content: "\n## ContextSaver\n- Run only the failing test, then the suite once.\n", SavingPct: 0.6, Mode: ModeAppend, Basis: SavingBasis},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Propose:\n got  %+v\n want %+v", got, want)
	}
	// Nothing written twice; ties keep pattern order; an Ignore proposes nothing even with a proposal.
	ignored := lgDecided("execution:i", keep, "r7")
	ignored.Proposal = &state.Proposal{Kind: state.ArtifactSkill, Title: "S", Body: "b"}
	s = lgProposeState(200_000, lgDecided("execution:a", kill, "r1", "r2"), lgDecided("execution:b", kill, "r1", "r2"), lgDecided("execution:c", kill, "r4"), ignored)
	s.Written = []string{"execution:a:claude-md"}
	ids := []string{}
	for _, a := range Propose(s) {
		ids = append(ids, fmt.Sprintf("%s %.1f", a.PatternID, a.SavingPct))
	}
	if want := []string{"execution:c 1.5", "execution:b 0.6"}; !reflect.DeepEqual(ids, want) {
		t.Errorf("written/ties/ignore: %v; want %v", ids, want)
	}
	// A process finding grants no permission: its lasting line is the lean way; other proposals stand.
	process := lgDecided("process:a", steer, "r3")
	process.Lean = new("Plan lean.")
	process.Proposal = &state.Proposal{Kind: state.ArtifactSettingsAllow, Title: "Allow", Body: "Bash(npm test:*)"}
	skill := lgDecided("execution:s", kill, "r1")
	skill.Proposal = &state.Proposal{Kind: state.ArtifactSkill, Title: "!!!", Body: "Run it."}
	empty := lgDecided("execution:e", steer)
	empty.Alternative = "."
	got = Propose(lgProposeState(200_000, process, skill, empty))
	if len(got) != 3 || got[0].Title != "Plan lean" || got[0].Kind != state.ArtifactClaudeMD ||
		got[1].Path != "/w/.claude/skills/execution-s/SKILL.md" || got[2].Title != "execution:e" || got[2].SavingPct != 0 {
		t.Errorf("process/skill/empty: %+v", got)
	}
	if got := Propose(state.New("/w", 1000)); got == nil || len(got) != 0 {
		t.Errorf("no patterns: %#v", got)
	}
}

// TestRulesForCodex: a Codex session's rules are AGENTS.md bullets: a CLAUDE.md line moves file, a
// skill, brief or permission becomes the pattern's own line; one written already is not offered again.
func TestRulesForCodex(t *testing.T) {
	kill := new(state.Fix)
	skill := lgDecided("execution:s", kill, "r1", "r2", "r3")
	skill.Proposal = &state.Proposal{Kind: state.ArtifactSkill, Title: "Targeted tests", Body: "Run the tests of the files you changed.\nThen the suite."}
	allow := lgDecided("execution:p", kill, "r4")
	allow.Proposal = &state.Proposal{Kind: state.ArtifactSettingsAllow, Title: "Allow", Body: "Bash(npm test:*)"}
	line := lgDecided("execution:l", kill, "r5")
	s := lgProposeState(200_000, skill, allow, line)
	got := ForCodex(s, Propose(s))
	want := []Artifact{
		{PatternID: "execution:l", Kind: state.ArtifactAgentsMD, Title: "Run only the failing test", Path: "/w/AGENTS.md", Content: "\n## ContextSaver\n- Run only the failing test, then the suite once.\n", SavingPct: 1.9, Mode: ModeAppend, Basis: SavingBasis},
		{PatternID: "execution:p", Kind: state.ArtifactAgentsMD, Title: "Run only the failing test", Path: "/w/AGENTS.md", Content: "\n## ContextSaver\n- Run only the failing test, then the suite once.\n", SavingPct: 1.5, Mode: ModeAppend, Basis: SavingBasis},
		{PatternID: "execution:s", Kind: state.ArtifactAgentsMD, Title: "Run only the failing test", Path: "/w/AGENTS.md", Content: "\n## ContextSaver\n- Run only the failing test, then the suite once.\n", SavingPct: 0.8, Mode: ModeAppend, Basis: SavingBasis},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("ForCodex:\n got  %+v\n want %+v", got, want)
	}
	s.Written = []string{"execution:l:agents-md"}
	if got := ForCodex(s, Propose(s)); len(got) != 2 || got[0].PatternID == "execution:l" || got[1].PatternID == "execution:l" {
		t.Errorf("after writing execution:l: %+v", got)
	}
}
