package main

import (
	"slices"
	"testing"

	"github.com/saverd/saverd/harness"
	"github.com/saverd/saverd/internal/cli"
	"github.com/saverd/saverd/logset"
)

// TestLogFlagsNamed: naming any harness's directory reads only the harnesses named; naming none reads
// every harness at its defaults.
func TestLogFlagsNamed(t *testing.T) {
	t.Setenv("GEMINI_CLI_HOME", "/g")
	t.Setenv("XDG_DATA_HOME", "/x")
	t.Setenv("QWEN_HOME", "/q")
	t.Setenv("QWEN_RUNTIME_DIR", "")
	byID := map[harness.ID]harness.Logs{}
	for _, h := range logset.Harnesses {
		byID[h.ID()] = h
	}
	for _, tc := range []struct {
		name                   string
		args                   []string
		claudeNone, codexNone  bool
		gemini, opencode, qwen []string
	}{
		{"none named", nil, false, false, []string{"/g/.gemini"}, []string{"/x/opencode"}, []string{"/q"}},
		{"gemini only", []string{"--gemini-dir", "/a"}, true, true, []string{"/a"}, nil, nil},
		{"claude and qwen", []string{"--claude-dir", "/c", "--qwen-dir", "/b", "--qwen-dir", "/d"}, false, true, nil, nil, []string{"/b", "/d"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var l logFlags
			fs := cli.NewFlagSet()
			l.register(fs)
			if _, err := fs.Parse(tc.args); err != nil {
				t.Fatal(err)
			}
			set := l.set()
			src := set.Sources()
			if (src.ClaudeDirs != nil && len(src.ClaudeDirs) == 0) != tc.claudeNone || (src.CodexDirs != nil && len(src.CodexDirs) == 0) != tc.codexNone {
				t.Errorf("sources %+v", src)
			}
			for id, want := range map[harness.ID][]string{harness.Gemini: tc.gemini, harness.OpenCode: tc.opencode, harness.Qwen: tc.qwen} {
				if got := set.DirsOf(byID[id]); !slices.Equal(got, want) {
					t.Errorf("%s: dirs %q, want %q", id, got, want)
				}
			}
		})
	}
}
