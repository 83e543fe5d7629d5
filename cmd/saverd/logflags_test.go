package main

import (
	"reflect"
	"testing"

	"github.com/saverd/saverd/harness"
	"github.com/saverd/saverd/internal/cli"
	"github.com/saverd/saverd/internal/paths"
	"github.com/saverd/saverd/logset"
)

// TestLogFlags: the directory flags of every harness and --prices land in the set of logs the command
// reads (what a set reads from them is logset's to test).
func TestLogFlags(t *testing.T) {
	cache, err := paths.LogCache()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		args []string
		want logset.Set
	}{
		{"none", nil, logset.Set{Cache: cache}},
		{"each", []string{"--claude-dir", "/c", "--codex-dir", "/o", "--gemini-dir", "/g", "--opencode-dir", "/p", "--qwen-dir", "/b", "--qwen-dir", "/d", "--prices", "/f"},
			logset.Set{Prices: "/f", Cache: cache, Dirs: map[harness.ID][]string{harness.ClaudeCode: {"/c"}, harness.Codex: {"/o"},
				harness.Gemini: {"/g"}, harness.OpenCode: {"/p"}, harness.Qwen: {"/b", "/d"}}}},
		{"no cache", []string{"--no-cache"}, logset.Set{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var l logFlags
			fs := cli.NewFlagSet()
			l.register(fs)
			if _, err := fs.Parse(tc.args); err != nil {
				t.Fatal(err)
			}
			got := l.set()
			for id, d := range got.Dirs {
				if len(d) == 0 {
					delete(got.Dirs, id) // a flag not given
				}
			}
			if len(got.Dirs) == 0 {
				got.Dirs = nil
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("set %+v, want %+v", got, tc.want)
			}
		})
	}
}
