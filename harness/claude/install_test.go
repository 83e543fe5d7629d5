package claude

import (
	"strings"
	"testing"

	"github.com/saverd/saverd/install"
	"github.com/saverd/saverd/install/installtest"
	"github.com/saverd/saverd/internal/golden"
)

const bin = "/opt/saverd/bin/saverd"

func TestMergeClaudeGolden(t *testing.T) {
	for _, c := range []struct{ name, in string }{
		{"claude-empty.json", ""},
		{"claude-foreign.json", installtest.ForeignSettings},
	} {
		t.Run(c.name, func(t *testing.T) {
			e, err := MergeSettings("settings.json", c.in, bin)
			if err != nil {
				t.Fatal(err)
			}
			golden.Check(t, c.name, e.Text)
			again, err := MergeSettings("settings.json", e.Text, bin)
			if err != nil || len(again.Changes) != 0 || again.Text != e.Text {
				t.Errorf("second install changed %v (err %v)", again.Changes, err)
			}
		})
	}
}

func TestMergeClaudeKeepsForeignStatusLine(t *testing.T) {
	e, err := MergeSettings("settings.json", installtest.ForeignSettings, bin)
	if err != nil {
		t.Fatal(err)
	}
	if len(e.Notes) != 1 || !strings.Contains(e.Notes[0], "~/bin/my-status") {
		t.Errorf("notes = %q; want one naming the kept status line", e.Notes)
	}
	if len(e.Changes) != len(events) {
		t.Errorf("changes = %d, want one per event and no status line: %q", len(e.Changes), e.Changes)
	}
}

func TestMergeClaudeMovedBinary(t *testing.T) {
	first, _ := MergeSettings("s", installtest.ForeignSettings, bin)
	moved, err := MergeSettings("s", first.Text, "/home/me/go/bin/saverd")
	if err != nil {
		t.Fatal(err)
	}
	if len(moved.Changes) != len(events) {
		t.Fatalf("changes = %q; want one update per event", moved.Changes)
	}
	for _, c := range moved.Changes {
		if !strings.HasPrefix(c, "updated ") {
			t.Errorf("change %q: want an update in place", c)
		}
	}
	if strings.Contains(moved.Text, bin) || strings.Count(moved.Text, "/home/me/go/bin/saverd hook ") != len(events) {
		t.Errorf("moved binary not rewritten everywhere:\n%s", moved.Text)
	}
	// In place: the events keep their order in the file.
	if strings.Index(moved.Text, "hook SessionStart") > strings.Index(moved.Text, "hook UserPromptSubmit") {
		t.Error("events reordered")
	}
}

func TestMergeClaudeDuplicates(t *testing.T) {
	in := `{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"/old/saverd hook Stop","timeout":10}]},` +
		`{"hooks":[{"type":"command","command":"saverd hook Stop"},{"type":"command","command":"other"}]}]}}`
	e, err := MergeSettings("s", in, bin)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(e.Text, "hook Stop"); n != 1 {
		t.Errorf("%d saverd Stop hooks, want 1:\n%s", n, e.Text)
	}
	if !strings.Contains(e.Text, `"other"`) {
		t.Error("the foreign handler beside a duplicate was lost")
	}
}

func TestMergeClaudeRefuses(t *testing.T) {
	for _, bad := range []string{
		"{\n  // my settings\n  \"model\": \"opus\"\n}",
		`{"a":1} x`,
		`[1,2]`,
		`null`,
		`{"hooks":"none"}`,
		`{"hooks":{"Stop":{"command":"x"}}}`,
		`{"hooks":null}`,
	} {
		_, err := MergeSettings("/p/.claude/settings.json", bad, bin)
		if err == nil || !strings.Contains(err.Error(), "/p/.claude/settings.json") || !strings.Contains(err.Error(), "not changed") {
			t.Errorf("MergeSettings(%q) err = %v; want a refusal naming the file", bad, err)
		}
		if _, err := RemoveSettings("/p/.claude/settings.json", bad); err == nil {
			t.Errorf("RemoveSettings(%q): want a refusal", bad)
		}
	}
}

func TestRemoveClaudeGivesBackTheFile(t *testing.T) {
	for _, orig := range []string{installtest.ForeignSettings, "{}\n", "{\n  \"model\": \"x\"\n}\n"} {
		in, err := MergeSettings("s", orig, bin)
		if err != nil {
			t.Fatal(err)
		}
		out, err := RemoveSettings("s", in.Text)
		if err != nil {
			t.Fatal(err)
		}
		if out.Text != orig {
			t.Errorf("uninstall after install:\n%s\nwant\n%s", out.Text, orig)
		}
		again, _ := RemoveSettings("s", out.Text)
		if len(again.Changes) != 0 || again.Text != out.Text {
			t.Errorf("second uninstall changed %q", again.Changes)
		}
	}
}

func TestOurs(t *testing.T) {
	for _, c := range []struct {
		cmd  string
		want bool
	}{
		{"/usr/bin/saverd hook Stop", true},
		{"saverd statusline", true},
		{"/x/saverd hook --harness codex Stop", true},
		{"'/my dir/saverd' hook Stop", true},
		{install.ShellQuote("/it's here/saverd") + " hook Stop", true},
		{"/usr/bin/saverd serve", false},
		{"/usr/bin/saverd-wrapper hook Stop", false},
		{"/go/bin/saverd-hook hook PostToolUse", true},
		{"/go/bin/saverd-hook statusline", true},
		{"/go/bin/saverd-hook serve", false},
		{"echo saverd hook", false},
		{"", false},
	} {
		if got := install.Ours(c.cmd); got != c.want {
			t.Errorf("Ours(%q) = %v, want %v", c.cmd, got, c.want)
		}
	}
}
