package logset

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/saverd/saverd/harness"
)

// TestNamedDirs: naming any harness's directory reads only the harnesses named; naming none reads every
// harness at its defaults.
func TestNamedDirs(t *testing.T) {
	t.Setenv("GEMINI_CLI_HOME", "/g")
	t.Setenv("XDG_DATA_HOME", "/x")
	t.Setenv("QWEN_HOME", "/q")
	t.Setenv("QWEN_RUNTIME_DIR", "")
	byID := map[harness.ID]harness.Logs{}
	for _, h := range Harnesses {
		byID[h.ID()] = h
	}
	for _, tc := range []struct {
		name                   string
		set                    Set
		claudeNone, codexNone  bool
		gemini, opencode, qwen []string
	}{
		{"none named", Set{}, false, false, []string{"/g/.gemini"}, []string{"/x/opencode"}, []string{"/q"}},
		{"gemini only", Set{Dirs: map[harness.ID][]string{harness.Gemini: {"/a"}}}, true, true, []string{"/a"}, nil, nil},
		{"claude and qwen", Set{Dirs: map[harness.ID][]string{harness.ClaudeCode: {"/c"}, harness.Qwen: {"/b", "/d"}}}, false, true, nil, nil, []string{"/b", "/d"}},
		{"codex only", Set{Dirs: map[harness.ID][]string{harness.Codex: {"/o"}}}, true, false, nil, nil, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if claude, codex := tc.set.DirsOf(byID[harness.ClaudeCode]), tc.set.DirsOf(byID[harness.Codex]); (claude == nil) != tc.claudeNone || (codex == nil) != tc.codexNone {
				t.Errorf("claude-code dirs %q, codex dirs %q", claude, codex)
			}
			for id, want := range map[harness.ID][]string{harness.Gemini: tc.gemini, harness.OpenCode: tc.opencode, harness.Qwen: tc.qwen} {
				if got := tc.set.DirsOf(byID[id]); !slices.Equal(got, want) {
					t.Errorf("%s: dirs %q, want %q", id, got, want)
				}
			}
		})
	}
}

// TestReadNamesWhatItCannot: a directory named that is none reads nothing and says so; a prices file
// named that is not there is an error, never the embedded prices without a word.
func TestReadNamesWhatItCannot(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "nowhere")
	recs, warn, err := Set{Dirs: map[harness.ID][]string{harness.ClaudeCode: {missing}}}.Read(t.Context(), os.Stderr)
	if err != nil || len(recs) != 0 || !slices.ContainsFunc(warn, func(w string) bool { return strings.Contains(w, missing+" is not a directory") }) {
		t.Errorf("%d records, warnings %q, %v", len(recs), warn, err)
	}
	if _, _, err := (Set{Dirs: map[harness.ID][]string{harness.ClaudeCode: {missing}}, Prices: missing}).Read(t.Context(), os.Stderr); err == nil || !strings.Contains(err.Error(), "--prices") {
		t.Errorf("a missing prices file: %v", err)
	}
}
