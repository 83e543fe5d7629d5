package judge

import (
	"slices"
	"sort"

	"github.com/saverd/saverd/state"
)

// MergeResult is the registry after a run's findings, and what the run changed: the ids to put in front
// of the person (fresh), the steered or killed behaviours that came back (recurred), and the findings
// the MaxPatterns cap pushed out (evicted: they get no card, and the caller reports them as dropped).
type MergeResult struct {
	Patterns []state.Pattern `json:"patterns"`
	Fresh    []string        `json:"fresh"`
	Recurred []string        `json:"recurred"`
	Evicted  []string        `json:"evicted"`
}

// patternOf is a new pattern from a finding: undecided, its evidence its hits.
func patternOf(f *state.Finding) state.Pattern {
	return state.Pattern{
		StoredPattern: state.StoredPattern{
			ID: f.ID, Category: f.Category, Kind: f.Kind, Signature: f.Signature, Why: f.Why,
			Alternative: f.Alternative, Confidence: f.Confidence, Proposal: f.Proposal,
			EstTokensPerTurn: f.EstTokensPerTurn, Lean: f.Lean,
		},
		Hits: append([]string{}, f.Evidence...),
	}
}

// updatedWith is a copy of p with the finding's newest words and its evidence added to the hits; its
// kind, signature and decision stay.
func updatedWith(p state.Pattern, f *state.Finding) state.Pattern {
	p.Why, p.Alternative, p.Proposal, p.Confidence = f.Why, f.Alternative, f.Proposal, f.Confidence
	p.EstTokensPerTurn = f.EstTokensPerTurn
	p.Hits = state.Unique(append(append(make([]string, 0, len(p.Hits)+len(f.Evidence)), p.Hits...), f.Evidence...))
	return p
}

// findingFor is the first finding with id, or nil.
func findingFor(findings []state.Finding, id string) *state.Finding {
	for i := range findings {
		if findings[i].ID == id {
			return &findings[i]
		}
	}
	return nil
}

// hasRecurred: a steered or killed behaviour cited again in a turn after its decision.
func hasRecurred(s *state.State, p *state.Pattern, f *state.Finding) bool {
	if !(p.Decided(state.FixWithNote) || p.Decided(state.Fix)) || p.DecidedAtTurn == nil {
		return false
	}
	for _, t := range citedTurns(s, f.Evidence) {
		if t > float64(*p.DecidedAtTurn) {
			return true
		}
	}
	return false
}

// rank orders eviction: undecided patterns go before decided ones, the least confident first.
func rank(p *state.Pattern) float64 {
	r := p.Confidence
	if p.Decision != nil {
		r += 1000
	}
	return r
}

// capPatterns drops the lowest-ranked patterns past MaxPatterns (every pattern with a dropped id).
func capPatterns(patterns []state.Pattern) []state.Pattern {
	if len(patterns) <= state.MaxPatterns {
		return patterns
	}
	order := make([]int, len(patterns))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(i, j int) bool { return rank(&patterns[order[i]]) < rank(&patterns[order[j]]) })
	dropped := map[string]bool{}
	for _, i := range order[:len(patterns)-state.MaxPatterns] {
		dropped[patterns[i].ID] = true
	}
	out := make([]state.Pattern, 0, state.MaxPatterns)
	for i := range patterns {
		if !dropped[patterns[i].ID] {
			out = append(out, patterns[i])
		}
	}
	return out
}

// Merge folds a run's findings into the registry without touching s: a known id is updated (its
// newest why, alternative, proposal, confidence and estimate; its hits grown), a new one added
// undecided, and the registry capped at MaxPatterns with decided patterns kept first.
func Merge(s *state.State, findings []state.Finding) MergeResult {
	patterns := make([]state.Pattern, 0, len(s.Patterns)+len(findings))
	for i := range s.Patterns {
		p := s.Patterns[i]
		if f := findingFor(findings, p.ID); f != nil {
			p = updatedWith(p, f)
		}
		patterns = append(patterns, p)
	}
	for i := range findings {
		if s.PatternByID(findings[i].ID) == nil {
			patterns = append(patterns, patternOf(&findings[i]))
		}
	}
	patterns = capPatterns(patterns)
	present := make(map[string]*state.Pattern, len(patterns))
	for i := len(patterns) - 1; i >= 0; i-- {
		present[patterns[i].ID] = &patterns[i] // the first with an id wins, as find() does
	}
	res := MergeResult{Patterns: patterns, Fresh: []string{}, Recurred: []string{}, Evicted: []string{}}
	for i := range s.Patterns {
		p := &s.Patterns[i]
		if f := findingFor(findings, p.ID); f != nil && hasRecurred(s, p, f) && present[p.ID] != nil {
			res.Recurred = append(res.Recurred, p.ID)
		}
	}
	for i := range findings {
		id := findings[i].ID
		p := present[id]
		if p == nil {
			res.Evicted = append(res.Evicted, id)
			continue
		}
		// A cited pattern nobody decided belongs in front of the person, whether the id is new, remembered
		// or found by an earlier run: the only undecided pattern that is not news is one already queued.
		if p.Decision == nil && !slices.Contains(s.Cards, id) {
			res.Fresh = append(res.Fresh, id)
		}
	}
	return res
}
