package judge

import (
	"math"
	"regexp"
	"strings"

	"github.com/saverd/saverd/internal/jstext"
	"github.com/saverd/saverd/state"
)

// Reply is what the habit judge said: the valid findings, its focus and its time and context
// sentences (nil when absent), one line per drop and per cap a kept finding missed, and how many
// findings it returned.
type Reply struct {
	Findings []state.Finding `json:"findings"`
	Focus    *string         `json:"focus"`
	Time     *string         `json:"time"`
	Context  *string         `json:"context"`
	Dropped  []string        `json:"dropped"`
	Returned int             `json:"returned"`
}

// explainMax is the characters of the `time` and `context` sentences kept; the rest is cut off.
const explainMax = 200

var idShape = regexp.MustCompile(`^[a-z-]+:[a-z0-9-]{1,40}$`)

// firstOccurrence: one cited occurrence is a finding only after a first the ledger cannot show — stated
// intent, a user correction or a saved feedback memory. Matched on ASCII-lowered text, as ContextSaver's
// /…/i does without the u flag.
var firstOccurrence = regexp.MustCompile(`intent|\bcorrect(?:ed|ion)\b|\bfeedback\b`)

// lowerSlug lowers the slug after the first colon: a slug spelled as the work spells it
// (`multi-agent:C6-review-rounds`) is the same waste as its lowercase self, so one behaviour keeps one id.
// Lower-casing is Go's (strings.ToLower), one rune to one rune.
func lowerSlug(id string) string {
	at := strings.IndexByte(id, ':')
	if at < 0 {
		return id
	}
	return id[:at+1] + strings.ToLower(id[at+1:])
}

// signatureOf reads a finding's signature: nil for null, ok false when it is absent, malformed, or no
// citable row carries the pair.
func signatureOf(v any, present bool, visible []state.Row) (*state.Signature, bool) {
	if present && v == nil {
		return nil, true
	}
	m, isRec := record(v)
	if !isRec {
		return nil, false
	}
	tool, key := str(m["tool"]), str(m["key"])
	for i := range visible {
		if visible[i].Tool == tool && visible[i].Key == key {
			return &state.Signature{Tool: tool, Key: key}, true
		}
	}
	// The prompt printed a tool or key holding a control character escaped (cells.go), and the judge
	// copies what it read: that names the row whose own tool and key print so.
	for i := range visible {
		if r := &visible[i]; escaped(r.Tool) == tool && escaped(r.Key) == key && (r.Tool != tool || r.Key != key) {
			return &state.Signature{Tool: r.Tool, Key: r.Key}, true
		}
	}
	return nil, false
}

func signatureDrop(v any) string {
	if m, ok := record(v); ok {
		return "signature (" + cellOf(m["tool"], 20) + ", " + cellOf(m["key"], 40) + ") matches no row"
	}
	return "signature must be a (tool, key) pair or null"
}

// estOf is a behavioural finding's tokens per turn, clamped to what its evidence grounds; nil for a
// finding with a signature.
func estOf(v any, s *state.State, sig *state.Signature, evidence []string) *float64 {
	if sig != nil {
		return nil
	}
	claimed := 0.0
	if f, ok := finite(v); ok {
		claimed = math.Max(0, jstext.Round(f))
	}
	return new(math.Min(claimed, groundedCap(s, evidence)) + 0) // + 0: never -0
}

func sameSignature(a, b *state.Signature) bool {
	return a != nil && b != nil && a.Tool == b.Tool && a.Key == b.Key
}

func isKept(s *state.State, id string, sig *state.Signature) bool {
	for i := range s.Patterns {
		p := &s.Patterns[i]
		if p.Decided(state.Ignore) && (p.ID == id || sameSignature(p.Signature, sig)) {
			return true
		}
	}
	return false
}

// findingOf validates one finding: the finding, or the one short reason it was dropped.
func findingOf(v any, s *state.State, visible []state.Row, byseq visibleRows, aliases map[string]string) (state.Finding, string) {
	m, ok := record(v)
	if !ok {
		return state.Finding{}, "not an object"
	}
	given := str(m["id"])
	id := lowerSlug(given)
	category, isString := m["category"].(string)
	kind, why, alternative := str(m["kind"]), str(m["why"]), str(m["alternative"])
	if !idShape.MatchString(id) {
		quoted := cellOf(given, 40)
		if quoted == "" {
			quoted = "(missing)"
		}
		return state.Finding{}, "id " + quoted + " is not <category>:<kebab-slug>"
	}
	if !isString || !state.IsCategory(category) {
		return state.Finding{}, "category is not one of the nine"
	}
	if id[:strings.IndexByte(id, ':')] != category {
		return state.Finding{}, "category " + category + " does not match the id"
	}
	if !strings.HasPrefix(kind, "Claude keeps ") {
		return state.Finding{}, `kind must start with "Claude keeps "`
	}
	// A cap missed by a few characters is a sentence that ran long, not a wrong finding: it is kept as
	// returned and the run report notes the length. Twice the cap is a different answer, and dropped.
	if n := jstext.Len16(kind); n > state.KindMax*2 {
		return state.Finding{}, "kind is " + inum(n) + " chars, over twice " + inum(state.KindMax)
	}
	if alternative == "" {
		return state.Finding{}, "alternative is empty"
	}
	if n := jstext.Len16(alternative); n > state.AlternativeMax*2 {
		return state.Finding{}, "alternative is " + inum(n) + " chars, over twice " + inum(state.AlternativeMax)
	}
	confidence, isNum := number(m["confidence"])
	if !isNum || confidence < 0.5 || confidence > 1 {
		return state.Finding{}, "confidence is not a number in 0.5..1"
	}
	rawSig, present := m["signature"]
	sig, ok := signatureOf(rawSig, present, visible)
	if !ok {
		return state.Finding{}, signatureDrop(m["signature"])
	}
	if isKept(s, id, sig) {
		return state.Finding{}, "kept this session"
	}
	evidence, bad := evidenceOf(m["evidence"], s, byseq, aliases, sig)
	if bad != "" {
		return state.Finding{}, bad
	}
	if len(evidence) < 2 && !firstOccurrence.MatchString(asciiLower(why)) {
		return state.Finding{}, "one handle and no stated intent or correction in why"
	}
	return state.Finding{
		ID: id, Category: state.Category(category), Kind: kind, Evidence: evidence, Signature: sig, Why: why,
		Alternative: alternative, Confidence: confidence,
		EstTokensPerTurn: estOf(m["est_tokens_per_turn"], s, sig, evidence),
		Proposal:         proposalOf(m["proposal"]),
	}, ""
}

