package impact

import "testing"

func TestTrailerHarness(t *testing.T) {
	for _, tc := range []struct {
		msg, want string
	}{
		{"fix\n\nCo-Authored-By: Claude <noreply@anthropic.com>", "claude-code"},
		{"fix\n\nco-authored-by: Claude Opus 4.5 <noreply@anthropic.com>", "claude-code"},
		{"fix\n\n🤖 Generated with [Claude Code](https://claude.com/claude-code)", "claude-code"},
		{"fix\n\nClaude-Session: 0f3c", "claude-code"},
		{"fix\n\nCo-authored-by: Codex <noreply@openai.com>", "codex"},
		{"fix\n\nCo-authored-by: codex <codex@openai.com>", "codex"},
		{"fix\n\nCo-authored-by: aider (anthropic/claude-sonnet-4) <noreply@aider.chat>", "aider"},
		{"fix\n\nCo-authored-by: Copilot <175728472+Copilot@users.noreply.github.com>", "copilot"},
		{"fix\n\nCo-authored-by: Copilot <copilot@github.com>", "copilot"},
		{"fix\n\nAgent-Logs-Url: https://github.com/o/r/sessions/1", "copilot"},
		{"fix\n\nMade-with: Cursor", "cursor"},
		{"fix\n\nCo-authored-by: Cursor Agent <cursoragent@cursor.com>", "cursor"},
		{"fix\n\nAmp-Thread-ID: https://ampcode.com/threads/T-1", "amp"},
		{"fix\n\nAmp-Thread: T-1", "amp"},
		{"fix\n\nCo-authored-by: Amp <amp@ampcode.com>", "amp"},
		{"fix\n\nCo-authored-by: opencode <noreply@opencode.ai>", "opencode"},
		{"fix\n\nCo-authored-by: devin-ai-integration[bot] <158243242+devin-ai-integration[bot]@users.noreply.github.com>", "devin"},
		{"fix\n\nCo-authored-by: google-labs-jules[bot] <161369871+google-labs-jules[bot]@users.noreply.github.com>", "jules"},
		{"fix\n\nCo-authored-by: Qwen-Coder <qwen-coder@alibabacloud.com>", "qwen-code"},
		// First rule in AGENT_TRAILERS order wins.
		{"fix\n\nCo-authored-by: Copilot <copilot@github.com>\nCo-Authored-By: Claude <noreply@anthropic.com>", "claude-code"},
		// Not trailers.
		{"ask Claude about it", ""},
		{"fix\n\nCo-authored-by: Jane <jane@example.com>", ""},
		{"fix\n\nCo-authored-by: Codex Fan <fan@example.com>", ""},
		{"mention noreply@anthropic.com in docs", ""},
		{"fix\n\nXMade-with: Cursor", ""},
		{"", ""},
	} {
		if got := TrailerHarness(tc.msg); got != tc.want {
			t.Errorf("TrailerHarness(%q) = %q, want %q", tc.msg, got, tc.want)
		}
	}
}
