package judge

import (
	"testing"

	"github.com/saverd/saverd/state"
)

// benchSession is a full session: RowCap rows, LoopCap loops, MaxPatterns patterns, folded rows.
func benchSession(b *testing.B) *state.State {
	b.Helper()
	s := fullSession(state.LoopCap)
	if len(s.Rows) != state.RowCap || len(s.Loops) != state.LoopCap || len(s.Patterns) != state.MaxPatterns {
		b.Fatalf("rows %d loops %d patterns %d", len(s.Rows), len(s.Loops), len(s.Patterns))
	}
	return s
}

func BenchmarkBuildPrompt(b *testing.B) {
	s := benchSession(b)
	aliases := Aliases(s)
	b.ReportAllocs()
	for b.Loop() {
		BuildPrompt(s, aliases)
	}
}

func BenchmarkDigest(b *testing.B) {
	s := benchSession(b)
	aliases := Aliases(s)
	b.ReportAllocs()
	for b.Loop() {
		Digest(s, aliases)
	}
}

func BenchmarkParseReply(b *testing.B) {
	s := benchSession(b)
	aliases := Aliases(s)
	text := replyOf(
		finding(map[string]any{"id": "other:a", "category": "other", "signature": map[string]any{"tool": "Bash", "key": "git:git status"}, "evidence": []any{"r2495", "r2488"}}),
		behavioural("communication:b", map[string]any{"evidence": []any{"turn:130", "turn:131"}}),
		behavioural("multi-agent:c", map[string]any{"evidence": []any{"agent:a4", "agent:a5"}}),
	)
	b.ReportAllocs()
	for b.Loop() {
		ParseReply(text, s, aliases)
	}
}
