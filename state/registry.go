package state

import (
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"sort"
	"strings"
	"unicode"
	"unicode/utf16"

	"github.com/saverd/saverd/internal/jsondepth"
	"github.com/saverd/saverd/internal/jstext"
)

// The per-project pattern registry: what is persisted across sessions (StoredPattern), how a stored
// value is read back (every entry validated, the invalid dropped), and what a session may store (never
// a typed prompt).

// storedID is a stored pattern id: `<category>:<slug>`, the slug at most forty characters.
var storedID = regexp.MustCompile(`^[a-z-]+:[a-z0-9-]{1,40}$`)

// ParseRegistry reads a stored registry, the decoded JSON value ([]any of map[string]any), dropping every
// entry that does not validate. A later entry with the same id replaces an earlier one but keeps its
// position, as ContextSaver's Map does. Anything but an array is an empty registry.
func ParseRegistry(value any) []StoredPattern {
	items, ok := value.([]any)
	if !ok {
		return []StoredPattern{}
	}
	out := []StoredPattern{}
	at := map[string]int{}
	for _, item := range items {
		p, ok := storedEntryOf(item)
		if !ok {
			continue
		}
		if i, seen := at[p.ID]; seen {
			out[i] = p
			continue
		}
		at[p.ID] = len(out)
		out = append(out, p)
	}
	return out
}

// InvalidStored is how many of a stored registry's entries ParseRegistry drops for failing validation (a
// value that is not a list at all counts as one): a write of what ParseRegistry kept would lose them.
func InvalidStored(value any) int {
	if value == nil {
		return 0
	}
	items, ok := value.([]any)
	if !ok {
		return 1
	}
	n := 0
	for _, item := range items {
		if _, ok := storedEntryOf(item); !ok {
			n++
		}
	}
	return n
}

// ParseRegistryJSON reads a stored registry from its JSON text.
func ParseRegistryJSON(data []byte) ([]StoredPattern, error) {
	if at, deep := jsondepth.Check(data, jsondepth.Max); deep {
		return nil, fmt.Errorf("pattern registry: nesting deeper than %d levels (at byte %d)", jsondepth.Max, at)
	}
	var value any
	if err := json.Unmarshal(data, &value); err != nil {
		return nil, fmt.Errorf("pattern registry: %w", err)
	}
	return ParseRegistry(value), nil
}

// storedEntryOf validates one stored entry, as ContextSaver validates it. Text is "filled" when something
// other than whitespace (Go's unicode.IsSpace) remains; lengths are UTF-16 units, as ContextSaver counts.
// signature, proposal, estTokensPerTurn and lastDecision must be present (null allowed); lean may be
// absent.
func storedEntryOf(v any) (StoredPattern, bool) {
	o, ok := v.(map[string]any)
	if !ok {
		return StoredPattern{}, false
	}
	id, ok := o["id"].(string)
	if !ok || !storedID.MatchString(id) {
		return StoredPattern{}, false
	}
	category, ok := o["category"].(string)
	if !ok || !IsCategory(category) {
		return StoredPattern{}, false
	}
	kind, okKind := boundedText(o["kind"], KindMax)
	alternative, okAlt := boundedText(o["alternative"], AlternativeMax)
	why, okWhy := o["why"].(string)
	if !okKind || !okAlt || !okWhy {
		return StoredPattern{}, false
	}
	confidence, ok := o["confidence"].(float64)
	if !ok || !(confidence >= 0.5) || !(confidence <= 1) {
		return StoredPattern{}, false
	}
	est, ok := storedEstimate(o)
	if !ok {
		return StoredPattern{}, false
	}
	last, ok := storedDecision(o)
	if !ok {
		return StoredPattern{}, false
	}
	sig, ok := storedSignature(o)
	if !ok {
		return StoredPattern{}, false
	}
	proposal, ok := storedProposal(o)
	if !ok {
		return StoredPattern{}, false
	}
	var lean *string
	if raw, present := o["lean"]; present && raw != nil {
		text, ok := boundedText(raw, AlternativeMax)
		if !ok {
			return StoredPattern{}, false
		}
		lean = &text
	}
	return StoredPattern{
		ID: id, Category: Category(category), Kind: kind, Signature: sig, Why: why, Alternative: alternative,
		Confidence: confidence, Proposal: proposal, EstTokensPerTurn: est, LastDecision: last, Lean: lean,
		ChangedAt: storedStamp(o, "changedAt"), DecidedAt: storedStamp(o, "decidedAt"),
	}, true
}

// storedStamp reads a time stamp (changedAt, decidedAt), which entries written before it existed lack: a
// whole non-negative number, anything else read as 0 (never stamped) rather than costing the entry.
func storedStamp(o map[string]any, name string) int64 {
	n, ok := o[name].(float64)
	if !ok || !(n >= 0) || n > 1<<53 || n != math.Trunc(n) {
		return 0
	}
	return int64(n)
}

// filledText is v as a string holding something other than whitespace.
func filledText(v any) (string, bool) {
	s, ok := v.(string)
	if !ok || strings.TrimFunc(s, unicode.IsSpace) == "" {
		return "", false
	}
	return s, true
}

// boundedText is filledText at most max UTF-16 units long.
func boundedText(v any, max int) (string, bool) {
	s, ok := filledText(v)
	if !ok || jstext.Len16(s) > max {
		return "", false
	}
	return s, true
}

// storedEstimate reads estTokensPerTurn: present, and null or a finite number ≥ 0.
func storedEstimate(o map[string]any) (*float64, bool) {
	raw, present := o["estTokensPerTurn"]
	if !present {
		return nil, false
	}
	if raw == nil {
		return nil, true
	}
	n, ok := raw.(float64)
	if !ok || math.IsNaN(n) || math.IsInf(n, 0) || n < 0 {
		return nil, false
	}
	return &n, true
}