// reviewed is one returned finding under the label the drop report names it by: its own id, or its
// place in the reply.
type reviewed struct {
	label   string
	finding state.Finding
	reason  string
}

func labelOf(v any, i int) string {
	if m, ok := record(v); ok {
		if id := lowerSlug(str(m["id"])); idShape.MatchString(id) {
			return id
		}
	}
	return "#" + inum(i+1)
}

// capFindings keeps the valid findings up to the caps, first come first kept.
func capFindings(all []reviewed) ([]state.Finding, []string) {
	var kept []state.Finding
	var dropped []string
	behavioural := 0
	for _, item := range all {
		f := item.finding
		var reason string
		switch {
		case item.reason != "":
			reason = item.reason
		case len(kept) >= state.MaxFindings:
			reason = "over MAX_FINDINGS (" + inum(state.MaxFindings) + ")"
		case f.Signature == nil && behavioural >= state.MaxBehavioralFindings:
			reason = "over MAX_BEHAVIORAL_FINDINGS (" + inum(state.MaxBehavioralFindings) + ")"
		case hasID(kept, f.ID):
			reason = "the reply already reported this id"
		}
		if reason != "" {
			dropped = append(dropped, item.label+": "+reason)
			continue
		}
		kept = append(kept, f)
		if f.Signature == nil {
			behavioural++
		}
	}
	return kept, dropped
}

func hasID(findings []state.Finding, id string) bool {
	for i := range findings {
		if findings[i].ID == id {
			return true
		}
	}
	return false
}

// explanationOf is one sentence for the user, cut to explainMax rather than thrown away: its first 200
// characters still say where the time went. Anything but text is nothing to draw.
func explanationOf(v any) *string {
	text := jstext.CollapseWs(str(v))
	if text == "" {
		return nil
	}
	return new(jstext.Short(text, explainMax))
}

// explanationDrop notes an essay where a sentence was asked for: without it a trimmed sentence reads
// like one the judge chose to end there.
func explanationDrop(label string, v any) []string {
	if n := jstext.Len16(jstext.CollapseWs(str(v))); n > explainMax {
		return []string{label + ": " + inum(n) + " chars, trimmed to " + inum(explainMax)}
	}
	return nil
}

// capNotes is the caps a kept finding overran: nothing was cut, so the note is the whole story.
func capNotes(f *state.Finding) []string {
	var notes []string
	if n := jstext.Len16(f.Kind); n > state.KindMax {
		notes = append(notes, f.ID+": kind: "+inum(n)+" chars, over "+inum(state.KindMax))
	}
	if n := jstext.Len16(f.Alternative); n > state.AlternativeMax {
		notes = append(notes, f.ID+": alternative: "+inum(n)+" chars, over "+inum(state.AlternativeMax))
	}
	return notes
}

// ParseReply reads what the judge said, against the session as it is now and the alias table the
// prompt was built with (nil: Aliases(s)); it never fails: whatever the text, the answer says what was
// kept and why the rest was dropped.
func ParseReply(text string, s *state.State, aliases map[string]string) Reply {
	if aliases == nil {
		aliases = Aliases(s)
	}
	root := parseObject(text)
	if root == nil {
		return Reply{Findings: []state.Finding{}, Dropped: []string{"reply was not JSON"}}
	}
	r := Reply{Findings: []state.Finding{}, Time: explanationOf(root["time"]), Context: explanationOf(root["context"])}
	if focus := jstext.CollapseWs(str(root["focus"])); focus != "" {
		r.Focus = &focus
	}
	overlong := append(explanationDrop("time", root["time"]), explanationDrop("context", root["context"])...)
	raw, ok := array(root["findings"])
	if !ok {
		r.Dropped = append(overlong, "findings was not an array")
		return r
	}
	visible := CitableRows(s)
	byseq := indexRows(visible)
	all := make([]reviewed, len(raw))
	for i, v := range raw {
		f, reason := findingOf(v, s, visible, byseq, aliases)
		all[i] = reviewed{label: labelOf(v, i), finding: f, reason: reason}
	}
	kept, dropped := capFindings(all)
	if kept != nil {
		r.Findings = kept
	}
	r.Dropped = append([]string{}, overlong...)
	for i := range kept {
		r.Dropped = append(r.Dropped, capNotes(&kept[i])...)
	}
	r.Dropped = append(r.Dropped, dropped...)
	r.Returned = len(raw)
	return r
}
