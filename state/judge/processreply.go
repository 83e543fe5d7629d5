package judge

import (
	"math"
	"strconv"
	"strings"

	"github.com/saverd/saverd/internal/jstext"
	"github.com/saverd/saverd/state"
)

// ProcessReply is what the process judge said: at most MaxProcessFindings valid findings, each with
// its claimed cost clamped to what its cited handles measured, one line per drop, and how many it
// returned.
type ProcessReply struct {
	Findings []state.Finding `json:"findings"`
	Dropped  []string        `json:"dropped"`
	Returned int             `json:"returned"`
}

// processHandle is a handle the digest printed, stored the way the registry keeps it
// (`agent:<agentId>`), or "".
func processHandle(v any, s *state.State, aliases map[string]string) string {
	handle := str(v)
	// The digest prints completed turns (CADENCE) and every ask's turn (ASKS), the running one included.
	if isTurnHandle(handle) {
		n, ok := turnOf(handle)
		if ok && (hasTurn(s, n) || hasAsk(s, n)) {
			return "turn:" + strconv.Itoa(n)
		}
		return ""
	}
	if run, ok := runOf(handle); ok {
		for i := range s.Runs {
			if s.Runs[i].ID == run {
				return handle
			}
		}
		return ""
	}
	if alias, ok := agentOf(handle); ok {
		if l := loopOf(s, aliases, alias); l != nil {
			return "agent:" + l.ID
		}
	}
	return ""
}

func hasAsk(s *state.State, n int) bool {
	for _, a := range s.Asks {
		if a.Turn == n {
			return true
		}
	}
	return false
}

func processEvidence(v any, s *state.State, aliases map[string]string) ([]string, string) {
	raw, ok := array(v)
	if !ok || len(raw) == 0 {
		return nil, "evidence must be a non-empty array of handles"
	}
	handles := make([]string, len(raw))
	for i, h := range raw {
		handles[i] = processHandle(h, s, aliases)
		if handles[i] == "" {
			quoted := cellOf(h, 40)
			if quoted == "" {
				quoted = "(not a string)"
			}
			return nil, "evidence " + quoted + " is not a run, agent or turn the digest printed"
		}
	}
	return state.Unique(handles), ""
}

// processID is `process:<slug>` of whatever follows the id's first colon, or "" when no slug is left.
func processID(v any) string {
	given := str(v)
	if slug := jstext.Slug(given[strings.IndexByte(given, ':')+1:]); slug != "" {
		return "process:" + slug
	}
	return ""
}

// claimed is a cost the reply claims: a finite number, rounded, never below 0.
func claimed(v any) float64 {
	if f, ok := finite(v); ok {
		return math.Max(0, jstext.Round(f))
	}
	return 0
}

func textDrop(name, text string, max int) string {
	switch n := jstext.Len16(text); {
	case n == 0:
		return name + " is empty"
	case n > max*2:
		return name + " is " + inum(n) + " chars, over twice " + inum(max)
	}
	return ""
}

// processFindingOf validates one process finding: the finding, or the one short reason it was dropped.
func processFindingOf(v any, s *state.State, aliases map[string]string) (state.Finding, string) {
	m, ok := record(v)
	if !ok {
		return state.Finding{}, "not an object"
	}
	id := processID(m["id"])
	kind := strings.TrimSpace(str(m["kind"]))
	lean := strings.TrimSpace(str(m["lean"]))
	alternative := strings.TrimSpace(str(m["alternative"]))
	if id == "" {
		return state.Finding{}, "id is missing"
	}
	for _, bad := range []string{
		textDrop("kind", kind, state.KindMax), textDrop("lean", lean, state.AlternativeMax),
		textDrop("alternative", alternative, state.AlternativeMax),
	} {
		if bad != "" {
			return state.Finding{}, bad
		}
	}
	confidence, isNum := number(m["confidence"])
	if !isNum || confidence > 1 {
		return state.Finding{}, "confidence is not a number up to 1"
	}
	if confidence < state.ProcessMinConfidence {
		return state.Finding{}, "confidence " + jsNum(confidence) + " is below " + jsNum(state.ProcessMinConfidence)
	}
	for i := range s.Patterns {
		if s.Patterns[i].ID == id && s.Patterns[i].Decided(state.Ignore) {
			return state.Finding{}, "kept this session"
		}
	}
	evidence, bad := processEvidence(m["evidence"], s, aliases)
	if bad != "" {
		return state.Finding{}, bad
	}
	measured := state.MeasuredCost(s, evidence)
	return state.Finding{
		ID: id, Category: "process", Kind: kind, Evidence: evidence, Why: strings.TrimSpace(str(m["why"])),
		Alternative: alternative, Confidence: confidence, Proposal: proposalOf(m["proposal"]), Lean: &lean,
		Cost: &state.Cost{
			Tokens: int64(math.Min(claimed(m["cost_tokens"]), float64(measured.Tokens))),
			Ms:     int64(math.Min(claimed(m["cost_ms"]), float64(measured.Ms))),
		},
	}, ""
}

// ParseProcessReply reads what the process judge said, against the session as it is now and the alias
// table the digest was built with (nil: Aliases(s)); it never fails.
func ParseProcessReply(text string, s *state.State, aliases map[string]string) ProcessReply {
	if aliases == nil {
		aliases = Aliases(s)
	}
	root := parseObject(text)
	if root == nil {
		return ProcessReply{Findings: []state.Finding{}, Dropped: []string{"reply was not JSON"}}
	}
	raw, ok := array(root["findings"])
	if !ok {
		return ProcessReply{Findings: []state.Finding{}, Dropped: []string{"findings was not an array"}}
	}
	r := ProcessReply{Findings: []state.Finding{}, Dropped: []string{}, Returned: len(raw)}
	for i, v := range raw {
		label := ""
		if m, ok := record(v); ok {
			label = processID(m["id"])
		}
		if label == "" {
			label = "#" + inum(i+1)
		}
		f, reason := processFindingOf(v, s, aliases)
		switch {
		case reason != "":
		case hasID(r.Findings, f.ID):
			reason = "the reply already reported this id"
		case len(r.Findings) >= state.MaxProcessFindings:
			reason = "over MAX_PROCESS_FINDINGS (" + inum(state.MaxProcessFindings) + ")"
		}
		if reason != "" {
			r.Dropped = append(r.Dropped, label+": "+reason)
			continue
		}
		r.Findings = append(r.Findings, f)
	}
	return r
}

// MergeProcess folds process findings into the registry as Merge does, keeping the newest run's kind,
// lean and clamped cost on each pattern it names.
func MergeProcess(s *state.State, findings []state.Finding) MergeResult {
	res := Merge(s, findings)
	for i := range res.Patterns {
		if f := findingFor(findings, res.Patterns[i].ID); f != nil {
			p := &res.Patterns[i] // Merge's own copy: s is untouched
			p.Kind, p.Lean, p.Cost = f.Kind, f.Lean, f.Cost
		}
	}
	return res
}