// storedDecision reads lastDecision: present, and null or one of the three choices.
func storedDecision(o map[string]any) (*Choice, bool) {
	raw, present := o["lastDecision"]
	if !present {
		return nil, false
	}
	if raw == nil {
		return nil, true
	}
	s, _ := raw.(string)
	switch c := Choice(s); c {
	case Ignore, FixWithNote, Fix:
		return &c, true
	}
	return nil, false
}

// storedSignature reads signature: present, and null or a tool and a key of at most KeyMax.
func storedSignature(o map[string]any) (*Signature, bool) {
	raw, present := o["signature"]
	if present && raw == nil {
		return nil, true
	}
	f, _ := raw.(map[string]any)
	tool, okTool := boundedText(f["tool"], KeyMax)
	key, okKey := boundedText(f["key"], KeyMax)
	if !okTool || !okKey {
		return nil, false
	}
	return &Signature{Tool: tool, Key: key}, true
}

// storedProposal reads proposal: present, and null or an artifact kind with a filled title and body.
func storedProposal(o map[string]any) (*Proposal, bool) {
	raw, present := o["proposal"]
	if present && raw == nil {
		return nil, true
	}
	f, _ := raw.(map[string]any)
	kind, _ := f["kind"].(string)
	if !IsArtifactKind(kind) {
		return nil, false
	}
	title, okTitle := filledText(f["title"])
	body, okBody := filledText(f["body"])
	if !okTitle || !okBody {
		return nil, false
	}
	return &Proposal{Kind: ArtifactKind(kind), Title: title, Body: body}, true
}

// ToStored strips a pattern's session fields, leaving what is persisted per project.
func ToStored(p *Pattern) StoredPattern { return p.StoredPattern }

// FromStored revives a stored pattern with empty session fields.
func FromStored(s StoredPattern) Pattern { return Pattern{StoredPattern: s, Hits: []string{}} }

// quoteMin is the consecutive characters of a typed ask that make a stored text a quote of it.
const quoteMin = 24

// StorableOf is what this session persists: every pattern, never a typed prompt. A process `why` is not
// stored at all, a habit `why` quoting an ask is blanked, and a pattern whose kind, fix or lean quotes one
// stays in the session. A quote is quoteMin consecutive UTF-16 units of an ask's head, whitespace
// collapsed and case folded on both sides.
func StorableOf(s *State) []StoredPattern {
	heads := make([][]uint16, 0, len(s.Asks))
	for _, a := range s.Asks {
		heads = append(heads, foldedUnits(a.Head))
	}
	out := []StoredPattern{}
	for i := range s.Patterns {
		st := ToStored(&s.Patterns[i])
		if quotesAsk(st.Kind, heads) || quotesAsk(st.Alternative, heads) || quotesAsk(Str(st.Lean), heads) {
			continue
		}
		if st.Lean != nil || quotesAsk(st.Why, heads) {
			st.Why = ""
		}
		out = append(out, st)
	}
	return out
}

// foldedUnits is text with whitespace collapsed and lower-cased, in UTF-16 units.
func foldedUnits(text string) []uint16 {
	return utf16.Encode([]rune(strings.ToLower(jstext.CollapseWs(text))))
}

// quotesAsk reports whether text carries quoteMin consecutive units of any head.
func quotesAsk(text string, heads [][]uint16) bool {
	if len(heads) == 0 {
		return false
	}
	t := foldedUnits(text)
	for _, h := range heads {
		for i := 0; i+quoteMin <= len(h); i++ {
			if containsUnits(t, h[i:i+quoteMin]) {
				return true
			}
		}
	}
	return false
}

func containsUnits(t, q []uint16) bool {
	for i := 0; i+len(q) <= len(t); i++ {
		match := true
		for j := range q {
			if t[i+j] != q[j] {
				match = false
				break
			}
		}
		if match {
			return true
		}
	}
	return false
}

// storedRank is what a stored entry is worth when the registry overflows: a decision outranks any
// confidence.
func storedRank(p *StoredPattern) float64 {
	if p.LastDecision == nil {
		return p.Confidence
	}
	return 2 + p.Confidence
}

// capStored keeps the MaxPatterns best-ranked entries (earlier first on a tie), in their order.
func capStored(entries []StoredPattern) []StoredPattern {
	if len(entries) <= MaxPatterns {
		return append([]StoredPattern{}, entries...)
	}
	at := make([]int, len(entries))
	for i := range at {
		at[i] = i
	}
	sort.SliceStable(at, func(i, j int) bool { return storedRank(&entries[at[i]]) > storedRank(&entries[at[j]]) })
	at = at[:MaxPatterns]
	sort.Ints(at)
	out := make([]StoredPattern, len(at))
	for i, k := range at {
		out[i] = entries[k]
	}
	return out
}

// MergeStored merges two stored registries by id, dropping the weakest undecided entries past
// MaxPatterns. Of two entries with one id the one changed last wins (b on a tie), in a's position when a
// held it: a session writing what it changed never puts back an older copy over another session's
// newer decision.
func MergeStored(a, b []StoredPattern) []StoredPattern {
	merged := make([]StoredPattern, 0, len(a)+len(b))
	at := make(map[string]int, len(a)+len(b))
	for _, list := range [][]StoredPattern{a, b} {
		for _, p := range list {
			if i, ok := at[p.ID]; ok {
				if p.ChangedAt >= merged[i].ChangedAt {
					merged[i] = p
				}
				continue
			}
			at[p.ID] = len(merged)
			merged = append(merged, p)
		}
	}
	return capStored(merged)
}
