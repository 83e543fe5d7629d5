package harness

import "testing"

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		name string
		want ID
		ok   bool
	}{
		{"claude-code", ClaudeCode, true}, {"claude", "", false}, {"codex", Codex, true},
		{"gemini", Gemini, true}, {"opencode", OpenCode, true}, {"qwen-code", Qwen, true}, {"qwen", Qwen, true},
		{"Gemini", "", false}, {"", "", false}, {"aider", "", false},
	} {
		if got, ok := Parse(tc.name); got != tc.want || ok != tc.ok {
			t.Errorf("Parse(%q) = %q, %v; want %q, %v", tc.name, got, ok, tc.want, tc.ok)
		}
	}
	if !Known("qwen-code") || Known("qwen") {
		t.Error("Known takes ids only")
	}
}
