package judge

import (
	"strings"
	"testing"

	"github.com/saverd/saverd/internal/jstext"
	"github.com/saverd/saverd/state"
)

// The parsers never fail on any text: whatever the model sent, the answer says what was kept and why
// the rest was dropped, within the caps. Seeds: testdata/fuzz/FuzzParseReply and FuzzParseProcessReply.

func FuzzParseReply(f *testing.F) {
	f.Add(replyOf(finding(nil)))
	f.Add(replyOf(behavioural("communication:restates-plan", nil), behavioural("multi-agent:x", map[string]any{"evidence": []any{"agent:a1", "agent:a2"}})))
	f.Add(`{"findings":[{"id":"execution:x","evidence":["r1e9","turn:99999999999999999999","agent:"]}]}`)
	s := replyState()
	aliases := Aliases(s)
	rows, patterns := len(s.Rows), len(s.Patterns)
	f.Fuzz(func(t *testing.T, text string) {
		r := ParseReply(text, s, aliases)
		if r.Findings == nil || r.Dropped == nil {
			t.Fatalf("nil slices")
		}
		if len(r.Findings) > state.MaxFindings || len(r.Findings) > r.Returned {
			t.Fatalf("%d findings of %d returned", len(r.Findings), r.Returned)
		}
		behavioural := 0
		for _, f := range r.Findings {
			if f.Signature == nil {
				behavioural++
			} else if f.EstTokensPerTurn != nil {
				t.Fatalf("a signature finding with an estimate")
			}
			if len(f.Evidence) == 0 || f.Confidence < 0.5 || f.Confidence > 1 || !strings.HasPrefix(f.Kind, "Claude keeps ") {
				t.Fatalf("invalid finding kept: %+v", f)
			}
			if f.EstTokensPerTurn != nil && *f.EstTokensPerTurn < 0 {
				t.Fatalf("negative estimate")
			}
		}
		if behavioural > state.MaxBehavioralFindings {
			t.Fatalf("%d behavioural findings", behavioural)
		}
		for _, d := range r.Dropped {
			if strings.ContainsAny(d, "\n\r") {
				t.Fatalf("a reason broke its line: %q", d)
			}
		}
		if r.Time != nil && jstext.Len16(*r.Time) > explainMax+1 {
			t.Fatalf("time not cut")
		}
		if len(s.Rows) != rows || len(s.Patterns) != patterns {
			t.Fatalf("ParseReply changed the session")
		}
	})
}

func FuzzParseProcessReply(f *testing.F) {
	f.Add(processReplyOf(processFinding(nil)))
	f.Add(processReplyOf(processFinding(map[string]any{"cost_tokens": 1e300, "evidence": []any{"run:w2", "turn:4"}})))
	f.Add(`{"findings":[{"id":"process:` + strings.Repeat("é", 50) + `","confidence":-0}]}`)
	s := processState()
	aliases := Aliases(s)
	f.Fuzz(func(t *testing.T, text string) {
		r := ParseProcessReply(text, s, aliases)
		if r.Findings == nil || r.Dropped == nil {
			t.Fatalf("nil slices")
		}
		if len(r.Findings) > state.MaxProcessFindings || len(r.Findings) > r.Returned {
			t.Fatalf("%d findings of %d returned", len(r.Findings), r.Returned)
		}
		for _, f := range r.Findings {
			measured := state.MeasuredCost(s, f.Evidence)
			if f.Cost == nil || f.Cost.Tokens < 0 || f.Cost.Ms < 0 || f.Cost.Tokens > measured.Tokens || f.Cost.Ms > measured.Ms {
				t.Fatalf("cost %+v over measured %+v", f.Cost, measured)
			}
			if f.Confidence < state.ProcessMinConfidence || f.Confidence > 1 || !strings.HasPrefix(f.ID, "process:") || f.Lean == nil {
				t.Fatalf("invalid finding kept: %+v", f)
			}
		}
		for _, d := range r.Dropped {
			if strings.ContainsAny(d, "\n\r") {
				t.Fatalf("a reason broke its line: %q", d)
			}
		}
	})
}
