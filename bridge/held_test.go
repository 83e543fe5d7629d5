package bridge_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/saverd/saverd/harness"
	"github.com/saverd/saverd/harness/claude"
	"github.com/saverd/saverd/harness/codex"
)

// TestHeldTexts: a text a line after the last compaction carries is held; one only before it, or never
// written, is not; an unreadable transcript holds nothing. The compaction is the harness's own line.
func TestHeldTexts(t *testing.T) {
	fix := "Instruction from the user (via ContextSaver): Stop this behaviour: \"npm test\" after every edit"
	other := "Instruction from the user (via ContextSaver): only grep src/"
	attach := func(text string) string {
		return `{"type":"attachment","attachment":{"type":"hook_additional_context","content":[` + string(quoted(text)) + `]}}`
	}
	cc, cx := claude.Harness{}, codex.Harness{}
	cases := []struct {
		name  string
		h     harness.Live
		lines []string
		want  []string
	}{
		{"held", cc, []string{`{"type":"user"}`, attach(fix)}, []string{fix}},
		{"both", cc, []string{attach(other), attach(fix)}, []string{fix, other}},
		{"compacted away", cc, []string{attach(fix), `{"type":"system","subtype":"compact_boundary"}`, `{"type":"user"}`}, nil},
		{"sent again after", cc, []string{attach(fix), `{"type":"system","subtype":"compact_boundary"}`, attach(fix)}, []string{fix}},
		{"a Codex compaction", cx, []string{`{"type":"response_item","payload":{"role":"developer","content":[{"text":` + string(quoted(fix)) + `}]}}`, `{"type":"compacted","payload":{}}`}, nil},
		{"a Codex developer message", cx, []string{`{"type":"response_item","payload":{"role":"developer","content":[{"text":` + string(quoted(fix)) + `}]}}`}, []string{fix}},
		{"never sent", cc, []string{`{"type":"user","message":{"content":"compact the notes"}}`}, nil},
		{"never sent to Codex", cx, []string{`{"type":"response_item","payload":{"content":"compacted notes"}}`}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "t.jsonl")
			if err := os.WriteFile(path, []byte(strings.Join(c.lines, "\n")+"\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			got := c.h.HeldTexts(path, []string{fix, other})
			slices.Sort(got)
			want := slices.Clone(c.want)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Fatalf("held %q, want %q", got, want)
			}
		})
	}
	if got := cc.HeldTexts(filepath.Join(t.TempDir(), "none"), []string{fix}); got != nil {
		t.Fatalf("a missing transcript holds %q", got)
	}
}

func quoted(s string) []byte {
	b, _ := json.Marshal(s)
	return b
}
